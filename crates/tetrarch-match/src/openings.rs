//! Openings: read from a file or generated (random set-ups, random turns),
//! all checked with the rules before the first game.

use std::path::PathBuf;

use tetrarch_core::game::{PositionError, TokenError};
use tetrarch_core::turns::{legal_turns_up_to, parse_turn, play_turn, turn_by_actions, turn_string};

use crate::games::GameInfo;

/// Why an opening line is refused: its form, its start or one of its turns.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// An empty line, or `moves` first.
    #[error("no start position")]
    NoStart,
    /// A word after `startpos` (before `moves`).
    #[error("unexpected `{0}` after startpos")]
    AfterStartpos(String),
    /// `fen` alone.
    #[error("fen without a position")]
    FenWithoutPosition,
    /// `setup` alone.
    #[error("setup without tokens")]
    SetupWithoutTokens,
    /// A position string the game refuses.
    #[error("position: {0}")]
    Position(PositionError),
    /// Set-up tokens the game refuses.
    #[error("setup: {0}")]
    Setup(PositionError),
    /// A turn after the end of the game (1-based turn number).
    #[error("the game is over before turn {turn} `{token}`")]
    OverBefore {
        /// 1-based.
        turn: usize,
        /// The turn as written.
        token: String,
    },
    /// A turn the rules refuse (1-based turn number).
    #[error("turn {turn} `{token}`: {reason}")]
    Turn {
        /// 1-based.
        turn: usize,
        /// The turn as written.
        token: String,
        /// The rules' refusal of the token (malformed or illegal).
        reason: TokenError,
    },
    /// The opening ends the game (the outcome as the protocol writes it).
    #[error("the game is already over ({0})")]
    AlreadyOver(String),
}

/// Why an openings file (`--openings`) is refused.
#[derive(Debug, thiserror::Error)]
pub enum OpeningsFileError {
    /// The file cannot be read.
    #[error("cannot read openings {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// A line that is not an opening of the game (1-based line number).
    #[error("openings {} line {line}: {source}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based.
        line: usize,
        /// What is wrong with the line's opening.
        source: OpeningError,
    },
    /// Only blank lines and comments.
    #[error("openings {}: no opening in the file", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// A small seeded generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Mixes a seed with an index into an independent seed.
pub fn mix(seed: u64, index: u64) -> u64 {
    Rng(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

/// Where an opening starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `position startpos`.
    Startpos,
    /// `position fen <position string>`.
    Fen(String),
    /// `position setup <token per seat>`.
    Setup(Vec<String>),
}

/// An opening: a start and turns played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start.
    pub start: Start,
    /// The turns of the opening.
    pub turns: Vec<String>,
}

impl Opening {
    /// The start as the `position` command writes it: `startpos`,
    /// `fen <pos>`, `setup <t1> <t2>`.
    pub fn start_string(&self) -> String {
        match &self.start {
            Start::Startpos => "startpos".into(),
            Start::Fen(f) => format!("fen {f}"),
            Start::Setup(t) => format!("setup {}", t.join(" ")),
        }
    }

    /// The `position` command with `turns` (the whole game so far).
    pub fn position_command(&self, turns: &[String]) -> String {
        let mut s = format!("position {}", self.start_string());
        if !turns.is_empty() {
            s.push_str(" moves");
            for t in turns {
                s.push(' ');
                s.push_str(t);
            }
        }
        s
    }

    /// Parses an opening line (no rules checked): `startpos`, `fen POS`,
    /// `setup T1 T2 …` or a bare position string, each optionally followed by
    /// `moves T…`.
    pub fn parse_line(line: &str) -> Result<Opening, OpeningError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let (start, turns) = match words.iter().position(|w| *w == "moves") {
            Some(i) => (&words[..i], &words[i + 1..]),
            None => (&words[..], &[][..]),
        };
        let start = match start {
            [] => return Err(OpeningError::NoStart),
            ["startpos"] => Start::Startpos,
            ["startpos", w, ..] => return Err(OpeningError::AfterStartpos(w.to_string())),
            ["fen"] => return Err(OpeningError::FenWithoutPosition),
            ["fen", rest @ ..] => Start::Fen(rest.join(" ")),
            ["setup"] => return Err(OpeningError::SetupWithoutTokens),
            ["setup", rest @ ..] => Start::Setup(rest.iter().map(|s| s.to_string()).collect()),
            all => Start::Fen(all.join(" ")),
        };
        Ok(Opening { start, turns: turns.iter().map(|s| s.to_string()).collect() })
    }

    /// Parses a start string as written by [`Opening::start_string`].
    pub fn from_start_string(s: &str) -> Result<Start, OpeningError> {
        Opening::parse_line(s).map(|o| o.start)
    }

    /// The opening as the engine of `seat` is told it: a set-up with every
    /// other seat's token replaced by `?` where the game accepts that (a
    /// secret kept during play: Quadranj's burglars, spec §9.3); otherwise,
    /// and for other starts, the opening itself (Quattuor Reges' set-ups are
    /// public once play begins).
    pub fn seen_by<G: GameInfo>(&self, seat: usize, opts: &G::Options) -> Opening {
        if let Start::Setup(t) = &self.start {
            let masked: Vec<String> =
                t.iter().enumerate().map(|(s, tok)| if s == seat { tok.clone() } else { "?".into() }).collect();
            let toks: Vec<&str> = masked.iter().map(|s| s.as_str()).collect();
            if masked != *t && G::from_setup(&toks, opts).is_ok() {
                return Opening { start: Start::Setup(masked), turns: self.turns.clone() };
            }
        }
        self.clone()
    }

    /// The start position under the rule options.
    pub fn start_position<G: GameInfo>(&self, opts: &G::Options) -> Result<G, OpeningError> {
        let mut g = match &self.start {
            Start::Startpos => G::startpos(opts),
            Start::Fen(f) => G::from_position_string(f, opts).map_err(OpeningError::Position)?,
            Start::Setup(t) => {
                let toks: Vec<&str> = t.iter().map(|s| s.as_str()).collect();
                G::from_setup(&toks, opts).map_err(OpeningError::Setup)?
            }
        };
        g.apply_options(opts);
        Ok(g)
    }

    /// Checks the opening with the rules: the start is valid, every turn is
    /// legal, and the game is not over at its end. Returns the position and
    /// the key history (turn-start keys before the current position).
    pub fn replay<G: GameInfo>(&self, opts: &G::Options) -> Result<(G, Vec<u64>), OpeningError> {
        let mut g = self.start_position::<G>(opts)?;
        let mut history = Vec::new();
        for (i, t) in self.turns.iter().enumerate() {
            if g.outcome().is_some() || g.history_outcome(&history).is_some() {
                return Err(OpeningError::OverBefore { turn: i + 1, token: t.clone() });
            }
            let acts = parse_turn(&g, t).map_err(|reason| OpeningError::Turn { turn: i + 1, token: t.clone(), reason })?;
            history.push(g.key());
            play_turn(&mut g, &acts);
        }
        if let Some(o) = g.outcome().or_else(|| g.history_outcome(&history)) {
            return Err(OpeningError::AlreadyOver(o.to_string()));
        }
        Ok((g, history))
    }
}

/// Reads an opening file: one opening per line; blank lines and lines
/// starting with `#` are skipped. Every line is checked with the rules.
pub fn read_openings<G: GameInfo>(path: &std::path::Path, opts: &G::Options) -> Result<Vec<Opening>, OpeningsFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsFileError::Read { path: path.to_path_buf(), source })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let o = Opening::parse_line(line)
            .and_then(|o| o.replay::<G>(opts).map(|_| o))
            .map_err(|source| OpeningsFileError::Line { path: path.to_path_buf(), line: n + 1, source })?;
        out.push(o);
    }
    if out.is_empty() {
        return Err(OpeningsFileError::Empty { path: path.to_path_buf() });
    }
    Ok(out)
}

/// Most legal turns listed to draw a random one from them.
const RANDOM_TURN_LIST: usize = 100_000;

/// A random legal turn of `g` as (token, actions): drawn uniformly from the
/// legal turns when there are at most [`RANDOM_TURN_LIST`], else built
/// action by action from the search's lists (a tall Quadranj stack has tens
/// of millions of turns: listing them took 24 GB).
fn random_turn<G: GameInfo>(g: &G, rng: &mut Rng) -> Option<(String, Vec<G::Action>)> {
    match legal_turns_up_to(g, RANDOM_TURN_LIST) {
        Some(mut turns) => {
            if turns.is_empty() {
                return None;
            }
            let i = rng.below(turns.len());
            Some(turns.swap_remove(i))
        }
        None => {
            let acts = turn_by_actions(g, |n| rng.below(n))?;
            Some((turn_string(g, &acts), acts))
        }
    }
}

/// The opening of opening number `index`: the file's line (cycling), or the
/// start (a random set-up for each seat in games with one, when `random_setup`),
/// then `plies` random legal turns; all from `seed` and `index`, so a match
/// is reproducible.
pub fn make_opening<G: GameInfo>(
    file: Option<&[Opening]>,
    plies: u32,
    random_setup: bool,
    opts: &G::Options,
    seed: u64,
    index: u64,
) -> Opening {
    let mut rng = Rng(mix(seed, index));
    let base = match file {
        Some(list) => list[(index % list.len() as u64) as usize].clone(),
        None => {
            let seats = G::startpos(opts).seats();
            let setup: Option<Vec<String>> =
                if random_setup { (0..seats).map(|s| G::random_setup(opts, s, rng.next_u64())).collect() } else { None };
            match setup {
                Some(t) if Opening { start: Start::Setup(t.clone()), turns: vec![] }.replay::<G>(opts).is_ok() => {
                    Opening { start: Start::Setup(t), turns: vec![] }
                }
                _ => Opening { start: Start::Startpos, turns: vec![] },
            }
        }
    };
    if plies == 0 {
        return base;
    }
    let Ok((start, start_hist)) = base.replay::<G>(opts) else { return base };
    // Random turns; a line that ends the game is tried again (a few times),
    // else the longest line found that leaves the game open is used.
    let mut best = base.clone();
    for _attempt in 0..20 {
        let mut g = start.clone();
        let mut hist = start_hist.clone();
        let mut o = base.clone();
        let mut ok = true;
        for _ in 0..plies {
            let Some((tok, acts)) = random_turn(&g, &mut rng) else {
                ok = false;
                break;
            };
            hist.push(g.key());
            play_turn(&mut g, &acts);
            if g.outcome().is_some() || g.history_outcome(&hist).is_some() {
                ok = false;
                break;
            }
            o.turns.push(tok);
        }
        if ok {
            return o;
        }
        if o.turns.len() > best.turns.len() {
            best = o;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch_core::game::Rules;
    use tetrarch_core::games::{fourchess::FourChess, quadranj::Quadranj, quattuor::Quattuor};

    #[test]
    fn each_engine_is_told_only_its_own_burglar() {
        let o = Opening { start: Start::Setup(vec!["c4:1".into(), "e6:1".into()]), turns: vec!["a1a2,a3a4".into()] };
        let opts = Quadranj::default_options("quadranj");
        assert_eq!(o.seen_by::<Quadranj>(0, &opts).position_command(&o.turns), "position setup c4:1 ? moves a1a2,a3a4");
        assert_eq!(o.seen_by::<Quadranj>(1, &opts).start_string(), "setup ? e6:1");
        // Quattuor Reges' set-ups are public in play: every engine gets both.
        let opts = Quattuor::default_options("quattuor");
        let a = Quattuor::random_setup(&opts, 0, 1).unwrap();
        let b = Quattuor::random_setup(&opts, 1, 2).unwrap();
        let q = Opening { start: Start::Setup(vec![a, b]), turns: vec![] };
        assert_eq!(q.seen_by::<Quattuor>(0, &opts), q);
        let f = Opening { start: Start::Startpos, turns: vec![] };
        assert_eq!(f.seen_by::<FourChess>(2, &FourChess::default_options("fourchess")), f);
    }

    #[test]
    fn lines() {
        let o = Opening::parse_line("startpos moves a b").unwrap();
        assert_eq!(o.start, Start::Startpos);
        assert_eq!(o.turns, vec!["a", "b"]);
        assert_eq!(o.position_command(&o.turns), "position startpos moves a b");
        let o = Opening::parse_line("fen x y z").unwrap();
        assert_eq!(o.start, Start::Fen("x y z".into()));
        assert_eq!(o.start_string(), "fen x y z");
        let o = Opening::parse_line("x y z moves q").unwrap();
        assert_eq!(o.start, Start::Fen("x y z".into()));
        let o = Opening::parse_line("setup a b").unwrap();
        assert_eq!(o.start, Start::Setup(vec!["a".into(), "b".into()]));
        assert_eq!(Opening::parse_line(""), Err(OpeningError::NoStart));
        assert_eq!(Opening::parse_line("startpos x"), Err(OpeningError::AfterStartpos("x".into())));
        assert_eq!(Opening::parse_line("fen moves a"), Err(OpeningError::FenWithoutPosition));
        assert_eq!(Opening::parse_line("setup"), Err(OpeningError::SetupWithoutTokens));
        assert_eq!(Opening::parse_line("startpos x").unwrap_err().to_string(), "unexpected `x` after startpos");
    }

    #[test]
    fn generated_openings_are_legal_and_reproducible() {
        let opts = FourChess::default_options("fourchess");
        let a = make_opening::<FourChess>(None, 6, true, &opts, 42, 3);
        let b = make_opening::<FourChess>(None, 6, true, &opts, 42, 3);
        let c = make_opening::<FourChess>(None, 6, true, &opts, 42, 4);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.turns.len(), 6);
        assert_eq!(a.start, Start::Startpos);
        a.replay::<FourChess>(&opts).unwrap();
        let q = make_opening::<Quattuor>(None, 2, true, &Quattuor::default_options("quattuor"), 1, 0);
        assert!(matches!(q.start, Start::Setup(ref t) if t.len() == 2));
        q.replay::<Quattuor>(&Quattuor::default_options("quattuor")).unwrap();
        let q = make_opening::<Quattuor>(None, 0, false, &Quattuor::default_options("quattuor"), 1, 0);
        assert_eq!(q.start, Start::Startpos);
        for v in ["quadranj", "quadranj4"] {
            let opts = Quadranj::default_options(v);
            let o = make_opening::<Quadranj>(None, 3, true, &opts, 5, 1);
            assert!(matches!(o.start, Start::Setup(_)), "{o:?}");
            o.replay::<Quadranj>(&opts).unwrap();
        }
    }

    /// After these two turns the Quadranj seat to move has a tall stack:
    /// millions of legal turns. Listing them to draw one took 24 GB (a
    /// `datagen` run was killed by the kernel); the random turns are now
    /// built action by action there.
    #[test]
    fn random_turns_from_a_tall_stack_are_drawn_without_listing_them() {
        let opts = Quadranj::default_options("quadranj");
        let tall = Opening { start: Start::Startpos, turns: vec!["d2b3d3b4c4+c2,a1b1".into(), "f5g5e6e7f7+g6,f8f7".into()] };
        let (g, _) = tall.replay::<Quadranj>(&opts).unwrap();
        assert!(tetrarch_core::turns::count_turns_up_to(&g, RANDOM_TURN_LIST as u64).is_none());
        let a = make_opening::<Quadranj>(Some(std::slice::from_ref(&tall)), 3, false, &opts, 7, 0);
        let b = make_opening::<Quadranj>(Some(std::slice::from_ref(&tall)), 3, false, &opts, 7, 0);
        assert_eq!(a, b);
        assert_eq!(a.turns.len(), 5, "{a:?}");
        a.replay::<Quadranj>(&opts).unwrap();
    }

    #[test]
    fn bad_openings_rejected() {
        let opts = FourChess::default_options("fourchess");
        let e = Opening::parse_line("startpos moves zz").unwrap().replay::<FourChess>(&opts).unwrap_err();
        assert!(matches!(&e, OpeningError::Turn { turn: 1, token, .. } if token == "zz"), "{e}");
        assert!(e.to_string().starts_with("turn 1 `zz`: "), "{e}");
        let e = Opening::parse_line("fen nonsense").unwrap().replay::<FourChess>(&opts).unwrap_err();
        assert!(matches!(e, OpeningError::Position(_)), "{e}");
        let e = Opening::parse_line("setup a b").unwrap().replay::<FourChess>(&opts).unwrap_err();
        assert!(matches!(e, OpeningError::Setup(_)), "{e}");
    }
}

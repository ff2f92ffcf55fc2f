//! The 4pchess UCI dialect (`proto=4pchess`, `teamchess` only): how the
//! runner writes positions, clocks and reads scores for such an engine. Its
//! answers (`bestmove h2-h3`, `e10-e11=Q`) are read by the `teamchess` token
//! parser, which accepts that form.

use tetrarch_core::game::{PositionError, Seat, TokenError};
use tetrarch_core::turns::{parse_turn, play_turn};

use crate::games::GameInfo;
use crate::openings::{Opening, OpeningError, Start};

/// Why a game cannot be written in the 4pchess dialect.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DialectError {
    /// The game takes no `Notation` = `fen4` option.
    #[error("proto=4pchess: {0}")]
    Notation(PositionError),
    /// The game writes no FEN4 of its position.
    #[error("proto=4pchess: this game has no FEN4")]
    NoFen4,
    /// The opening's start is not a position of the game.
    #[error(transparent)]
    Start(#[from] OpeningError),
    /// A turn of the opening the rules refuse.
    #[error("turn `{token}`: {reason}")]
    Turn {
        /// The turn as written.
        token: String,
        /// The rules' refusal of the token (malformed or illegal).
        reason: TokenError,
    },
}

/// The game's moves in the dialect, kept turn by turn.
pub struct DialectLine {
    /// `startpos` or `fen <FEN4>`.
    start: String,
    /// Every turn so far, in the dialect (`h2-h3`).
    turns: Vec<String>,
    /// The rule options with `Notation` = `fen4`.
    opts4: Option<Box<dyn std::any::Any>>,
}

fn fen4_opts<G: GameInfo>(opts: &G::Options) -> Result<G::Options, DialectError> {
    let mut o = opts.clone();
    G::set_option(&mut o, "Notation", "fen4").map_err(DialectError::Notation)?;
    Ok(o)
}

impl DialectLine {
    /// The line of an opening: its start and its turns in the dialect.
    pub fn new<G: GameInfo>(opening: &Opening, opts: &G::Options) -> Result<DialectLine, DialectError> {
        let opts4 = fen4_opts::<G>(opts)?;
        let mut g = opening.start_position::<G>(opts)?;
        let start = match opening.start {
            Start::Startpos => "startpos".to_string(),
            _ => {
                let fen4 = g.alt_notations().into_iter().find(|(label, _)| *label == "FEN4").ok_or(DialectError::NoFen4)?;
                format!("fen {}", fen4.1)
            }
        };
        let mut line = DialectLine { start, turns: Vec::new(), opts4: Some(Box::new(opts4)) };
        for t in &opening.turns {
            let acts = parse_turn(&g, t).map_err(|reason| DialectError::Turn { token: t.clone(), reason })?;
            line.push::<G>(&g, &acts);
            play_turn(&mut g, &acts);
        }
        Ok(line)
    }

    /// Adds the turn `acts` played from `before`.
    pub fn push<G: GameInfo>(&mut self, before: &G, acts: &[G::Action]) {
        let opts4 = self.opts4.as_ref().and_then(|o| o.downcast_ref::<G::Options>());
        let tok =
            opts4.and_then(|o| before.dialect_turn(o, acts)).unwrap_or_else(|| tetrarch_core::turns::turn_string(before, acts));
        self.turns.push(tok);
    }

    /// `position startpos moves h2-h3 …` / `position fen <FEN4> moves …`.
    pub fn position_command(&self) -> String {
        let mut s = format!("position {}", self.start);
        if !self.turns.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.turns.join(" "));
        }
        s
    }
}

/// The clock words of the dialect: `r b y g` are the four seats' colours.
pub const CLOCK_LETTERS: [&str; 4] = ["r", "b", "y", "g"];

/// A dialect score (from Red and Yellow's point of view) from the mover's
/// side.
pub fn score_for_mover(score: i32, mover: Seat) -> i32 {
    if mover % 2 == 0 {
        score
    } else {
        -score
    }
}

/// The score of an `info` line in the dialect, from Red/Yellow's side:
/// `score N` with a bare integer (4pchess prints `… pv e1-f3 score 61 nps
/// 50`); `score cp N` and `score mate N` are read too. Lines with bounds or
/// `info string` have none. A mate (4pchess gives ±10⁸) clamps to the
/// runner's ±99,000 centipawns, far past any resign threshold.
pub fn info_score(line: &str) -> Option<i32> {
    if let Some(s) = crate::engine::info_score(line) {
        return Some(s);
    }
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"info") || w.get(1) == Some(&"string") || w.iter().any(|x| *x == "lowerbound" || *x == "upperbound") {
        return None;
    }
    let i = w.iter().position(|x| *x == "score")?;
    w.get(i + 1)?.parse::<i64>().ok().map(|v| v.clamp(-99_000, 99_000) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_the_dialect() {
        assert_eq!(info_score("info depth 1 time 180 nodes 9 pv e1-f3 score 61 nps 50"), Some(61));
        assert_eq!(info_score("info depth 9 time 1 nodes 9 pv e1-f3 score -100000000"), Some(-99_000));
        assert_eq!(info_score("info depth 3 score cp -42 pv a"), Some(-42));
        assert_eq!(info_score("info depth 3 score x"), None);
        assert_eq!(info_score("info string score 5"), None);
        assert_eq!(info_score("info depth 3 score 5 lowerbound"), None);
        assert_eq!(info_score("bestmove e1-f3"), None);
    }
    use tetrarch_core::game::Rules;
    use tetrarch_core::games::teamchess::TeamChess;

    #[test]
    fn dialect_positions() {
        let opts = TeamChess::default_options("teamchess");
        let o = Opening { start: Start::Startpos, turns: vec!["h2h4".into(), "b8c8".into()] };
        let line = DialectLine::new::<TeamChess>(&o, &opts).unwrap();
        assert_eq!(line.position_command(), "position startpos moves h2-h4 b8-c8");
        let f = Opening {
            start: Start::Fen("3yK4/8/8/14/4rP9/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0 1".into()),
            turns: vec!["e10e11q".into()],
        };
        let line = DialectLine::new::<TeamChess>(&f, &opts).unwrap();
        let cmd = line.position_command();
        assert!(cmd.starts_with("position fen R-0,0,0,0-0,0,0,0-0,0,0,0-0,0,0,0-0-"), "{cmd}");
        assert!(cmd.ends_with(" moves e10-e11=Q"), "{cmd}");
        let bad = Opening { start: Start::Startpos, turns: vec!["h2h9".into()] };
        let e = DialectLine::new::<TeamChess>(&bad, &opts).err().expect("an illegal turn");
        assert!(matches!(&e, DialectError::Turn { token, .. } if token == "h2h9"), "{e}");
        assert_eq!(score_for_mover(50, 1), -50);
        assert_eq!(score_for_mover(50, 2), 50);
    }
}

//! The grammar of `go`.

use tetrarch_core::game::TokenError;

use crate::out::quote;

/// Why a `go` line is refused; the text is the protocol's
/// `info string error: …` (docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// A parameter is the last word (`go depth`, `go perft`).
    #[error("go: `{key}` needs a value")]
    MissingValue {
        /// The parameter.
        key: String,
    },
    /// A count (`depth`, `nodes`, `movetime`, `movestogo`, `perft`) is not a
    /// non-negative integer.
    #[error("go: `{key}` needs a non-negative integer, not {}", quote(.value))]
    NotCount {
        /// The parameter.
        key: String,
        /// The word given.
        value: String,
    },
    /// A clock value (`wtime`, `p1inc`, `rtime`, …) is not an integer.
    #[error("go: `{key}` needs an integer (ms), not {}", quote(.value))]
    NotMs {
        /// The parameter.
        key: String,
        /// The word given.
        value: String,
    },
    /// `depth 0` or `nodes 0`.
    #[error("go: `{key}` must be at least 1")]
    Zero {
        /// The parameter.
        key: &'static str,
    },
    /// `searchmoves` without a turn.
    #[error("go: `searchmoves` needs at least one turn")]
    NoSearchmoves,
    /// `perft` or `setup` after other parameters.
    #[error("go: `{key}` must come right after `go`, alone")]
    NotFirst {
        /// `perft` or `setup`.
        key: String,
    },
    /// A word that is no parameter.
    #[error("go: unknown parameter {}", quote(.0))]
    UnknownParameter(String),
    /// A word after `go perft <n> [actions]`.
    #[error("go perft: unexpected {}", quote(.0))]
    PerftUnexpected(String),
    /// `go setup seat <n>` with `n` not a seat number.
    #[error("go setup: bad seat {}", quote(.0))]
    BadSeat(String),
    /// `go setup seat` without a number.
    #[error("go setup: `seat` needs a value")]
    SeatNeedsValue,
    /// A word after `go setup [seat <n>]`.
    #[error("go setup: unexpected {}", quote(.0))]
    SetupUnexpected(String),
    /// `go setup seat <n>` past the game's seats.
    #[error("go setup: seat {seat} does not exist (the game has {seats})")]
    NoSuchSeat {
        /// The seat asked for, 1-based.
        seat: u32,
        /// The game's seats.
        seats: usize,
    },
    /// `go setup` in a game without a set-up phase.
    #[error("go setup: this game has no set-up")]
    NoSetup,
    /// A `searchmoves` turn is not a turn of the position.
    #[error("go: searchmoves turn {index} {}: {source}", quote(.token))]
    Searchmove {
        /// Its place in the list, from 1.
        index: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
}

/// What a `go` line asks for.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoCommand {
    /// A search.
    Search(GoSearch),
    /// `go perft <n> [actions]`.
    Perft {
        /// Depth in turns (or actions with `actions`).
        depth: u32,
        /// Count paths of single actions.
        actions: bool,
    },
    /// `go setup [seat <n>]` (`seat` 1-based).
    Setup {
        /// The seat, 1-based, if given.
        seat: Option<u32>,
    },
}

/// The parameters of a search `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoSearch {
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `movetime`, ms.
    pub movetime: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `p1time` … `p4time`, ms (negative values read as 0).
    pub ptime: [Option<u64>; 4],
    /// `p1inc` … `p4inc`, ms.
    pub pinc: [Option<u64>; 4],
    /// `wtime`, `btime` (seats 1 and 2).
    pub wbtime: [Option<u64>; 2],
    /// `winc`, `binc`.
    pub wbinc: [Option<u64>; 2],
    /// `movestogo` (0 reads as not given).
    pub movestogo: Option<u32>,
    /// `searchmoves` tokens, unchecked.
    pub searchmoves: Vec<String>,
}

impl GoSearch {
    /// Time and increment of `seat` (0-based): `p<k>time` first, then for
    /// seats 1 and 2 the UCI `wtime`/`btime`. A seat given no time while
    /// other seats are (`wtime`/`btime` sent for Yellow in a 4-seat game)
    /// plays on the shortest time given, with that seat's increment, rather
    /// than without a limit.
    pub fn clock_of(&self, seat: usize) -> (Option<u64>, Option<u64>) {
        let time = |k: usize| self.ptime.get(k).copied().flatten().or_else(|| self.wbtime.get(k).copied().flatten());
        let inc = |k: usize| self.pinc.get(k).copied().flatten().or_else(|| self.wbinc.get(k).copied().flatten());
        match time(seat) {
            Some(t) => (Some(t), inc(seat)),
            None => match (0..4).filter_map(|k| time(k).map(|t| (t, k))).min() {
                Some((t, k)) => (Some(t), inc(k)),
                None => (None, inc(seat)),
            },
        }
    }
}

const KEYWORDS: &[&str] = &[
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "p1time",
    "p2time",
    "p3time",
    "p4time",
    "p1inc",
    "p2inc",
    "p3inc",
    "p4inc",
    "movestogo",
    "searchmoves",
    "perft",
    "setup",
];

fn value<'a>(args: &[&'a str], i: usize, key: &str) -> Result<&'a str, GoError> {
    args.get(i + 1).copied().ok_or_else(|| GoError::MissingValue { key: key.into() })
}

fn num<T: std::str::FromStr>(args: &[&str], i: usize, key: &str) -> Result<T, GoError> {
    let v = value(args, i, key)?;
    v.parse::<T>().map_err(|_| GoError::NotCount { key: key.into(), value: v.into() })
}

/// A clock value: an integer, negative read as 0 (some GUIs send a negative
/// time after a flag fall).
fn ms(args: &[&str], i: usize, key: &str) -> Result<u64, GoError> {
    let v = value(args, i, key)?;
    match v.parse::<i64>() {
        Ok(n) => Ok(n.max(0) as u64),
        Err(_) => Err(GoError::NotMs { key: key.into(), value: v.into() }),
    }
}

/// The seat (0-based) and kind (`time` or `inc`) of a clock word in a game's
/// clock dialect (`rtime`, `yinc`, … for letters `r b y g`).
fn letter_clock(key: &str, letters: Option<[&str; 4]>) -> Option<(usize, bool)> {
    let letters = letters?;
    letters.iter().enumerate().find_map(|(seat, l)| {
        let rest = key.strip_prefix(l)?;
        match rest {
            "time" => Some((seat, true)),
            "inc" => Some((seat, false)),
            _ => None,
        }
    })
}

/// Parses the words after `go`. `letters` are the game's clock letters
/// ([`tetrarch_core::game::GameInfo::CLOCK_LETTERS`]): `<l>time` and `<l>inc`
/// then set the clock of the seat with letter `l`.
pub fn parse_go(args: &[&str], letters: Option<[&str; 4]>) -> Result<GoCommand, GoError> {
    match args.first().copied() {
        Some("perft") => {
            let depth: u32 = num(args, 0, "perft")?;
            return match &args[2..] {
                [] => Ok(GoCommand::Perft { depth, actions: false }),
                ["actions"] => Ok(GoCommand::Perft { depth, actions: true }),
                [w, ..] => Err(GoError::PerftUnexpected(w.to_string())),
            };
        }
        Some("setup") => {
            return match &args[1..] {
                [] => Ok(GoCommand::Setup { seat: None }),
                ["seat", n] => match n.parse::<u32>() {
                    Ok(k) if k >= 1 => Ok(GoCommand::Setup { seat: Some(k) }),
                    _ => Err(GoError::BadSeat(n.to_string())),
                },
                ["seat"] => Err(GoError::SeatNeedsValue),
                [w, ..] => Err(GoError::SetupUnexpected(w.to_string())),
            };
        }
        _ => {}
    }
    let mut g = GoSearch::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let mut step = 2;
        match key {
            "depth" => {
                let d: u32 = num(args, i, key)?;
                if d == 0 {
                    return Err(GoError::Zero { key: "depth" });
                }
                g.depth = Some(d);
            }
            "nodes" => {
                let n: u64 = num(args, i, key)?;
                if n == 0 {
                    return Err(GoError::Zero { key: "nodes" });
                }
                g.nodes = Some(n);
            }
            "movetime" => g.movetime = Some(num(args, i, key)?),
            "infinite" => {
                g.infinite = true;
                step = 1;
            }
            "ponder" => {
                g.ponder = true;
                step = 1;
            }
            "wtime" => g.wbtime[0] = Some(ms(args, i, key)?),
            "btime" => g.wbtime[1] = Some(ms(args, i, key)?),
            "winc" => g.wbinc[0] = Some(ms(args, i, key)?),
            "binc" => g.wbinc[1] = Some(ms(args, i, key)?),
            "p1time" | "p2time" | "p3time" | "p4time" => {
                let k = (key.as_bytes()[1] - b'1') as usize;
                g.ptime[k] = Some(ms(args, i, key)?);
            }
            "p1inc" | "p2inc" | "p3inc" | "p4inc" => {
                let k = (key.as_bytes()[1] - b'1') as usize;
                g.pinc[k] = Some(ms(args, i, key)?);
            }
            "movestogo" => {
                let n: u32 = num(args, i, key)?;
                g.movestogo = (n > 0).then_some(n);
            }
            "searchmoves" => {
                let mut j = i + 1;
                while j < args.len() && !KEYWORDS.contains(&args[j]) && letter_clock(args[j], letters).is_none() {
                    g.searchmoves.push(args[j].to_string());
                    j += 1;
                }
                if j == i + 1 {
                    return Err(GoError::NoSearchmoves);
                }
                step = j - i;
            }
            "perft" | "setup" => return Err(GoError::NotFirst { key: key.into() }),
            _ => match letter_clock(key, letters) {
                Some((seat, true)) => g.ptime[seat] = Some(ms(args, i, key)?),
                Some((seat, false)) => g.pinc[seat] = Some(ms(args, i, key)?),
                None => return Err(GoError::UnknownParameter(key.into())),
            },
        }
        i += step;
    }
    Ok(GoCommand::Search(g))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(s: &str) -> GoSearch {
        match parse_go(&s.split_whitespace().collect::<Vec<_>>(), None).unwrap() {
            GoCommand::Search(g) => g,
            other => panic!("{other:?}"),
        }
    }
    fn err(s: &str) -> GoError {
        parse_go(&s.split_whitespace().collect::<Vec<_>>(), None).unwrap_err()
    }

    #[test]
    fn search_params() {
        let g = search("depth 3 nodes 1000 movetime 50");
        assert_eq!((g.depth, g.nodes, g.movetime), (Some(3), Some(1000), Some(50)));
        assert!(search("infinite").infinite);
        let g = search("wtime 1000 btime -5 winc 10 p3time 777 p3inc 7 movestogo 20");
        assert_eq!(g.clock_of(0), (Some(1000), Some(10)));
        assert_eq!(g.clock_of(1), (Some(0), None));
        assert_eq!(g.clock_of(2), (Some(777), Some(7)));
        // Seat 4 has no clock of its own: the shortest one given (seat 2's).
        assert_eq!(g.clock_of(3), (Some(0), None));
        assert_eq!(g.movestogo, Some(20));
        let g = search("wtime 3000 btime 2000 winc 30 binc 20");
        assert_eq!(g.clock_of(2), (Some(2000), Some(20)));
        assert_eq!(search("depth 2").clock_of(2), (None, None));
        let g = search("p1time 5 wtime 9");
        assert_eq!(g.clock_of(0).0, Some(5));
        let g = search("searchmoves e2e3 d2d3 depth 2");
        assert_eq!(g.searchmoves, vec!["e2e3", "d2d3"]);
        assert_eq!(g.depth, Some(2));
        assert_eq!(search(""), GoSearch::default());
    }

    #[test]
    fn errors() {
        let key = |k: &str| k.to_string();
        assert_eq!(err("depth x"), GoError::NotCount { key: key("depth"), value: "x".into() });
        assert_eq!(err("depth 0"), GoError::Zero { key: "depth" });
        assert_eq!(err("nodes 0"), GoError::Zero { key: "nodes" });
        assert_eq!(err("depth"), GoError::MissingValue { key: key("depth") });
        assert_eq!(err("depth -1"), GoError::NotCount { key: key("depth"), value: "-1".into() });
        assert_eq!(err("foo"), GoError::UnknownParameter("foo".into()));
        assert_eq!(err("searchmoves"), GoError::NoSearchmoves);
        assert_eq!(err("depth 2 perft 3"), GoError::NotFirst { key: key("perft") });
        assert_eq!(err("wtime abc"), GoError::NotMs { key: key("wtime"), value: "abc".into() });
        assert_eq!(err("perft"), GoError::MissingValue { key: key("perft") });
        assert_eq!(err("perft 2 x"), GoError::PerftUnexpected("x".into()));
        assert_eq!(err("setup seat 0"), GoError::BadSeat("0".into()));
        assert_eq!(err("setup seat"), GoError::SeatNeedsValue);
        assert_eq!(err("setup now"), GoError::SetupUnexpected("now".into()));
    }

    /// The protocol's wording (docs/protocol.md): the token is quoted and
    /// escaped as every echoed word is.
    #[test]
    fn error_text() {
        assert_eq!(err("depth x").to_string(), "go: `depth` needs a non-negative integer, not `x`");
        assert_eq!(err("foo\u{1b}").to_string(), "go: unknown parameter `foo\\u{1b}`");
        assert_eq!(err("depth 2 setup").to_string(), "go: `setup` must come right after `go`, alone");
    }

    #[test]
    fn clock_letters() {
        let l = Some(["r", "b", "y", "g"]);
        let p = |s: &str| match parse_go(&s.split_whitespace().collect::<Vec<_>>(), l).unwrap() {
            GoCommand::Search(g) => g,
            other => panic!("{other:?}"),
        };
        let g = p("rtime 100 btime 200 ytime 300 gtime 400 rinc 1 yinc 3 ginc 4 binc 2");
        assert_eq!(g.clock_of(0), (Some(100), Some(1)));
        assert_eq!(g.clock_of(1), (Some(200), Some(2)));
        assert_eq!(g.clock_of(2), (Some(300), Some(3)));
        assert_eq!(g.clock_of(3), (Some(400), Some(4)));
        assert_eq!(p("searchmoves a b gtime 5").searchmoves, vec!["a", "b"]);
        assert!(parse_go(&["gtime", "5"], None).is_err());
        assert!(parse_go(&["xtime", "5"], l).is_err());
    }

    #[test]
    fn perft_and_setup() {
        let p = |s: &str| parse_go(&s.split_whitespace().collect::<Vec<_>>(), None).unwrap();
        assert_eq!(p("perft 2"), GoCommand::Perft { depth: 2, actions: false });
        assert_eq!(p("perft 3 actions"), GoCommand::Perft { depth: 3, actions: true });
        assert_eq!(p("setup"), GoCommand::Setup { seat: None });
        assert_eq!(p("setup seat 2"), GoCommand::Setup { seat: Some(2) });
    }
}

//! The start layouts as data (§3.4, provisional) and the burglar set-up
//! (§3.5, §9): `position setup` tokens and the engine's proposals.

use super::board::Sq;
use super::cell::{self, T_GUARD, T_ROYAL, WALL};
use super::{Burglar, Options, Quadranj};
use crate::game::{PositionError, Seat};
use crate::zobrist::splitmix64;

/// One seat's army at the start.
#[derive(Debug)]
pub struct Army {
    /// The royal's square.
    pub royal: &'static str,
    /// The guards' squares.
    pub guards: [&'static str; 3],
    /// Squares of the 2-high stacks.
    pub stacks: &'static [&'static str],
    /// Squares of the singles.
    pub singles: &'static [&'static str],
}

/// Provisional (§3.4): the `quadranj` start layout, seats Red, Blue.
pub const LAYOUT8: [Army; 2] = [
    Army { royal: "a1", guards: ["a3", "c1", "c3"], stacks: &["b3", "c2"], singles: &["b4", "c4", "d2", "d3"] },
    Army { royal: "h8", guards: ["h6", "f8", "f6"], stacks: &["g6", "f7"], singles: &["g5", "f5", "e7", "e6"] },
];

/// Provisional (§3.4): the `quadranj4` start layout, seats Green, Blue,
/// Yellow, Red.
pub const LAYOUT10: [Army; 4] = [
    Army { royal: "a10", guards: ["a8", "c10", "c8"], stacks: &[], singles: &["b8", "c9", "b7", "c7", "d9", "d8"] },
    Army { royal: "j10", guards: ["j8", "h10", "h8"], stacks: &[], singles: &["i8", "h9", "i7", "h7", "g9", "g8"] },
    Army { royal: "j1", guards: ["j3", "h1", "h3"], stacks: &[], singles: &["i3", "h2", "i4", "h4", "g2", "g3"] },
    Army { royal: "a1", guards: ["a3", "c1", "c3"], stacks: &[], singles: &["b3", "c2", "b4", "c4", "d2", "d3"] },
];

fn layout(opts: &Options) -> &'static [Army] {
    if opts.four {
        &LAYOUT10
    } else {
        &LAYOUT8
    }
}

/// The start position with the given burglars (`None` = `?`), each a
/// (square, level) of a start column.
pub(crate) fn start(opts: &Options, burglars: [Option<(Sq, u8)>; 4]) -> Quadranj {
    let mut p = Quadranj::empty(opts);
    let g = p.geo;
    let sq = |t: &str| g.parse_sq(t).expect("layout square");
    for (s, army) in layout(opts).iter().enumerate() {
        p.set(sq(army.royal), cell::unit(s, T_ROYAL));
        for t in army.guards {
            p.set(sq(t), cell::unit(s, T_GUARD));
        }
        for t in army.stacks {
            p.set(sq(t), cell::column(s, 2));
        }
        for t in army.singles {
            p.set(sq(t), cell::column(s, 1));
        }
        p.st.burglar[s] = match burglars[s] {
            None => Burglar::Unknown,
            Some((q, l)) => Burglar::Known { sq: q as u8, level: l, revealed: false },
        };
    }
    let _ = WALL;
    p.compute_static_result();
    p
}

/// Parses one set-up token for `seat`: `?` or `<square>:<level>` naming a
/// pilot of the seat's start columns.
pub(crate) fn parse_setup_token(opts: &Options, seat: Seat, t: &str) -> Result<Option<(Sq, u8)>, String> {
    if t == "?" {
        return Ok(None);
    }
    let p = start(opts, [None; 4]);
    let (sq_t, lev_t) = t.split_once(':').ok_or_else(|| "expected `<square>:<level>` or `?`".to_string())?;
    let s = p.geo.parse_sq(sq_t).ok_or_else(|| format!("`{sq_t}` is not a square"))?;
    if lev_t.is_empty() || lev_t.starts_with('0') || !lev_t.bytes().all(|c| c.is_ascii_digit()) || lev_t.len() > 3 {
        return Err(format!("`{lev_t}` is not a level (1, 2, …)"));
    }
    let lev: usize = lev_t.parse().map_err(|_| format!("`{lev_t}` is not a level"))?;
    let c = p.st.cell[s];
    if cell::height(c) == 0 || cell::owner(c) != seat {
        return Err(format!("{sq_t} holds no column of this seat at the start"));
    }
    if lev > cell::height(c) {
        return Err(format!("the column on {sq_t} is only {} high", cell::height(c)));
    }
    Ok(Some((s, lev as u8)))
}

/// `position setup <tok p1> … <tok pN>`.
pub(crate) fn from_setup(tokens: &[&str], opts: &Options) -> Result<Quadranj, PositionError> {
    let n = if opts.four { 4 } else { 2 };
    if tokens.len() != n {
        return Err(PositionError::field("set-up", format!("expected {n} tokens (one per seat), found {}", tokens.len())));
    }
    let mut b = [None; 4];
    for (seat, t) in tokens.iter().enumerate() {
        b[seat] = parse_setup_token(opts, seat, t)
            .map_err(|e| PositionError::field(format!("set-up token {} `{t}` of seat p{}", seat + 1, seat + 1), e.to_string()))?;
    }
    Ok(start(opts, b))
}

/// The engine's burglar for `seat` (`go setup`): a pilot of one of the
/// seat's front singles (it has the shortest way to the own Keep among
/// pilots that are not needed to hold a stack together), varied by `seed`.
pub(crate) fn propose(opts: &Options, seat: Seat, seed: u64) -> String {
    let armies = layout(opts);
    let army = &armies[seat.min(armies.len() - 1)];
    // The singles furthest from the seat's start corner come first in the
    // tables; pick among the first four.
    let k = army.singles.len().min(4);
    let i = (splitmix64(seed ^ 0x4255_5247) % k as u64) as usize;
    format!("{}:1", army.singles[i])
}

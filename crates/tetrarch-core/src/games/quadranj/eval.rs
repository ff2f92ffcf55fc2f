//! Static evaluation of Quadranj. All weights are here.
//!
//! Terms for a seat (for `quadranj4`: the seat minus the average of the
//! other seats in the game; for `quadranj`: minus the opponent):
//! - `material`: units on the board by value (§3.3) plus the tally;
//! - `race`: the royal's and the lone pilots' (burglar candidates') distance
//!   to the home;
//! - `threats`: enemy units the seat would capture by custodian capture at
//!   the end of its turn, minus its own units that an enemy would capture;
//! - `royal`: the royal's free orthogonal neighbours; a boxed-in royal loses;
//! - `home`: the royal's open roads home: a clear slide onto it (won at the
//!   seat's next action unless an opponent blocks it first) or clear
//!   two-slide roads by a corner (a royal slides once per turn, §4.2); more
//!   when the royal stands at the *gate*: in its own Keep or beside a free
//!   square of it, where only royals may come between it and its home
//!   (§2.6), so nothing but another royal can stop it.

use super::board::{Sq, NO_SQ};
use super::cell::{self, T_PILOT, T_ROYAL};
use super::moves::{kind, Action};
use super::{Burglar, Quadranj};

/// Centipawns per half unit of value.
pub const HALF_UNIT: i32 = 50;
/// Tally weight per half unit (a lead on captures decides the long games).
pub const TALLY: i32 = 20;
/// Race bonus per square the royal is closer to home.
pub const ROYAL_RACE: i32 = 12;
/// Race bonus per square a possible burglar is closer to home.
pub const PILOT_RACE: i32 = 6;
/// A pending custodian capture, per half unit of the captured value.
pub const THREAT: i32 = 30;
/// Per free orthogonal neighbour of the royal.
pub const ROYAL_FREE: i32 = 15;
/// A royal with no slide or swap.
pub const BOXED: i32 = 600;
/// A clear slide from the royal onto its home.
pub const HOME_LINE: i32 = 250;
/// Per clear two-slide road home (by one of the two corners).
pub const HOME_CORNER: i32 = 50;
/// A clear slide home from the gate (added to [`HOME_LINE`]).
pub const GATE_LINE: i32 = 400;
/// The royal at the gate without a clear slide home (at most two turns).
pub const GATE: i32 = 200;

/// The names of the terms, in the order [`seat_terms`] returns them.
const NAMES: [&str; 5] = ["material", "race", "threats", "royal", "home"];

/// Whether a royal of `s` on `a` could slide to `b` on this board: same rank
/// or file, every square between empty, `b` empty or an enemy lone pilot.
fn slide_clear(p: &Quadranj, s: usize, a: Sq, b: Sq) -> bool {
    let g = p.geo;
    let (fa, ra) = (g.file(a) as i32, g.rank(a) as i32);
    let (fb, rb) = (g.file(b) as i32, g.rank(b) as i32);
    if a == b || (fa != fb && ra != rb) || !g.all.has(b) {
        return false;
    }
    let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
    let (mut f, mut r) = (fa + df, ra + dr);
    while (f, r) != (fb, rb) {
        let q = g.sq(f as usize, r as usize);
        if !g.all.has(q) || p.st.occ.has(q) {
            return false;
        }
        f += df;
        r += dr;
    }
    !p.st.occ.has(b) || (p.st.pilots.has(b) && !p.st.own[s].has(b))
}

/// The `home` term of seat `s` whose royal stands on `r`.
fn home_roads(p: &Quadranj, s: usize, r: Sq) -> i32 {
    let g = p.geo;
    let home = g.home[s] as Sq;
    let keep = g.keep[s];
    let gate = keep.has(r) || (g.nbr4[r] & keep & !p.st.occ).any();
    if slide_clear(p, s, r, home) {
        return HOME_LINE + if gate { GATE_LINE } else { 0 };
    }
    let corners = [g.sq(g.file(r), g.rank(home)), g.sq(g.file(home), g.rank(r))];
    let roads = corners
        .iter()
        .filter(|&&c| c != r && c != home && slide_clear(p, s, r, c) && slide_clear(p, s, c, home))
        .count() as i32;
    roads * HOME_CORNER + if gate { GATE } else { 0 }
}

fn dist(p: &Quadranj, a: Sq, b: Sq) -> i32 {
    let g = p.geo;
    let df = (g.file(a) as i32 - g.file(b) as i32).abs();
    let dr = (g.rank(a) as i32 - g.rank(b) as i32).abs();
    df.max(dr)
}

/// Whether `by` would capture the unit on `u` at the end of its turn.
fn custodian_threat(p: &Quadranj, by: usize, u: Sq) -> bool {
    let g = p.geo;
    let mine = p.st.own[by];
    let st = &g.step[u];
    let has = |d: usize| st[d] != NO_SQ && mine.has(st[d] as Sq);
    if !((has(0) && has(2)) || (has(1) && has(3))) {
        return false;
    }
    let sum: u32 = (g.nbr8[u] & mine).into_iter().map(|v| cell::value2(p.st.cell[v])).sum();
    sum >= 2 * cell::value2(p.st.cell[u])
}

fn seat_terms(p: &Quadranj, s: usize) -> [i32; 5] {
    if !p.in_game(s) {
        return [0; 5];
    }
    let st = &p.st;
    let g = p.geo;
    let home_sq = g.home[s] as Sq;
    let mut material = st.tally[s] as i32 * TALLY;
    let mut race = 0;
    let far = g.n as i32 - 1;
    let may_burgle = st.burglar[s] != Burglar::None;
    for u in st.own[s] {
        let c = st.cell[u];
        if cell::kind(c) != T_ROYAL {
            material += cell::value2(c) as i32 * HALF_UNIT;
        }
        if cell::kind(c) == T_PILOT && may_burgle && p.lone_is_burglar(s, u) {
            race = race.max((far - dist(p, u, home_sq)) * PILOT_RACE);
        }
    }
    let r = st.royal[s];
    let mut royal = 0;
    let mut home = 0;
    if r != NO_SQ {
        home = home_roads(p, s, r as Sq);
        race += (far - dist(p, r as Sq, home_sq)) * ROYAL_RACE;
        let free = (g.nbr4[r as Sq] & !st.occ & g.all).count() as i32;
        royal += free * ROYAL_FREE;
        if p.royal_immobile(s) {
            royal -= BOXED;
        }
    }
    let mut threats = 0;
    for u in st.occ & !st.walls & !st.own[s] {
        if cell::kind(st.cell[u]) != T_ROYAL && custodian_threat(p, s, u) {
            threats += cell::value2(st.cell[u]) as i32 * THREAT;
        }
    }
    for u in st.own[s] {
        if cell::kind(st.cell[u]) == T_ROYAL {
            continue;
        }
        for e in 0..g.seats {
            if e != s && p.in_game(e) && custodian_threat(p, e, u) {
                threats -= cell::value2(st.cell[u]) as i32 * THREAT;
                break;
            }
        }
    }
    [material, race, threats, royal, home]
}

/// The terms for `seat` relative to its opponents (the average of the other
/// seats in the game), in the order of [`NAMES`].
fn relative_terms(p: &Quadranj, seat: usize) -> [i32; 5] {
    let mut rel = seat_terms(p, seat);
    let mut sum = [0i32; 5];
    let mut others = 0;
    for o in (0..p.geo.seats).filter(|&o| o != seat && p.in_game(o)) {
        others += 1;
        for (x, t) in sum.iter_mut().zip(seat_terms(p, o)) {
            *x += t;
        }
    }
    if others > 0 {
        for (r, x) in rel.iter_mut().zip(sum) {
            *r -= x / others;
        }
    }
    rel
}

/// The named terms for `seat` (`eval`).
pub fn terms(p: &Quadranj, seat: usize) -> Vec<(&'static str, i32)> {
    NAMES.iter().copied().zip(relative_terms(p, seat)).collect()
}

/// The static evaluation for `seat` (nothing allocated).
pub fn evaluate(p: &Quadranj, seat: usize) -> i32 {
    relative_terms(p, seat).iter().sum()
}

fn enemy_pilot(p: &Quadranj, s: Sq) -> bool {
    let c = p.st.cell[s];
    cell::is_unit(c) && cell::kind(c) == T_PILOT && cell::owner(c) != p.st.to_move as usize
}

/// Half units an action captures at once (landing on lone pilots; a charge
/// counts its target's value as a possible removal).
fn captured(p: &Quadranj, a: Action) -> i32 {
    let g = p.geo;
    match a.kind {
        kind::MOVE | kind::CLIMB_OUT => enemy_pilot(p, a.b as Sq) as i32,
        kind::CLIMB_IN if a.c == kind::DRIVE_STEP => enemy_pilot(p, a.x as Sq) as i32,
        kind::CHARGE => cell::value2(p.st.cell[a.b as Sq]) as i32,
        kind::UNSTACK => {
            let mut n = 0;
            let mut cur = a.a as Sq;
            let mut sqs = [cur; 10];
            for (j, (d, _)) in a.links().enumerate() {
                cur = g.step[cur][d] as Sq;
                sqs[j + 1] = cur;
                n += enemy_pilot(p, cur) as i32;
            }
            if a.c != 0 {
                let xi = sqs[(a.c & 15) as usize];
                n += enemy_pilot(p, g.step[xi][((a.c >> 4) - 1) as usize] as Sq) as i32;
            }
            n
        }
        _ => 0,
    }
}

/// Captures (and charges, which may remove their target), and moves onto
/// the mover's home (a royal or burglar arriving there wins, §6.1).
pub fn is_tactical(p: &Quadranj, a: Action) -> bool {
    tactical_with(p, a, captured(p, a))
}

fn tactical_with(p: &Quadranj, a: Action, captured: i32) -> bool {
    captured > 0 || (a.kind == kind::MOVE && a.b == p.geo.home[p.st.to_move as usize])
}

/// Whether the action is tactical, and its move-ordering hint: captures by
/// value, then home runs, stacking, the rest.
pub fn order_info(p: &Quadranj, a: Action) -> (bool, i32) {
    let me = p.st.to_move as usize;
    let c = captured(p, a);
    let mut h = c * 100;
    let home = p.geo.home[me] as Sq;
    match a.kind {
        kind::MOVE => {
            if a.b as Sq == home {
                h += 10_000;
            }
            h += 8 - dist(p, a.b as Sq, home) + dist(p, a.a as Sq, home);
        }
        kind::STACK => h += 5 + a.c as i32,
        kind::UNSTACK => h -= 5,
        _ => {}
    }
    (tactical_with(p, a, c), h)
}

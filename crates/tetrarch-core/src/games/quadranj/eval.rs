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
//!   (§2.6), so nothing but another royal can stop it;
//! - `arrival`: a seat whose royal (or possible burglar) will stand on its
//!   home within two of its turns by a road that only crosses its own Keep
//!   has as good as won, since nothing but another royal may stand there
//!   (§2.6) and royals are never captured. The first such seat in turn
//!   order from the seat to move gets [`ARRIVAL`], every other seat
//!   −[`ARRIVAL`], less [`ARRIVAL_SLOT`] per seat turn until it arrives, so
//!   sooner wins and later losses are preferred. Not averaged: in
//!   `quadranj4` one seat's arrival is every other seat's loss.

use super::board::{Sq, NO_SQ};
use super::cell::{self, T_GUARD, T_PILOT, T_ROYAL};
use super::moves::{kind, Action};
use super::{Burglar, Quadranj};
use crate::bitboard::Bb128;
use crate::eval::{EvalSink, Weights};

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

/// A seat whose arrival home can no longer be stopped (the `arrival` term).
pub const ARRIVAL: i32 = 10_000;
/// Taken off [`ARRIVAL`] per seat turn before the arrival.
pub const ARRIVAL_SLOT: i32 = 10;
/// A seat that has gone out (`quadranj4`) can no longer win and ranks
/// below every seat still in: `arrival` is −`OUT` for it.
pub const OUT: i32 = 3 * ARRIVAL;
/// A royal with no unit of its seat to swap with and one square to slide
/// to: one enemy unit there boxes it in (`quadranj4` only).
pub const TIGHT1: i32 = 300;
/// The same with two squares to slide to.
pub const TIGHT2: i32 = 80;
/// More, by free squares (1 to 3), when the seat does not move next and
/// enemy units could fill all of them (`quadranj4`).
pub const BOX_RISK: [i32; 4] = [0, 700, 300, 100];

crate::weights! {
    /// The weights of the Quadranj evaluation (both variants).
    pub mod w for "quadranj" {
        HALF_UNIT: "material.half_unit" = super::HALF_UNIT;
        TALLY: "material.tally" = super::TALLY;
        ROYAL_RACE: "race.royal" = super::ROYAL_RACE;
        PILOT_RACE: "race.pilot" = super::PILOT_RACE;
        THREAT: "threats.half_unit" = super::THREAT;
        ROYAL_FREE: "royal.free" = super::ROYAL_FREE;
        BOXED: "royal.boxed" = -super::BOXED;
        TIGHT1: "royal.tight1" = -super::TIGHT1;
        TIGHT2: "royal.tight2" = -super::TIGHT2;
        BOX_RISK: "royal.box_risk" [4] = super::BOX_RISK_WEIGHTS;
        HOME_LINE: "home.line" = super::HOME_LINE;
        HOME_CORNER: "home.corner" = super::HOME_CORNER;
        GATE_LINE: "home.gate_line" = super::GATE_LINE;
        GATE: "home.gate" = super::GATE;
        ARRIVAL: "arrival.sure" fixed = super::ARRIVAL;
        ARRIVAL_SLOT: "arrival.slot" fixed = -super::ARRIVAL_SLOT;
        OUT: "arrival.out" fixed = -super::OUT;
    }
}

/// [`BOX_RISK`] as (negative) weights.
const BOX_RISK_WEIGHTS: [i32; 4] = [-BOX_RISK[0], -BOX_RISK[1], -BOX_RISK[2], -BOX_RISK[3]];

/// The compiled-in weights of both variants.
static DEFAULT: std::sync::LazyLock<[Weights; 2]> =
    std::sync::LazyLock::new(|| [Weights::defaults("quadranj", &w::TABLE), Weights::defaults("quadranj4", &w::TABLE)]);

/// The compiled-in weights of `variant`.
pub fn default_weights(variant: &str) -> &'static Weights {
    &DEFAULT[usize::from(variant == "quadranj4")]
}

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

/// The `home` features of seat `s` whose royal stands on `r`.
fn home_roads<S: EvalSink>(p: &Quadranj, s: usize, r: Sq, mult: i32, sink: &mut S) {
    let g = p.geo;
    let home = g.home[s] as Sq;
    let keep = g.keep[s];
    let gate = keep.has(r) || (g.nbr4[r] & keep & !p.st.occ).any();
    if slide_clear(p, s, r, home) {
        sink.add(w::HOME_LINE, mult);
        if gate {
            sink.add(w::GATE_LINE, mult);
        }
        return;
    }
    let corners = [g.sq(g.file(r), g.rank(home)), g.sq(g.file(home), g.rank(r))];
    let roads =
        corners.iter().filter(|&&c| c != r && c != home && slide_clear(p, s, r, c) && slide_clear(p, s, c, home)).count() as i32;
    sink.add(w::HOME_CORNER, mult * roads);
    if gate {
        sink.add(w::GATE, mult);
    }
}

/// Whether a unit of `s` on `a` that may enter `s`'s Keep reaches `b` in one
/// slide whose squares after `a` are all empty squares of that Keep: only
/// royals of other seats could ever come between (§2.6).
fn keep_road(p: &Quadranj, s: usize, a: Sq, b: Sq) -> bool {
    let g = p.geo;
    let (fa, ra) = (g.file(a) as i32, g.rank(a) as i32);
    let (fb, rb) = (g.file(b) as i32, g.rank(b) as i32);
    if a == b || (fa != fb && ra != rb) {
        return false;
    }
    let (df, dr) = ((fb - fa).signum(), (rb - ra).signum());
    let (mut f, mut r) = (fa, ra);
    while (f, r) != (fb, rb) {
        f += df;
        r += dr;
        let q = g.sq(f as usize, r as usize);
        if !g.keep[s].has(q) || p.st.occ.has(q) {
            return false;
        }
    }
    true
}

/// The squares the royal of `s` on `r` can reach in one action: slides,
/// charges (it lands on the target) and swaps with a neighbour of its seat.
fn royal_reach(p: &Quadranj, s: usize, r: Sq) -> Bb128 {
    let g = p.geo;
    let st = &p.st;
    let mut reach = Bb128::EMPTY;
    let enemy_p = st.pilots & !st.own[s];
    for d in 0..4 {
        let mut t = r;
        while let Some(u) = g.step(t, d) {
            if !st.occ.has(u) {
                reach = reach.with(u);
                t = u;
                continue;
            }
            if enemy_p.has(u) {
                reach = reach.with(u);
            }
            break;
        }
        if let Some(t) = p.charge_target(r, d) {
            reach = reach.with(t);
        }
    }
    for u in g.nbr8[r] & st.own[s] {
        if matches!(cell::kind(st.cell[u]), T_GUARD | T_PILOT | 3) {
            reach = reach.with(u);
        }
    }
    reach
}

/// How seat `s` can arrive home: `sure`, the number of its turns (counting
/// the current one for the seat to move) by roads through its own Keep
/// only, which nothing but another royal could block; `open`, the number
/// of turns if its next action is not prevented by a seat moving before
/// it: the royal slides (or charges, or swaps) home, or into its Keep or
/// onto a gate square beside it from which a `sure` road starts.
#[derive(Clone, Copy, Default)]
struct Arrival {
    sure: Option<i32>,
    open: Option<i32>,
}

fn min_opt(a: Option<i32>, t: i32) -> Option<i32> {
    Some(a.map_or(t, |b| b.min(t)))
}

/// Turns for the royal standing on `r` by a road through the Keep only.
fn keep_turns(p: &Quadranj, s: usize, r: Sq, doors: Bb128) -> Option<i32> {
    let home = p.geo.home[s] as Sq;
    if keep_road(p, s, r, home) {
        Some(1)
    } else if doors.into_iter().any(|m| keep_road(p, s, r, m)) {
        Some(2)
    } else {
        None
    }
}

fn arrival_of(p: &Quadranj, s: usize) -> Arrival {
    let g = p.geo;
    let st = &p.st;
    let home = g.home[s] as Sq;
    let mut a = Arrival::default();
    if st.occ.has(home) {
        return a;
    }
    // The squares of the Keep from which home is one slide or step away.
    let doors = g.nbr4[home] & g.keep[s] & !st.occ;
    // A unit that moved in the current turn waits for the next one.
    let moving = st.index == 1 && st.to_move as usize == s;
    let late = |u: Sq| (moving && st.marks.has(u)) as i32;
    let r = st.royal[s];
    if r != NO_SQ {
        let r = r as Sq;
        if let Some(t) = keep_turns(p, s, r, doors) {
            a.sure = Some(t + late(r));
        }
        if !st.marks.has(r) {
            let reach = royal_reach(p, s, r);
            if reach.has(home) {
                a.open = Some(1);
            } else {
                // Squares of the Keep, and gate squares beside it.
                for q in reach {
                    if g.keep[s].has(q) || (g.nbr4[q] & g.keep[s]).any() {
                        if let Some(t) = keep_turns(p, s, q, doors) {
                            a.open = min_opt(a.open, 1 + t);
                        }
                    }
                }
            }
        }
    }
    if st.burglar[s] != Burglar::None {
        for u in st.own[s] & st.pilots {
            if !p.lone_is_burglar(s, u) {
                continue;
            }
            if g.nbr4[u].has(home) {
                a.sure = min_opt(a.sure, 1 + late(u));
            } else if (g.nbr4[u] & doors).any() {
                a.sure = min_opt(a.sure, 2 + late(u));
            }
        }
    }
    a
}

/// The arrival home that comes first as `seat` must expect it: every
/// seat's `sure` road, the seat to move's `open` one (it acts now), and,
/// expecting no help, the `open` road of an opponent that moves before
/// `seat` does. Returns the arriving seat and the number of seat turns
/// before it (0: in the current turn).
pub fn arrival(p: &Quadranj, seat: usize) -> Option<(usize, i32)> {
    let st = &p.st;
    if st.res != 0 {
        return None;
    }
    let seats = p.geo.seats;
    let m = st.to_move as usize;
    let n = (0..seats).filter(|&s| p.in_game(s)).count() as i32;
    let mut k = 0;
    let mut seat_k = i32::MAX;
    let mut best: Option<(usize, i32)> = None;
    let consider = |s: usize, t: i32, k: i32, best: &mut Option<(usize, i32)>| {
        let slot = (t - 1) * n + k;
        if best.is_none_or(|(_, b)| slot < b) {
            *best = Some((s, slot));
        }
    };
    for i in 0..seats {
        let s = (m + i) % seats;
        if !p.in_game(s) {
            continue;
        }
        if s == seat {
            seat_k = k;
        }
        let a = arrival_of(p, s);
        if let Some(t) = a.sure {
            consider(s, t, k, &mut best);
        }
        if let Some(t) = a.open {
            if s == m || (s != seat && k < seat_k) {
                consider(s, t, k, &mut best);
            }
        }
        k += 1;
    }
    best
}

/// Whether every square the royal of `s` on `r` could slide to is empty and
/// could be filled in one action by a unit of another seat (a guard or
/// royal sliding there, a column stepping, a lone pilot stepping).
fn boxable(p: &Quadranj, s: usize, r: Sq) -> bool {
    let g = p.geo;
    let st = &p.st;
    let free = g.nbr4[r] & !st.occ & g.all;
    if (g.nbr4[r] & st.pilots & !st.own[s]).any() {
        return false;
    }
    let others = st.occ & !st.walls & !st.own[s];
    free.into_iter().all(|q| {
        if (g.nbr8[q] & others & st.cols).any() || (g.nbr4[q] & others & st.pilots).any() {
            return true;
        }
        slider_sees(p, q, others)
    })
}

/// Whether a guard or royal among `units` could slide onto `q`: the first
/// unit on one of the four lines from `q`.
fn slider_sees(p: &Quadranj, q: Sq, units: Bb128) -> bool {
    let st = &p.st;
    (0..4).any(|d| {
        let mut t = q;
        while let Some(u) = p.geo.step(t, d) {
            if st.occ.has(u) {
                return units.has(u) && matches!(cell::kind(st.cell[u]), T_GUARD | T_ROYAL);
            }
            t = u;
        }
        false
    })
}

fn dist(p: &Quadranj, a: Sq, b: Sq) -> i32 {
    let g = p.geo;
    let df = (g.file(a) as i32 - g.file(b) as i32).abs();
    let dr = (g.rank(a) as i32 - g.rank(b) as i32).abs();
    df.max(dr)
}

/// The `threats` feature of every seat at once, in half units: for each
/// seat in the game, the value of the enemy units it would capture by
/// custodian capture at the end of its turn (both neighbours on one axis
/// its own, §6.2, and its units around worth at least twice the target),
/// minus the value of its own units that some seat in the game would
/// capture so. Royals are never captured.
pub(crate) fn threat_counts(p: &Quadranj) -> [i32; 4] {
    let g = p.geo;
    let st = &p.st;
    let mut t = [0; 4];
    let units = st.occ & !st.walls;
    let mut hit = Bb128::EMPTY;
    for e in (0..g.seats).filter(|&e| p.in_game(e)) {
        let mine = st.own[e];
        for u in g.bracketed(mine) & units & !mine {
            let c = st.cell[u];
            if cell::kind(c) == T_ROYAL {
                continue;
            }
            let sum: u32 = (g.nbr8[u] & mine).into_iter().map(|v| cell::value2(st.cell[v])).sum();
            if sum >= 2 * cell::value2(c) {
                t[e] += cell::value2(c) as i32;
                hit = hit.with(u);
            }
        }
    }
    for u in hit {
        let c = st.cell[u];
        t[cell::owner(c)] -= cell::value2(c) as i32;
    }
    t
}

/// The `threats` term of every seat at the default weight (tests).
#[cfg(test)]
pub(crate) fn threat_terms(p: &Quadranj) -> [i32; 4] {
    threat_counts(p).map(|t| t * THREAT)
}

/// Seat `s`'s own features (material, race, threats, royal, home), counted
/// `mult` times; `threats` is its [`threat_counts`] entry.
fn seat_features<S: EvalSink>(p: &Quadranj, s: usize, threats: i32, mult: i32, sink: &mut S) {
    if !p.in_game(s) {
        return;
    }
    let st = &p.st;
    let g = p.geo;
    let home_sq = g.home[s] as Sq;
    sink.add(w::TALLY, mult * st.tally[s] as i32);
    let far = g.n as i32 - 1;
    let may_burgle = st.burglar[s] != Burglar::None;
    let mut half_units = 0;
    let mut pilot_race = 0;
    for u in st.own[s] {
        let c = st.cell[u];
        if cell::kind(c) != T_ROYAL {
            half_units += cell::value2(c) as i32;
        }
        if cell::kind(c) == T_PILOT && may_burgle && p.lone_is_burglar(s, u) {
            pilot_race = pilot_race.max(far - dist(p, u, home_sq));
        }
    }
    sink.add(w::HALF_UNIT, mult * half_units);
    sink.add(w::PILOT_RACE, mult * pilot_race);
    sink.add(w::THREAT, mult * threats);
    let r = st.royal[s];
    if r != NO_SQ {
        home_roads(p, s, r as Sq, mult, sink);
        sink.add(w::ROYAL_RACE, mult * (far - dist(p, r as Sq, home_sq)));
        let free = (g.nbr4[r as Sq] & !st.occ & g.all).count() as i32;
        sink.add(w::ROYAL_FREE, mult * free);
        if !p.royal_can_swap(s, r as Sq) {
            // Room to slide matters in `quadranj4` only, where three
            // opponents move before the royal's next turn (in `quadranj`
            // it measured −57 ± 82 Elo in 80 games).
            let exits = p.royal_exits(s, r as Sq);
            match (exits, g.seats) {
                (0, _) => sink.add(w::BOXED, mult),
                (1, 4) => sink.add(w::TIGHT1, mult),
                (2, 4) => sink.add(w::TIGHT2, mult),
                _ => {}
            }
            // Best-Reply Search lets one opponent reply, but a box is
            // often closed by two: in `quadranj4`, when the seat does not
            // move next and enemy units could fill every free square.
            if g.seats == 4 && st.to_move as usize != s && (1..=3).contains(&exits) && boxable(p, s, r as Sq) {
                sink.add(w::BOX_RISK + exits as usize, mult);
            }
        }
    }
}

/// The evaluation for `seat` relative to its opponents (minus the average
/// of the other seats in the game; `arrival` is not averaged), as features:
/// counted in whole units, divided by the number of opponents at the end.
pub fn features<S: EvalSink>(p: &Quadranj, seat: usize, sink: &mut S) {
    let threats = threat_counts(p);
    let others = (0..p.geo.seats).filter(|&o| o != seat && p.in_game(o));
    let n = (others.clone().count() as i32).max(1);
    seat_features(p, seat, threats[seat], n, sink);
    for o in others {
        seat_features(p, o, threats[o], -1, sink);
    }
    if !p.in_game(seat) {
        sink.add(w::OUT, n);
    } else {
        match arrival(p, seat) {
            Some((s, slot)) if s == seat => {
                sink.add(w::ARRIVAL, n);
                sink.add(w::ARRIVAL_SLOT, n * slot);
            }
            Some((_, slot)) => {
                sink.add(w::ARRIVAL, -n);
                sink.add(w::ARRIVAL_SLOT, -n * slot);
            }
            None => {}
        }
    }
    sink.divide(n);
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

/// Whether the seat to move certainly has no tactical action (below),
/// known from the board alone: no enemy lone pilot to land on, no charge
/// at a unit of value, and its home occupied or out of reach of a move (a
/// royal or guard sliding there, a column or lone pilot stepping there).
/// Finer tests of which enemy pilots are within reach cost quiescence
/// more than they saved.
pub fn no_tactical(p: &Quadranj) -> bool {
    let g = p.geo;
    let st = &p.st;
    let me = st.to_move as usize;
    let mine = st.own[me];
    if (st.pilots & !mine).any() {
        return false;
    }
    let r = st.royal[me];
    if r != NO_SQ && (0..4).any(|d| p.charge_target(r as Sq, d).is_some_and(|t| cell::value2(st.cell[t]) > 0)) {
        return false;
    }
    let home = g.home[me] as Sq;
    if st.occ.has(home) {
        return true;
    }
    !(g.nbr8[home] & mine).any() && !slider_sees(p, home, mine)
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

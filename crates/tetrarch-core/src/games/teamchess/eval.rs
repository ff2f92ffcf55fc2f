//! Static evaluation of `teamchess`, per team, as features
//! ([`crate::eval`]); every weight is in the table [`w`].
//!
//! Terms (the seat's team minus the other; docs/teamchess.md):
//! - `material`: P, N, B, R, Q;
//! - `pst`: a piece-square table per type, in the seat's own frame (rank
//!   from its back line, file from its left), the same for all four seats;
//!   files are mirrored for P, N, B, R, Q (98 cells each), not for the King
//!   (its two wings differ: 196 cells);
//! - `mobility`: cells each Knight, Bishop, Rook and Queen attacks that its
//!   own seat does not hold;
//! - `king`: own men next to the King (`guards`); the `danger` of the
//!   attack on its zone (the King's cell and its neighbours), a table by
//!   attack units (each enemy man attacking the zone by type, plus each
//!   zone cell attacked); `seats` attacking the zone (two enemies at once
//!   is how mates are built in four-player chess); `shelter`, own pawns on
//!   the three cells in front; `exposure`, the cells a Queen on the King's
//!   cell would reach (open lines towards it); `none`, a seat whose King
//!   was captured (its team has lost);
//! - `threat`: men attacked by the other team and undefended, or attacked
//!   by a cheaper man, by type and by where their seat sits in the turn
//!   order from the seat to move (its own, the next seat, its partner, the
//!   last seat): the next two movers decide what a threat is worth;
//! - `tempo`: the team to move.

use super::moves::Move;
use super::TeamChess;
use crate::bitboard::Bb256;
use crate::eval::{EvalSink, Weights};
use crate::games::cross_board::board::{exists, file, rank, sq, step, Sq, CELLS, DIRS, KING_STEPS, PAWN_CAPS};
use crate::games::cross_board::eval_geometry::{centre_bonus, reach};
use crate::games::cross_board::men::attacks_of;
use crate::games::cross_board::piece::*;

/// Piece values by type (P, -, N, B, R, Q, K), for move ordering. A King
/// is worth a lot here: capturing it ends the game.
pub const VALUE: [i32; 7] = [100, 0, 300, 330, 500, 950, 0];

/// Per cell a Bishop, Rook or Queen reaches (the default weight).
pub const MOBILITY: i32 = 3;

/// Attack units at most (the `danger` table's last entry).
pub const DANGER_MAX: usize = 31;
/// Attack units of a man attacking the King's zone, by type.
const UNIT: [i32; COUNT] = [1, 0, 2, 2, 3, 5, 1];
/// Buckets of `exposure` (cells a Queen on the King's cell reaches).
pub const EXPOSURE_MAX: usize = 23;

/// Cells of the mirrored frame (7 files × 14 ranks).
const HALF: usize = 98;
/// Cells of the full frame (14 × 14).
const FULL: usize = 196;

/// The cell of seat 0's frame (file, rank) that `s` is for `seat`.
#[inline(always)]
pub const fn frame(seat: usize, s: Sq) -> (usize, usize) {
    let (x, y) = (file(s), rank(s));
    match seat & 3 {
        0 => (x, y),
        1 => (13 - y, x),
        2 => (13 - x, 13 - y),
        _ => (y, 13 - x),
    }
}

/// Default piece-square values: the old `advance` (5 per step from the
/// pawn line) for pawns and `centre` (3 per ring) for N, B, Q.
fn default_pst(ty: usize) -> [i32; HALF] {
    let mut t = [0; HALF];
    let mut i = 0;
    while i < HALF {
        let (f, r) = (i % 7, i / 7);
        t[i] = match ty {
            PAWN if r >= 1 => 5 * (r as i32 - 1),
            KNIGHT | BISHOP | QUEEN => 3 * centre_bonus(sq(f, r)),
            _ => 0,
        };
        i += 1;
    }
    t
}

fn danger_default() -> [i32; DANGER_MAX + 1] {
    let mut t = [0; DANGER_MAX + 1];
    let mut i = 0;
    while i <= DANGER_MAX {
        t[i] = -((i * i) as i32) / 2;
        i += 1;
    }
    t
}

fn exposure_default() -> [i32; EXPOSURE_MAX + 1] {
    let mut t = [0; EXPOSURE_MAX + 1];
    let mut i = 0;
    while i <= EXPOSURE_MAX {
        t[i] = -2 * i as i32;
        i += 1;
    }
    t
}

/// `threat` defaults by turn-order position (own, next, partner, last) and
/// type (P N B R Q): a share of the man's value.
fn threat_default() -> [i32; 20] {
    let share = [10, 50, 40, 50];
    let value = [100, 300, 330, 500, 950];
    let mut t = [0; 20];
    let mut i = 0;
    while i < 20 {
        t[i] = -share[i / 5] * value[i % 5] / 100;
        i += 1;
    }
    t
}

crate::weights! {
    /// The weights of the `teamchess` evaluation.
    pub mod w for "teamchess" {
        PAWN: "material.pawn" = 100;
        KNIGHT: "material.knight" = 300;
        BISHOP: "material.bishop" = 330;
        ROOK: "material.rook" = 500;
        QUEEN: "material.queen" = 950;
        PST_PAWN: "pst.pawn" [super::HALF] = super::default_pst(super::PAWN);
        PST_KNIGHT: "pst.knight" [super::HALF] = super::default_pst(super::KNIGHT);
        PST_BISHOP: "pst.bishop" [super::HALF] = super::default_pst(super::BISHOP);
        PST_ROOK: "pst.rook" [super::HALF] = super::default_pst(super::ROOK);
        PST_QUEEN: "pst.queen" [super::HALF] = super::default_pst(super::QUEEN);
        PST_KING: "pst.king" [super::FULL] = [0; super::FULL];
        MOB_KNIGHT: "mobility.knight" = 0;
        MOB_BISHOP: "mobility.bishop" = super::MOBILITY;
        MOB_ROOK: "mobility.rook" = super::MOBILITY;
        MOB_QUEEN: "mobility.queen" = super::MOBILITY;
        /// Per own man next to the King.
        GUARDS: "king.guards" = 6;
        /// By attack units on the King's zone.
        DANGER: "king.danger" [32] = super::danger_default();
        /// By the number of enemy seats attacking the zone (0, 1, 2).
        SEATS: "king.seats" [3] = [0, 0, -40];
        /// By own pawns on the three cells in front of the King.
        SHELTER: "king.shelter" [4] = [0, 8, 16, 22];
        /// By cells a Queen on the King's cell would reach.
        EXPOSURE: "king.exposure" [24] = super::exposure_default();
        /// A seat without its King (captured: its team has lost).
        NO_KING: "king.none" fixed = -20_000;
        /// By turn-order position from the mover (own, next, partner,
        /// last) × type (P N B R Q).
        THREAT: "threat.man" [20] = super::threat_default();
        /// The team to move.
        TEMPO: "tempo.move" = 10;
    }
}

/// The material weight of each type.
const MATERIAL: [Option<usize>; COUNT] =
    [Some(w::PAWN), None, Some(w::KNIGHT), Some(w::BISHOP), Some(w::ROOK), Some(w::QUEEN), None];
/// The mobility weight of each type.
const MOBILITY_W: [Option<usize>; COUNT] =
    [None, None, Some(w::MOB_KNIGHT), Some(w::MOB_BISHOP), Some(w::MOB_ROOK), Some(w::MOB_QUEEN), None];
/// The index of a type among P N B R Q (threats).
const THREAT_IDX: [usize; COUNT] = [0, 0, 1, 2, 3, 4, 0];

/// The compiled-in weights: the tuned set in `tuned.weights` (its comments
/// say how `tetrarch tune` made it; docs/tuning.md), which beat the
/// hand-set values of the table [`w`] (the tuner's starting point,
/// `tune --start hand`) by +172 ± 78 Elo.
pub static DEFAULT: std::sync::LazyLock<Weights> =
    std::sync::LazyLock::new(|| Weights::committed(include_str!("tuned.weights"), "teamchess", &w::TABLE));

/// `FRAME_AT[seat][s]`: the cell of `seat`'s frame that `s` is, as
/// (mirrored index `r * 7 + min(f, 13 − f)`, full index `r * 14 + f`):
/// [`frame`] computed once for every cell, not for every man.
static FRAME_AT: [[(u8, u8); CELLS]; 4] = {
    let mut t = [[(0, 0); CELLS]; 4];
    let mut seat = 0;
    while seat < 4 {
        let mut s = 0;
        while s < CELLS {
            if exists(s) {
                let (f, r) = frame(seat, s);
                let mirrored = if f < 13 - f { f } else { 13 - f };
                t[seat][s] = ((r * 7 + mirrored) as u8, (r * 14 + f) as u8);
            }
            s += 1;
        }
        seat += 1;
    }
    t
};

/// The first table entry of each type's piece-square table (P, -, N, B,
/// R, Q, K).
const PST_BASE: [usize; COUNT] = [w::PST_PAWN, w::PST_PAWN, w::PST_KNIGHT, w::PST_BISHOP, w::PST_ROOK, w::PST_QUEEN, w::PST_KING];

/// The table entry of a man of type `ty` of `seat` on `s`.
#[inline(always)]
fn pst_index(seat: usize, ty: usize, s: Sq) -> usize {
    let (half, full) = FRAME_AT[seat & 3][s];
    PST_BASE[ty] + usize::from(if ty == KING { full } else { half })
}

/// What one seat's men attack.
#[derive(Clone, Copy, Default)]
struct Attacks {
    /// Every cell attacked.
    all: Bb256,
    /// Cells attacked by pawns; by pawns, Knights or Bishops; by any of
    /// those or a Rook.
    pawn: Bb256,
    minor: Bb256,
    rook: Bb256,
}

/// The King's zone: its cell and its neighbours.
#[inline(always)]
fn zone(k: Sq) -> Bb256 {
    KING_STEPS[k].with(k)
}

/// The `king` features of one seat's King, each the index into its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingSafety {
    /// Attack units on the zone (at most [`DANGER_MAX`]).
    pub units: usize,
    /// Enemy seats attacking the zone.
    pub seats: usize,
    /// Own men next to the King.
    pub guards: i32,
    /// Own pawns on the three cells in front.
    pub shelter: usize,
    /// Cells a Queen on the King's cell would reach (at most
    /// [`EXPOSURE_MAX`]).
    pub exposure: usize,
}

/// Seat `s`'s King safety (`None` without a King), given the attack units
/// of the enemy men on its zone, the enemy seats among them (bits) and the
/// cells the other team attacks.
fn king_safety(p: &TeamChess, s: usize, units: i32, seats: u8, enemy: Bb256) -> Option<KingSafety> {
    let m = &p.men;
    if !m.has_king(s) {
        return None;
    }
    let k = m.kings[s] as Sq;
    let own = m.by_seat[s];
    let u = units + (zone(k) & enemy).count() as i32;
    let ahead = step(k, DIRS[s].0, DIRS[s].1);
    let front = PAWN_CAPS[s][k] | ahead.map_or(Bb256::EMPTY, |a| Bb256::EMPTY.with(a));
    let lines = queen_reach(k, m.occ);
    Some(KingSafety {
        units: (u as usize).min(DANGER_MAX),
        seats: seats.count_ones() as usize,
        guards: (KING_STEPS[k] & own).count() as i32,
        shelter: (front & own & m.by_type[PAWN]).count() as usize,
        exposure: lines.min(EXPOSURE_MAX),
    })
}

/// How many cells a Queen on `k` reaches with occupancy `occ` (up to the
/// first man, included, or the edge): the count of its attack set without
/// building it.
#[inline(always)]
fn queen_reach(k: Sq, occ: Bb256) -> usize {
    (0..8).map(|d| reach(occ, Bb256::EMPTY, d, k) as usize).sum()
}

/// What the pass over the men finds beyond its features: each seat's
/// attacks, and per King the attack units of enemy men on its zone and the
/// enemy seats among them (bits).
struct Pass {
    att: [Attacks; 4],
    units: [i32; 4],
    seats: [u8; 4],
}

/// Every seat's King safety, as [`features`] counts it (tests).
#[cfg(test)]
pub fn kings(p: &TeamChess) -> [Option<KingSafety>; 4] {
    let pass = men_pass(p, 0, &mut crate::eval::Discard);
    core::array::from_fn(|s| {
        let enemy = pass.att[(s + 1) & 3].all | pass.att[(s + 3) & 3].all;
        king_safety(p, s, pass.units[s], pass.seats[s], enemy)
    })
}

/// The features of every man (material, piece-square, mobility) for
/// `seat`'s team, and what they attack.
#[inline]
fn men_pass<S: EvalSink>(p: &TeamChess, seat: usize, sink: &mut S) -> Pass {
    let m = &p.men;
    let occ = m.occ;
    let zones: [Bb256; 4] = core::array::from_fn(|s| if m.has_king(s) { zone(m.kings[s] as Sq) } else { Bb256::EMPTY });
    let mut pass = Pass { att: [Attacks::default(); 4], units: [0; 4], seats: [0; 4] };
    for s in 0..4 {
        let sg = if s & 1 == seat & 1 { 1 } else { -1 };
        let own = m.by_seat[s];
        let (e1, e2) = ((s + 1) & 3, (s + 3) & 3);
        for ty in 0..COUNT {
            let men = m.by_type[ty] & own;
            if men.is_empty() {
                continue;
            }
            if let Some(wi) = MATERIAL[ty] {
                sink.add(wi, sg * men.count() as i32);
            }
            for c in men {
                sink.add(pst_index(s, ty, c), sg);
                let a = attacks_of(s, ty, c, occ);
                let at = &mut pass.att[s];
                at.all |= a;
                match ty {
                    PAWN => at.pawn |= a,
                    KNIGHT | BISHOP => at.minor |= a,
                    ROOK => at.rook |= a,
                    _ => {}
                }
                if let Some(wi) = MOBILITY_W[ty] {
                    sink.add(wi, sg * (a & !own).count() as i32);
                }
                for e in [e1, e2] {
                    if (a & zones[e]).any() {
                        pass.units[e] += UNIT[ty];
                        pass.seats[e] |= 1 << s;
                    }
                }
            }
        }
    }
    pass
}

/// The evaluation of `seat`'s team minus the other team, as features.
pub fn features<S: EvalSink>(p: &TeamChess, seat: usize, sink: &mut S) {
    let m = &p.men;
    let stm = p.side as usize;
    let sign = |s: usize| if s & 1 == seat & 1 { 1 } else { -1 };
    let Pass { att, units, seats } = men_pass(p, seat, sink);
    let team_att = |t: usize| att[t].all | att[t + 2].all;
    let team = [team_att(0), team_att(1)];
    for s in 0..4 {
        let sg = sign(s);
        let own = m.by_seat[s];
        match king_safety(p, s, units[s], seats[s], team[(s + 1) & 1]) {
            None => sink.add(w::NO_KING, sg),
            Some(k) => {
                sink.add(w::DANGER + k.units, sg);
                sink.add(w::SEATS + k.seats, sg);
                sink.add(w::GUARDS, sg * k.guards);
                sink.add(w::SHELTER + k.shelter, sg);
                sink.add(w::EXPOSURE + k.exposure, sg);
            }
        }
        // Threats to the seat's men.
        let (mine, theirs) = (team[s & 1], &[att[(s + 1) & 3], att[(s + 3) & 3]]);
        let by_pawn = theirs[0].pawn | theirs[1].pawn;
        let by_minor = by_pawn | theirs[0].minor | theirs[1].minor;
        let by_rook = by_minor | theirs[0].rook | theirs[1].rook;
        let attacked = theirs[0].all | theirs[1].all;
        let rel = (s + 4 - stm) & 3;
        for ty in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN] {
            let men = m.by_type[ty] & own & attacked;
            if men.is_empty() {
                continue;
            }
            let cheaper = match ty {
                KNIGHT | BISHOP => by_pawn,
                ROOK => by_minor,
                QUEEN => by_rook,
                _ => Bb256::EMPTY,
            };
            let n = (men & (!mine | cheaper)).count() as i32;
            sink.add(w::THREAT + rel * 5 + THREAT_IDX[ty], sg * n);
        }
    }
    sink.add(w::TEMPO, sign(stm));
}

/// Captures by victim value (a King first), then promotions.
pub fn order_hint(p: &TeamChess, m: Move) -> i32 {
    let mut h = 0;
    if let Some((_, victim)) = p.men.piece_at(m.to()) {
        h += 16 * if victim == KING { 20_000 } else { VALUE[victim] };
        if let Some((_, attacker)) = p.men.piece_at(m.from()) {
            h -= VALUE[attacker] / 10;
        }
    }
    if m.is_ep() {
        h += 16 * VALUE[PAWN];
    }
    if let Some(t) = m.promotion() {
        h += 16 * VALUE[t];
    }
    h
}

#[cfg(test)]
mod tables {
    use super::*;
    use crate::games::cross_board::board::{bishop_attacks, rook_attacks};

    /// The per-cell frame table is [`frame`], every type indexes its own
    /// piece-square table, and the indices stay inside it.
    #[test]
    fn frame_table_is_the_frame() {
        for seat in 0..4 {
            for s in (0..CELLS).filter(|&s| exists(s)) {
                let (f, r) = frame(seat, s);
                assert!(r * 7 + f.min(13 - f) < HALF && r * 14 + f < FULL);
                for ty in [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING] {
                    let want = match ty {
                        KING => w::PST_KING + r * 14 + f,
                        PAWN => w::PST_PAWN + r * 7 + f.min(13 - f),
                        KNIGHT => w::PST_KNIGHT + r * 7 + f.min(13 - f),
                        BISHOP => w::PST_BISHOP + r * 7 + f.min(13 - f),
                        ROOK => w::PST_ROOK + r * 7 + f.min(13 - f),
                        _ => w::PST_QUEEN + r * 7 + f.min(13 - f),
                    };
                    assert_eq!(pst_index(seat, ty, s), want, "seat {seat}, type {ty}, cell {s}");
                }
            }
        }
    }

    /// The reach counted from the rays' lengths is the count of the
    /// Queen's attack set, on boards from empty to crowded.
    #[test]
    fn queen_reach_counts_the_attack_set() {
        let mut state = 7u64;
        for fill in [0u64, 8, 24, 40, 56] {
            for _ in 0..20 {
                let mut occ = Bb256::EMPTY;
                for c in (0..CELLS).filter(|&c| exists(c)) {
                    state = crate::zobrist::splitmix64(state);
                    if state % 64 < fill {
                        occ.set(c);
                    }
                }
                for k in (0..CELLS).filter(|&k| exists(k)) {
                    let set = (bishop_attacks(k, occ) | rook_attacks(k, occ)).count() as usize;
                    assert_eq!(queen_reach(k, occ), set, "King on {k}");
                }
            }
        }
    }
}

//! Static evaluation of Four-handed Chess, per team. All weights are here.
//!
//! Terms (for the team of the seat asked, minus the other team):
//! - `material`: men of live players at full value;
//! - `inert`: men of an inert player count for a quarter (they block, and may
//!   be released), and each inert player costs [`INERT_PENALTY`];
//! - `advance`: forward pawns gain per step towards the far side;
//! - `centre`: Knights, Bishops and Queens near the centre;
//! - `mobility`: cells the Bishops, Rooks and Queens of live players reach.

use super::board::Sq;
use super::moves::Move;
use super::piece::*;
use super::FourChess;
use crate::games::chess4::eval_geometry::{advance, centre_bonus, slider_mobility};

/// Piece values by type (P, reversed P, N, B, R, Q, K).
pub const VALUE: [i32; 7] = [100, 90, 300, 330, 500, 950, 0];
/// The cost of a player being inert (mated).
pub const INERT_PENALTY: i32 = 1200;
/// Per step a forward pawn has advanced.
pub const ADVANCE: i32 = 4;
/// Per unit of closeness to the centre for N, B, Q.
pub const CENTRE: i32 = 3;
/// Per cell a Bishop, Rook or Queen reaches (computed at each evaluation,
/// not kept by make/unmake).
pub const MOBILITY: i32 = 3;

/// One man's contribution to its seat's running sums, kept incrementally by
/// make/unmake: (material at full value, positional: advance or centre).
#[inline(always)]
pub(super) fn man_terms(seat: usize, ty: usize, s: Sq) -> (i32, i32) {
    let p = match ty {
        PAWN => ADVANCE * advance(seat, s),
        KNIGHT | BISHOP | QUEEN => CENTRE * centre_bonus(s),
        _ => 0,
    };
    (VALUE[ty], p)
}

/// Per-seat terms: (material, inert, advance, centre, mobility), from
/// scratch.
fn seat_terms(p: &FourChess, seat: usize) -> [i32; 5] {
    let mut material = 0;
    let mut adv = 0;
    let mut centre = 0;
    for ty in 0..COUNT {
        for s in p.men.by_type[ty] & p.men.by_seat[seat] {
            material += VALUE[ty];
            match ty {
                PAWN => adv += advance(seat, s),
                KNIGHT | BISHOP | QUEEN => centre += centre_bonus(s),
                _ => {}
            }
        }
    }
    if p.inert >> seat & 1 != 0 {
        [material / 4, -INERT_PENALTY, 0, 0, 0]
    } else {
        [material, 0, adv * ADVANCE, centre * CENTRE, MOBILITY * slider_mobility(&p.men, seat)]
    }
}

/// The named terms for `seat`'s team minus the other team.
pub fn terms(p: &FourChess, seat: usize) -> Vec<(&'static str, i32)> {
    let mut t = [0i32; 5];
    for s in 0..4 {
        let sign = if s & 1 == seat & 1 { 1 } else { -1 };
        for (ti, v) in t.iter_mut().zip(seat_terms(p, s)) {
            *ti += sign * v;
        }
    }
    vec![("material", t[0]), ("inert", t[1]), ("advance", t[2]), ("centre", t[3]), ("mobility", t[4])]
}

/// The evaluation for `seat`'s team, in centipawns, from the running sums
/// and the mobility (equal to the sum of [`terms`]; a test checks it).
#[inline]
pub fn evaluate(p: &FourChess, seat: usize) -> i32 {
    let mut v = 0;
    for s in 0..4 {
        let sum = if p.inert >> s & 1 != 0 {
            p.mat[s] / 4 - INERT_PENALTY
        } else {
            p.mat[s] + p.psq[s] + MOBILITY * slider_mobility(&p.men, s)
        };
        v += if s & 1 == seat & 1 { sum } else { -sum };
    }
    v
}

/// [`evaluate`] from scratch (tests compare the two).
#[cfg(test)]
pub fn evaluate_scratch(p: &FourChess, seat: usize) -> i32 {
    let mut v = 0;
    for s in 0..4 {
        let st = seat_terms(p, s);
        let sum: i32 = st.iter().sum();
        v += if s & 1 == seat & 1 { sum } else { -sum };
    }
    v
}

/// Move ordering: captures by victim value then cheap attacker, promotions.
pub fn order_hint(p: &FourChess, m: Move) -> i32 {
    if m.is_pass() {
        return 0;
    }
    let mut h = 0;
    if let Some((_, victim)) = p.piece_at(m.to()) {
        h += 16 * VALUE[victim];
        if let Some((_, attacker)) = p.piece_at(m.from()) {
            h -= VALUE[attacker] / 10;
        }
    }
    if m.is_promotion() {
        h += 16 * VALUE[QUEEN];
    }
    h
}

//! Static evaluation of Four-handed Chess, per team. All weights are here.
//!
//! Terms (for the team of the seat asked, minus the other team):
//! - `material`: men of live players at full value;
//! - `inert`: men of an inert player count for a quarter (they block, and may
//!   be released), and each inert player costs `inert.seat`;
//! - `advance`: forward pawns gain per step towards the far side;
//! - `centre`: Knights, Bishops and Queens near the centre;
//! - `mobility`: cells the Bishops, Rooks and Queens of live players reach.

use super::board::Sq;
use super::moves::Move;
use super::piece::*;
use super::FourChess;
use crate::eval::{EvalSink, Weights};
use crate::games::cross_board::eval_geometry::{advance, centre_bonus, slider_mobility};

/// Piece values by type (P, reversed P, N, B, R, Q, K), for move ordering.
pub const VALUE: [i32; 7] = [100, 90, 300, 330, 500, 950, 0];

/// Per cell a Bishop, Rook or Queen reaches (the default weight).
pub const MOBILITY: i32 = 3;

crate::weights! {
    /// The weights of the `fourchess` evaluation.
    pub mod w for "fourchess" {
        PAWN: "material.pawn" = 100;
        RPAWN: "material.rpawn" = 90;
        KNIGHT: "material.knight" = 300;
        BISHOP: "material.bishop" = 330;
        ROOK: "material.rook" = 500;
        QUEEN: "material.queen" = 950;
        /// Men of an inert player (they block, and may be released): a
        /// quarter of their value.
        INERT_PAWN: "inert.pawn" = 25;
        INERT_RPAWN: "inert.rpawn" = 22;
        INERT_KNIGHT: "inert.knight" = 75;
        INERT_BISHOP: "inert.bishop" = 82;
        INERT_ROOK: "inert.rook" = 125;
        INERT_QUEEN: "inert.queen" = 237;
        /// The cost of a player being inert (mated).
        INERT: "inert.seat" = -1200;
        /// Per step a forward pawn has advanced.
        ADVANCE: "advance.pawn" = 4;
        /// Per unit of closeness to the centre for N, B, Q.
        CENTRE: "centre.minor" = 3;
        /// Per cell a Bishop, Rook or Queen reaches.
        MOBILITY: "mobility.slider" = super::MOBILITY;
    }
}

/// The compiled-in weights: the tuned set in `tuned.weights` (its comments
/// say how `tetrarch tune` made it; docs/tuning.md), which beat the
/// hand-set values of the table [`w`] (the tuner's starting point,
/// `tune --start hand`) by +25 ± 24 Elo at 4,000 nodes a turn and +52 ± 65
/// at 5+0.05.
pub static DEFAULT: std::sync::LazyLock<Weights> =
    std::sync::LazyLock::new(|| Weights::committed(include_str!("tuned.weights"), "fourchess", &w::TABLE));

/// Material weights by type, for live and for inert players.
const MATERIAL: [[Option<usize>; COUNT]; 2] = [
    [Some(w::PAWN), Some(w::RPAWN), Some(w::KNIGHT), Some(w::BISHOP), Some(w::ROOK), Some(w::QUEEN), None],
    [
        Some(w::INERT_PAWN),
        Some(w::INERT_RPAWN),
        Some(w::INERT_KNIGHT),
        Some(w::INERT_BISHOP),
        Some(w::INERT_ROOK),
        Some(w::INERT_QUEEN),
        None,
    ],
];

/// One man's positional counts, kept incrementally by make/unmake: (steps
/// advanced for a forward pawn, closeness to the centre for N, B, Q).
#[inline(always)]
pub(super) fn man_counts(seat: usize, ty: usize, s: Sq) -> (i32, i32) {
    match ty {
        PAWN => (advance(seat, s), 0),
        KNIGHT | BISHOP | QUEEN => (0, centre_bonus(s)),
        _ => (0, 0),
    }
}

/// One seat's features counted `sign` times, with its positional counts
/// `(advance, centre)` given.
#[inline]
fn seat_features<S: EvalSink>(p: &FourChess, seat: usize, sign: i32, (adv, centre): (i32, i32), sink: &mut S) {
    let inert = p.inert >> seat & 1 != 0;
    let own = p.men.by_seat[seat];
    for (ty, m) in MATERIAL[usize::from(inert)].iter().enumerate() {
        if let Some(m) = m {
            sink.add(*m, sign * (p.men.by_type[ty] & own).count() as i32);
        }
    }
    if inert {
        sink.add(w::INERT, sign);
    } else {
        sink.add(w::ADVANCE, sign * adv);
        sink.add(w::CENTRE, sign * centre);
        sink.add(w::MOBILITY, sign * slider_mobility(&p.men, seat));
    }
}

/// The evaluation of `seat`'s team minus the other team, as features, from
/// the running positional counts.
pub fn features<S: EvalSink>(p: &FourChess, seat: usize, sink: &mut S) {
    for s in 0..4 {
        let sign = if s & 1 == seat & 1 { 1 } else { -1 };
        seat_features(p, s, sign, (p.adv[s], p.centre[s]), sink);
    }
}

/// [`features`] with the positional counts from scratch (tests compare).
#[cfg(test)]
pub fn features_scratch<S: EvalSink>(p: &FourChess, seat: usize, sink: &mut S) {
    for s in 0..4 {
        let sign = if s & 1 == seat & 1 { 1 } else { -1 };
        let mut counts = (0, 0);
        for ty in 0..COUNT {
            for sq in p.men.by_type[ty] & p.men.by_seat[s] {
                let (a, c) = man_counts(s, ty, sq);
                counts = (counts.0 + a, counts.1 + c);
            }
        }
        seat_features(p, s, sign, counts, sink);
    }
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

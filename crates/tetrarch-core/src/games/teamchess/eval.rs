//! Static evaluation of `teamchess`, per team. All weights are here.
//!
//! Terms (the seat's team minus the other): `material`, `advance` (pawns
//! towards promotion), `centre` (N, B, Q near the centre), `king` (a King
//! still surrounded by its own men), `mobility` (cells the Bishops, Rooks
//! and Queens reach).

use super::moves::Move;
use super::TeamChess;
use crate::games::chess4::eval_geometry::{advance, centre_bonus, slider_mobility};
use crate::games::chess4::board::{Sq, KING_STEPS};
use crate::games::chess4::piece::*;
use crate::eval::{EvalSink, Weights};

/// Piece values by type (P, -, N, B, R, Q, K), for move ordering. A King
/// is worth a lot here: capturing it ends the game.
pub const VALUE: [i32; 7] = [100, 0, 300, 330, 500, 950, 0];

/// Per cell a Bishop, Rook or Queen reaches (the default weight).
pub const MOBILITY: i32 = 3;

crate::weights! {
    /// The weights of the `teamchess` evaluation.
    pub mod w for "teamchess" {
        PAWN: "material.pawn" = 100;
        KNIGHT: "material.knight" = 300;
        BISHOP: "material.bishop" = 330;
        ROOK: "material.rook" = 500;
        QUEEN: "material.queen" = 950;
        /// Per step a pawn has advanced.
        ADVANCE: "advance.pawn" = 5;
        /// Per unit of closeness to the centre for N, B, Q.
        CENTRE: "centre.minor" = 3;
        /// Per own man next to the King.
        SHELTER: "king.shelter" = 6;
        /// A seat without its King (captured: its team has lost).
        NO_KING: "king.none" fixed = -20_000;
        /// Per cell a Bishop, Rook or Queen reaches.
        MOBILITY: "mobility.slider" = super::MOBILITY;
    }
}

/// The weight of a man's material by type.
const MATERIAL: [Option<usize>; COUNT] = [Some(w::PAWN), None, Some(w::KNIGHT), Some(w::BISHOP), Some(w::ROOK), Some(w::QUEEN), None];

/// The compiled-in weights.
pub static DEFAULT: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| Weights::defaults("teamchess", &w::TABLE));

/// One seat's features, counted `sign` times (+1 for the asking team).
fn seat_features<S: EvalSink>(p: &TeamChess, seat: usize, sign: i32, sink: &mut S) {
    let (mut adv, mut centre) = (0, 0);
    for ty in 0..COUNT {
        let men = p.men.by_type[ty] & p.men.by_seat[seat];
        if let Some(m) = MATERIAL[ty] {
            sink.add(m, sign * men.count() as i32);
        }
        for s in men {
            match ty {
                PAWN => adv += advance(seat, s),
                KNIGHT | BISHOP | QUEEN => centre += centre_bonus(s),
                _ => {}
            }
        }
    }
    sink.add(w::ADVANCE, sign * adv);
    sink.add(w::CENTRE, sign * centre);
    if p.men.has_king(seat) {
        sink.add(w::SHELTER, sign * (KING_STEPS[p.men.kings[seat] as Sq] & p.men.by_seat[seat]).count() as i32);
    } else {
        sink.add(w::NO_KING, sign);
    }
    sink.add(w::MOBILITY, sign * slider_mobility(&p.men, seat));
}

/// The evaluation of `seat`'s team minus the other team, as features.
pub fn features<S: EvalSink>(p: &TeamChess, seat: usize, sink: &mut S) {
    for s in 0..4 {
        let sign = if s & 1 == seat & 1 { 1 } else { -1 };
        seat_features(p, s, sign, sink);
    }
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

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

/// Piece values by type (P, -, N, B, R, Q, K). A King is worth a lot here:
/// capturing it ends the game.
pub const VALUE: [i32; 7] = [100, 0, 300, 330, 500, 950, 0];
/// Per step a pawn has advanced.
pub const ADVANCE: i32 = 5;
/// Per unit of closeness to the centre for N, B, Q.
pub const CENTRE: i32 = 3;
/// Per own man next to the King.
pub const SHELTER: i32 = 6;
/// Per cell a Bishop, Rook or Queen reaches.
pub const MOBILITY: i32 = 3;

fn seat_terms(p: &TeamChess, seat: usize) -> [i32; 5] {
    let (mut material, mut adv, mut centre) = (0, 0, 0);
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
    let king = if p.men.has_king(seat) {
        (KING_STEPS[p.men.kings[seat] as Sq] & p.men.by_seat[seat]).count() as i32 * SHELTER
    } else {
        -20_000
    };
    [material, adv * ADVANCE, centre * CENTRE, king, MOBILITY * slider_mobility(&p.men, seat)]
}

/// The terms for `seat`'s team minus the other team (no allocation).
fn totals(p: &TeamChess, seat: usize) -> [i32; 5] {
    let mut t = [0i32; 5];
    for s in 0..4 {
        let sign = if s & 1 == seat & 1 { 1 } else { -1 };
        for (i, v) in seat_terms(p, s).iter().enumerate() {
            t[i] += sign * v;
        }
    }
    t
}

/// The named terms for `seat`'s team minus the other team.
pub fn terms(p: &TeamChess, seat: usize) -> Vec<(&'static str, i32)> {
    let t = totals(p, seat);
    vec![("material", t[0]), ("advance", t[1]), ("centre", t[2]), ("king", t[3]), ("mobility", t[4])]
}

/// The evaluation for `seat`'s team.
pub fn evaluate(p: &TeamChess, seat: usize) -> i32 {
    totals(p, seat).iter().sum()
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

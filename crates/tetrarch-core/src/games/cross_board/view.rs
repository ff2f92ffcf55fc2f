//! The cross board as a picture for front ends ([`crate::view`]), shared by
//! `fourchess` and `teamchess`.

use super::board::{exists, sq};
use super::piece::*;
use crate::view::{BoardView, CellView, PieceView, SeatView, Shape};

/// Filled chess glyphs by piece type (a reversed pawn is a pawn).
const GLYPHS: [&str; COUNT] = ["♟", "♟", "♞", "♝", "♜", "♛", "♚"];

/// The board with the men `piece_at` reports (seat, type), seat 1 at the
/// bottom; `letters` are the colour letters of the position string and
/// `seats` the (name, CSS colour, still playing) of each seat.
pub fn board_view(
    piece_at: impl Fn(usize) -> Option<(usize, usize)>,
    letters: [char; 4],
    seats: [(&'static str, &'static str, bool); 4],
) -> BoardView {
    let mut cells = Vec::with_capacity(160);
    for y in 0..14 {
        for x in 0..14 {
            let s = sq(x, y);
            if !exists(s) {
                continue;
            }
            let pieces = piece_at(s)
                .map(|(seat, ty)| vec![PieceView::new(GLYPHS[ty], format!("{}{}", letters[seat], LETTERS[ty]), Some(seat))])
                .unwrap_or_default();
            cells.push(CellView {
                name: format!("{}{}", (b'a' + x as u8) as char, y + 1),
                x: x as f32 + 0.5,
                y: y as f32 + 0.5,
                shape: Shape::Square,
                class: if (x + y) % 2 == 0 { "dark" } else { "light" },
                playable: true,
                pieces,
                marks: vec![],
            });
        }
    }
    BoardView {
        width: 14.0,
        height: 14.0,
        cells,
        seats: seats.iter().map(|&(name, colour, active)| SeatView { name, colour, active }).collect(),
        reserves: Vec::new(),
        notes: Vec::new(),
    }
}

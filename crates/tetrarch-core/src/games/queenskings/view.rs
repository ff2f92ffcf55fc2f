//! The position as a picture for front ends ([`crate::view`]): the whole
//! N × N board, its light squares as decoration, the centre marked.

use super::board::sq;
use super::{QueensKings, KING, QUEEN};
use crate::game::{Notation, Rules};
use crate::view::{BoardView, CellView, PieceView, SeatView, Shape};

/// Colours S, W, N, E.
const COLOURS: [&str; 4] = ["#d32f2f", "#1e63c6", "#f2c200", "#2e9d4a"];
/// Colour letters S, W, N, E (as in the position string).
const LETTERS: [char; 4] = ['s', 'w', 'n', 'e'];

/// The board and the seats still in the game.
pub fn board_view(p: &QueensKings) -> BoardView {
    let n = p.geo.n;
    let mut cells = Vec::with_capacity(n * n);
    for r in 0..n {
        for f in 0..n {
            let name = format!("{}{}", (b'a' + f as u8) as char, r + 1);
            let (x, y) = (f as f32 + 0.5, r as f32 + 0.5);
            if (f + r) % 2 != 0 {
                cells.push(CellView {
                    name,
                    x,
                    y,
                    shape: Shape::Square,
                    class: "light",
                    playable: false,
                    pieces: vec![],
                    marks: vec![],
                });
                continue;
            }
            let s = sq(f, r);
            let pieces = p
                .piece_at(s)
                .map(|(c, ty)| {
                    let (glyph, letter) = match ty {
                        KING => ("K", 'k'),
                        QUEEN => ("Q", 'q'),
                        _ => ("", 'm'),
                    };
                    vec![PieceView::new(glyph, format!("{}{letter}", LETTERS[c]), Some(p.seat_of(c)))]
                })
                .unwrap_or_default();
            let class = if s == p.geo.centre { "centre" } else { "dark" };
            cells.push(CellView { name, x, y, shape: Shape::Square, class, playable: true, pieces, marks: vec![] });
        }
    }
    let seats = (0..p.seats())
        .map(|seat| {
            let c = p.colour_of(seat);
            SeatView { name: p.seat_name(seat), colour: COLOURS[c], active: p.in_game() >> c & 1 != 0 }
        })
        .collect();
    BoardView { width: n as f32, height: n as f32, cells, seats, reserves: vec![], notes: vec![] }
}

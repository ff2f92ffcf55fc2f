//! The position as a picture for front ends ([`crate::view`]).

use super::FourChess;
use crate::game::Notation;
use crate::view::BoardView;

/// Seat colours: White, Black, Yellow, Red.
const COLOURS: [&str; 4] = ["#f5f5f0", "#262626", "#f2c200", "#d32f2f"];

/// The board; inert seats are shown as not playing and named in a note.
pub fn board_view(p: &FourChess) -> BoardView {
    let inert = p.inert_mask();
    let seat = |i: usize| (p.seat_name(i), COLOURS[i], inert >> i & 1 == 0);
    let mut v = crate::games::cross_board::view::board_view(
        |s| p.piece_at(s),
        ['w', 'b', 'y', 'r'],
        [seat(0), seat(1), seat(2), seat(3)],
    );
    let names: Vec<&str> = (0..4).filter(|&i| inert >> i & 1 != 0).map(|i| p.seat_name(i)).collect();
    if !names.is_empty() {
        v.notes.push(format!("inert: {}", names.join(", ")));
    }
    v
}

//! The position as a picture for front ends ([`crate::view`]).

use super::TeamChess;
use crate::view::BoardView;

/// The board: Red, Blue, Yellow, Green.
pub fn board_view(p: &TeamChess) -> BoardView {
    let k = |i: usize| (["Red", "Blue", "Yellow", "Green"][i], ["#d32f2f", "#1e63c6", "#f2c200", "#2e9d4a"][i], true);
    crate::games::cross_board::view::board_view(|s| p.piece_at(s), ['r', 'b', 'y', 'g'], [k(0), k(1), k(2), k(3)])
}

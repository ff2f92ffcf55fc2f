//! The board field of both cross-board games' position strings: 14 ranks of
//! 8 or 14 cells (the corners are not written), each man a colour letter and
//! a piece letter.

use super::board::{sq, Sq};
use crate::ranks::{first_char, read_ranks, RanksError};

/// Cells of each rank in the board field, rank index 0 first: 8 on the
/// arms, 14 across the middle.
pub const RANK_WIDTHS: [usize; 14] = [8, 8, 8, 14, 14, 14, 14, 14, 14, 14, 14, 8, 8, 8];

/// Reads the board field: at each man, `colour` and `piece` name its seat
/// and type from its two letters, then `put(seat, type, square)` places it
/// or says why it may not stand there.
pub fn read_board(
    field: &str,
    colour: impl Fn(char) -> Option<usize>,
    piece: impl Fn(char) -> Option<usize>,
    mut put: impl FnMut(usize, usize, Sq) -> Result<(), String>,
) -> Result<(), RanksError> {
    let man = |t: &str| {
        let c = first_char(t);
        let seat = colour(c).ok_or_else(|| format!("unknown colour letter `{c}`"))?;
        let pc = t[c.len_utf8()..].chars().next().ok_or_else(|| format!("colour `{c}` without a piece letter"))?;
        let ty = piece(pc).ok_or_else(|| format!("unknown piece letter `{pc}`"))?;
        Ok(((seat, ty), 2))
    };
    read_ranks(field, &RANK_WIDTHS, man, |cell, y, (seat, ty)| {
        let x = if RANK_WIDTHS[y] == 8 { cell + 3 } else { cell };
        put(seat, ty, sq(x, y))
    })
}

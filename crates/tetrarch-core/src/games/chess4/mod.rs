//! What Four-handed Chess (`fourchess`) and Teams chess (`teamchess`) share:
//! the cross board and its tables ([`board`]), the men on it and attack
//! detection ([`men`]), piece codes and Zobrist keys.

pub mod board;
pub mod men;
pub mod view;

/// Piece types. A reversed pawn (`fourchess` only) is its own type so that
/// the board, the hash and the position string all carry its direction.
pub mod piece {
    /// Pawn moving in its owner's forward direction (`P`).
    pub const PAWN: usize = 0;
    /// Pawn moving backwards (`p`, `fourchess` §5.3.1).
    pub const RPAWN: usize = 1;
    /// Knight.
    pub const KNIGHT: usize = 2;
    /// Bishop.
    pub const BISHOP: usize = 3;
    /// Rook.
    pub const ROOK: usize = 4;
    /// Queen.
    pub const QUEEN: usize = 5;
    /// King.
    pub const KING: usize = 6;
    /// Number of piece types.
    pub const COUNT: usize = 7;
    /// Piece letters by type, as position strings write them.
    pub const LETTERS: [char; 7] = ['P', 'p', 'N', 'B', 'R', 'Q', 'K'];
}

/// Zobrist keys of the men and the side to move.
pub mod keys {
    use super::board::CELLS;
    /// Men by seat, type and cell.
    pub static PIECE: [u64; 4 * 7 * CELLS] = crate::zobrist::keys(0x4C43_4845_5353);
    /// The seat to move.
    pub static SIDE: [u64; 4] = crate::zobrist::keys(0x5349_4445);
    /// The key of a man.
    #[inline(always)]
    pub fn piece(seat: usize, ty: usize, sq: usize) -> u64 {
        PIECE[(seat * 7 + ty) * CELLS + sq]
    }
}

/// The partner of a seat (partners sit opposite).
#[inline(always)]
pub const fn partner(s: usize) -> usize {
    (s + 2) & 3
}

/// Both enemies of a seat as a bit mask.
#[inline(always)]
pub const fn enemies_mask(s: usize) -> u8 {
    (1 << ((s + 1) & 3)) | (1 << ((s + 3) & 3))
}

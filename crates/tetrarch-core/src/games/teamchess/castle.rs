//! Castling squares (§6.4 table) and which rights a move through a square
//! clears.

use crate::bitboard::Bb256;
use crate::games::cross_board::board::{sq, Sq, CELLS};

/// One castling: the King's and Rook's moves, the squares that must be empty
/// and the square next to the King that must not be attacked.
pub struct Castle {
    pub king_from: Sq,
    pub king_to: Sq,
    pub rook_from: Sq,
    pub rook_to: Sq,
    pub empty: Bb256,
    pub pass: Sq,
}

const fn c(kf: (usize, usize), kt: (usize, usize), rf: (usize, usize), rt: (usize, usize), empty: &[(usize, usize)]) -> Castle {
    let mut e = Bb256::EMPTY;
    let mut i = 0;
    while i < empty.len() {
        e = e.with(sq(empty[i].0, empty[i].1));
        i += 1;
    }
    Castle {
        king_from: sq(kf.0, kf.1),
        king_to: sq(kt.0, kt.1),
        rook_from: sq(rf.0, rf.1),
        rook_to: sq(rt.0, rt.1),
        empty: e,
        pass: sq(rt.0, rt.1),
    }
}

// Files a=0 … n=13; ranks 1 = 0 … 14 = 13.
/// `TABLE[seat][0]` King side, `[1]` Queen side.
pub static TABLE: [[Castle; 2]; 4] = [
    [c((7, 0), (9, 0), (10, 0), (8, 0), &[(8, 0), (9, 0)]), c((7, 0), (5, 0), (3, 0), (6, 0), &[(6, 0), (5, 0), (4, 0)])],
    [c((0, 6), (0, 4), (0, 3), (0, 5), &[(0, 5), (0, 4)]), c((0, 6), (0, 8), (0, 10), (0, 7), &[(0, 7), (0, 8), (0, 9)])],
    [
        c((6, 13), (4, 13), (3, 13), (5, 13), &[(5, 13), (4, 13)]),
        c((6, 13), (8, 13), (10, 13), (7, 13), &[(7, 13), (8, 13), (9, 13)]),
    ],
    [
        c((13, 7), (13, 9), (13, 10), (13, 8), &[(13, 8), (13, 9)]),
        c((13, 7), (13, 5), (13, 3), (13, 6), &[(13, 6), (13, 5), (13, 4)]),
    ],
];

/// The castling rights (bit `2·seat + side`) lost when a move leaves from or
/// arrives on each square.
pub static CLEARS: [u8; CELLS] = {
    let mut t = [0u8; CELLS];
    let mut s = 0;
    while s < 4 {
        let mut side = 0;
        while side < 2 {
            let bit = 1u8 << (2 * s + side);
            t[TABLE[s][side].king_from] |= bit;
            t[TABLE[s][side].rook_from] |= bit;
            side += 1;
        }
        s += 1;
    }
    t
};

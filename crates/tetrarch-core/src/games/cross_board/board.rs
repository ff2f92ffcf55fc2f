//! The cross board of Four-handed Chess: cells, directions and attack tables,
//! all built at compile time.
//!
//! Cells are laid out 16 to a rank (`index = 16 * y + x`, `x` = file 0..13,
//! `y` = rank − 1): files 14 and 15 are ghost padding, so a shift by one file
//! or one diagonal never wraps onto an existing cell. The 160 existing cells
//! are [`EXISTS`]; a [`Bb256`] holds the whole board.

use crate::bitboard::Bb256;

/// A cell index (`16 * y + x`).
pub type Sq = usize;

/// Number of cell indices used (14 ranks of 16).
pub const CELLS: usize = 224;

/// Cell index of file `x`, rank index `y` (both 0-based).
pub const fn sq(x: usize, y: usize) -> Sq {
    y * 16 + x
}
/// File index of a cell.
pub const fn file(s: Sq) -> usize {
    s & 15
}
/// Rank index (rank − 1) of a cell.
pub const fn rank(s: Sq) -> usize {
    s >> 4
}

/// Whether file `x`, rank index `y` (signed) is an existing square (§1.2).
pub const fn exists_xy(x: i32, y: i32) -> bool {
    x >= 0 && x <= 13 && y >= 0 && y <= 13 && ((x >= 3 && x <= 10) || (y >= 3 && y <= 10))
}

/// Whether a cell index is an existing square.
pub const fn exists(s: Sq) -> bool {
    s < CELLS && exists_xy(file(s) as i32, rank(s) as i32)
}

/// The 160 existing squares.
pub const EXISTS: Bb256 = {
    let mut b = Bb256::EMPTY;
    let mut s = 0;
    while s < CELLS {
        if exists(s) {
            b = b.with(s);
        }
        s += 1;
    }
    b
};

/// The eight directions as (file, rank) steps: N E S W NE SE SW NW.
pub const DIRS: [(i32, i32); 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];
/// North, east, south, west: indices into [`DIRS`] and the pawn directions.
pub const NORTH: usize = 0;
/// See [`NORTH`].
pub const EAST: usize = 1;
/// See [`NORTH`].
pub const SOUTH: usize = 2;
/// See [`NORTH`].
pub const WEST: usize = 3;

/// Index shift of each direction.
pub const DIR_SHIFT: [i32; 8] = {
    let mut out = [0; 8];
    let mut d = 0;
    while d < 8 {
        out[d] = DIRS[d].1 * 16 + DIRS[d].0;
        d += 1;
    }
    out
};

/// The direction opposite to each of N E S W.
pub const fn opposite(d: usize) -> usize {
    (d + 2) & 3
}

/// The cell one step from `s` in direction `(dx, dy)`, if it exists.
pub const fn step(s: Sq, dx: i32, dy: i32) -> Option<Sq> {
    let x = file(s) as i32 + dx;
    let y = rank(s) as i32 + dy;
    if exists_xy(x, y) {
        Some(sq(x as usize, y as usize))
    } else {
        None
    }
}

const fn leaper_table(offsets: &[(i32, i32)]) -> [Bb256; CELLS] {
    let mut t = [Bb256::EMPTY; CELLS];
    let mut s = 0;
    while s < CELLS {
        if exists(s) {
            let mut i = 0;
            while i < offsets.len() {
                if let Some(to) = step(s, offsets[i].0, offsets[i].1) {
                    t[s] = t[s].with(to);
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

/// Knight targets of each cell.
pub static KNIGHT_STEPS: [Bb256; CELLS] = leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
/// King targets of each cell.
pub static KING_STEPS: [Bb256; CELLS] = leaper_table(&DIRS);

/// `RAYS[d][s]`: the cells from `s` in direction `d` up to the board edge or
/// the first missing cell (§1.5), `s` excluded.
pub static RAYS: [[Bb256; CELLS]; 8] = {
    let mut t = [[Bb256::EMPTY; CELLS]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < CELLS {
            if exists(s) {
                let mut cur = s;
                while let Some(n) = step(cur, DIRS[d].0, DIRS[d].1) {
                    t[d][s] = t[d][s].with(n);
                    cur = n;
                }
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// Every cell a Queen on `s` would reach on an empty board: the lines through
/// which a move can expose a King on `s`.
pub static QUEEN_LINES: [Bb256; CELLS] = {
    let mut t = [Bb256::EMPTY; CELLS];
    let mut s = 0;
    while s < CELLS {
        let mut d = 0;
        while d < 8 {
            t[s] = t[s].or(RAYS[d][s]);
            d += 1;
        }
        s += 1;
    }
    t
};

/// The cells from which a move can change whether a King on `s` is attacked:
/// its Queen lines and Knight cells.
pub static KING_ZONE: [Bb256; CELLS] = {
    let mut t = [Bb256::EMPTY; CELLS];
    let mut s = 0;
    while s < CELLS {
        t[s] = QUEEN_LINES[s].or(KNIGHT_STEPS[s]);
        s += 1;
    }
    t
};

/// `PAWN_CAPS[d][s]`: the capture squares of a pawn on `s` moving in
/// direction `d` (N E S W): one step in `d` plus one step to either side.
pub static PAWN_CAPS: [[Bb256; CELLS]; 4] = {
    let mut t = [[Bb256::EMPTY; CELLS]; 4];
    let mut d = 0;
    while d < 4 {
        let (dx, dy) = DIRS[d];
        let mut s = 0;
        while s < CELLS {
            if exists(s) {
                // the two sideways directions are (dy, dx) and (-dy, -dx)
                if let Some(c) = step(s, dx + dy, dy + dx) {
                    t[d][s] = t[d][s].with(c);
                }
                if let Some(c) = step(s, dx - dy, dy - dx) {
                    t[d][s] = t[d][s].with(c);
                }
            }
            s += 1;
        }
        d += 1;
    }
    t
};

/// The back line of each seat (§1.4).
pub static BACK: [Bb256; 4] = {
    let mut t = [Bb256::EMPTY; 4];
    let mut i = 3;
    while i <= 10 {
        t[0] = t[0].with(sq(i, 0));
        t[1] = t[1].with(sq(0, i));
        t[2] = t[2].with(sq(i, 13));
        t[3] = t[3].with(sq(13, i));
        i += 1;
    }
    t
};

/// The pawn line of each seat (§1.4).
pub static PAWN_LINE: [Bb256; 4] = {
    let mut t = [Bb256::EMPTY; 4];
    let mut i = 3;
    while i <= 10 {
        t[0] = t[0].with(sq(i, 1));
        t[1] = t[1].with(sq(1, i));
        t[2] = t[2].with(sq(i, 12));
        t[3] = t[3].with(sq(12, i));
        i += 1;
    }
    t
};

/// `RAY_LEN[d][s]`: the number of cells in `RAYS[d][s]` (a slider's reach
/// is the difference of two entries, without counting bits).
pub static RAY_LEN: [[u8; CELLS]; 8] = {
    let mut t = [[0u8; CELLS]; 8];
    let mut i = 0;
    while i < 8 * CELLS {
        t[i / CELLS][i % CELLS] = RAYS[i / CELLS][i % CELLS].count() as u8;
        i += 1;
    }
    t
};

/// Positive directions (towards higher indices) use the lowest blocker.
#[inline(always)]
const fn positive(d: usize) -> bool {
    DIR_SHIFT[d] > 0
}

/// The cells a slider on `s` attacks in direction `d` given the occupancy.
#[inline(always)]
pub fn ray_attacks(d: usize, s: Sq, occ: Bb256) -> Bb256 {
    let ray = RAYS[d][s];
    let blockers = ray & occ;
    let first = if positive(d) { blockers.lsb() } else { blockers.msb() };
    match first {
        Some(b) => ray ^ RAYS[d][b],
        None => ray,
    }
}

/// The first occupied cell from `s` in direction `d`, if any.
#[inline(always)]
pub fn first_blocker(d: usize, s: Sq, occ: Bb256) -> Option<Sq> {
    let blockers = RAYS[d][s] & occ;
    if positive(d) {
        blockers.lsb()
    } else {
        blockers.msb()
    }
}

/// Rook attacks from `s`.
#[inline(always)]
pub fn rook_attacks(s: Sq, occ: Bb256) -> Bb256 {
    ray_attacks(0, s, occ) | ray_attacks(1, s, occ) | ray_attacks(2, s, occ) | ray_attacks(3, s, occ)
}

/// Bishop attacks from `s`.
#[inline(always)]
pub fn bishop_attacks(s: Sq, occ: Bb256) -> Bb256 {
    ray_attacks(4, s, occ) | ray_attacks(5, s, occ) | ray_attacks(6, s, occ) | ray_attacks(7, s, occ)
}

/// Square name (`a1`, `n11`).
pub fn square_name(s: Sq) -> String {
    crate::ranks::square_name(file(s), rank(s))
}

/// Parses a square name: a file letter `a`..`n` and a rank `1`..`14` without a
/// leading zero; the square must exist.
pub fn parse_square(t: &str) -> Option<Sq> {
    let (f, r) = crate::ranks::parse_square_name(t, 14, 14)?;
    let s = sq(f, r);
    exists(s).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(EXISTS.count(), 160);
        assert!(!exists(sq(0, 0)) && !exists(sq(2, 2)) && exists(sq(3, 0)) && exists(sq(0, 3)));
        assert!(!exists(sq(14, 5)) && !exists(sq(15, 5)));
        // d1-c2-b3-a4 ends at d1 (§1.5): no north-west ray from d1.
        let d1 = parse_square("d1").unwrap();
        assert!(RAYS[7][d1].is_empty());
        // Knight d3 reaches b4 (§1.5).
        assert!(KNIGHT_STEPS[parse_square("d3").unwrap()].has(parse_square("b4").unwrap()));
        // A rook on a4 sees along rank 4 to n4 on an empty board.
        assert_eq!(RAYS[1][parse_square("a4").unwrap()].count(), 13);
        for name in ["a4", "d1", "n11", "k14", "h7"] {
            assert_eq!(square_name(parse_square(name).unwrap()), name);
        }
        for bad in ["a1", "c3", "o5", "a0", "a04", "a15", "", "d", "n12"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
        // White pawn on e5 captures d6 and f6; reversed (south) d4 and f4 (§5.3.4).
        let e5 = parse_square("e5").unwrap();
        let caps: Vec<_> = PAWN_CAPS[NORTH][e5].iter().map(square_name).collect();
        assert_eq!(caps, ["d6", "f6"]);
        let caps: Vec<_> = PAWN_CAPS[SOUTH][e5].iter().map(square_name).collect();
        assert_eq!(caps, ["d4", "f4"]);
    }
}

//! The hex-like board of Quattuor Reges (§2): 15 ranks alternating 17 and 16
//! cells, 248 cells in all, held in a [`Bb256`].
//!
//! Layout: cell index `17 * y + f`, with `y` = rank − 1 and `f` the 0-based
//! file. Odd ranks (even `y`) use all 17 slots; even ranks (odd `y`) leave
//! slot 16 as padding. 15 · 17 = 255 slots, so one 256-bit board holds all.
//!
//! Neighbours (§2.2.2) become index offsets that depend on the parity of `y`:
//!
//! | `y` | W | E | NW | NE | SW | SE |
//! |---|---|---|---|---|---|---|
//! | even (17 cells) | −1 | +1 | +16 | +17 | −18 | −17 |
//! | odd (16 cells)  | −1 | +1 | +17 | +18 | −17 | −16 |
//!
//! So the neighbours of a whole set are eight shifts (±1, ±17 for every
//! cell, +16/−18 for even rows, +18/−16 for odd rows), each applied to the
//! cells for which it is a true neighbour step ([`nbrs`]); a result is only
//! ever intersected with subsets of [`EXISTS`], which removes padding slots.

use crate::bitboard::Bb256;

/// A cell index (`17 * y + f`).
pub type Sq = usize;

/// Number of slots (15 ranks of 17).
pub const SLOTS: usize = 255;

/// Number of ranks.
pub const RANKS: usize = 15;

/// Width of a rank given `y` = rank − 1.
pub const fn width(y: usize) -> usize {
    if y % 2 == 0 {
        17
    } else {
        16
    }
}

/// The cell of file `f`, rank index `y` (both 0-based).
pub const fn sq(f: usize, y: usize) -> Sq {
    17 * y + f
}
/// File index of a cell.
pub const fn file(s: Sq) -> usize {
    s % 17
}
/// Rank index (rank − 1) of a cell.
pub const fn rank(s: Sq) -> usize {
    s / 17
}
/// Whether a slot is a real cell.
pub const fn exists(s: Sq) -> bool {
    s < SLOTS && file(s) < width(rank(s))
}

const fn pred(kind: u8, s: Sq) -> bool {
    let (y, f) = (rank(s), file(s));
    match kind {
        0 => true,
        1 => f + 1 < width(y),
        2 => f > 0,
        3 => y % 2 == 0 && f > 0,
        4 => y % 2 == 1,
        5 => y < 6,
        _ => y >= 9,
    }
}

const fn build(kind: u8) -> Bb256 {
    let mut b = Bb256::EMPTY;
    let mut s = 0;
    while s < SLOTS {
        if exists(s) && pred(kind, s) {
            b = b.with(s);
        }
        s += 1;
    }
    b
}

/// The 248 cells.
pub const EXISTS: Bb256 = build(0);
/// Cells that have an east neighbour at `+1`.
const SRC_E: Bb256 = build(1);
/// Cells that have a west neighbour at `−1`.
const SRC_W: Bb256 = build(2);
/// Even rows, file ≥ 1: NW at +16 and SW at −18.
const SRC_EVEN_W: Bb256 = build(3);
/// Odd rows: NE at +18 and SE at −16.
const SRC_ODD: Bb256 = build(4);

/// Rank `y` (0-based) as a set.
pub const fn rank_bb(y: usize) -> Bb256 {
    let mut b = Bb256::EMPTY;
    let mut f = 0;
    while f < width(y) {
        b = b.with(sq(f, y));
        f += 1;
    }
    b
}

/// Red's territory (ranks 1–6).
pub const RED_TERRITORY: Bb256 = build(5);
/// Black's territory (ranks 10–15).
pub const BLACK_TERRITORY: Bb256 = build(6);

/// The Bases of each side (Red, Black), in increasing order of square name:
/// `f4 n4` and `c12 k12` (§2.3.3).
pub const BASES: [[Sq; 2]; 2] = [[sq(5, 3), sq(13, 3)], [sq(2, 11), sq(10, 11)]];

/// Both Bases of a side as a set.
pub const BASES_BB: [Bb256; 2] =
    [Bb256::EMPTY.with(BASES[0][0]).with(BASES[0][1]), Bb256::EMPTY.with(BASES[1][0]).with(BASES[1][1])];

/// The goal rank of each side (§2.3.2): rank 15 for Red, rank 1 for Black.
pub const GOAL: [Bb256; 2] = [rank_bb(14), rank_bb(0)];

/// Each side's territory.
pub const TERRITORY: [Bb256; 2] = [RED_TERRITORY, BLACK_TERRITORY];

/// The neighbours of every cell of `b` (padding slots may appear in the
/// result: intersect it with a subset of [`EXISTS`]).
#[inline(always)]
pub fn nbrs(b: Bb256) -> Bb256 {
    let e = b & SRC_E;
    let w = b & SRC_W;
    let ew = b & SRC_EVEN_W;
    let od = b & SRC_ODD;
    e.shl(1) | w.shr(1) | b.shl(17) | b.shr(17) | ew.shl(16) | ew.shr(18) | od.shl(18) | od.shr(16)
}

/// The neighbours of one cell, from the spec's table (§2.2.2), in (rank, f)
/// terms: used to build [`NBRS`] and by the simple test implementation.
pub const fn nbr_list(s: Sq) -> ([Sq; 6], usize) {
    let y = rank(s) as i32;
    let f = file(s) as i32;
    let odd_rank = y % 2 == 0; // rank y+1 is odd
    let d: [(i32, i32); 6] = if odd_rank {
        [(0, -1), (0, 1), (1, -1), (1, 0), (-1, -1), (-1, 0)]
    } else {
        [(0, -1), (0, 1), (1, 0), (1, 1), (-1, 0), (-1, 1)]
    };
    let mut out = [0usize; 6];
    let mut n = 0;
    let mut i = 0;
    while i < 6 {
        let (yy, ff) = (y + d[i].0, f + d[i].1);
        if yy >= 0 && yy < 15 && ff >= 0 && ff < width(yy as usize) as i32 {
            out[n] = sq(ff as usize, yy as usize);
            n += 1;
        }
        i += 1;
    }
    (out, n)
}

/// Neighbour set of each slot (empty for padding slots).
pub static NBRS: [Bb256; 256] = {
    let mut t = [Bb256::EMPTY; 256];
    let mut s = 0;
    while s < SLOTS {
        if exists(s) {
            let (l, n) = nbr_list(s);
            let mut i = 0;
            while i < n {
                t[s] = t[s].with(l[i]);
                i += 1;
            }
        }
        s += 1;
    }
    t
};

/// The cells reachable by a piece of range `range` on `from`: the empty
/// cells at walking distance 1..=range through empty cells, and the cells
/// of `targets` adjacent to `from` or to such an empty cell at distance at
/// most `range − 1` (§6.2.2). Returns (empty destinations, capture
/// destinations).
#[inline(always)]
pub fn reach(from: Sq, range: u32, empty: Bb256, targets: Bb256) -> (Bb256, Bb256) {
    let mut r = Bb256::from_cell(from);
    let mut i = 1;
    while i < range {
        r |= nbrs(r) & empty;
        i += 1;
    }
    let n = nbrs(r);
    ((r | n) & empty, n & targets)
}

/// Square name (`a1`, `q15`).
pub fn square_name(s: Sq) -> String {
    let mut out = String::with_capacity(3);
    push_square(s, &mut out);
    out
}

/// Appends a square name.
pub fn push_square(s: Sq, out: &mut String) {
    crate::ranks::write_square_name(file(s), rank(s), out)
}

/// Parses a square name: file `a`..`q`, rank `1`..`15` without a leading
/// zero; the cell must exist (`q2` does not).
pub fn parse_square(t: &str) -> Option<Sq> {
    let (f, r) = crate::ranks::parse_square_name(t, 17, 15)?;
    (f < width(r)).then(|| sq(f, r))
}

/// Splits a token that starts with a square name: returns the square's text
/// length (letter plus one or two digits), or `None`.
pub fn square_len(b: &[u8], i: usize) -> Option<usize> {
    if i >= b.len() || !b[i].is_ascii_lowercase() {
        return None;
    }
    let mut j = i + 1;
    while j < b.len() && j < i + 3 && b[j].is_ascii_digit() {
        j += 1;
    }
    (j > i + 1).then_some(j - i)
}

/// The 180° rotation (§2.5.1).
pub const fn rotate(s: Sq) -> Sq {
    let y = rank(s);
    let f = file(s);
    sq(width(y) - 1 - f, 14 - y)
}

/// Walking distance on the empty board between two cells, in O(1): with
/// doubled columns (`2f`, plus 1 on the 16-cell ranks) a step changes the
/// rank by 1 and the column by 1, or the column by 2 within a rank.
pub const fn distance(a: Sq, b: Sq) -> u32 {
    let (ya, yb) = (rank(a) as i32, rank(b) as i32);
    let xa = 2 * file(a) as i32 + ya % 2;
    let xb = 2 * file(b) as i32 + yb % 2;
    let (dx, dy) = ((xa - xb).abs(), (ya - yb).abs());
    (dy + if dx > dy { (dx - dy) / 2 } else { 0 }) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(b: Bb256) -> Vec<String> {
        let mut v: Vec<String> = b.iter().map(square_name).collect();
        v.sort();
        v
    }

    fn p(t: &str) -> Sq {
        parse_square(t).unwrap()
    }

    #[test]
    fn geometry() {
        assert_eq!(EXISTS.count(), 248);
        assert_eq!(RED_TERRITORY.count(), 99);
        assert_eq!(BLACK_TERRITORY.count(), 99);
        assert_eq!(BASES[0].map(square_name), ["f4", "n4"]);
        assert_eq!(BASES[1].map(square_name), ["c12", "k12"]);
        for (a, b) in [("f4", "k12"), ("n4", "c12"), ("a1", "q15"), ("a2", "p14")] {
            assert_eq!(rotate(p(a)), p(b));
            assert_eq!(rotate(p(b)), p(a));
        }
        let cases = [
            ("e5", vec!["d5", "f5", "d6", "e6", "d4", "e4"]),
            ("e6", vec!["d6", "f6", "e7", "f7", "e5", "f5"]),
            ("a1", vec!["b1", "a2"]),
            ("a2", vec!["b2", "a1", "b1", "a3", "b3"]),
            ("q15", vec!["p15", "p14"]),
        ];
        for (c, expect) in cases {
            let mut e: Vec<String> = expect.into_iter().map(String::from).collect();
            e.sort();
            assert_eq!(names(NBRS[p(c)]), e, "{c}");
        }
        // The shift version equals the table everywhere.
        for s in EXISTS {
            assert_eq!(nbrs(Bb256::from_cell(s)) & EXISTS, NBRS[s], "{}", square_name(s));
        }
        for bad in ["q2", "a16", "a0", "r1", "a01", "", "a", "p16"] {
            assert_eq!(parse_square(bad), None, "{bad}");
        }
        for s in EXISTS {
            assert_eq!(parse_square(&square_name(s)), Some(s));
        }
    }

    /// The closed form equals a breadth-first walk on the empty board.
    #[test]
    fn distance_is_the_walking_distance() {
        for a in EXISTS {
            let mut seen = Bb256::from_cell(a);
            let mut layer = seen;
            let mut d = 0;
            while layer.any() {
                for b in layer {
                    assert_eq!(distance(a, b), d, "{} {}", square_name(a), square_name(b));
                }
                layer = nbrs(layer) & EXISTS & !seen;
                seen |= layer;
                d += 1;
            }
            assert_eq!(seen, EXISTS);
        }
        // a1 to q15: 14 ranks up, and 16 files east of which the climb covers 7.
        assert_eq!(distance(p("a1"), p("q15")), 23);
    }
}

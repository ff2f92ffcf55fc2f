//! The two boards of Queens & Kings (17×17 and 13×13), their playable (dark)
//! squares in one padded layout, and tables built at compile time.
//!
//! Layout (Scan-style): the playable square on file `f`, rank index `r`
//! (`f + r` even) is cell `(19·r + f) / 2`. Both sizes use the same stride
//! of 19 half-cells per rank, so a diagonal step is always the same shift:
//! NE `+10`, NW `+9`, SE `−9`, SW `−10`. Files `n..=18` are ghost cells that
//! are never playable, so a step or a jump off the East or West edge lands on
//! a ghost (never on a real square) and needs no edge mask; steps off the
//! bottom go below cell 0 (bitboard shifts drop them) and steps off the top
//! land on cells above the board, which are ghosts too. 17×17 uses cells
//! `0..=160`, 13×13 cells `0..=96`; a [`Bb192`] holds either board and every
//! cell a jump from the board can reach.

use crate::bitboard::Bb192;

/// A cell index (`(19·r + f) / 2`).
pub type Sq = usize;

/// Number of cell indices in the tables (the width of [`Bb192`]).
pub const CELLS: usize = 192;

/// Half-cells per rank.
pub const STRIDE: usize = 19;

/// Marks "no such cell" in [`Geo::next`].
pub const NONE: u8 = 255;

/// The four diagonal directions: NE, NW, SE, SW (§2.4).
pub const NE: usize = 0;
/// See [`NE`].
pub const NW: usize = 1;
/// See [`NE`].
pub const SE: usize = 2;
/// See [`NE`].
pub const SW: usize = 3;
/// (file, rank) step of each direction.
pub const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// Cell-index shift of each direction.
pub const SHIFT: [i32; 4] = [10, 9, -9, -10];
/// The direction opposite to each.
pub const OPPOSITE: [usize; 4] = [SW, SE, NW, NE];

/// Colours (home edges) in turn order: S, W, N, E (§1.2).
pub const S: usize = 0;
/// West.
pub const W: usize = 1;
/// North.
pub const N: usize = 2;
/// East.
pub const E: usize = 3;

/// The forward directions of each colour's men (§3.1).
pub const FORWARD: [[usize; 2]; 4] = [[NE, NW], [NE, SE], [SE, SW], [NW, SW]];

/// Cell of file `f`, rank index `r` (`f + r` must be even).
#[inline(always)]
pub const fn sq(f: usize, r: usize) -> Sq {
    (r * STRIDE + f) / 2
}
/// File index of a cell (ghost files are `≥ n`).
#[inline(always)]
pub const fn file(s: Sq) -> usize {
    (2 * s) % STRIDE
}
/// Rank index of a cell.
#[inline(always)]
pub const fn rank(s: Sq) -> usize {
    (2 * s) / STRIDE
}

/// Everything about one board size.
pub struct Geo {
    /// Side length: 17 or 13.
    pub n: usize,
    /// The playable squares.
    pub valid: Bb192,
    /// The centre (§2.3).
    pub centre: Sq,
    /// Each colour's Queen edge (§3.1), by colour S W N E.
    pub qedge: [Bb192; 4],
    /// `next[d][s]`: the square one step from `s` in direction `d`, or
    /// [`NONE`].
    pub next: [[u8; CELLS]; 4],
    /// `rays[d][s]`: the squares from `s` in direction `d` to the edge,
    /// `s` excluded.
    pub rays: [[Bb192; CELLS]; 4],
    /// `step_from[d]`: squares that have a neighbour in direction `d`.
    pub step_from: [Bb192; 4],
    /// Playable squares not on any edge: only these can be jumped.
    pub inner: Bb192,
}

impl core::fmt::Debug for Geo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Geo({}x{})", self.n, self.n)
    }
}

impl Geo {
    /// Whether file `f`, rank index `r` (signed) is a playable square.
    #[inline(always)]
    pub const fn playable_xy(&self, f: i32, r: i32) -> bool {
        f >= 0 && r >= 0 && (f as usize) < self.n && (r as usize) < self.n && (f + r) % 2 == 0
    }

    /// The square `(f, r)` if playable.
    pub const fn at(&self, f: i32, r: i32) -> Option<Sq> {
        if self.playable_xy(f, r) {
            Some(sq(f as usize, r as usize))
        } else {
            None
        }
    }

    /// Whether `s` is a playable square.
    #[inline(always)]
    pub const fn playable(&self, s: Sq) -> bool {
        s < CELLS && self.valid.has(s)
    }

    /// The square where a man of `colour` arriving on `s` is crowned, as the
    /// new type: `Some(KING)` on the centre, `Some(QUEEN)` on its Queen edge.
    #[inline(always)]
    pub fn crown_at(&self, colour: usize, s: Sq) -> Option<u8> {
        if s == self.centre {
            Some(super::KING)
        } else if self.qedge[colour].has(s) {
            Some(super::QUEEN)
        } else {
            None
        }
    }

    /// Square name (`a1`, `q17`).
    pub fn name(&self, s: Sq) -> String {
        let mut out = String::with_capacity(3);
        write_square(s, &mut out);
        out
    }

    /// Parses a square name: a file letter, a rank number without a leading
    /// zero; the square must be on the board (any colour). Returns the file
    /// and rank indices.
    pub fn parse_cell(&self, t: &str) -> Option<(usize, usize)> {
        crate::ranks::parse_square_name(t, self.n, self.n)
    }
}

/// Writes a square name.
#[inline]
pub fn write_square(s: Sq, out: &mut String) {
    crate::ranks::write_square_name(file(s), rank(s), out)
}

const fn build(n: usize) -> Geo {
    let mut g = Geo {
        n,
        valid: Bb192::EMPTY,
        centre: sq(n / 2, n / 2),
        qedge: [Bb192::EMPTY; 4],
        next: [[NONE; CELLS]; 4],
        rays: [[Bb192::EMPTY; CELLS]; 4],
        step_from: [Bb192::EMPTY; 4],
        inner: Bb192::EMPTY,
    };
    let mut r = 0;
    while r < n {
        let mut f = r % 2;
        while f < n {
            let s = sq(f, r);
            g.valid = g.valid.with(s);
            if r == n - 1 {
                g.qedge[S] = g.qedge[S].with(s);
            }
            if f == n - 1 {
                g.qedge[W] = g.qedge[W].with(s);
            }
            if r == 0 {
                g.qedge[N] = g.qedge[N].with(s);
            }
            if f == 0 {
                g.qedge[E] = g.qedge[E].with(s);
            }
            if f > 0 && r > 0 && f < n - 1 && r < n - 1 {
                g.inner = g.inner.with(s);
            }
            let mut d = 0;
            while d < 4 {
                let mut x = f as i32 + DIRS[d].0;
                let mut y = r as i32 + DIRS[d].1;
                if x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n {
                    g.next[d][s] = sq(x as usize, y as usize) as u8;
                    g.step_from[d] = g.step_from[d].with(s);
                }
                while x >= 0 && y >= 0 && (x as usize) < n && (y as usize) < n {
                    g.rays[d][s] = g.rays[d][s].with(sq(x as usize, y as usize));
                    x += DIRS[d].0;
                    y += DIRS[d].1;
                }
                d += 1;
            }
            f += 2;
        }
        r += 1;
    }
    g
}

/// The 17×17 board.
pub static GEO17: Geo = build(17);
/// The 13×13 board.
pub static GEO13: Geo = build(13);

/// Whether direction `d` goes towards higher cell indices (its nearest
/// square on a ray is the lowest).
#[inline(always)]
pub const fn positive(d: usize) -> bool {
    d < 2
}

/// The first square of `bb` along direction `d` from the ray's start (the
/// nearest), if any.
#[inline(always)]
pub fn nearest(d: usize, bb: Bb192) -> Option<Sq> {
    if positive(d) {
        bb.lsb()
    } else {
        bb.msb()
    }
}

/// The direction from `a` to `b` when both are on one diagonal line.
#[inline(always)]
pub fn direction(a: Sq, b: Sq) -> usize {
    let east = file(b) > file(a);
    let north = rank(b) > rank(a);
    match (east, north) {
        (true, true) => NE,
        (false, true) => NW,
        (true, false) => SE,
        (false, false) => SW,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry() {
        assert_eq!(GEO17.valid.count(), 145);
        assert_eq!(GEO13.valid.count(), 85);
        assert_eq!(GEO17.valid.msb(), Some(160));
        assert_eq!(GEO13.valid.msb(), Some(sq(12, 12)));
        for g in [&GEO17, &GEO13] {
            for s in g.valid {
                let (f, r) = (file(s) as i32, rank(s) as i32);
                assert_eq!(sq(f as usize, r as usize), s);
                for d in 0..4 {
                    let t = s as i32 + SHIFT[d];
                    let expect = g.at(f + DIRS[d].0, r + DIRS[d].1);
                    // a shift from a playable square lands on a playable
                    // square exactly when the step stays on the board
                    let lands = t >= 0 && (t as usize) < CELLS && g.valid.has(t as usize);
                    assert_eq!(lands, expect.is_some(), "{} {d}", g.name(s));
                    if let Some(e) = expect {
                        assert_eq!(t as usize, e);
                        assert_eq!(g.next[d][s] as usize, e);
                        assert_eq!(direction(s, e), d);
                    } else {
                        assert_eq!(g.next[d][s], NONE);
                    }
                    // two steps off the board never land on the board either
                    let t2 = s as i32 + 2 * SHIFT[d];
                    let lands2 = t2 >= 0 && (t2 as usize) < CELLS && g.valid.has(t2 as usize);
                    assert_eq!(lands2, g.at(f + 2 * DIRS[d].0, r + 2 * DIRS[d].1).is_some());
                }
            }
            assert_eq!(g.parse_cell("a1"), Some((0, 0)));
        }
        assert_eq!(GEO17.name(GEO17.centre), "i9");
        assert_eq!(GEO13.name(GEO13.centre), "g7");
        assert_eq!(GEO17.name(sq(16, 16)), "q17");
        assert_eq!(GEO17.parse_cell("q17"), Some((16, 16)));
        assert_eq!(GEO13.parse_cell("q17"), None);
        assert_eq!(GEO13.parse_cell("a14"), None);
        assert_eq!(GEO13.parse_cell("a01"), None);
        assert_eq!(GEO17.qedge[S].count(), 9);
        assert_eq!(GEO13.qedge[E].count(), 7);
    }
}

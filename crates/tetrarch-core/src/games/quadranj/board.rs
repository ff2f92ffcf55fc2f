//! The square boards of Quadranj (§2): 8×8 (`quadranj`) and 10×10
//! (`quadranj4`), both on a [`Bb128`].
//!
//! Square index `N·(rank−1) + file` (0-based file), so increasing index is
//! the square order of §7.4 (by rank, then by file). Everything that depends
//! on the geometry is a per-variant table built at compile time ([`GEO8`],
//! [`GEO10`]): the 8 neighbour steps of every square, its neighbour sets,
//! and the homes and Keeps of the seats.

use crate::bitboard::Bb128;
use crate::ranks::{parse_square_name, write_square_name};

/// A square index.
pub type Sq = usize;

/// "No square" in the step tables.
pub const NO_SQ: u8 = 0xFF;

/// Directions: N E S W (orthogonal, indices 0–3), then NE SE SW NW.
pub const DF: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
/// Rank change of each direction.
pub const DR: [i32; 8] = [1, 0, -1, 0, 1, -1, -1, 1];

/// The geometry of one variant.
#[derive(Debug)]
pub struct Geo {
    /// Board width and height.
    pub n: usize,
    /// Number of seats (2 or 4).
    pub seats: usize,
    /// Every square.
    pub all: Bb128,
    /// `step[s][d]`: the square next to `s` in direction `d`, or [`NO_SQ`].
    pub step: [[u8; 8]; 100],
    /// The up to 8 neighbours of each square.
    pub nbr8: [Bb128; 100],
    /// The up to 4 orthogonal neighbours of each square.
    pub nbr4: [Bb128; 100],
    /// Home square of each seat (§2.3).
    pub home: [u8; 4],
    /// Start corner of each seat.
    pub corner: [u8; 4],
    /// Keep of each seat (§2.4).
    pub keep: [Bb128; 4],
    /// Seat letters in seat order.
    pub letters: [u8; 4],
    /// Squares not on file `a` (they have a west neighbour).
    pub not_a: Bb128,
    /// Squares not on the last file (they have an east neighbour).
    pub not_last: Bb128,
}

const fn sq_of(n: usize, f: usize, r: usize) -> usize {
    r * n + f
}

const fn build(n: usize) -> Geo {
    let seats = if n == 8 { 2 } else { 4 };
    let mut all = Bb128::EMPTY;
    let mut step = [[NO_SQ; 8]; 100];
    let mut nbr8 = [Bb128::EMPTY; 100];
    let mut nbr4 = [Bb128::EMPTY; 100];
    let mut s = 0;
    while s < n * n {
        all = all.with(s);
        let f = (s % n) as i32;
        let r = (s / n) as i32;
        let mut d = 0;
        while d < 8 {
            let ff = f + DF[d];
            let rr = r + DR[d];
            if ff >= 0 && rr >= 0 && ff < n as i32 && rr < n as i32 {
                let t = sq_of(n, ff as usize, rr as usize);
                step[s][d] = t as u8;
                nbr8[s] = nbr8[s].with(t);
                if d < 4 {
                    nbr4[s] = nbr4[s].with(t);
                }
            }
            d += 1;
        }
        s += 1;
    }
    let m = n - 1;
    let a1 = sq_of(n, 0, 0);
    let h1 = sq_of(n, m, 0);
    let a8 = sq_of(n, 0, m);
    let h8 = sq_of(n, m, m);
    // Homes and start corners in seat order (§2.3).
    let (home, corner, letters) = if n == 8 {
        ([h8 as u8, a1 as u8, 0, 0], [a1 as u8, h8 as u8, 0, 0], [b'r', b'b', 0, 0])
    } else {
        // Green, Blue, Yellow, Red.
        ([h1 as u8, a1 as u8, a8 as u8, h8 as u8], [a8 as u8, h8 as u8, h1 as u8, a1 as u8], [b'g', b'b', b'y', b'r'])
    };
    let mut keep = [Bb128::EMPTY; 4];
    let mut i = 0;
    while i < seats {
        let h = home[i] as usize;
        let hf = h % n;
        let hr = h / n;
        let f2 = if hf == 0 { 1 } else { hf - 1 };
        let r2 = if hr == 0 { 1 } else { hr - 1 };
        keep[i] = Bb128::EMPTY.with(h).with(sq_of(n, f2, hr)).with(sq_of(n, hf, r2)).with(sq_of(n, f2, r2));
        i += 1;
    }
    let mut not_a = Bb128::EMPTY;
    let mut not_last = Bb128::EMPTY;
    let mut s = 0;
    while s < n * n {
        if s % n != 0 {
            not_a = not_a.with(s);
        }
        if s % n != n - 1 {
            not_last = not_last.with(s);
        }
        s += 1;
    }
    Geo { n, seats, all, step, nbr8, nbr4, home, corner, keep, letters, not_a, not_last }
}

/// `quadranj`: 8×8, Red and Blue.
pub static GEO8: Geo = build(8);
/// `quadranj4`: 10×10, Green, Blue, Yellow, Red.
pub static GEO10: Geo = build(10);

impl Geo {
    /// The squares whose neighbours on one axis (N and S, or E and W) both lie in `m` (§6.2 item 1).
    #[inline(always)]
    pub fn bracketed(&self, m: Bb128) -> Bb128 {
        let n = self.n as u32;
        let north = m.shr(n); // u such that u + N is in m
        let south = m.shl(n) & self.all;
        let east = m.shr(1) & self.not_last;
        let west = m.shl(1) & self.not_a;
        (north & south) | (east & west)
    }

    /// The square `d` steps from `s`, if on the board.
    #[inline(always)]
    pub fn step(&self, s: Sq, d: usize) -> Option<Sq> {
        let t = self.step[s][d];
        (t != NO_SQ).then_some(t as Sq)
    }
    /// File index (0-based).
    #[inline(always)]
    pub fn file(&self, s: Sq) -> usize {
        s % self.n
    }
    /// Rank index (0-based).
    #[inline(always)]
    pub fn rank(&self, s: Sq) -> usize {
        s / self.n
    }
    /// The square of file `f`, rank `r` (0-based).
    #[inline(always)]
    pub fn sq(&self, f: usize, r: usize) -> Sq {
        r * self.n + f
    }
    /// The square's name (`a1`, `j10`).
    pub fn name(&self, s: Sq) -> String {
        let mut o = String::with_capacity(3);
        self.write_name(s, &mut o);
        o
    }
    /// Appends the square's name.
    pub fn write_name(&self, s: Sq, out: &mut String) {
        write_square_name(self.file(s), self.rank(s), out)
    }
    /// Parses a square name (lowercase file, rank without leading zeros).
    pub fn parse_sq(&self, t: &str) -> Option<Sq> {
        parse_square_name(t, self.n, self.n).map(|(f, r)| self.sq(f, r))
    }
    /// The direction from `a` to its neighbour `b`.
    pub fn dir_to(&self, a: Sq, b: Sq) -> Option<usize> {
        (0..8).find(|&d| self.step[a][d] as usize == b && self.step[a][d] != NO_SQ)
    }
    /// The seat whose letter is `c`.
    pub fn seat_of_letter(&self, c: u8) -> Option<usize> {
        self.letters[..self.seats].iter().position(|&l| l == c)
    }
}

//! Fixed-width bitboards, one type per width, so each game uses the narrowest
//! one that holds its (padded) cells.
//!
//! `BitBoard<W>` is `W` little-endian 64-bit words: bit `i` is cell `i`. All
//! operations are `const`-sized loops over `W` words that the compiler
//! unrolls; no heap, no branches on the width at run time.
//!
//! | alias | bits | used by |
//! |---|---|---|
//! | [`Bb128`] | 128 | Quadranj 10x10 (100 cells) and 8x8 |
//! | [`Bb192`] | 192 | Queens & Kings 17x17 padded dark squares (161) |
//! | [`Bb256`] | 256 | Four-handed Chess (14x16 padded = 224), Quattuor Reges (248) |

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of cells as `W` 64-bit words.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BitBoard<const W: usize>(pub [u64; W]);

/// 128 cells.
pub type Bb128 = BitBoard<2>;
/// 192 cells.
pub type Bb192 = BitBoard<3>;
/// 256 cells.
pub type Bb256 = BitBoard<4>;

impl<const W: usize> Default for BitBoard<W> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<const W: usize> BitBoard<W> {
    /// Number of cells this width holds.
    pub const BITS: usize = 64 * W;
    /// The empty set.
    pub const EMPTY: Self = BitBoard([0; W]);
    /// Every cell of the width (including padding cells).
    pub const FULL: Self = BitBoard([!0; W]);

    /// The set holding only cell `i`. `i` must be below [`Self::BITS`].
    #[inline(always)]
    pub const fn from_cell(i: usize) -> Self {
        let mut w = [0u64; W];
        w[i >> 6] = 1u64 << (i & 63);
        BitBoard(w)
    }

    /// `self` with cell `i` added (const-friendly, for table building).
    #[inline(always)]
    pub const fn with(mut self, i: usize) -> Self {
        self.0[i >> 6] |= 1u64 << (i & 63);
        self
    }

    /// Whether cell `i` is in the set.
    #[inline(always)]
    pub const fn has(&self, i: usize) -> bool {
        (self.0[i >> 6] >> (i & 63)) & 1 != 0
    }

    /// Adds cell `i`.
    #[inline(always)]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1u64 << (i & 63);
    }

    /// Removes cell `i`.
    #[inline(always)]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1u64 << (i & 63));
    }

    /// Toggles cell `i`.
    #[inline(always)]
    pub fn toggle(&mut self, i: usize) {
        self.0[i >> 6] ^= 1u64 << (i & 63);
    }

    /// Whether the set is empty.
    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        let mut i = 0;
        while i < W {
            if self.0[i] != 0 {
                return false;
            }
            i += 1;
        }
        true
    }

    /// Whether the set has at least one cell.
    #[inline(always)]
    pub const fn any(&self) -> bool {
        !self.is_empty()
    }

    /// Number of cells in the set.
    #[inline(always)]
    pub const fn count(&self) -> u32 {
        let (mut n, mut i) = (0, 0);
        while i < W {
            n += self.0[i].count_ones();
            i += 1;
        }
        n
    }

    /// Lowest cell, if any.
    #[inline(always)]
    pub fn lsb(&self) -> Option<usize> {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Highest cell, if any.
    #[inline(always)]
    pub fn msb(&self) -> Option<usize> {
        for i in (0..W).rev() {
            let w = self.0[i];
            if w != 0 {
                return Some(i * 64 + 63 - w.leading_zeros() as usize);
            }
        }
        None
    }

    /// Removes and returns the lowest cell.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Option<usize> {
        for i in 0..W {
            let w = self.0[i];
            if w != 0 {
                self.0[i] = w & (w - 1);
                return Some(i * 64 + w.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Shifts every cell up by `n` (towards higher indices); cells pushed past
    /// the width vanish.
    #[inline(always)]
    pub const fn shl(self, n: u32) -> Self {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; W];
        let mut i = W;
        while i > words {
            i -= 1;
            let src = i - words;
            let mut v = self.0[src] << bits;
            if bits != 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - bits);
            }
            out[i] = v;
        }
        BitBoard(out)
    }

    /// Shifts every cell down by `n` (towards lower indices).
    #[inline(always)]
    pub const fn shr(self, n: u32) -> Self {
        let words = (n / 64) as usize;
        let bits = n % 64;
        let mut out = [0u64; W];
        let mut i = 0;
        while i + words < W {
            let src = i + words;
            let mut v = self.0[src] >> bits;
            if bits != 0 && src + 1 < W {
                v |= self.0[src + 1] << (64 - bits);
            }
            out[i] = v;
            i += 1;
        }
        BitBoard(out)
    }

    /// Shifts by a signed amount: positive towards higher indices.
    #[inline(always)]
    pub const fn shift(self, n: i32) -> Self {
        if n >= 0 {
            self.shl(n as u32)
        } else {
            self.shr((-n) as u32)
        }
    }

    /// Const-friendly union.
    #[inline(always)]
    pub const fn or(self, o: Self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < W {
            out[i] |= o.0[i];
            i += 1;
        }
        BitBoard(out)
    }

    /// Const-friendly intersection.
    #[inline(always)]
    pub const fn and(self, o: Self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < W {
            out[i] &= o.0[i];
            i += 1;
        }
        BitBoard(out)
    }

    /// Const-friendly difference `self \ o`.
    #[inline(always)]
    pub const fn and_not(self, o: Self) -> Self {
        let mut out = self.0;
        let mut i = 0;
        while i < W {
            out[i] &= !o.0[i];
            i += 1;
        }
        BitBoard(out)
    }

    /// Iterates the cells from low to high.
    #[inline(always)]
    pub fn iter(self) -> Cells<W> {
        Cells(self)
    }
}

/// Iterator over the cells of a [`BitBoard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Cells<const W: usize>(BitBoard<W>);

impl<const W: usize> Iterator for Cells<W> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        self.0.pop_lsb()
    }
}

impl<const W: usize> IntoIterator for BitBoard<W> {
    type Item = usize;
    type IntoIter = Cells<W>;
    fn into_iter(self) -> Cells<W> {
        Cells(self)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const W: usize> $tr for BitBoard<W> {
            type Output = Self;
            #[inline(always)]
            fn $f(mut self, o: Self) -> Self {
                for i in 0..W {
                    self.0[i] $op o.0[i];
                }
                self
            }
        }
        impl<const W: usize> $tra for BitBoard<W> {
            #[inline(always)]
            fn $fa(&mut self, o: Self) {
                for i in 0..W {
                    self.0[i] $op o.0[i];
                }
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &=);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |=);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^=);

impl<const W: usize> Not for BitBoard<W> {
    type Output = Self;
    #[inline(always)]
    fn not(mut self) -> Self {
        for i in 0..W {
            self.0[i] = !self.0[i];
        }
        self
    }
}

impl<const W: usize> fmt::Debug for BitBoard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cells<const W: usize>(b: BitBoard<W>) -> Vec<usize> {
        b.iter().collect()
    }

    #[test]
    fn single_cells_and_iteration() {
        let b = Bb256::from_cell(0).with(63).with(64).with(200).with(255);
        assert_eq!(cells(b), vec![0, 63, 64, 200, 255]);
        assert_eq!(b.count(), 5);
        assert_eq!(b.lsb(), Some(0));
        assert_eq!(b.msb(), Some(255));
        assert!(b.has(200) && !b.has(201));
        assert_eq!(Bb128::EMPTY.lsb(), None);
        assert_eq!(Bb128::EMPTY.msb(), None);
    }

    proptest! {
        /// Shifts agree with moving every cell index by the amount, dropping
        /// cells that leave the width.
        #[test]
        fn shifts_move_each_cell(cs in proptest::collection::vec(0usize..256, 0..20), n in -300i32..300) {
            let mut b = Bb256::EMPTY;
            for &c in &cs { b.set(c); }
            let shifted = b.shift(n);
            let mut expect: Vec<usize> = cs.iter().filter_map(|&c| {
                let t = c as i64 + n as i64;
                (0..256).contains(&t).then_some(t as usize)
            }).collect();
            expect.sort();
            expect.dedup();
            prop_assert_eq!(cells(shifted), expect);
        }

        #[test]
        fn set_algebra(a in any::<[u64; 3]>(), b in any::<[u64; 3]>()) {
            let (x, y) = (Bb192::from_words(a), Bb192::from_words(b));
            prop_assert_eq!((x & y).count() + (x | y).count(), x.count() + y.count());
            prop_assert_eq!(x.and_not(y), x & !y);
            prop_assert_eq!((x ^ y) ^ y, x);
        }
    }

    impl<const W: usize> BitBoard<W> {
        fn from_words(w: [u64; W]) -> Self {
            BitBoard(w)
        }
    }
}

//! Set-ups (§4): the engine's proposals for `go setup`, following the
//! rulebook's set-up advice, and uniformly random legal set-ups.
//!
//! A proposal has the shape of the default set-up (§4.4.2), with the cells
//! varied by the seed. With `X`, `Y` the two suits of the side (in an order
//! the seed picks), seen from the side's own back rank:
//!
//! | rank | left wing | right wing |
//! |---|---|---|
//! | 6 (front) | `X8`, `XQ` | `YQ`, `Y8` |
//! | 5 | `YT` at the edge, `YJ`, `Y9` near the centre | `X9`, `XJ`, `XT` at the edge |
//! | 4 | `XK` | `YK` |
//! | 3 | `Y7` next to `XK`, `YA` near the centre | `XA`, `X7` next to `YK` |
//!
//! So suits alternate rank by rank on each wing, no Ace or 7 is on the front
//! two ranks, a Ten guards each edge, Queens and 9s cover the centre, Aces
//! stay near the centre, each King stands next to a 7 of the other suit,
//! and both own Bases stay empty so that rescues are possible. The two wings
//! pick their cells independently (576 choices each).

use super::board::{rotate, sq, square_name, Sq, TERRITORY};
use super::value::*;
use super::{piece_code, Piece};
use crate::zobrist::splitmix64;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(1);
        splitmix64(self.0)
    }
    fn pick(&mut self, xs: &[usize]) -> usize {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// The file of the mirror cell on a rank of width `17` (odd ranks, `y`
/// even) or `16`.
fn mirror(f: usize, y: usize) -> usize {
    if y % 2 == 0 {
        16 - f
    } else {
        15 - f
    }
}

/// One wing's cells (left-wing files; the right wing mirrors them):
/// (8, Q) on rank 6, (T, J, 9) on rank 5, K on rank 4, (7, A) on rank 3.
fn wing(rng: &mut Rng) -> [(usize, Sq); 8] {
    let f8 = rng.pick(&[1, 2, 3]);
    let fq = rng.pick(&[5, 6]);
    let ft = rng.pick(&[0, 1]);
    let fj = rng.pick(&[3, 4, 5]);
    let f9 = rng.pick(&[6, 7]);
    let fk = rng.pick(&[3, 4]);
    let f7 = rng.pick(&[fk, fk + 1]); // rank 3 cells touching the King on rank 4
    let fa = rng.pick(&[6, 7]);
    [
        (EIGHT, sq(f8, 5)),
        (QUEEN, sq(fq, 5)),
        (TEN, sq(ft, 4)),
        (JACK, sq(fj, 4)),
        (NINE, sq(f9, 4)),
        (KING, sq(fk, 3)),
        (SEVEN, sq(f7, 2)),
        (ACE, sq(fa, 2)),
    ]
}

/// Red's cells for the 16 pieces (index = piece), from a seed.
fn red_cells(seed: u64) -> [Sq; 16] {
    let mut rng = Rng(seed ^ 0x5145_5254_5550);
    let x = (rng.next() & 1) as usize; // suit X: 0 = d, 1 = h
    let y = 1 - x;
    let left = wing(&mut rng);
    let right = wing(&mut rng);
    let mut cells = [0; 16];
    for &(v, s) in &left {
        // rank 6 and 4 are suit X on the left, 5 and 3 suit Y.
        let r = s / 17;
        let suit = if r == 5 || r == 3 { x } else { y };
        cells[suit * 8 + v] = s;
    }
    for &(v, s) in &right {
        let r = s / 17;
        let f = mirror(s % 17, r);
        let suit = if r == 5 || r == 3 { y } else { x };
        cells[suit * 8 + v] = sq(f, r);
    }
    cells
}

fn token(side: usize, cells: &[Sq; 16]) -> String {
    let parts: Vec<String> = (0..16)
        .map(|i| {
            let p: Piece = side * 16 + i;
            let s = if side == 0 { cells[i] } else { rotate(cells[i]) };
            format!("{}@{}", piece_code(p), square_name(s))
        })
        .collect();
    parts.join(",")
}

/// The engine's set-up for `side` (0 Red, 1 Black), varied by `seed`. Black's
/// is a Red proposal turned by 180° with `d → c`, `h → s`.
pub fn propose(side: usize, seed: u64) -> String {
    token(side, &red_cells(seed))
}

/// A uniformly random legal set-up token for `side` (0 Red, 1 Black): 16
/// distinct cells of its territory, for match openings.
pub fn random_setup(side: usize, seed: u64) -> String {
    let mut rng = Rng(seed ^ 0x5241_4E44);
    let mut cells: Vec<Sq> = TERRITORY[side].iter().collect();
    for i in 0..16 {
        let j = i + (rng.next() % (cells.len() - i) as u64) as usize;
        cells.swap(i, j);
    }
    let parts: Vec<String> = (0..16).map(|i| format!("{}@{}", piece_code(side * 16 + i), square_name(cells[i]))).collect();
    parts.join(",")
}

//! The arithmetic of one iteration: the gains of the [`Schedule`], the
//! [`Perturbation`] it draws and applies ([`Score`](crate::score::Score), the score of its
//! games, is `crate::score`'s).

use tetrarch_match::openings::{mix, Rng};

use super::params::Param;
use super::{ALPHA, A_RATIO, GAMMA, MIN_C};

/// The gains of a run of `iterations` iterations (OpenBench's form, from
/// `c_end` and `r_end`):
///
/// `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`, `A = 0.1 · N`;
/// at iteration `k` (1-based) `c_k = max(c / k^γ, 0.5)` and
/// `a_k = a / (A + k)^α`; so `c_N = c_end` and `a_N / c_N² = r_end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// `N`.
    pub iterations: u64,
    /// `A`.
    pub big_a: f64,
    /// `α`.
    pub alpha: f64,
    /// `γ`.
    pub gamma: f64,
}

impl Schedule {
    /// OpenBench's constants for `iterations` iterations.
    pub fn new(iterations: u64) -> Schedule {
        Schedule { iterations, big_a: A_RATIO * iterations as f64, alpha: ALPHA, gamma: GAMMA }
    }

    /// `c_k` of a parameter.
    pub fn c_k(&self, p: &Param, k: u64) -> f64 {
        let c = p.c_end * (self.iterations as f64).powf(self.gamma);
        (c / (k as f64).powf(self.gamma)).max(MIN_C)
    }

    /// `a_k` of a parameter.
    pub fn a_k(&self, p: &Param, k: u64) -> f64 {
        let a = p.r_end * p.c_end * p.c_end * (self.big_a + self.iterations as f64).powf(self.alpha);
        a / (self.big_a + k as f64).powf(self.alpha)
    }
}

/// One iteration's perturbation: a function of the seed, `k` and θ alone
/// (the flips and the rounding draws come from a generator seeded with
/// `(seed, k)`), so a resumed run draws what an uninterrupted one drew.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration (1-based).
    pub k: u64,
    /// `Δᵢ`: +1 or −1.
    pub flips: Vec<f64>,
    /// `c_k` of each parameter.
    pub c: Vec<f64>,
    /// The values of the engine with `θ + c_k·Δ`, as it gets them.
    pub plus: Vec<i64>,
    /// The values of the engine with `θ − c_k·Δ`.
    pub minus: Vec<i64>,
}

impl Perturbation {
    /// Draws iteration `k`'s flips and rounds `θ ± c_k·Δ` for the engines.
    /// The rounding is OpenBench's: `floor(x + u)` with one uniform `u` per
    /// parameter shared by both sides, so the engine's value is `x` on
    /// average; then clamped to `[min, max]`.
    pub fn draw(params: &[Param], sched: &Schedule, seed: u64, k: u64) -> Perturbation {
        let mut rng = Rng(mix(seed ^ 0x5B5A_5B5A_0000_0000, k));
        let mut out = Perturbation { k, flips: vec![], c: vec![], plus: vec![], minus: vec![] };
        for p in params {
            let flip = if rng.next_u64() >> 63 == 1 { 1.0 } else { -1.0 };
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let c = sched.c_k(p, k);
            let round = |x: f64| (x + u).floor().clamp(p.min, p.max) as i64;
            out.plus.push(round(p.value + c * flip));
            out.minus.push(round(p.value - c * flip));
            out.flips.push(flip);
            out.c.push(c);
        }
        out
    }

    /// θ after the iteration's games: `θᵢ += a_k / c_k · result · Δᵢ`,
    /// clamped to `[min, max]`; `result` is wins − losses of `θ+`.
    pub fn update(&self, params: &mut [Param], sched: &Schedule, result: i64) {
        for (i, p) in params.iter_mut().enumerate() {
            let step = sched.a_k(p, self.k) / self.c[i] * result as f64 * self.flips[i];
            p.value = (p.value + step).clamp(p.min, p.max);
        }
    }
}

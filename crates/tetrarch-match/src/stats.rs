//! Match statistics: Elo from a score, its 95% error bar (trinomial over games
//! or pentanomial over game pairs), likelihood of superiority, and the SPRT
//! (the generalised SPRT of fishtest / cutechess / fastchess with logistic
//! Elo bounds). Plain arithmetic, no I/O.
//!
//! Conventions: a score is in `[0, 1]` (win 1, draw ½, loss 0) from the point
//! of view of the first engine. A game pair (the same opening with the sides
//! swapped) scores 0, ½, 1, 1½ or 2; the pentanomial counts `p[0..5]` count
//! the pairs by that score (index = 2 × pair score).

/// Elo difference for an expected score `s` (logistic): `-400 log10(1/s - 1)`.
/// Infinite at 0 and 1.
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if s >= 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference (logistic).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of a discrete distribution given as (count, value) pairs,
/// per observation. `None` without observations.
fn mean_var(obs: &[(u64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = obs.iter().map(|o| o.0 as f64).sum();
    if n == 0.0 {
        return None;
    }
    let m = obs.iter().map(|&(c, x)| c as f64 * x).sum::<f64>() / n;
    let v = obs.iter().map(|&(c, x)| c as f64 * (x - m) * (x - m)).sum::<f64>() / n;
    Some((n, m, v))
}

/// Trinomial observations (per game score) from W/L/D.
fn tri(w: u64, l: u64, d: u64) -> [(u64, f64); 3] {
    [(w, 1.0), (d, 0.5), (l, 0.0)]
}

/// Pentanomial observations (per pair, pair score / 2).
fn penta(p: &[u64; 5]) -> [(u64, f64); 5] {
    [(p[0], 0.0), (p[1], 0.25), (p[2], 0.5), (p[3], 0.75), (p[4], 1.0)]
}

/// An Elo estimate with its 95% error bar (half-width, in Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The mean score.
    pub score: f64,
    /// The Elo difference.
    pub elo: f64,
    /// Half the width of the 95% confidence interval, in Elo (`NaN` when the
    /// interval reaches 0 or 1).
    pub error: f64,
}

fn estimate(n: f64, m: f64, v: f64) -> EloEstimate {
    let se = (v / n).sqrt();
    let lo = m - 1.959_963_985 * se;
    let hi = m + 1.959_963_985 * se;
    let error = if lo <= 0.0 || hi >= 1.0 { f64::NAN } else { (elo_from_score(hi) - elo_from_score(lo)) / 2.0 };
    EloEstimate { score: m, elo: elo_from_score(m), error }
}

/// Elo and 95% error bar from wins, losses and draws (games independent).
pub fn elo_trinomial(w: u64, l: u64, d: u64) -> Option<EloEstimate> {
    mean_var(&tri(w, l, d)).map(|(n, m, v)| estimate(n, m, v))
}

/// Elo and 95% error bar from pentanomial pair counts (pairs independent).
pub fn elo_pentanomial(p: &[u64; 5]) -> Option<EloEstimate> {
    mean_var(&penta(p)).map(|(n, m, v)| estimate(n, m, v))
}

/// Likelihood of superiority from wins and losses: `½(1 + erf((W-L)/√(2(W+L))))`.
pub fn los(w: u64, l: u64) -> f64 {
    if w + l == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w as f64 - l as f64) / (2.0 * (w + l) as f64).sqrt()))
}

/// The error function (Numerical Recipes' erfc, relative error < 1.2e-7).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        1.0 - r
    } else {
        r - 1.0
    }
}

/// SPRT parameters: H0 elo = elo0, H1 elo = elo1 (logistic Elo), error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

/// What the SPRT says now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Keep playing.
    Continue,
    /// LLR reached the lower bound: H0 accepted.
    H0,
    /// LLR reached the upper bound: H1 accepted.
    H1,
}

impl Sprt {
    /// Lower bound `ln(β/(1-α))`.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
    /// Upper bound `ln((1-β)/α)`.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }
    /// The decision for a log-likelihood ratio.
    pub fn state(&self, llr: f64) -> SprtState {
        if llr >= self.upper() {
            SprtState::H1
        } else if llr <= self.lower() {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
    /// Generalised SPRT log-likelihood ratio (the normal approximation of
    /// fishtest's `LLR_logistic`): `N (s1 - s0) (2 m - s0 - s1) / (2 σ²)` with
    /// `N` observations of mean `m` and variance `σ²`, `s0`, `s1` the scores of
    /// `elo0`, `elo1`. 0 while the variance is 0.
    fn llr(&self, obs: &[(u64, f64)]) -> f64 {
        let Some((n, m, v)) = mean_var(obs) else { return 0.0 };
        if v <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }
    /// LLR from W/L/D (trinomial model, games independent).
    pub fn llr_trinomial(&self, w: u64, l: u64, d: u64) -> f64 {
        self.llr(&tri(w, l, d))
    }
    /// LLR from pentanomial pair counts (the model to use for paired games).
    pub fn llr_pentanomial(&self, p: &[u64; 5]) -> f64 {
        self.llr(&penta(p))
    }
}

/// Mean of a sample with its 95% error bar (half-width), for free-for-all mean
/// rank and score. `None` for an empty sample.
pub fn mean_with_error(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return Some((m, f64::NAN));
    }
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    Some((m, 1.959_963_985 * (v / n).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        // 400·log10(3) = 190.8485…
        assert!(close(elo_from_score(0.75), 190.8485, 1e-3));
        assert!(close(elo_from_score(0.25), -190.8485, 1e-3));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(elo_from_score(1.0).is_infinite());
        assert!(close(score_from_elo(190.8485), 0.75, 1e-6));
    }

    #[test]
    fn trinomial_elo_and_error() {
        // W=60 L=40 D=100: m = 110/200 = 0.55, Elo = -400 log10(1/0.55-1) = 34.860.
        // σ² = (60·0.45² + 100·0.05² + 40·0.55²)/200 = (12.15+0.25+12.1)/200 = 0.1225,
        // se = √(0.1225/200) = 0.024749; interval 0.55 ± 1.96·se = [0.50149, 0.59851]
        // → (Elo(0.59851) - Elo(0.50149))/2 = (69.37 - 1.04)/2 = 34.16.
        let e = elo_trinomial(60, 40, 100).unwrap();
        assert!(close(e.score, 0.55, 1e-12));
        assert!(close(e.elo, 34.860, 1e-3));
        assert!(close(e.error, 34.160, 1e-2));
        assert!(elo_trinomial(0, 0, 0).is_none());
    }

    #[test]
    fn pentanomial_elo_and_error() {
        // pairs 5,20,40,25,10 (M=100): m = (20·.25+40·.5+25·.75+10)/100 = 0.5375
        // → Elo 26.107; σ² = 0.06421875, se = 0.025342 → error 34.83.
        let e = elo_pentanomial(&[5, 20, 40, 25, 10]).unwrap();
        assert!(close(e.score, 0.5375, 1e-12));
        assert!(close(e.elo, 26.107, 1e-3));
        assert!(close(e.error, 34.827, 1e-2));
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        // ln(0.05/0.95) = -2.9444, ln(0.95/0.05) = +2.9444
        assert!(close(s.lower(), -2.944_439, 1e-5));
        assert!(close(s.upper(), 2.944_439, 1e-5));
        // Trinomial W=60 L=40 D=100: s0 = 0.5, s1 = 1/(1+10^(-10/400)) = 0.5143872,
        // m = 0.55, σ² = 0.1225: LLR = 200·0.0143872·(1.1-1.0143872)/(2·0.1225)
        //   = 200·0.0143872·0.0856128/0.245 = 1.00549.
        assert!(close(s.llr_trinomial(60, 40, 100), 1.005_49, 1e-4));
        // Pentanomial 5,20,40,25,10: m = 0.5375, σ² = 0.06421875:
        // LLR = 100·0.0143872·(1.075-1.0143872)/(2·0.06421875) = 0.678967.
        assert!(close(s.llr_pentanomial(&[5, 20, 40, 25, 10]), 0.678_967, 1e-4));
        assert_eq!(s.state(1.0), SprtState::Continue);
        assert_eq!(s.state(3.0), SprtState::H1);
        assert_eq!(s.state(-3.0), SprtState::H0);
        // No variance yet: 0.
        assert_eq!(s.llr_trinomial(0, 0, 5), 0.0);
        // A clearly stronger engine: H1 after enough games.
        assert_eq!(s.state(s.llr_trinomial(300, 100, 200)), SprtState::H1);
        assert_eq!(s.state(s.llr_trinomial(100, 300, 200)), SprtState::H0);
    }

    #[test]
    fn los_and_erf() {
        // LOS(60, 40) = ½(1+erf(20/√200)) = ½(1+erf(1.41421)) = 0.97725
        assert!(close(los(60, 40), 0.977_25, 1e-4));
        assert_eq!(los(0, 0), 0.5);
        assert!(close(erf(0.5), 0.520_499_88, 1e-6));
        assert!(close(erf(-1.0), -0.842_700_79, 1e-6));
    }

    #[test]
    fn mean_error() {
        // 1,2,3,4: mean 2.5, s² = 5/3, error = 1.96·√(5/3/4) = 1.2652
        let (m, e) = mean_with_error(&[1.0, 2.0, 3.0, 4.0]).unwrap();
        assert!(close(m, 2.5, 1e-12));
        assert!(close(e, 1.2652, 1e-3));
        assert!(mean_with_error(&[]).is_none());
    }
}

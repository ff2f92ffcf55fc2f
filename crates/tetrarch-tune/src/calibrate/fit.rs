//! The Elo fit of a ladder's games: Bradley–Terry with the logistic Elo
//! curve, by maximum likelihood (Newton's method), the first player (the
//! random anchor) fixed at Elo 0.
//!
//! - Model: `P(i beats j) = 1 / (1 + 10^(−(Rᵢ − Rⱼ)/400))`; a draw counts
//!   as half a win and half a loss.
//! - Virtual draw: every pair that played gets one more, drawn, game, so a
//!   perfect score (all wins) has a finite maximum (without it the
//!   likelihood rises for ever as the gap grows). Its pull is one game's
//!   worth: over the ladder's tens of games a pair it moves a gap of a few
//!   hundred Elo by a few per cent, and less as the games grow.
//! - Errors: the inverse of the observed information matrix (the negative
//!   Hessian of the log-likelihood at the maximum, the anchor's row and
//!   column removed) is the covariance of the Elos; a rung's 95 % error is
//!   `1.96 σ`, a difference's `1.96 √(var Rᵢ + var Rⱼ − 2 cov)`.
//!
//! No dependency: the ladder has at most a few dozen rungs, so a dense
//! Gauss–Jordan inverse is enough.

/// `ln 10 / 400`: the logistic slope of the Elo scale.
const SLOPE: f64 = std::f64::consts::LN_10 / 400.0;

/// The quantile of a two-sided 95 % interval of the normal distribution.
pub const Z95: f64 = 1.96;

/// The games of two players: `wins`, `losses` and `draws` of player `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairGames {
    /// Player `a` (an index; 0 is the anchor).
    pub a: usize,
    /// Player `b`.
    pub b: usize,
    /// Games `a` won.
    pub wins: u64,
    /// Games `a` lost.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

/// The fitted Elos with their covariance.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The Elo of every player (player 0: 0).
    pub elo: Vec<f64>,
    /// The covariance of the Elos (row and column 0 are 0: the anchor is
    /// fixed).
    pub cov: Vec<Vec<f64>>,
    /// Newton iterations taken.
    pub iterations: u32,
}

impl Fit {
    /// The 95 % error of player `i`'s Elo (`1.96 σ`).
    pub fn error(&self, i: usize) -> f64 {
        Z95 * self.cov[i][i].max(0.0).sqrt()
    }

    /// The 95 % error of `Elo(i) − Elo(j)`, from the covariance.
    pub fn diff_error(&self, i: usize, j: usize) -> f64 {
        Z95 * (self.cov[i][i] + self.cov[j][j] - 2.0 * self.cov[i][j]).max(0.0).sqrt()
    }
}

/// Why the games cannot be fitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// Fewer than two players.
    #[error("a fit needs at least two players")]
    TooFewPlayers,
    /// A pair names a player that is not there, or a player against itself.
    #[error("games of players {a} and {b} (of {n})")]
    BadPair {
        /// Its `a`.
        a: usize,
        /// Its `b`.
        b: usize,
        /// The number of players.
        n: usize,
    },
    /// A player not linked to the anchor by games: its Elo is not fixed
    /// by them.
    #[error("player {0} is not linked to the anchor by games")]
    Disconnected(usize),
    /// Newton's method did not converge (it does on any linked ladder;
    /// this guards the loop).
    #[error("the fit did not converge")]
    NoConvergence,
}

/// Aggregated games of an unordered pair: `i < j`, the score of `i` (with
/// the virtual draw) and the games (with it).
struct Edge {
    i: usize,
    j: usize,
    score: f64,
    games: f64,
}

fn edges(n: usize, pairs: &[PairGames]) -> Result<Vec<Edge>, FitError> {
    let mut acc: Vec<Edge> = Vec::new();
    for p in pairs {
        if p.a >= n || p.b >= n || p.a == p.b {
            return Err(FitError::BadPair { a: p.a, b: p.b, n });
        }
        let (i, j, s) = if p.a < p.b {
            (p.a, p.b, p.wins as f64 + p.draws as f64 / 2.0)
        } else {
            (p.b, p.a, p.losses as f64 + p.draws as f64 / 2.0)
        };
        let g = (p.wins + p.losses + p.draws) as f64;
        if g == 0.0 {
            continue;
        }
        match acc.iter_mut().find(|e| e.i == i && e.j == j) {
            Some(e) => {
                e.score += s;
                e.games += g;
            }
            None => acc.push(Edge { i, j, score: s + 0.5, games: g + 1.0 }),
        }
    }
    Ok(acc)
}

fn expected(ri: f64, rj: f64) -> f64 {
    1.0 / (1.0 + (-SLOPE * (ri - rj)).exp())
}

fn log_likelihood(r: &[f64], edges: &[Edge]) -> f64 {
    edges
        .iter()
        .map(|e| {
            let d = SLOPE * (r[e.i] - r[e.j]);
            // ln σ(d) = −ln(1 + e^−d), computed stably for both signs.
            let ln_p = -softplus(-d);
            let ln_q = -softplus(d);
            e.score * ln_p + (e.games - e.score) * ln_q
        })
        .sum()
}

fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// The gradient and the observed information of the free players (`1..n`).
fn derivatives(r: &[f64], edges: &[Edge]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = r.len() - 1;
    let mut g = vec![0.0; m];
    let mut info = vec![vec![0.0; m]; m];
    for e in edges {
        let p = expected(r[e.i], r[e.j]);
        let grad = SLOPE * (e.score - e.games * p);
        let w = SLOPE * SLOPE * e.games * p * (1.0 - p);
        for (k, sign) in [(e.i, 1.0), (e.j, -1.0)] {
            if k > 0 {
                g[k - 1] += sign * grad;
                info[k - 1][k - 1] += w;
            }
        }
        if e.i > 0 && e.j > 0 {
            info[e.i - 1][e.j - 1] -= w;
            info[e.j - 1][e.i - 1] -= w;
        }
    }
    (g, info)
}

/// The inverse of a symmetric positive definite matrix by Gauss–Jordan
/// with partial pivoting; `Err(k)` when column `k` has no usable pivot.
pub fn invert(a: &[Vec<f64>]) -> Result<Vec<Vec<f64>>, usize> {
    let n = a.len();
    let scale = a.iter().flat_map(|r| r.iter()).fold(0.0f64, |m, v| m.max(v.abs())).max(f64::MIN_POSITIVE);
    let mut m: Vec<Vec<f64>> = a.to_vec();
    let mut inv: Vec<Vec<f64>> = (0..n).map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect()).collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| m[x][c].abs().total_cmp(&m[y][c].abs())).unwrap_or(c);
        // A NaN pivot is no pivot either.
        let pivot = m[p][c].abs();
        if pivot.is_nan() || pivot <= 1e-12 * scale {
            return Err(c);
        }
        m.swap(c, p);
        inv.swap(c, p);
        let d = m[c][c];
        for k in 0..n {
            m[c][k] /= d;
            inv[c][k] /= d;
        }
        for r in 0..n {
            if r != c && m[r][c] != 0.0 {
                let f = m[r][c];
                for k in 0..n {
                    m[r][k] -= f * m[c][k];
                    inv[r][k] -= f * inv[c][k];
                }
            }
        }
    }
    Ok(inv)
}

/// Fits `n` players' Elos to their games, player 0 fixed at 0 (see the
/// module's docs for the model, the virtual draw and the errors).
pub fn fit(n: usize, pairs: &[PairGames]) -> Result<Fit, FitError> {
    if n < 2 {
        return Err(FitError::TooFewPlayers);
    }
    let edges = edges(n, pairs)?;
    // Linked to the anchor: a walk over the pairs from player 0.
    let mut linked = vec![false; n];
    linked[0] = true;
    let mut grew = true;
    while grew {
        grew = false;
        for e in &edges {
            if linked[e.i] != linked[e.j] {
                linked[e.i] = true;
                linked[e.j] = true;
                grew = true;
            }
        }
    }
    if let Some(k) = linked.iter().position(|l| !l) {
        return Err(FitError::Disconnected(k));
    }
    let mut r = vec![0.0; n];
    let mut ll = log_likelihood(&r, &edges);
    for it in 1..=200 {
        let (g, info) = derivatives(&r, &edges);
        let inv = invert(&info).map_err(|k| FitError::Disconnected(k + 1))?;
        let step: Vec<f64> = (0..n - 1).map(|a| (0..n - 1).map(|b| inv[a][b] * g[b]).sum()).collect();
        // The log-likelihood is concave, so Newton's step goes uphill;
        // halving it until the likelihood does not fall keeps a far start
        // (a gap of thousands of Elo) from overshooting.
        let mut t = 1.0;
        let mut next = r.clone();
        let mut next_ll = ll;
        for _ in 0..60 {
            for k in 1..n {
                next[k] = r[k] + t * step[k - 1];
            }
            next_ll = log_likelihood(&next, &edges);
            if next_ll >= ll - 1e-12 * ll.abs() {
                break;
            }
            t /= 2.0;
        }
        let moved = step.iter().fold(0.0f64, |m, s| m.max((t * s).abs()));
        r = next;
        ll = next_ll;
        if moved < 1e-7 {
            let (_, info) = derivatives(&r, &edges);
            let inv = invert(&info).map_err(|k| FitError::Disconnected(k + 1))?;
            let mut cov = vec![vec![0.0; n]; n];
            for a in 1..n {
                for b in 1..n {
                    cov[a][b] = inv[a - 1][b - 1];
                }
            }
            return Ok(Fit { elo: r, cov, iterations: it });
        }
    }
    Err(FitError::NoConvergence)
}

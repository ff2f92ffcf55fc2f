//! `tetrarch tune`: fits a game's evaluation weights to game results
//! (Texel tuning; docs/tuning.md).
//!
//! Every sample's evaluation is linear in the weights (`Σ w·f / d`, the
//! features `f` and divisor `d` of [`Evaluation::eval_features`](tetrarch_core::game::Evaluation::eval_features)), so the
//! samples are turned into sparse feature rows once, and the fit works on
//! those rows only.
//!
//! - **Two sides** (duels and teams): the seat to move's evaluation `e`
//!   predicts its side's result `y` (1, ½, 0) as `σ(K·e)`; the loss is the
//!   mean logistic loss (cross-entropy) `−y ln σ − (1−y) ln(1−σ)`.
//! - **Free-for-all**: every seat still in the game has its evaluation
//!   `e_s` ("that seat against all the others"); the model gives seat `s`
//!   the share `softmax(K·e)_s` of the points, and the loss is the
//!   cross-entropy against the seats' final points normalised to sum to 1.
//!
//! `K` is fitted first, with the starting weights, by a golden-section
//! search on `ln K`; then Adam moves the tunable weights, on every core
//! (rayon), over mini-batches, and the loss of a held-out tenth of the
//! games is printed after each epoch.

use rayon::prelude::*;

use tetrarch_core::eval::{FeatureList, Weights};
use tetrarch_core::game::Game;

use crate::data::Sample;

/// One position: the rows of its seats (one row for two sides; every seat
/// for free-for-all) and the targets.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// Per seat row: (weight index, count / divisor).
    pub seats: Vec<Vec<(u32, f32)>>,
    /// Two sides: the result of the seat to move's side; free-for-all:
    /// each row's share of the points (summing to 1).
    pub target: Vec<f32>,
}

/// The samples of one variant as feature rows, with a train/held-out split.
pub struct Dataset {
    /// The rows.
    pub rows: Vec<Row>,
    /// Whether each row is held out (a tenth of the games, by game number).
    pub held_out: Vec<bool>,
    /// Whether the game is a free-for-all (softmax model).
    pub free_for_all: bool,
}

/// Whether a game number falls in the held-out tenth.
pub fn is_held_out(game: u64) -> bool {
    tetrarch_core::zobrist::splitmix64(game ^ 0x5EED_7E57) % 10 == 0
}

/// The features of `pos` for `seat`, as a sparse row.
pub fn row_of<G: Game>(pos: &G, seat: usize, fl: &mut FeatureList) -> Vec<(u32, f32)> {
    fl.clear();
    pos.eval_features(seat, fl);
    let d = fl.divisor as f32;
    fl.merged().into_iter().map(|(i, c)| (i, c as f32 / d)).collect()
}

/// Why a sample of a data file is not a row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SampleError {
    /// A position the game refuses.
    #[error("game {game}: position `{pos}`: {reason}")]
    Position {
        /// The sample's game.
        game: u64,
        /// The position string.
        pos: String,
        /// The game's refusal of the position string.
        reason: tetrarch_core::game::PositionError,
    },
    /// A result (or seat) that does not fit the position's seats.
    #[error("game {game}: the result has {result} seats, the position {seats}")]
    Seats {
        /// The sample's game.
        game: u64,
        /// Seats in the result.
        result: usize,
        /// Seats of the position.
        seats: usize,
    },
}

/// Turns samples into rows. A sample whose position does not parse is an
/// error naming it.
pub fn rows_of<G: Game>(samples: &[Sample], opts: &G::Options, free_for_all: bool) -> Result<Vec<(u64, Row)>, SampleError> {
    samples
        .par_iter()
        .map_init(FeatureList::default, |fl, s| {
            let pos = G::from_position_string(&s.pos, opts).map_err(|reason| SampleError::Position {
                game: s.game,
                pos: s.pos.clone(),
                reason,
            })?;
            let n = pos.seats();
            if s.result.len() != n || s.seat >= n {
                return Err(SampleError::Seats { game: s.game, result: s.result.len(), seats: n });
            }
            let row = if free_for_all {
                let seats: Vec<usize> = (0..n).filter(|&x| pos.seat_in_game(x)).collect();
                let total: f64 = seats.iter().map(|&x| s.result[x]).sum();
                let target = seats
                    .iter()
                    .map(|&x| if total > 0.0 { (s.result[x] / total) as f32 } else { 1.0 / seats.len() as f32 })
                    .collect();
                Row { seats: seats.iter().map(|&x| row_of(&pos, x, fl)).collect(), target }
            } else {
                Row { seats: vec![row_of(&pos, s.seat, fl)], target: vec![s.result[s.seat] as f32] }
            };
            Ok((s.game, row))
        })
        .collect()
}

#[inline]
fn dot(row: &[(u32, f32)], w: &[f64]) -> f64 {
    row.iter().map(|&(i, c)| w[i as usize] * c as f64).sum()
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The loss of one row, and (when `grad` is given) its gradient added in.
fn row_loss(row: &Row, w: &[f64], k: f64, free_for_all: bool, grad: Option<&mut [f64]>) -> f64 {
    const EPS: f64 = 1e-12;
    if !free_for_all {
        let e = dot(&row.seats[0], w);
        let p = sigmoid(k * e);
        let y = row.target[0] as f64;
        if let Some(g) = grad {
            let d = (p - y) * k;
            for &(i, c) in &row.seats[0] {
                g[i as usize] += d * c as f64;
            }
        }
        return -(y * (p + EPS).ln() + (1.0 - y) * (1.0 - p + EPS).ln());
    }
    // Softmax over the seats.
    let z: Vec<f64> = row.seats.iter().map(|r| k * dot(r, w)).collect();
    let m = z.iter().cloned().fold(f64::MIN, f64::max);
    let sum: f64 = z.iter().map(|x| (x - m).exp()).sum();
    let mut loss = 0.0;
    let q: Vec<f64> = z.iter().map(|x| (x - m).exp() / sum).collect();
    for (j, &t) in row.target.iter().enumerate() {
        loss -= t as f64 * (q[j] + EPS).ln();
    }
    if let Some(g) = grad {
        for (j, r) in row.seats.iter().enumerate() {
            let d = (q[j] - row.target[j] as f64) * k;
            for &(i, c) in r {
                g[i as usize] += d * c as f64;
            }
        }
    }
    loss
}

impl Dataset {
    /// The mean loss over the training rows (`held == false`) or the
    /// held-out rows.
    pub fn loss(&self, w: &[f64], k: f64, held: bool) -> f64 {
        let (sum, n) = self
            .rows
            .par_iter()
            .zip(self.held_out.par_iter())
            .filter(|(_, h)| **h == held)
            .map(|(r, _)| (row_loss(r, w, k, self.free_for_all, None), 1usize))
            .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        if n == 0 {
            f64::NAN
        } else {
            sum / n as f64
        }
    }

    /// Per weight, the typical size of its feature where the feature is
    /// present: the root mean square of its non-zero values over the
    /// training rows (every seat's row), 1 for a feature never present.
    pub fn feature_scales(&self, n: usize) -> Vec<f64> {
        let mut sum = vec![(0.0f64, 0u64); n];
        for (r, _) in self.rows.iter().zip(&self.held_out).filter(|(_, h)| !**h) {
            for &(i, c) in r.seats.iter().flatten() {
                if c != 0.0 {
                    let e = &mut sum[i as usize];
                    *e = (e.0 + f64::from(c) * f64::from(c), e.1 + 1);
                }
            }
        }
        sum.into_iter().map(|(s, c)| if c == 0 { 1.0 } else { (s / c as f64).sqrt().max(1e-3) }).collect()
    }

    /// The indices of the training rows.
    pub fn train_indices(&self) -> Vec<usize> {
        (0..self.rows.len()).filter(|&i| !self.held_out[i]).collect()
    }

    /// The mean gradient over `rows` (indices).
    fn gradient(&self, idx: &[usize], w: &[f64], k: f64) -> Vec<f64> {
        let n = w.len();
        let g = idx
            .par_chunks(1024)
            .fold(
                || vec![0.0; n],
                |mut g, chunk| {
                    for &i in chunk {
                        row_loss(&self.rows[i], w, k, self.free_for_all, Some(&mut g));
                    }
                    g
                },
            )
            .reduce(
                || vec![0.0; n],
                |mut a, b| {
                    a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
                    a
                },
            );
        let inv = 1.0 / idx.len().max(1) as f64;
        g.into_iter().map(|x| x * inv).collect()
    }
}

/// Fits the scale `K` of `σ(K·e)` to the training rows with the weights
/// `w`: a golden-section search on `ln K` over `[1e-5, 1]`.
pub fn fit_k(data: &Dataset, w: &[f64]) -> f64 {
    let f = |lk: f64| data.loss(w, lk.exp(), false);
    let (mut a, mut b) = (1e-5f64.ln(), 1f64.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// Settings of the fit.
#[derive(Clone, Debug)]
pub struct FitArgs {
    /// Passes over the training rows.
    pub epochs: u32,
    /// Rows per Adam step.
    pub batch: usize,
    /// Adam's step size, in weight units (centipawns); with `scaled`, in
    /// centipawns of the evaluation of a position that has the feature.
    pub lr: f64,
    /// Steps scaled by each feature's typical size
    /// ([`Dataset::feature_scales`]): a weight whose feature counts tens
    /// of cells (mobility) moves a tenth as fast as one that counts men,
    /// so one step changes the evaluation by about `lr` for every weight.
    /// Plain Adam moves every weight by about `lr` a step, whatever its
    /// unit.
    pub scaled: bool,
    /// L2 pull towards the start: `λ/2 · Σ (w − w₀)²` is added to the
    /// mean loss.
    pub l2: f64,
    /// Fixed `K` (skip its fit).
    pub k: Option<f64>,
    /// Seed of the mini-batch order.
    pub seed: u64,
    /// Weights left as they start: names, or prefixes ending in `.`
    /// (`pst.` freezes every piece-square table).
    pub freeze: Vec<String>,
}

impl Default for FitArgs {
    fn default() -> Self {
        FitArgs { epochs: 30, batch: 16384, lr: 1.0, scaled: false, l2: 0.0, k: None, seed: 1, freeze: Vec::new() }
    }
}

/// One epoch's report.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    /// 1-based.
    pub epoch: u32,
    /// Mean training loss after it.
    pub train: f64,
    /// Mean held-out loss after it.
    pub held_out: f64,
}

/// Fits the tunable weights of `start` to `data` with Adam; calls `report`
/// after every epoch (and with epoch 0 before the first). Returns `K` and
/// the weights of the epoch with the lowest held-out loss (rounded;
/// untunable ones unchanged): once the held-out loss rises the fit learns
/// the training games, not the game (with no held-out rows, the last).
pub fn fit(data: &Dataset, start: &Weights, args: &FitArgs, report: &mut dyn FnMut(f64, Epoch)) -> (f64, Weights) {
    let w0: Vec<f64> = start.values.iter().map(|&v| v as f64).collect();
    let k = args.k.unwrap_or_else(|| fit_k(data, &w0));
    let tunable: Vec<bool> = (0..w0.len())
        .map(|i| {
            let name = start.table.name_of(i);
            start.table.tunable(i)
                && !args.freeze.iter().any(|f| if f.ends_with('.') { name.starts_with(f.as_str()) } else { name == *f })
        })
        .collect();
    let mut w = w0.clone();
    let step: Vec<f64> =
        if args.scaled { data.feature_scales(w.len()).iter().map(|s| args.lr / s).collect() } else { vec![args.lr; w.len()] };
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut t = 0i32;
    let mut order = data.train_indices();
    let mut rng = tetrarch_match::openings::Rng(args.seed);
    let first = Epoch { epoch: 0, train: data.loss(&w, k, false), held_out: data.loss(&w, k, true) };
    report(k, first);
    let mut best = (first.held_out, w.clone());
    for epoch in 1..=args.epochs {
        // Shuffle (Fisher–Yates, seeded).
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for b in order.chunks(args.batch.max(1)) {
            let g = data.gradient(b, &w, k);
            t += 1;
            for i in 0..w.len() {
                if !tunable[i] {
                    continue;
                }
                let gi = g[i] + args.l2 * (w[i] - w0[i]);
                m[i] = b1 * m[i] + (1.0 - b1) * gi;
                v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
                let mh = m[i] / (1.0 - b1.powi(t));
                let vh = v[i] / (1.0 - b2.powi(t));
                w[i] -= step[i] * mh / (vh.sqrt() + eps);
            }
        }
        let e = Epoch { epoch, train: data.loss(&w, k, false), held_out: data.loss(&w, k, true) };
        report(k, e);
        if e.held_out.is_nan() || e.held_out < best.0 {
            best = (e.held_out, w.clone());
        }
    }
    let w = best.1;
    let mut out = start.clone();
    for (i, x) in w.iter().enumerate() {
        if tunable[i] {
            out.values[i] =
                x.round().clamp(-(tetrarch_core::eval::MAX_WEIGHT as f64), tetrarch_core::eval::MAX_WEIGHT as f64) as i32;
        }
    }
    (k, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tetrarch_match::openings::Rng;

    tetrarch_core::weights! {
        mod w for "synthetic" {
            A: "x.a" = 0;
            B: "x.b" = 0;
            T: "y.t" [3] = [0, 0, 0];
            F: "z.fixed" fixed = 40;
        }
    }

    fn uniform(r: &mut Rng) -> f64 {
        (r.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Samples from a known linear model with a known K: the fit must give
    /// the weights back.
    fn synthetic(free_for_all: bool) -> (Dataset, Vec<f64>, f64) {
        let truth = vec![120.0, -60.0, 90.0, -50.0, 70.0, 40.0];
        let k = 0.01;
        let mut r = Rng(7);
        let mut rows = Vec::new();
        let mut held = Vec::new();
        for g in 0..20_000u64 {
            let feature_row = |r: &mut Rng| -> Vec<(u32, f32)> {
                let mut v = vec![(0, (uniform(r) * 6.0 - 3.0).round() as f32), (1, (uniform(r) * 4.0 - 2.0).round() as f32)];
                v.push((2 + (r.next_u64() % 3) as u32, if r.next_u64() % 2 == 0 { 1.0 } else { -1.0 }));
                v.push((5, (r.next_u64() % 3) as f32 - 1.0));
                v
            };
            let row = if free_for_all {
                let seats: Vec<Vec<(u32, f32)>> = (0..4).map(|_| feature_row(&mut r)).collect();
                let z: Vec<f64> = seats.iter().map(|s| k * dot(s, &truth)).collect();
                let sum: f64 = z.iter().map(|x| x.exp()).sum();
                // Draw a winner from the model's shares.
                let u = uniform(&mut r);
                let mut acc = 0.0;
                let mut win = 3;
                for (j, x) in z.iter().enumerate() {
                    acc += x.exp() / sum;
                    if u < acc {
                        win = j;
                        break;
                    }
                }
                let target = (0..4).map(|j| if j == win { 1.0 } else { 0.0 }).collect();
                Row { seats, target }
            } else {
                let f = feature_row(&mut r);
                let p = sigmoid(k * dot(&f, &truth));
                let y = if uniform(&mut r) < p { 1.0 } else { 0.0 };
                Row { seats: vec![f], target: vec![y] }
            };
            rows.push(row);
            held.push(is_held_out(g));
        }
        (Dataset { rows, held_out: held, free_for_all }, truth, k)
    }

    /// Every weight within `tolerance` of its true value (relative, with 20
    /// as the smallest scale).
    fn check(free_for_all: bool, tolerance: f64) {
        let (data, truth, k) = synthetic(free_for_all);
        // The fixed weight starts (and stays) at its true value; the rest at
        // 0. K and the weights are only known up to their product, so the
        // fit is given the model's K (fit_k is tested on its own).
        let start = Weights::defaults("synthetic", &w::TABLE);
        let args = FitArgs { epochs: 40, batch: 1024, lr: 2.0, k: Some(k), ..FitArgs::default() };
        let mut last = None;
        let (k_fit, got) = fit(&data, &start, &args, &mut |_, e| last = Some(e));
        assert_eq!(k_fit, k);
        let e = last.unwrap();
        assert!(e.train.is_finite() && e.held_out.is_finite());
        for (i, (&g, &t)) in got.values.iter().zip(&truth).enumerate() {
            assert!((g as f64 - t).abs() <= tolerance * t.abs().max(20.0), "weight {i}: {:?} against {truth:?}", got.values);
        }
        assert_eq!(got.values[5], 40, "a fixed weight is not tuned");
        // Frozen by prefix: the table stays at its start, the rest moves.
        let frozen = FitArgs { freeze: vec!["y.".into()], ..args };
        let (_, f) = fit(&data, &start, &frozen, &mut |_, _| {});
        assert_eq!(&f.values[2..5], &[0, 0, 0]);
        assert_ne!(f.values[0], 0);
    }

    #[test]
    fn the_fit_recovers_known_weights_for_two_sides() {
        check(false, 0.15);
    }

    #[test]
    fn the_fit_recovers_known_weights_for_free_for_all() {
        check(true, 0.15);
    }

    /// A feature counted in tens (a mobility) beside one counted in units
    /// (men): the scales are their sizes, and with scaled steps the fit
    /// recovers both weights, the small one to within a centipawn.
    #[test]
    fn scaled_steps_fit_a_feature_counted_in_tens() {
        let (truth, k) = ([100.0, 3.0], 0.004);
        let mut r = Rng(11);
        let (mut rows, mut held) = (Vec::new(), Vec::new());
        for g in 0..20_000u64 {
            let men = ((uniform(&mut r) * 6.0 - 3.0).round() as f32).max(-3.0);
            let cells = (uniform(&mut r) * 80.0 - 40.0).round() as f32;
            let f = vec![(0, men), (1, cells)];
            let y = if uniform(&mut r) < sigmoid(k * dot(&f, &truth)) { 1.0 } else { 0.0 };
            rows.push(Row { seats: vec![f], target: vec![y] });
            held.push(is_held_out(g));
        }
        let data = Dataset { rows, held_out: held, free_for_all: false };
        let s = data.feature_scales(6);
        assert!((s[0] - 2.2).abs() < 0.3 && (s[1] - 23.4).abs() < 1.5 && s[2] == 1.0, "{s:?}");
        let start = Weights::defaults("synthetic", &w::TABLE);
        let args = FitArgs { epochs: 30, batch: 1024, lr: 3.0, scaled: true, k: Some(k), ..FitArgs::default() };
        let (_, got) = fit(&data, &start, &args, &mut |_, _| {});
        assert!((got.values[0] as f64 - truth[0]).abs() <= 15.0, "{:?}", got.values);
        assert!((got.values[1] as f64 - truth[1]).abs() <= 1.0, "{:?}", got.values);
        // Two steps from 0: plain Adam moves both weights by up to 2 × 3
        // (the cells by 4 of those 6 centipawns: 160 centipawns of
        // evaluation at 40 cells); scaled, the count of men moves up to
        // 6 / 2.2 and the cells 6 / 23.
        let two = FitArgs { epochs: 1, batch: 10_000, ..args };
        let (_, scaled) = fit(&data, &start, &two, &mut |_, _| {});
        let (_, plain) = fit(&data, &start, &FitArgs { scaled: false, ..two }, &mut |_, _| {});
        assert!(plain.values[0] >= 5 && plain.values[1] >= 3, "{:?}", plain.values);
        assert!((2..=3).contains(&scaled.values[0]) && scaled.values[1] == 0, "{:?}", scaled.values);
    }

    #[test]
    fn k_is_found() {
        let (data, truth, k) = synthetic(false);
        let kf = fit_k(&data, &truth);
        assert!((kf / k - 1.0).abs() < 0.2, "{kf} against {k}");
    }
}

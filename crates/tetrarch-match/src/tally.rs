//! The results of a match so far ([`Tally`]): counted game by game, shown
//! on the progress line, printed as the final table and written as JSON
//! (`tetrarch match report --json`). The runner, `tetrarch match report` and
//! the shards' shared SPRT ([`crate::shared`]) all count with it.

use std::collections::{BTreeMap, HashMap};

use crate::games::Format;
use crate::record::{Decided, GameRecord};
use crate::stats::{elo_pentanomial, elo_trinomial, los, mean_with_error, Sprt, SprtState};
use crate::tournament::TournamentTally;

/// Results so far (also `tetrarch match report`'s and the shards' shared
/// SPRT's).
pub(crate) struct Tally {
    fmt: Format,
    names: Vec<String>,
    pub(crate) games: u64,
    // Two sides: from the first engine's point of view.
    w: u64,
    l: u64,
    d: u64,
    pair_scores: HashMap<u64, Vec<(u32, f64)>>,
    penta: [u64; 5],
    // Free-for-all, per engine: ranks of its seats and points per game.
    ranks: Vec<Vec<f64>>,
    points: Vec<Vec<f64>>,
    firsts: Vec<u64>,
    reasons: BTreeMap<String, u64>,
    /// A tournament's own tables (then the fields above but `games` and
    /// `reasons` stay unused).
    tour: Option<TournamentTally>,
    /// Shards with a shared folder: the games of all shards and their LLR,
    /// shown on the progress line instead of this shard's LLR.
    pub(crate) all_shards: Option<(u64, f64)>,
}

impl Tally {
    pub(crate) fn new(fmt: Format, names: Vec<String>, tour: Option<TournamentTally>) -> Tally {
        let e = names.len();
        Tally {
            fmt,
            names,
            games: 0,
            w: 0,
            l: 0,
            d: 0,
            pair_scores: HashMap::new(),
            penta: [0; 5],
            ranks: vec![Vec::new(); e],
            points: vec![Vec::new(); e],
            firsts: vec![0; e],
            reasons: BTreeMap::new(),
            tour,
            all_shards: None,
        }
    }

    pub(crate) fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        let key = match r.decided {
            Decided::Forfeit => {
                let cat = r.reason.split([':', '`', '(']).next().unwrap_or("").trim().to_string();
                match r.culprit {
                    Some(s) => format!("{cat} ({})", r.seats.get(s).map_or("?", |x| x.as_str())),
                    None => cat,
                }
            }
            _ => r.reason.clone(),
        };
        *self.reasons.entry(key).or_default() += 1;
        if let Some(t) = &mut self.tour {
            t.add(r);
            return;
        }
        match self.fmt {
            Format::Duel | Format::Teams => {
                let Some(s0) = r.seat_engines.iter().position(|&e| e == 0) else { return };
                let p = r.points[s0];
                if p == 1.0 {
                    self.w += 1;
                } else if p == 0.0 {
                    self.l += 1;
                } else {
                    self.d += 1;
                }
                let v = self.pair_scores.entry(r.opening_index).or_default();
                v.push((r.round, p));
                if v.len() == 2 && v[0].0 != v[1].0 {
                    let idx = ((v[0].1 + v[1].1) * 2.0).round() as usize;
                    self.penta[idx.min(4)] += 1;
                }
            }
            Format::FreeForAll => {
                for e in 0..self.names.len() {
                    let seats: Vec<usize> = (0..r.seats.len()).filter(|&s| r.seat_engines[s] == e).collect();
                    if seats.is_empty() {
                        continue;
                    }
                    for &s in &seats {
                        self.ranks[e].push(r.ranks[s] as f64);
                        if r.ranks[s] == 1 && r.points[s] == 1.0 {
                            self.firsts[e] += 1;
                        }
                    }
                    self.points[e].push(seats.iter().map(|&s| r.points[s]).sum::<f64>() / seats.len() as f64);
                }
            }
        }
    }

    pub(crate) fn llr(&self, s: &Sprt) -> f64 {
        if self.penta.iter().sum::<u64>() > 0 {
            s.llr_pentanomial(&self.penta)
        } else {
            s.llr_trinomial(self.w, self.l, self.d)
        }
    }

    /// One short line for the progress display.
    pub(crate) fn short(&self, sprt: Option<&Sprt>) -> String {
        if let Some(t) = &self.tour {
            return t.short();
        }
        match self.fmt {
            Format::FreeForAll => {
                let parts: Vec<String> = (0..self.names.len())
                    .map(|e| {
                        let (m, _) = mean_with_error(&self.ranks[e]).unwrap_or((f64::NAN, 0.0));
                        format!("{} rank {:.2}", self.names[e], m)
                    })
                    .collect();
                parts.join(", ")
            }
            _ => {
                let mut s = format!("{} {}-{}-{}", self.names[0], self.w, self.l, self.d);
                if let Some(e) = elo_trinomial(self.w, self.l, self.d) {
                    s.push_str(&format!(" Elo {}", fmt_elo(e.elo, e.error)));
                }
                match (sprt, self.all_shards) {
                    (Some(sp), Some((games, llr))) => {
                        s.push_str(&format!(" | all shards: {games} games, LLR {llr:.2} [{:.2}, {:.2}]", sp.lower(), sp.upper()))
                    }
                    (Some(sp), None) => s.push_str(&format!(" LLR {:.2} [{:.2}, {:.2}]", self.llr(sp), sp.lower(), sp.upper())),
                    _ => {}
                }
                s
            }
        }
    }

    pub(crate) fn table(&self, sprt: Option<&Sprt>) -> Vec<String> {
        let mut out = Vec::new();
        match self.fmt {
            _ if self.tour.is_some() => out = self.tour.as_ref().map(|t| t.table(self.games)).unwrap_or_default(),
            Format::Duel | Format::Teams => {
                let (a, b) = (&self.names[0], &self.names[1]);
                out.push(format!("Results of {a} vs {b} ({} games):", self.games));
                out.push(format!(
                    "  {:<20} {:>6} {:>6} {:>6} {:>6} {:>7}",
                    "Engine", "Games", "Wins", "Losses", "Draws", "Score"
                ));
                let n = self.games.max(1) as f64;
                for (name, w, l) in [(a, self.w, self.l), (b, self.l, self.w)] {
                    out.push(format!(
                        "  {:<20} {:>6} {:>6} {:>6} {:>6} {:>6.1}%",
                        name,
                        self.games,
                        w,
                        l,
                        self.d,
                        100.0 * (w as f64 + self.d as f64 / 2.0) / n
                    ));
                }
                match elo_trinomial(self.w, self.l, self.d) {
                    Some(e) => out.push(format!("  Elo {a} - {b}: {} (95%, games as independent)", fmt_elo(e.elo, e.error))),
                    None => out.push("  Elo: no games".into()),
                }
                let pairs: u64 = self.penta.iter().sum();
                if let Some(e) = elo_pentanomial(&self.penta) {
                    out.push(format!("  Elo {a} - {b}: {} (95%, over {pairs} game pairs)", fmt_elo(e.elo, e.error)));
                }
                out.push(format!("  LOS: {:.1}%", 100.0 * los(self.w, self.l)));
                out.push(format!(
                    "  Pentanomial [0, 1/2, 1, 3/2, 2] pairs for {a}: [{}, {}, {}, {}, {}]",
                    self.penta[0], self.penta[1], self.penta[2], self.penta[3], self.penta[4]
                ));
                if let Some(s) = sprt {
                    let llr = self.llr(s);
                    let state = match s.state(llr) {
                        SprtState::Continue => "no decision",
                        SprtState::H0 => "H0 accepted",
                        SprtState::H1 => "H1 accepted",
                    };
                    out.push(format!(
                        "  SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] ({}), {state}",
                        s.elo0,
                        s.elo1,
                        s.alpha,
                        s.beta,
                        llr,
                        s.lower(),
                        s.upper(),
                        if pairs > 0 { "pentanomial" } else { "trinomial" }
                    ));
                }
            }
            Format::FreeForAll => {
                out.push(format!("Results ({} games, free-for-all):", self.games));
                out.push(format!(
                    "  {:<20} {:>6} {:>6} {:>18} {:>18} {:>7} {:>6}",
                    "Engine", "Games", "Seats", "Mean rank", "Mean points", "Share", "Wins"
                ));
                let total: f64 = self.points.iter().map(|p| p.iter().sum::<f64>()).sum();
                for e in 0..self.names.len() {
                    let r = mean_with_error(&self.ranks[e]);
                    let p = mean_with_error(&self.points[e]);
                    let share = if total > 0.0 { 100.0 * self.points[e].iter().sum::<f64>() / total } else { f64::NAN };
                    let f = |x: Option<(f64, f64)>| x.map_or("-".to_string(), |(m, e)| format!("{m:.3} ± {e:.3}"));
                    out.push(format!(
                        "  {:<20} {:>6} {:>6} {:>18} {:>18} {:>6.1}% {:>6}",
                        self.names[e],
                        self.points[e].len(),
                        self.ranks[e].len(),
                        f(r),
                        f(p),
                        share,
                        self.firsts[e]
                    ));
                }
                out.push("  (points per game: 1 first … 0 last, shared places averaged; ± is the 95% error bar)".into());
            }
        }
        let reasons: Vec<String> = self.reasons.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        out.push(format!("  Endings: {}", reasons.join(", ")));
        out
    }

    /// The figures of [`Tally::table`] for `tetrarch match report --json`.
    pub(crate) fn to_json(&self, sprt: Option<&Sprt>) -> serde_json::Value {
        use serde_json::json;
        let num = |x: f64| {
            if x.is_finite() {
                json!(x)
            } else if x.is_nan() {
                json!(null)
            } else if x > 0.0 {
                json!("+inf")
            } else {
                json!("-inf")
            }
        };
        let endings: serde_json::Map<String, serde_json::Value> =
            self.reasons.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
        let result = match self.fmt {
            _ if self.tour.is_some() => self.tour.as_ref().map(|t| t.to_json()).unwrap_or_default(),
            Format::Duel | Format::Teams => {
                let est = |e: Option<crate::stats::EloEstimate>| {
                    e.map_or(json!(null), |e| json!({"elo": num(e.elo), "error": num(e.error), "score": num(e.score)}))
                };
                let pairs: u64 = self.penta.iter().sum();
                let sprt = sprt.map_or(json!(null), |s| {
                    let llr = self.llr(s);
                    json!({
                        "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                        "llr": num(llr), "lower": s.lower(), "upper": s.upper(),
                        "model": if pairs > 0 { "pentanomial" } else { "trinomial" },
                        "state": match s.state(llr) { SprtState::Continue => "continue", SprtState::H0 => "H0", SprtState::H1 => "H1" },
                    })
                });
                json!({
                    "kind": "two sides",
                    "engine": self.names[0], "opponent": self.names[1],
                    "wins": self.w, "losses": self.l, "draws": self.d,
                    "elo_games": est(elo_trinomial(self.w, self.l, self.d)),
                    "elo_pairs": est(elo_pentanomial(&self.penta)),
                    "pairs": pairs,
                    "los": num(los(self.w, self.l)),
                    "pentanomial": self.penta,
                    "sprt": sprt,
                })
            }
            Format::FreeForAll => {
                let total: f64 = self.points.iter().map(|p| p.iter().sum::<f64>()).sum();
                let engines: Vec<serde_json::Value> = (0..self.names.len())
                    .map(|e| {
                        let r = mean_with_error(&self.ranks[e]);
                        let p = mean_with_error(&self.points[e]);
                        let pts = self.points[e].iter().sum::<f64>();
                        json!({
                            "name": self.names[e], "games": self.points[e].len(), "seats": self.ranks[e].len(),
                            "mean_rank": r.map_or(json!(null), |x| num(x.0)), "mean_rank_error": r.map_or(json!(null), |x| num(x.1)),
                            "mean_points": p.map_or(json!(null), |x| num(x.0)), "mean_points_error": p.map_or(json!(null), |x| num(x.1)),
                            "share": if total > 0.0 { num(pts / total) } else { json!(null) },
                            "wins": self.firsts[e],
                        })
                    })
                    .collect();
                json!({"kind": "free-for-all", "engines": engines})
            }
        };
        json!({"games": self.games, "engines": self.names, "result": result, "endings": endings})
    }
}

fn fmt_elo(elo: f64, err: f64) -> String {
    let elo = if elo == 0.0 { 0.0 } else { elo }; // no "-0.0"
    let e = if elo.is_finite() {
        format!("{elo:+.1}")
    } else if elo > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    };
    if err.is_finite() {
        format!("{e} ± {err:.1}")
    } else {
        format!("{e} ± ?")
    }
}

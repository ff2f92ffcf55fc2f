//! Tournaments of more than two engines (`--tournament round-robin|gauntlet`):
//! the schedule of games, the per-engine and pair tables, and the Elo fit
//! over all results.
//!
//! **Schedule.** The engines meet in *groups*: pairs in games of two sides
//! (duel, teams), sets of as many engines as seats in free-for-all. A
//! round-robin takes every group of distinct engines (every pair, every
//! combination of four), a gauntlet every group that holds the first engine.
//! Each group plays `--games` games: every opening is played once per
//! rotation (sides swapped in a pair, seats rotated in free-for-all), and the
//! openings are the same for every group. Games are numbered opening by
//! opening, group by group, so an interrupted tournament has played every
//! group about equally often and game `g`'s place in the schedule does not
//! depend on the number of games (`--resume` with a larger `--games` goes on).
//! A plain match is the schedule with one group of every engine.
//!
//! **Elo.** A Bradley–Terry fit (logistic, Elo scale) of every result between
//! two engines, draws as half points, by maximum likelihood with the first
//! engine fixed at 0; error bars from the sandwich covariance with the
//! games of one opening in one group as a cluster (so a game pair is one
//! observation, as in the pentanomial model). With two engines this is the
//! match's Elo and pentanomial error bar to first order. See docs/match.md.

use std::collections::HashMap;

use crate::record::GameRecord;

/// How the engines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Every group of distinct engines.
    RoundRobin,
    /// Every group with the first engine in it.
    Gauntlet,
}

impl Kind {
    /// Parses `round-robin` (or `roundrobin`, cutegames' word) or `gauntlet`.
    pub fn parse(s: &str) -> Option<Kind> {
        match s {
            "round-robin" | "roundrobin" => Some(Kind::RoundRobin),
            "gauntlet" => Some(Kind::Gauntlet),
            _ => None,
        }
    }

    /// The word used in output and in the records' match fingerprint.
    pub fn word(self) -> &'static str {
        match self {
            Kind::RoundRobin => "round-robin",
            Kind::Gauntlet => "gauntlet",
        }
    }
}

/// Every `k`-element subset of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    if items.len() < k {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The games of a match or tournament: game number → (group, opening,
/// rotation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The engines of each group (command-line indices, ascending).
    pub groups: Vec<Vec<usize>>,
    /// Games of one opening in one group: 2 (sides swapped) or the number of
    /// engines of a free-for-all group (seats rotated).
    pub per_opening: u64,
}

/// One scheduled game's place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Index into [`Schedule::groups`].
    pub group: usize,
    /// The opening (the same openings for every group).
    pub opening: u64,
    /// Which game of that opening in that group (side swap / seat rotation).
    pub round: u32,
}

impl Schedule {
    /// A plain match: one group of all `engines`.
    pub fn single(engines: usize, per_opening: u64) -> Schedule {
        Schedule { groups: vec![(0..engines).collect()], per_opening }
    }

    /// A tournament of `engines` engines in groups of `group_size`.
    pub fn tournament(kind: Kind, engines: usize, group_size: usize) -> Schedule {
        let groups = match kind {
            Kind::RoundRobin => combinations(&(0..engines).collect::<Vec<_>>(), group_size),
            Kind::Gauntlet => combinations(&(1..engines).collect::<Vec<_>>(), group_size.saturating_sub(1))
                .into_iter()
                .map(|mut g| {
                    g.insert(0, 0);
                    g
                })
                .collect(),
        };
        let per_opening = if group_size == 2 { 2 } else { group_size as u64 };
        Schedule { groups, per_opening }
    }

    /// Where game `g` belongs.
    pub fn slot(&self, g: u64) -> Slot {
        let block = self.per_opening * self.groups.len() as u64;
        let r = g % block;
        Slot { group: (r / self.per_opening) as usize, opening: g / block, round: (r % self.per_opening) as u32 }
    }

    /// The game numbers of a tournament of `games_per_group` games a group,
    /// in schedule order (every opening of every group, then the next).
    pub fn total(&self, games_per_group: u64) -> u64 {
        games_per_group * self.groups.len() as u64
    }
}

/// A result between two engines in one game: `a` scored `s` against `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Duel {
    /// Cluster of correlated results (one opening in one group).
    pub cluster: usize,
    /// First engine.
    pub a: usize,
    /// Second engine.
    pub b: usize,
    /// `a`'s score against `b`: 1, ½ or 0.
    pub s: f64,
}

/// An engine's Elo relative to the first engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rating {
    /// The first engine.
    Reference,
    /// A finite estimate and its 95% error bar (half-width).
    Finite(f64, f64),
    /// Above every engine of the first engine's connected part: it scored
    /// against them, they never scored against it (directly or through
    /// others).
    PlusInf,
    /// Below them.
    MinusInf,
    /// No results connect it with the first engine.
    Unknown,
}

const C: f64 = std::f64::consts::LN_10 / 400.0;

fn expected(d: f64) -> f64 {
    1.0 / (1.0 + (-C * d).exp())
}

/// Solves `m x = v` (Gaussian elimination with partial pivoting); `None` if
/// `m` is singular.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Option<Vec<f64>> {
    let n = v.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[piv][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, piv);
        v.swap(col, piv);
        for row in 0..n {
            if row != col {
                let f = m[row][col] / m[col][col];
                if f != 0.0 {
                    for k in col..n {
                        m[row][k] -= f * m[col][k];
                    }
                    v[row] -= f * v[col];
                }
            }
        }
    }
    Some((0..n).map(|i| v[i] / m[i][i]).collect())
}

/// The inverse of a symmetric positive definite matrix (column by column).
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut inv = vec![vec![0.0; n]; n];
    for j in 0..n {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let x = solve(m.to_vec(), e)?;
        for i in 0..n {
            inv[i][j] = x[i];
        }
    }
    Some(inv)
}

/// `reach[i][j]`: `i` scored something against `j` through a chain of
/// games (every engine reaches itself).
fn reachability(n: usize, duels: &[Duel]) -> Vec<Vec<bool>> {
    let mut reach = vec![vec![false; n]; n];
    for d in duels {
        if d.s > 0.0 {
            reach[d.a][d.b] = true;
        }
        if d.s < 1.0 {
            reach[d.b][d.a] = true;
        }
    }
    for (i, row) in reach.iter_mut().enumerate() {
        row[i] = true;
    }
    for k in 0..n {
        for i in 0..n {
            if reach[i][k] {
                for j in 0..n {
                    if reach[k][j] {
                        reach[i][j] = true;
                    }
                }
            }
        }
    }
    reach
}

/// The maximum-likelihood fit over engine 0's part: the ratings free to
/// move (every engine of the part but engine 0) and the games inside it.
struct Fit<'a> {
    /// The free engines.
    free: Vec<usize>,
    /// Engine → its index among the free ones.
    index: HashMap<usize, usize>,
    /// The games between two engines of the part.
    inside: Vec<&'a Duel>,
}

impl Fit<'_> {
    /// The log-likelihood of ratings `r`, its gradient and its information
    /// matrix in the free ratings.
    fn grad_info(&self, r: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        let m = self.free.len();
        let mut g = vec![0.0; m];
        let mut h = vec![vec![0.0; m]; m];
        let mut ll = 0.0;
        for d in &self.inside {
            let p = expected(r[d.a] - r[d.b]);
            ll += d.s * p.max(1e-300).ln() + (1.0 - d.s) * (1.0 - p).max(1e-300).ln();
            let (ia, ib) = (self.index.get(&d.a).copied(), self.index.get(&d.b).copied());
            let w = C * C * p * (1.0 - p);
            if let Some(i) = ia {
                g[i] += C * (d.s - p);
                h[i][i] += w;
            }
            if let Some(j) = ib {
                g[j] -= C * (d.s - p);
                h[j][j] += w;
            }
            if let (Some(i), Some(j)) = (ia, ib) {
                h[i][j] -= w;
                h[j][i] -= w;
            }
        }
        (ll, g, h)
    }

    /// The ratings (all `n`, engine 0 at 0) by Newton's method with step
    /// halving (the log-likelihood is concave).
    fn newton(&self, n: usize) -> Vec<f64> {
        let mut r = vec![0.0; n];
        for _ in 0..100 {
            let (ll, g, h) = self.grad_info(&r);
            let Some(step) = solve(h, g.clone()) else { break };
            let mut t = 1.0;
            let mut moved = false;
            while t > 1e-6 {
                let mut cand = r.clone();
                for (k, &e) in self.free.iter().enumerate() {
                    cand[e] += t * step[k];
                }
                if self.grad_info(&cand).0 >= ll - 1e-12 {
                    r = cand;
                    moved = true;
                    break;
                }
                t /= 2.0;
            }
            let size = step.iter().map(|x| (x * t).abs()).fold(0.0, f64::max);
            if !moved || size < 1e-9 {
                break;
            }
        }
        r
    }

    /// The 95% error bar of each free rating at `r`: the sandwich
    /// covariance H⁻¹ J H⁻¹, J summed over clusters.
    fn error_bars(&self, r: &[f64]) -> Option<Vec<f64>> {
        let m = self.free.len();
        let (_, _, h) = self.grad_info(r);
        let hinv = invert(&h)?;
        let mut per_cluster: HashMap<usize, Vec<f64>> = HashMap::new();
        for d in &self.inside {
            let p = expected(r[d.a] - r[d.b]);
            let gc = per_cluster.entry(d.cluster).or_insert_with(|| vec![0.0; m]);
            if let Some(&i) = self.index.get(&d.a) {
                gc[i] += C * (d.s - p);
            }
            if let Some(&j) = self.index.get(&d.b) {
                gc[j] -= C * (d.s - p);
            }
        }
        let mut j = vec![vec![0.0; m]; m];
        for gc in per_cluster.values() {
            for a in 0..m {
                for b in 0..m {
                    j[a][b] += gc[a] * gc[b];
                }
            }
        }
        let bars = (0..m)
            .map(|k| {
                // (H⁻¹ J H⁻¹)_kk
                let mut var = 0.0;
                for a in 0..m {
                    for b in 0..m {
                        var += hinv[k][a] * j[a][b] * hinv[b][k];
                    }
                }
                1.959_963_985 * var.max(0.0).sqrt()
            })
            .collect();
        Some(bars)
    }
}

/// The Bradley–Terry fit of `duels` among `n` engines: each engine's Elo
/// relative to engine 0 with its 95% error bar (see the module comment).
pub fn fit_elo(n: usize, duels: &[Duel]) -> Vec<Rating> {
    if n == 0 {
        return Vec::new();
    }
    // 1. The part of engine 0: the engines that took points from it through
    //    a chain and gave points to it through a chain. Only there is the
    //    maximum-likelihood estimate finite; outside it, ±∞ or unknown.
    let reach = reachability(n, duels);
    let part: Vec<usize> = (0..n).filter(|&j| reach[0][j] && reach[j][0]).collect();
    let mut out: Vec<Rating> = (0..n)
        .map(|j| match (reach[j][0], reach[0][j]) {
            _ if j == 0 => Rating::Reference,
            (true, false) => Rating::PlusInf,
            (false, true) => Rating::MinusInf,
            _ => Rating::Unknown,
        })
        .collect();
    let free: Vec<usize> = part.iter().copied().filter(|&j| j != 0).collect();
    if free.is_empty() {
        return out;
    }
    // 2. The ratings of the part by maximum likelihood.
    let fit = Fit {
        index: free.iter().enumerate().map(|(k, &e)| (e, k)).collect(),
        inside: duels.iter().filter(|d| part.contains(&d.a) && part.contains(&d.b) && d.a != d.b).collect(),
        free,
    };
    let r = fit.newton(n);
    // 3. Their error bars.
    let Some(bars) = fit.error_bars(&r) else {
        return out;
    };
    for (k, &e) in fit.free.iter().enumerate() {
        out[e] = Rating::Finite(r[e], bars[k]);
    }
    out
}

/// Results of a tournament so far.
#[derive(Clone, Debug)]
pub struct TournamentTally {
    kind: Kind,
    names: Vec<String>,
    /// Games played per engine.
    games: Vec<u64>,
    /// Points per engine (1 / ½ / 0 a game; free-for-all by place).
    points: Vec<f64>,
    /// Sum of places per engine (free-for-all).
    rank_sum: Vec<f64>,
    /// `pair[a][b]` = (wins, losses, draws) of `a` against `b` (free-for-all:
    /// placed above, below, level).
    pair: Vec<Vec<(u64, u64, u64)>>,
    duels: Vec<Duel>,
    clusters: HashMap<(Vec<usize>, u64), usize>,
    free_for_all: bool,
}

impl TournamentTally {
    /// An empty tally of the engines `names`.
    pub fn new(kind: Kind, names: Vec<String>, free_for_all: bool) -> TournamentTally {
        let n = names.len();
        TournamentTally {
            kind,
            names,
            games: vec![0; n],
            points: vec![0.0; n],
            rank_sum: vec![0.0; n],
            pair: vec![vec![(0, 0, 0); n]; n],
            duels: Vec::new(),
            clusters: HashMap::new(),
            free_for_all,
        }
    }

    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        let n = self.names.len();
        let mut engines: Vec<usize> = r.seat_engines.iter().copied().filter(|&e| e < n).collect();
        engines.sort_unstable();
        engines.dedup();
        let next = self.clusters.len();
        let cluster = *self.clusters.entry((engines.clone(), r.opening_index)).or_insert(next);
        // Per engine: its mean points and mean place over its seats.
        let of = |e: usize, xs: &dyn Fn(usize) -> f64| {
            let seats: Vec<usize> = (0..r.seat_engines.len()).filter(|&s| r.seat_engines[s] == e).collect();
            seats.iter().map(|&s| xs(s)).sum::<f64>() / seats.len() as f64
        };
        let pts: Vec<f64> = engines.iter().map(|&e| of(e, &|s| r.points[s])).collect();
        let place: Vec<f64> = engines.iter().map(|&e| of(e, &|s| r.ranks[s] as f64)).collect();
        for (k, &e) in engines.iter().enumerate() {
            self.games[e] += 1;
            self.points[e] += pts[k];
            self.rank_sum[e] += place[k];
        }
        for x in 0..engines.len() {
            for y in x + 1..engines.len() {
                let (a, b) = (engines[x], engines[y]);
                let s = if self.free_for_all {
                    match place[x].total_cmp(&place[y]) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Greater => 0.0,
                        std::cmp::Ordering::Equal => 0.5,
                    }
                } else {
                    pts[x]
                };
                let (ab, ba) = if s == 1.0 {
                    ((1, 0, 0), (0, 1, 0))
                } else if s == 0.0 {
                    ((0, 1, 0), (1, 0, 0))
                } else {
                    ((0, 0, 1), (0, 0, 1))
                };
                let add = |t: &mut (u64, u64, u64), d: (u64, u64, u64)| {
                    t.0 += d.0;
                    t.1 += d.1;
                    t.2 += d.2;
                };
                add(&mut self.pair[a][b], ab);
                add(&mut self.pair[b][a], ba);
                self.duels.push(Duel { cluster, a, b, s });
            }
        }
    }

    /// The Elo of every engine relative to the first.
    pub fn ratings(&self) -> Vec<Rating> {
        fit_elo(self.names.len(), &self.duels)
    }

    /// One short line for the progress display: points / games per engine.
    pub fn short(&self) -> String {
        let v: Vec<String> = (0..self.names.len())
            .map(|e| format!("{} {}/{}", self.names[e], fmt_points(self.points[e]), self.games[e]))
            .collect();
        v.join(", ")
    }

    /// The figures of [`TournamentTally::table`] as JSON
    /// (`tetrarch match report --json`): per engine its games, points,
    /// score, mean rank (free-for-all), Elo relative to the first engine
    /// (a number, `"+inf"`, `"-inf"` or `null` when no results connect it)
    /// with its error bar, and the pair table `[wins, losses, draws]`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::json;
        let ratings = self.ratings();
        let engines: Vec<serde_json::Value> = (0..self.names.len())
            .map(|e| {
                let g = self.games[e];
                let (elo, err) = match ratings[e] {
                    Rating::Reference => (json!(0.0), json!(0.0)),
                    Rating::Finite(x, err) => (json!(x), if err.is_finite() { json!(err) } else { json!(null) }),
                    Rating::PlusInf => (json!("+inf"), json!(null)),
                    Rating::MinusInf => (json!("-inf"), json!(null)),
                    Rating::Unknown => (json!(null), json!(null)),
                };
                json!({
                    "name": self.names[e],
                    "games": g,
                    "points": self.points[e],
                    "score": if g > 0 { json!(self.points[e] / g as f64) } else { json!(null) },
                    "mean_rank": if self.free_for_all && g > 0 { json!(self.rank_sum[e] / g as f64) } else { json!(null) },
                    "elo": elo,
                    "elo_error": err,
                })
            })
            .collect();
        let pairs: Vec<Vec<[u64; 3]>> = self.pair.iter().map(|row| row.iter().map(|&(w, l, d)| [w, l, d]).collect()).collect();
        json!({
            "kind": "tournament",
            "tournament": self.kind.word(),
            "free_for_all": self.free_for_all,
            "engines": engines,
            "pairs": pairs,
        })
    }

    /// The final table.
    pub fn table(&self, total_games: u64) -> Vec<String> {
        let n = self.names.len();
        let w = self.names.iter().map(|s| s.chars().count()).max().unwrap_or(6).clamp(6, 24);
        let mut out = vec![format!(
            "Tournament ({}, {} engines, {} games{}):",
            self.kind.word(),
            n,
            total_games,
            if self.free_for_all { ", free-for-all" } else { "" }
        )];
        let rank_head = if self.free_for_all { format!(" {:>9}", "Mean rank") } else { String::new() };
        out.push(format!(
            "  {:<w$} {:>6} {:>7} {:>7}{rank_head}  Elo vs {} (95%)",
            "Engine", "Games", "Points", "Score", self.names[0]
        ));
        let ratings = self.ratings();
        for e in 0..n {
            let g = self.games[e];
            let score = if g > 0 { format!("{:.1}%", 100.0 * self.points[e] / g as f64) } else { "-".into() };
            let rank = if !self.free_for_all {
                String::new()
            } else if g > 0 {
                format!(" {:>9.2}", self.rank_sum[e] / g as f64)
            } else {
                format!(" {:>9}", "-")
            };
            let elo = match ratings[e] {
                Rating::Reference => "0 (reference)".to_string(),
                Rating::Finite(x, err) => {
                    let x = if x.abs() < 0.05 { 0.0 } else { x };
                    format!("{x:+.1} ± {err:.1}")
                }
                Rating::PlusInf => format!("+inf (gave no point to {}, directly or through others)", self.names[0]),
                Rating::MinusInf => format!("-inf (took no point from {}, directly or through others)", self.names[0]),
                Rating::Unknown => format!("? (no results connect it with {})", self.names[0]),
            };
            out.push(format!("  {:<w$} {:>6} {:>7} {:>7}{rank}  {elo}", self.names[e], g, fmt_points(self.points[e]), score));
        }
        out.push(format!(
            "  (Elo: Bradley-Terry fit of every {} between two engines, draws as half points; error bars clustered by opening and group, docs/match.md)",
            if self.free_for_all { "pair of places in a game" } else { "game" }
        ));
        out.push(format!(
            "  Pairs (the row engine's {} against the column engine):",
            if self.free_for_all { "places above-below-level" } else { "wins-losses-draws" }
        ));
        let cells: Vec<Vec<String>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| {
                        let (x, y, z) = self.pair[a][b];
                        if a == b {
                            "-".to_string()
                        } else if x + y + z == 0 {
                            ".".to_string()
                        } else {
                            format!("{x}-{y}-{z}")
                        }
                    })
                    .collect()
            })
            .collect();
        let cw = cells
            .iter()
            .flatten()
            .map(|c| c.len())
            .chain(self.names.iter().map(|s| s.chars().count().min(12)))
            .max()
            .unwrap_or(5);
        let mut head = format!("  {:<w$}", "");
        for name in &self.names {
            let short: String = name.chars().take(12).collect();
            head.push_str(&format!(" {short:>cw$}"));
        }
        out.push(head);
        for a in 0..n {
            let mut line = format!("  {:<w$}", self.names[a]);
            for c in &cells[a] {
                line.push_str(&format!(" {c:>cw$}"));
            }
            out.push(line);
        }
        out
    }
}

fn fmt_points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else if (p * 2.0).fract() == 0.0 {
        format!("{p:.1}")
    } else {
        format!("{p:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{elo_pentanomial, elo_trinomial};

    #[test]
    fn groups_of_round_robin_and_gauntlet() {
        let s = Schedule::tournament(Kind::RoundRobin, 4, 2);
        assert_eq!(s.groups, vec![vec![0, 1], vec![0, 2], vec![0, 3], vec![1, 2], vec![1, 3], vec![2, 3]]);
        assert_eq!(s.per_opening, 2);
        let s = Schedule::tournament(Kind::Gauntlet, 4, 2);
        assert_eq!(s.groups, vec![vec![0, 1], vec![0, 2], vec![0, 3]]);
        // Free-for-all of four seats among five engines: C(5, 4) = 5 groups,
        // a gauntlet C(4, 3) = 4, every one with engine 0.
        let s = Schedule::tournament(Kind::RoundRobin, 5, 4);
        assert_eq!(s.groups.len(), 5);
        assert_eq!(s.per_opening, 4);
        assert!(s.groups.iter().all(|g| g.len() == 4));
        let s = Schedule::tournament(Kind::Gauntlet, 5, 4);
        assert_eq!(s.groups.len(), 4);
        assert!(s.groups.iter().all(|g| g[0] == 0 && g.len() == 4));
        // Each pair of engines meets equally often in a free-for-all
        // round-robin: C(3, 2) = 3 groups hold any given pair of 5.
        let s = Schedule::tournament(Kind::RoundRobin, 5, 4);
        for a in 0..5 {
            for b in a + 1..5 {
                assert_eq!(s.groups.iter().filter(|g| g.contains(&a) && g.contains(&b)).count(), 3);
            }
        }
        assert_eq!(Kind::parse("roundrobin"), Some(Kind::RoundRobin));
        assert_eq!(Kind::parse("swiss"), None);
    }

    #[test]
    fn slots_go_opening_by_opening_and_group_by_group() {
        let s = Schedule::tournament(Kind::RoundRobin, 3, 2);
        let v: Vec<(usize, u64, u32)> = (0..8).map(|g| s.slot(g)).map(|x| (x.group, x.opening, x.round)).collect();
        assert_eq!(v, vec![(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 0, 1), (2, 0, 0), (2, 0, 1), (0, 1, 0), (0, 1, 1)]);
        assert_eq!(s.total(4), 12);
        // A plain match is one group: game g plays opening g / 2.
        let m = Schedule::single(2, 2);
        assert_eq!(m.slot(5), Slot { group: 0, opening: 2, round: 1 });
        let ffa = Schedule::single(4, 4);
        assert_eq!(ffa.slot(6), Slot { group: 0, opening: 1, round: 2 });
    }

    fn duels_from(wld: &[(usize, usize, u64, u64, u64)]) -> Vec<Duel> {
        let mut v = Vec::new();
        for &(a, b, w, l, d) in wld {
            for (count, s) in [(w, 1.0), (l, 0.0), (d, 0.5)] {
                for _ in 0..count {
                    // Every game its own cluster: games independent.
                    v.push(Duel { cluster: v.len(), a, b, s });
                }
            }
        }
        v
    }

    #[test]
    fn two_engines_give_the_trinomial_elo() {
        // W=60 L=40 D=100 for engine 1 against engine 0: Elo +34.86 (stats.rs);
        // the error bar is the delta-method one, 1.96 se / (c m (1 - m)) with
        // se = √(0.1225 / 200): 34.05 (the interval form in stats.rs: 34.16).
        let r = fit_elo(2, &duels_from(&[(1, 0, 60, 40, 100)]));
        assert_eq!(r[0], Rating::Reference);
        let Rating::Finite(x, err) = r[1] else { panic!("{r:?}") };
        let want = elo_trinomial(60, 40, 100).unwrap();
        assert!((x - want.elo).abs() < 1e-6, "{x} {}", want.elo);
        let m: f64 = 0.55;
        let delta = 1.959_963_985 * (0.1225f64 / 200.0).sqrt() / (C * m * (1.0 - m));
        assert!((err - delta).abs() < 1e-6, "{err} {delta}");
        assert!((err - 34.047).abs() < 1e-3, "{err}");
        assert!((err - want.error).abs() < 0.2, "{err} {}", want.error);
    }

    #[test]
    fn game_pairs_as_clusters_give_the_pentanomial_error() {
        // Pairs 5,20,40,25,10 (engine 1's pair scores 0 … 2), every pair one
        // cluster of two games: the pentanomial estimate of stats.rs.
        let mut v = Vec::new();
        let mut cluster = 0;
        for (count, games) in [(5, [0.0, 0.0]), (20, [0.5, 0.0]), (40, [1.0, 0.0]), (25, [1.0, 0.5]), (10, [1.0, 1.0])] {
            for _ in 0..count {
                for s in games {
                    v.push(Duel { cluster, a: 1, b: 0, s });
                }
                cluster += 1;
            }
        }
        let r = fit_elo(2, &v);
        let Rating::Finite(x, err) = r[1] else { panic!("{r:?}") };
        let want = elo_pentanomial(&[5, 20, 40, 25, 10]).unwrap();
        assert!((x - want.elo).abs() < 1e-6, "{x} {}", want.elo);
        assert!((err - want.error).abs() < 0.2, "{err} {}", want.error);
    }

    #[test]
    fn three_engines_consistent_results_fit_exactly() {
        // B scores 64.0065% against A, C 35.9935% against A and 24.0253%
        // against B: the logistic differences +100, -100 and -200 hold
        // exactly (score_from_elo(100), (200)), so the fit finds them. The
        // scores enter as fractional results (the likelihood takes any
        // score in [0, 1]), 10 of each pair, with unequal weights.
        let s1 = crate::stats::score_from_elo(100.0);
        let s2 = crate::stats::score_from_elo(200.0);
        let mut v = Vec::new();
        for (k, (a, b, s)) in [(1, 0, s1), (2, 0, 1.0 - s1), (2, 1, 1.0 - s2)].into_iter().enumerate() {
            for i in 0..10 * (k + 1) {
                v.push(Duel { cluster: v.len() + i, a, b, s });
            }
        }
        let r = fit_elo(3, &v);
        let (Rating::Finite(b, _), Rating::Finite(c, _)) = (r[1], r[2]) else { panic!("{r:?}") };
        assert!((b - 100.0).abs() < 1e-6, "{b}");
        assert!((c + 100.0).abs() < 1e-6, "{c}");
        // Inconsistent results: the fit lies between, errors are positive.
        let r = fit_elo(3, &duels_from(&[(1, 0, 7, 3, 0), (2, 0, 3, 7, 0), (2, 1, 6, 4, 0)]));
        let (Rating::Finite(b, eb), Rating::Finite(c, ec)) = (r[1], r[2]) else { panic!("{r:?}") };
        assert!(b > 0.0 && c < 0.0 && c > -150.0 && b < 150.0, "{b} {c}");
        assert!(eb > 50.0 && ec > 50.0, "{eb} {ec}");
    }

    #[test]
    fn engines_that_never_lost_or_never_scored_are_infinite() {
        // B beat A every time; C lost every game to A; D played no one; E
        // and A drew: E is finite (0).
        let r = fit_elo(5, &duels_from(&[(1, 0, 3, 0, 0), (2, 0, 0, 2, 0), (4, 0, 0, 0, 4)]));
        assert_eq!(r[0], Rating::Reference);
        assert_eq!(r[1], Rating::PlusInf);
        assert_eq!(r[2], Rating::MinusInf);
        assert_eq!(r[3], Rating::Unknown);
        let Rating::Finite(x, err) = r[4] else { panic!("{r:?}") };
        assert!(x.abs() < 1e-9 && err.abs() < 1e-9, "{x} {err}");
        // Through a third engine: A beat B once and lost once, B always beat
        // C; C is then below A (it never took a point from A's part).
        let r = fit_elo(3, &duels_from(&[(0, 1, 1, 1, 0), (1, 2, 2, 0, 0)]));
        assert!(matches!(r[1], Rating::Finite(..)), "{r:?}");
        assert_eq!(r[2], Rating::MinusInf);
    }
}

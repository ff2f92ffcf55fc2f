//! The match: checks everything before the first game, schedules the games
//! (pairs with sides swapped, rotations in free-for-all), runs them on
//! `--concurrency` worker threads (each with its own engine processes),
//! writes the records and PGN as games finish, shows progress, stops on an
//! SPRT decision and prints the final table.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use crate::config::Config;
use crate::engine::{EngineProc, Log};
use crate::games::{format_of, Format, GameInfo, GameVisitor};
use crate::openings::{make_opening, read_openings};
use crate::play::{play_game, Job, MatchCtx, Slots, HANDSHAKE};
use crate::record::{read_records, Decided, GameRecord, RecordWriter};
use crate::shard::{Decision, Shard, SharedFolder};
use crate::stats::{elo_pentanomial, elo_trinomial, los, mean_with_error, SprtState};
use crate::text::printable;
use crate::tournament::{Schedule, TournamentTally};

/// Why a match did not run.
#[derive(Debug)]
pub enum RunError {
    /// Bad input found before any game: exit code 2.
    Usage(String),
    /// Failure during the match (a file could not be written): exit code 1.
    Fatal(String),
}

/// What a match did.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Games played now.
    pub played: u64,
    /// Games counted (earlier records included).
    pub counted: u64,
    /// The SPRT's decision, if it made one.
    pub sprt: Option<SprtState>,
    /// The final table's lines.
    pub table: Vec<String>,
}

/// Runs a match with the game of the variant.
pub struct RunVisitor(pub Config);

impl GameVisitor for RunVisitor {
    type Output = Result<Summary, RunError>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        run_match::<G>(self.0, variant)
    }
}

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

    pub(crate) fn llr(&self, s: &crate::stats::Sprt) -> f64 {
        if self.penta.iter().sum::<u64>() > 0 {
            s.llr_pentanomial(&self.penta)
        } else {
            s.llr_trinomial(self.w, self.l, self.d)
        }
    }

    /// One short line for the progress display.
    fn short(&self, sprt: Option<&crate::stats::Sprt>) -> String {
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

    pub(crate) fn table(&self, sprt: Option<&crate::stats::Sprt>) -> Vec<String> {
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
    pub(crate) fn to_json(&self, sprt: Option<&crate::stats::Sprt>) -> serde_json::Value {
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

/// CPU time of this process (all threads), seconds, from `/proc/self/stat`.
pub fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the name.
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0) // USER_HZ is 100 on Linux
}

/// The next game a worker may start: `None` when the queue is empty, or
/// when the next game would begin a new block (pair, rotation) and no new
/// block may start: the SPRT has decided, here or (`shared`) over all the
/// shards' records in the shared folder. A block already begun is finished.
fn next_game(
    queue: &Mutex<VecDeque<u64>>,
    per_opening: u64,
    no_new_pairs: &AtomicBool,
    shared: Option<(&Mutex<SharedFolder>, &crate::stats::Sprt, Shard)>,
    decision: &Mutex<Option<Decision>>,
) -> Option<u64> {
    let mut q = queue.lock().ok()?;
    let game = *q.front()?;
    if game % per_opening.max(1) == 0 {
        if no_new_pairs.load(Ordering::Relaxed) {
            return None;
        }
        if let Some((folder, sprt, shard)) = shared {
            let d = folder.lock().ok().and_then(|mut f| f.check(sprt, shard));
            if let Some(d) = d {
                no_new_pairs.store(true, Ordering::Relaxed);
                if let Ok(mut slot) = decision.lock() {
                    slot.get_or_insert(d);
                }
                return None;
            }
        }
    }
    q.pop_front()
}

fn run_match<G: GameInfo>(cfg: Config, variant: &'static str) -> Result<Summary, RunError> {
    let usage = RunError::Usage;
    // Rule options: an engine option that is one of the game's own options is
    // a rule; the referee plays by it and every engine gets it.
    let mut opts = G::default_options(variant);
    let specs = G::option_specs(variant);
    let mut rules: Vec<(String, String)> = Vec::new();
    for e in &cfg.engines {
        for (k, v) in &e.options {
            if let Some(spec) = specs.iter().find(|s| s.name.eq_ignore_ascii_case(k)) {
                match rules.iter().find(|r| r.0 == spec.name) {
                    Some(prev) if prev.1 != *v => {
                        return Err(usage(format!("rule option {} differs between the engines ({} and {v})", spec.name, prev.1)))
                    }
                    Some(_) => {}
                    None => {
                        G::set_option(&mut opts, spec.name, v).map_err(|e| usage(format!("option {}: {e}", spec.name)))?;
                        rules.push((spec.name.to_string(), v.clone()));
                    }
                }
            }
        }
    }
    let engine_options: Vec<Vec<(String, String)>> = cfg
        .engines
        .iter()
        .map(|e| {
            let mut o = e.options.clone();
            if e.proto == crate::config::Proto::FourPChess {
                return o; // that dialect knows only its own options
            }
            for r in &rules {
                if !o.iter().any(|x| x.0.eq_ignore_ascii_case(&r.0)) {
                    o.push(r.clone());
                }
            }
            o
        })
        .collect();

    let start = G::startpos(&opts);
    let fmt = format_of(&start);
    let seats = start.seats();
    let n_eng = cfg.engines.len();
    match fmt {
        _ if cfg.tournament.is_some() => {
            let need = if fmt == Format::FreeForAll { seats } else { 2 };
            if n_eng < need {
                return Err(usage(format!(
                    "a {variant} tournament needs at least {need} engines (got {n_eng}){}",
                    if fmt == Format::FreeForAll { ": every game seats that many different engines" } else { "" }
                )));
            }
        }
        Format::Duel | Format::Teams if n_eng != 2 => {
            return Err(usage(format!("{variant} is played by two sides: give exactly two engines (got {n_eng})")))
        }
        Format::FreeForAll if n_eng != 2 && n_eng != seats => {
            return Err(usage(format!("{variant} is free-for-all with {seats} seats: give 2 or {seats} engines (got {n_eng})")))
        }
        _ => {}
    }
    if fmt == Format::FreeForAll && cfg.sprt.is_some() {
        return Err(usage("--sprt needs a game of two sides (not free-for-all)".into()));
    }
    if fmt == Format::FreeForAll && cfg.resign.is_some() {
        return Err(usage("--resign needs a game of two sides (not free-for-all)".into()));
    }
    let file_openings = match &cfg.openings {
        Some(p) => Some(read_openings::<G>(p, &opts).map_err(|e| usage(e.to_string()))?),
        None => None,
    };
    // The games: one group of every engine, or a tournament's groups.
    let schedule = match cfg.tournament {
        Some(kind) => Schedule::tournament(kind, n_eng, if fmt == Format::FreeForAll { seats } else { 2 }),
        None => Schedule::single(n_eng, if fmt == Format::FreeForAll { n_eng as u64 } else { 2 }),
    };
    let per_opening = schedule.per_opening;
    let total = match cfg.tournament {
        Some(_) => {
            let per_group = cfg.games.map_or(per_opening, u64::from);
            if !per_group.is_multiple_of(per_opening) {
                return Err(usage(format!(
                    "--games {per_group}: in a tournament --games counts the games of each {} and must be a multiple of {per_opening} ({})",
                    if fmt == Format::FreeForAll { "group of engines" } else { "pairing" },
                    if fmt == Format::FreeForAll { "every opening is played from every seat" } else { "every opening is played with the sides swapped" }
                )));
            }
            schedule.total(per_group)
        }
        None => cfg.games.map_or(per_opening, u64::from),
    };
    let maxturns = cfg.maxturns.unwrap_or_else(|| G::default_maxturns(variant));
    // Sides 0/1 in the order of the seats (seat 1's side first).
    let side_index = |s: usize| usize::from(start.side_of(s) != start.side_of(0));
    let seat_engines = |group: &[usize], round: u32| -> Vec<usize> {
        (0..seats)
            .map(|s| match fmt {
                Format::FreeForAll => group[(s + round as usize) % group.len()],
                _ => group[(side_index(s) + round as usize) % 2],
            })
            .collect()
    };
    let book = match &cfg.openings {
        Some(p) => Some(std::fs::read(p).map_err(|e| usage(format!("cannot read openings {}: {e}", p.display())))?),
        None => None,
    };
    let mut mid = crate::identity::fingerprint(&cfg, variant, maxturns, book.as_deref());
    let shard = cfg.shard.unwrap_or(Shard::WHOLE);

    // Earlier records (--resume).
    let mut earlier: Vec<GameRecord> = Vec::new();
    if let Some(path) = &cfg.records {
        if cfg.resume && path.exists() {
            earlier = read_records(path).map_err(|e| usage(e.to_string()))?;
            // A file of the runner before the fingerprint named limits and
            // options goes on under its own fingerprint.
            let legacy = crate::identity::legacy_fingerprint(&cfg, variant);
            if earlier.first().is_some_and(|r| r.match_id == legacy) {
                println!("--resume: {} was written by an older runner; its games keep their fingerprint", path.display());
                mid = legacy;
            }
            for r in &earlier {
                if r.match_id != mid {
                    return Err(usage(format!(
                        "--resume: {} holds game {} of another match ({})",
                        path.display(),
                        r.game,
                        crate::identity::difference(&mid, &r.match_id)
                    )));
                }
                if !shard.owns(r.game, per_opening) {
                    return Err(usage(format!(
                        "--resume: {} holds game {}, which is shard {}'s, not this shard's ({shard})",
                        path.display(),
                        r.game,
                        Shard::owner(r.game, per_opening, shard.n)
                    )));
                }
                r.verify::<G>(&opts).map_err(|e| usage(format!("--resume: record of game {}: {e}", r.game)))?;
            }
        } else if !cfg.resume && path.exists() && std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(usage(format!("records file {} exists: use --resume to continue it, or another file", path.display())));
        }
    }
    let done: HashSet<u64> = earlier.iter().map(|r| r.game).collect();
    // The shards' shared folder: made if needed, every shard file in it
    // of this match (checked before any game).
    let shared = match &cfg.records_dir {
        Some(dir) => {
            let names = cfg.engines.iter().map(|e| e.name.clone()).collect();
            Some(Mutex::new(SharedFolder::open(dir, &mid, Tally::new(fmt, names, None)).map_err(|e| usage(e.to_string()))?))
        }
        None => None,
    };

    let log = match &cfg.log {
        Some(p) => Some(Log::create(p).map_err(|e| usage(e.to_string()))?),
        None => None,
    };

    // Every engine once: it starts, knows the variant and takes its options.
    for (e, ecfg) in cfg.engines.iter().enumerate() {
        let mut p = EngineProc::spawn(ecfg, log.clone()).map_err(|e| usage(e.to_string()))?;
        let r = p.init(variant, &engine_options[e], ecfg.proto == crate::config::Proto::Tetrarch, HANDSHAKE);
        p.shutdown();
        r.map_err(|m| usage(format!("engine {} failed its start: {m}", ecfg.name)))?;
    }
    // The shards' folder is made once the input has passed every check.
    if let Some(dir) = &cfg.records_dir {
        std::fs::create_dir_all(dir).map_err(|e| usage(format!("records folder {}: {e}", dir.display())))?;
    }

    let mut writer = match &cfg.records {
        Some(p) => Some(RecordWriter::open(p).map_err(|e| usage(e.to_string()))?),
        None => None,
    };
    let seat_names: Vec<&str> = (0..seats).map(|s| start.seat_name(s)).collect();
    let mut pgn = match &cfg.pgnout {
        Some(p) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| usage(format!("cannot open {}: {e}", p.display())))?;
            if cfg.resume {
                // A kill between a game's record and its PGN text (or in the
                // middle of that text) is repaired from the records.
                let old = std::fs::read(p).map_err(|e| usage(format!("cannot read {}: {e}", p.display())))?;
                // Only the very end may be cut inside a character (a torn
                // write); invalid text elsewhere is not the runner's.
                let old = match std::str::from_utf8(&old) {
                    Ok(t) => t,
                    Err(e) if e.error_len().is_none() => std::str::from_utf8(&old[..e.valid_up_to()]).unwrap_or(""),
                    Err(_) => return Err(usage(format!("{}: not UTF-8 text, not a PGN file of this runner", p.display()))),
                };
                let (keep, add) =
                    crate::pgn::repair(old, &earlier, |r| crate::pgn::write(r, &seat_names, fmt != Format::FreeForAll));
                if keep < std::fs::metadata(p).map_or(0, |m| m.len() as usize) {
                    f.set_len(keep as u64).map_err(|e| usage(format!("cannot repair {}: {e}", p.display())))?;
                }
                f.write_all(add.as_bytes())
                    .and_then(|_| f.flush())
                    .map_err(|e| usage(format!("cannot repair {}: {e}", p.display())))?;
            }
            Some(f)
        }
        None => None,
    };

    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let tour = cfg.tournament.map(|k| TournamentTally::new(k, names.clone(), fmt == Format::FreeForAll));
    let mut tally = Tally::new(fmt, names.clone(), tour);
    for r in &earlier {
        tally.add(r);
    }
    let tty = std::io::stdout().is_terminal();
    let queue: Mutex<VecDeque<u64>> =
        Mutex::new((0..total).filter(|g| !done.contains(g) && shard.owns(*g, per_opening)).collect());
    let to_play = queue.lock().map(|q| q.len()).unwrap_or(0);
    let engines_text = match cfg.tournament {
        Some(k) => format!(
            "{} tournament of {} ({} {} × {} games)",
            k.word(),
            names.join(", "),
            schedule.groups.len(),
            if fmt == Format::FreeForAll { "groups" } else { "pairings" },
            total / schedule.groups.len().max(1) as u64
        ),
        None => format!("engines {}", names.join(" vs ")),
    };
    let shard_games = if cfg.shard.is_some() { shard.games(total, per_opening).len() as u64 } else { total };
    println!(
        "Match {variant}: {} games{} ({} to play), {engines_text}, seed {}, concurrency {}{}",
        total,
        cfg.shard.map_or(String::new(), |sh| format!(", shard {sh}: {shard_games} of them")),
        to_play,
        cfg.seed,
        cfg.concurrency,
        if maxturns > 0 { format!(", turn cap {maxturns}") } else { String::new() }
    );
    // From here on `total` counts this shard's games (the progress line's
    // `[done/total]`).
    let total = shard_games;

    let cfg = Arc::new(cfg);
    let ctx = MatchCtx::<G> { variant, opts: opts.clone(), cfg: cfg.clone(), engine_options, maxturns, log, match_id: mid };
    let stop = AtomicBool::new(false);
    // The SPRT has decided: start no new pair (the pairs begun finish).
    let no_new_pairs = AtomicBool::new(false);
    let decision: Mutex<Option<Decision>> = Mutex::new(None);
    let shared_sprt = match (&shared, &cfg.sprt) {
        (Some(f), Some(s)) => Some((f, s, shard)),
        _ => None,
    };
    let wall = Instant::now();
    let mut played = 0u64;
    let mut sprt_state = None;
    let mut fatal: Option<String> = None;

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for w in 0..cfg.concurrency.min(to_play.max(1)) {
            let tx = tx.clone();
            let (ctx, queue, stop, file_openings) = (&ctx, &queue, &stop, &file_openings);
            let (seat_engines, schedule) = (&seat_engines, &schedule);
            let (no_new_pairs, decision) = (&no_new_pairs, &decision);
            std::thread::Builder::new()
                .name(format!("game worker {w}"))
                .spawn_scoped(scope, move || {
                    let mut slots = Slots::default();
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let Some(game) = next_game(queue, per_opening, no_new_pairs, shared_sprt, decision) else { break };
                        let slot = schedule.slot(game);
                        let (opening_index, round) = (slot.opening, slot.round);
                        let opening = make_opening::<G>(
                            file_openings.as_deref(),
                            ctx.cfg.random_plies,
                            ctx.cfg.random_setup,
                            &ctx.opts,
                            ctx.cfg.seed,
                            opening_index,
                        );
                        let job = Job {
                            game,
                            opening_index,
                            round,
                            opening,
                            seat_engines: seat_engines(&schedule.groups[slot.group], round),
                        };
                        let rec = play_game(ctx, &job, &mut slots);
                        if tx.send(rec).is_err() {
                            break;
                        }
                    }
                    slots.shutdown();
                })
                .expect("spawn a worker thread");
        }
        drop(tx);
        for rec in rx {
            if crate::engine::interrupted() {
                // Its engines were killed by the signal: not a result.
                break;
            }
            played += 1;
            if let Some(w) = &mut writer {
                if let Err(e) = w.write(&rec) {
                    fatal = Some(format!("cannot write the records: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(f) = &mut pgn {
                let text = crate::pgn::write(&rec, &seat_names, fmt != Format::FreeForAll);
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    fatal = Some(format!("cannot write the PGN file: {e}"));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            tally.add(&rec);
            // Engine text (a forfeit's reason quotes the engine) is escaped:
            // it must not reach the terminal as control sequences.
            let line = tally.short(cfg.sprt.as_ref());
            let line = printable(&line);
            if tty {
                print!("\r\x1b[K[{}/{}] {line}", tally.games, total);
            } else {
                let who: Vec<String> = rec.seats.iter().enumerate().map(|(s, n)| format!("{}={}", seat_names[s], n)).collect();
                println!(
                    "Game {} [{}/{}] ({}): {} ({}) | {line}",
                    rec.game + 1,
                    tally.games,
                    total,
                    printable(&who.join(" ")),
                    printable(&rec.result),
                    printable(&rec.reason)
                );
            }
            let _ = std::io::stdout().flush();
            if let Some((folder, s, _)) = shared_sprt {
                // The SPRT is over all shards (decided by the workers before
                // each new pair); the progress line shows it from the next
                // game on, and the folder's warnings are shown here.
                if let Ok(mut f) = folder.lock() {
                    tally.all_shards = Some(f.state(s));
                    for w in f.warnings.drain(..) {
                        eprintln!("warning: {w}");
                    }
                }
            } else if let Some(s) = &cfg.sprt {
                let st = s.state(tally.llr(s));
                if st != SprtState::Continue && sprt_state.is_none() {
                    sprt_state = Some(st);
                    no_new_pairs.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if tty {
        println!();
    }
    if let Some(f) = fatal {
        return Err(RunError::Fatal(f));
    }
    let mut table = tally.table(if shared_sprt.is_some() { None } else { cfg.sprt.as_ref() });
    if let Some(st) = sprt_state {
        table.insert(0, format!("SPRT stopped the match: {}", if st == SprtState::H1 { "H1 accepted" } else { "H0 accepted" }));
    }
    if let Some(sh) = cfg.shard {
        table.insert(0, format!("Shard {sh}: {} of its {total} games recorded", tally.games));
    }
    if let Some((folder, s, _)) = shared_sprt {
        let d = decision.into_inner().ok().flatten();
        if let Some(d) = &d {
            table.insert(0, format!("SPRT over all shards stopped this shard: {}", d.text));
            sprt_state = Some(d.state);
        }
        if let Ok(mut f) = folder.lock() {
            f.refresh();
            let (games, llr) = f.state(s);
            let state = match s.state(llr) {
                SprtState::Continue => "no decision yet",
                SprtState::H0 => "H0 accepted",
                SprtState::H1 => "H1 accepted",
            };
            table.push(format!(
                "  All shards in {} now: {games} games, SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{:.2}, {:.2}], {state} (tetrarch match report {} for the table)",
                cfg.records_dir.as_ref().map_or(String::new(), |d| d.display().to_string()),
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                s.lower(),
                s.upper(),
                cfg.records_dir.as_ref().map_or(String::new(), |d| d.display().to_string()),
            ));
            for w in f.warnings.drain(..) {
                eprintln!("warning: {w}");
            }
        }
    }
    table.push(format!(
        "  Runner: {:.1} s wall, {} CPU (its own threads, not the engines)",
        wall.elapsed().as_secs_f64(),
        cpu_seconds().map_or("?".to_string(), |c| format!("{c:.2} s"))
    ));
    for l in &table {
        println!("{}", printable(l));
    }
    Ok(Summary { played, counted: tally.games, sprt: sprt_state, table })
}

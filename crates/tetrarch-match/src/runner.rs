//! The match: checks everything before the first game, schedules the games
//! (pairs with sides swapped, rotations in free-for-all), runs them on
//! `--concurrency` worker threads (each with its own engine processes),
//! writes the records and PGN as games finish, shows progress, stops on an
//! SPRT decision and prints the final table.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use tetrarch_core::game::PositionError;

use crate::config::Config;
use crate::engine::{EngineProc, EngineStartError, HandshakeError, Log, LogError};
use crate::games::{format_of, Format, GameInfo, GameVisitor, UnknownVariant};
use crate::openings::{make_opening, read_openings, OpeningsFileError};
use crate::play::{play_game, Job, MatchCtx, Slots, HANDSHAKE};
use crate::record::{read_records, Decided, GameRecord, RecordWriter, RecordsError, ReplayError};
use crate::shard::{Decision, Shard, SharedError, SharedFolder};
use crate::stats::{elo_pentanomial, elo_trinomial, los, mean_with_error, SprtState};
use crate::text::printable;
use crate::tournament::{Schedule, TournamentTally};

/// Why a match did not run, or stopped: bad input found before any game
/// (exit code 2) or a failure during the match (exit code 1, see
/// [`RunError::exit_code`]). The text is what `tetrarch match` prints after
/// `error: `.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// `--variant` names no game.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// A rule option given two engines with different values.
    #[error("rule option {name} differs between the engines ({first} and {second})")]
    RuleOptionDiffers {
        /// The option.
        name: String,
        /// The first engine's value.
        first: String,
        /// Another engine's.
        second: String,
    },
    /// A rule option's value the game refuses.
    #[error("option {name}: {reason}")]
    RuleOption {
        /// The option.
        name: String,
        /// Why.
        reason: PositionError,
    },
    /// Too few engines for a tournament of the variant.
    #[error(
        "a {variant} tournament needs at least {need} engines (got {got}){}",
        if *free_for_all { ": every game seats that many different engines" } else { "" }
    )]
    TournamentEngines {
        /// The variant.
        variant: &'static str,
        /// The engines a game seats.
        need: usize,
        /// The engines given.
        got: usize,
        /// Whether the game is free-for-all.
        free_for_all: bool,
    },
    /// Not two engines for a game of two sides.
    #[error("{variant} is played by two sides: give exactly two engines (got {got})")]
    TwoSides {
        /// The variant.
        variant: &'static str,
        /// The engines given.
        got: usize,
    },
    /// Neither 2 nor one engine per seat in free-for-all.
    #[error("{variant} is free-for-all with {seats} seats: give 2 or {seats} engines (got {got})")]
    FreeForAllEngines {
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
        /// The engines given.
        got: usize,
    },
    /// `--sprt` in free-for-all.
    #[error("--sprt needs a game of two sides (not free-for-all)")]
    SprtFreeForAll,
    /// `--resign` in free-for-all.
    #[error("--resign needs a game of two sides (not free-for-all)")]
    ResignFreeForAll,
    /// A tournament's `--games` that is not whole rotations.
    #[error(
        "--games {per_group}: in a tournament --games counts the games of each {} and must be a multiple of {per_opening} ({})",
        if *free_for_all { "group of engines" } else { "pairing" },
        if *free_for_all { "every opening is played from every seat" } else { "every opening is played with the sides swapped" }
    )]
    TournamentGames {
        /// `--games`.
        per_group: u64,
        /// Games of one opening.
        per_opening: u64,
        /// Whether the game is free-for-all.
        free_for_all: bool,
    },
    /// The openings file.
    #[error(transparent)]
    Openings(#[from] OpeningsFileError),
    /// The records file cannot be read, opened or repaired.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// `--resume` on a file with a game of another match.
    #[error("--resume: {} holds game {game} of another match ({difference})", path.display())]
    ResumeOtherMatch {
        /// The records file.
        path: PathBuf,
        /// The game.
        game: u64,
        /// What differs, in words.
        difference: String,
    },
    /// `--resume` on a file with another shard's game.
    #[error("--resume: {} holds game {game}, which is shard {owner}'s, not this shard's ({shard})", path.display())]
    ResumeOtherShard {
        /// The records file.
        path: PathBuf,
        /// The game.
        game: u64,
        /// The shard whose game it is.
        owner: Shard,
        /// This shard.
        shard: Shard,
    },
    /// `--resume` on a record that does not replay.
    #[error("--resume: record of game {game}: {source}")]
    ResumeReplay {
        /// The game.
        game: u64,
        /// Why.
        source: ReplayError,
    },
    /// A records file with games, without `--resume`.
    #[error("records file {} exists: use --resume to continue it, or another file", path.display())]
    RecordsExist {
        /// The file.
        path: PathBuf,
    },
    /// The shards' shared folder.
    #[error(transparent)]
    Shared(#[from] SharedError),
    /// `--log`.
    #[error(transparent)]
    Log(#[from] LogError),
    /// An engine's program does not start.
    #[error(transparent)]
    EngineStart(#[from] EngineStartError),
    /// An engine fails its handshake (it rejects the variant or an option).
    #[error("engine {name} failed its start: {source}")]
    EngineHandshake {
        /// The engine's name.
        name: String,
        /// Why.
        source: HandshakeError,
    },
    /// `--records-dir` cannot be made.
    #[error("records folder {}: {source}", dir.display())]
    RecordsDir {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `--pgnout` cannot be opened.
    #[error("cannot open {}: {source}", path.display())]
    PgnOpen {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `--pgnout` cannot be read (`--resume`).
    #[error("cannot read {}: {source}", path.display())]
    PgnRead {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `--pgnout` is not text (`--resume`).
    #[error("{}: not UTF-8 text, not a PGN file of this runner", path.display())]
    PgnNotText {
        /// The file.
        path: PathBuf,
    },
    /// `--pgnout` cannot be repaired (`--resume`).
    #[error("cannot repair {}: {source}", path.display())]
    PgnRepair {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A record could not be written during the match.
    #[error("cannot write the records: {0}")]
    WriteRecords(std::io::Error),
    /// A game's PGN text could not be written during the match.
    #[error("cannot write the PGN file: {0}")]
    WritePgn(std::io::Error),
    /// The runner was interrupted (SIGINT, SIGTERM, SIGHUP) while
    /// [`play_games`] played: its games are not results.
    #[error("interrupted")]
    Interrupted,
}

impl RunError {
    /// The process exit code: 1 for a failure during the match (a file
    /// could not be written), 2 for bad input found before any game.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::WriteRecords(_) | RunError::WritePgn(_) | RunError::Interrupted => 1,
            _ => 2,
        }
    }
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

/// The shards' shared folder and the SPRT over all of them, with this
/// shard (`--records-dir` with `--sprt`).
type SharedSprt<'a> = (&'a Mutex<SharedFolder>, &'a crate::stats::Sprt, Shard);

/// The next game a worker may start: `None` when the queue is empty, or
/// when the next game would begin a new block (pair, rotation) and no new
/// block may start: the SPRT has decided, here or (`shared`) over all the
/// shards' records in the shared folder. A block already begun is finished.
fn next_game(
    queue: &Mutex<VecDeque<u64>>,
    per_opening: u64,
    no_new_pairs: &AtomicBool,
    shared: Option<SharedSprt<'_>>,
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

/// The match as the checks before the first game leave it: the rules, the
/// format, the openings, the schedule and the fingerprint.
struct Plan<G: GameInfo> {
    variant: &'static str,
    /// The rule options (the referee's and every engine's).
    opts: G::Options,
    /// The `setoption` pairs of every engine (rule options included).
    engine_options: Vec<OptionPairs>,
    fmt: Format,
    /// Side (0 or 1) of each seat: seat 1's side is 0.
    sides: Vec<usize>,
    /// Seat names (`p1` …) for the PGN and the progress lines.
    seat_names: Vec<&'static str>,
    /// The openings file's openings (`--openings`).
    file_openings: Option<Vec<crate::openings::Opening>>,
    schedule: Schedule,
    /// Games of the whole match (every shard).
    total: u64,
    /// Turn cap in force (0: none).
    maxturns: u32,
    /// The fingerprint the records carry.
    match_id: String,
    /// This shard (the whole match without `--shard`).
    shard: Shard,
    /// The number of the first opening: game `g` plays opening
    /// `first_opening + g / k` (0 for a match; [`play_games`] moves it on).
    first_opening: u64,
}

impl<G: GameInfo> Plan<G> {
    /// Whether the game has two sides (duel, teams).
    fn two_sides(&self) -> bool {
        self.fmt != Format::FreeForAll
    }

    /// Engine index per seat of a game of `group` in rotation `round`:
    /// sides swapped in a pair, seats rotated in free-for-all.
    fn seat_engines(&self, group: &[usize], round: u32) -> Vec<usize> {
        (0..self.sides.len())
            .map(|s| match self.fmt {
                Format::FreeForAll => group[(s + round as usize) % group.len()],
                _ => group[(self.sides[s] + round as usize) % 2],
            })
            .collect()
    }

    /// The game numbered `game`: its opening, rotation and engines.
    fn job(&self, cfg: &Config, game: u64) -> Job {
        let slot = self.schedule.slot(game);
        let opening_index = self.first_opening + slot.opening;
        let opening = make_opening::<G>(
            self.file_openings.as_deref(),
            cfg.random_plies,
            cfg.random_setup,
            &self.opts,
            cfg.seed,
            opening_index,
        );
        Job {
            game,
            opening_index,
            round: slot.round,
            opening,
            seat_engines: self.seat_engines(&self.schedule.groups[slot.group], slot.round),
        }
    }
}

/// An engine's `setoption` pairs (name, value), in order.
type OptionPairs = Vec<(String, String)>;

/// Rule options: an engine option that is one of the game's own options is
/// a rule; the referee plays by it and every engine gets it. Returns the
/// rule options and every engine's `setoption` pairs.
fn rule_options<G: GameInfo>(cfg: &Config, variant: &'static str) -> Result<(G::Options, Vec<OptionPairs>), RunError> {
    let mut opts = G::default_options(variant);
    let specs = G::option_specs(variant);
    let mut rules: Vec<(String, String)> = Vec::new();
    for e in &cfg.engines {
        for (k, v) in &e.options {
            if let Some(spec) = specs.iter().find(|s| s.name.eq_ignore_ascii_case(k)) {
                match rules.iter().find(|r| r.0 == spec.name) {
                    Some(prev) if prev.1 != *v => {
                        return Err(RunError::RuleOptionDiffers {
                            name: spec.name.to_string(),
                            first: prev.1.clone(),
                            second: v.clone(),
                        })
                    }
                    Some(_) => {}
                    None => {
                        G::set_option(&mut opts, spec.name, v)
                            .map_err(|reason| RunError::RuleOption { name: spec.name.to_string(), reason })?;
                        rules.push((spec.name.to_string(), v.clone()));
                    }
                }
            }
        }
    }
    let engine_options = cfg
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
    Ok((opts, engine_options))
}

/// The number of engines fits the game (and the tournament), and the
/// flags of two sides are not given for free-for-all.
fn check_engines_fit(cfg: &Config, variant: &'static str, fmt: Format, seats: usize) -> Result<(), RunError> {
    let n_eng = cfg.engines.len();
    match fmt {
        _ if cfg.tournament.is_some() => {
            let need = if fmt == Format::FreeForAll { seats } else { 2 };
            if n_eng < need {
                return Err(RunError::TournamentEngines { variant, need, got: n_eng, free_for_all: fmt == Format::FreeForAll });
            }
        }
        Format::Duel | Format::Teams if n_eng != 2 => return Err(RunError::TwoSides { variant, got: n_eng }),
        Format::FreeForAll if n_eng != 2 && n_eng != seats => {
            return Err(RunError::FreeForAllEngines { variant, seats, got: n_eng })
        }
        _ => {}
    }
    if fmt == Format::FreeForAll && cfg.sprt.is_some() {
        return Err(RunError::SprtFreeForAll);
    }
    if fmt == Format::FreeForAll && cfg.resign.is_some() {
        return Err(RunError::ResignFreeForAll);
    }
    Ok(())
}

/// The games: one group of every engine, or a tournament's groups; and
/// the number of games of the whole match.
fn schedule(cfg: &Config, fmt: Format, seats: usize) -> Result<(Schedule, u64), RunError> {
    let n_eng = cfg.engines.len();
    let schedule = match cfg.tournament {
        Some(kind) => Schedule::tournament(kind, n_eng, if fmt == Format::FreeForAll { seats } else { 2 }),
        None => Schedule::single(n_eng, if fmt == Format::FreeForAll { n_eng as u64 } else { 2 }),
    };
    let per_opening = schedule.per_opening;
    let total = match cfg.tournament {
        Some(_) => {
            let per_group = cfg.games.map_or(per_opening, u64::from);
            if !per_group.is_multiple_of(per_opening) {
                return Err(RunError::TournamentGames { per_group, per_opening, free_for_all: fmt == Format::FreeForAll });
            }
            schedule.total(per_group)
        }
        None => cfg.games.map_or(per_opening, u64::from),
    };
    Ok((schedule, total))
}

/// Everything checked that needs no file but the openings: the rules, the
/// engines, the openings, the schedule; the fingerprint of the match.
fn plan_match<G: GameInfo>(cfg: &Config, variant: &'static str) -> Result<Plan<G>, RunError> {
    let (opts, engine_options) = rule_options::<G>(cfg, variant)?;
    let start = G::startpos(&opts);
    let fmt = format_of(&start);
    let seats = start.seats();
    check_engines_fit(cfg, variant, fmt, seats)?;
    let file_openings = match &cfg.openings {
        Some(p) => Some(read_openings::<G>(p, &opts)?),
        None => None,
    };
    let (schedule, total) = schedule(cfg, fmt, seats)?;
    let maxturns = cfg.maxturns.unwrap_or_else(|| G::default_maxturns(variant));
    let book = match &cfg.openings {
        Some(p) => Some(std::fs::read(p).map_err(|source| OpeningsFileError::Read { path: p.clone(), source })?),
        None => None,
    };
    Ok(Plan {
        variant,
        engine_options,
        fmt,
        sides: (0..seats).map(|s| usize::from(start.side_of(s) != start.side_of(0))).collect(),
        seat_names: (0..seats).map(|s| start.seat_name(s)).collect(),
        file_openings,
        schedule,
        total,
        maxturns,
        match_id: crate::identity::fingerprint(cfg, variant, maxturns, book.as_deref()),
        shard: cfg.shard.unwrap_or(Shard::WHOLE),
        opts,
        first_opening: 0,
    })
}

/// The earlier records of `--resume`: every one of this match and shard,
/// and replaying with the rules. A file of the runner before the
/// fingerprint named limits and options goes on under its own fingerprint
/// (`plan.match_id` becomes it). Without `--resume` a records file must be
/// new or empty.
fn earlier_records<G: GameInfo>(cfg: &Config, plan: &mut Plan<G>) -> Result<Vec<GameRecord>, RunError> {
    let Some(path) = &cfg.records else { return Ok(Vec::new()) };
    if !cfg.resume {
        if path.exists() && std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(RunError::RecordsExist { path: path.clone() });
        }
        return Ok(Vec::new());
    }
    if !path.exists() {
        return Ok(Vec::new());
    }
    let earlier = read_records(path)?;
    let legacy = crate::identity::legacy_fingerprint(cfg, plan.variant);
    if earlier.first().is_some_and(|r| r.match_id == legacy) {
        println!("--resume: {} was written by an older runner; its games keep their fingerprint", path.display());
        plan.match_id = legacy;
    }
    let (shard, per_opening) = (plan.shard, plan.schedule.per_opening);
    for r in &earlier {
        if r.match_id != plan.match_id {
            return Err(RunError::ResumeOtherMatch {
                path: path.clone(),
                game: r.game,
                difference: crate::identity::difference(&plan.match_id, &r.match_id),
            });
        }
        if !shard.owns(r.game, per_opening) {
            return Err(RunError::ResumeOtherShard {
                path: path.clone(),
                game: r.game,
                owner: Shard::owner(r.game, per_opening, shard.n),
                shard,
            });
        }
        r.verify::<G>(&plan.opts).map_err(|source| RunError::ResumeReplay { game: r.game, source })?;
    }
    Ok(earlier)
}

/// Every engine once: it starts, knows the variant and takes its options.
fn check_engines_start<G: GameInfo>(cfg: &Config, plan: &Plan<G>, log: &Option<Arc<Log>>) -> Result<(), RunError> {
    for (e, ecfg) in cfg.engines.iter().enumerate() {
        let mut p = EngineProc::spawn(ecfg, log.clone())?;
        let r = p.init(plan.variant, &plan.engine_options[e], ecfg.proto == crate::config::Proto::Tetrarch, HANDSHAKE);
        p.shutdown();
        r.map_err(|source| RunError::EngineHandshake { name: ecfg.name.clone(), source })?;
    }
    Ok(())
}

/// The PGN file (`--pgnout`), opened for appending. On `--resume` a kill
/// between a game's record and its PGN text (or in the middle of that
/// text) is repaired from the records.
fn open_pgn<G: GameInfo>(cfg: &Config, plan: &Plan<G>, earlier: &[GameRecord]) -> Result<Option<std::fs::File>, RunError> {
    let Some(p) = &cfg.pgnout else { return Ok(None) };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .map_err(|source| RunError::PgnOpen { path: p.clone(), source })?;
    if cfg.resume {
        let old = std::fs::read(p).map_err(|source| RunError::PgnRead { path: p.clone(), source })?;
        // Only the very end may be cut inside a character (a torn write);
        // invalid text elsewhere is not the runner's.
        let old = match std::str::from_utf8(&old) {
            Ok(t) => t,
            Err(e) if e.error_len().is_none() => std::str::from_utf8(&old[..e.valid_up_to()]).unwrap_or(""),
            Err(_) => return Err(RunError::PgnNotText { path: p.clone() }),
        };
        let (keep, add) = crate::pgn::repair(old, earlier, |r| crate::pgn::write(r, &plan.seat_names, plan.two_sides()));
        let repair = |source| RunError::PgnRepair { path: p.clone(), source };
        if keep < std::fs::metadata(p).map_or(0, |m| m.len() as usize) {
            f.set_len(keep as u64).map_err(repair)?;
        }
        f.write_all(add.as_bytes()).and_then(|_| f.flush()).map_err(repair)?;
    }
    Ok(Some(f))
}

/// The first line: the match, its games and how they are played.
fn print_banner<G: GameInfo>(cfg: &Config, plan: &Plan<G>, to_play: usize, shard_games: u64) {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let total = plan.total;
    let engines_text = match cfg.tournament {
        Some(k) => format!(
            "{} tournament of {} ({} {} × {} games)",
            k.word(),
            names.join(", "),
            plan.schedule.groups.len(),
            if plan.two_sides() { "pairings" } else { "groups" },
            total / plan.schedule.groups.len().max(1) as u64
        ),
        None => format!("engines {}", names.join(" vs ")),
    };
    println!(
        "Match {}: {} games{} ({} to play), {engines_text}, seed {}, concurrency {}{}",
        plan.variant,
        total,
        cfg.shard.map_or(String::new(), |sh| format!(", shard {sh}: {shard_games} of them")),
        to_play,
        cfg.seed,
        cfg.concurrency,
        if plan.maxturns > 0 { format!(", turn cap {}", plan.maxturns) } else { String::new() }
    );
}

/// What the game workers share: the match, the queue of games, and the
/// flags that stop them.
struct Workers<'a, G: GameInfo> {
    ctx: &'a MatchCtx<G>,
    plan: &'a Plan<G>,
    queue: &'a Mutex<VecDeque<u64>>,
    /// A file could not be written: start no new game.
    stop: &'a AtomicBool,
    /// The SPRT has decided: start no new pair (the pairs begun finish).
    no_new_pairs: &'a AtomicBool,
    shared_sprt: Option<SharedSprt<'a>>,
    /// The decision of the SPRT over all shards, once made.
    decision: &'a Mutex<Option<Decision>>,
}

impl<G: GameInfo> Workers<'_, G> {
    /// One worker: plays games off the queue with its own engine processes
    /// and sends their records, until the queue is empty or it must stop.
    fn work(&self, tx: mpsc::Sender<GameRecord>) {
        let mut slots = Slots::default();
        loop {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let per_opening = self.plan.schedule.per_opening;
            let Some(game) = next_game(self.queue, per_opening, self.no_new_pairs, self.shared_sprt, self.decision) else {
                break;
            };
            let job = self.plan.job(&self.ctx.cfg, game);
            let rec = play_game(self.ctx, &job, &mut slots);
            if tx.send(rec).is_err() {
                break;
            }
        }
        slots.shutdown();
    }
}

/// What the runner keeps as games finish: the files, the tally, the
/// progress display and the SPRT.
struct Collector<'a> {
    cfg: &'a Config,
    writer: Option<RecordWriter>,
    pgn: Option<std::fs::File>,
    seat_names: &'a [&'static str],
    two_sides: bool,
    tally: Tally,
    /// Standard output is a terminal: one progress line, rewritten.
    tty: bool,
    /// This shard's games (the progress line's `[done/total]`).
    total: u64,
    stop: &'a AtomicBool,
    no_new_pairs: &'a AtomicBool,
    shared_sprt: Option<SharedSprt<'a>>,
    /// Games played now.
    played: u64,
    /// The SPRT's decision (this shard's own SPRT).
    sprt_state: Option<SprtState>,
    /// The first file that could not be written.
    fatal: Option<RunError>,
}

impl Collector<'_> {
    /// One finished game: written, counted, shown, and the SPRT asked.
    fn take(&mut self, rec: &GameRecord) {
        self.played += 1;
        self.write(rec);
        self.tally.add(rec);
        self.show(rec);
        self.update_sprt();
    }

    /// The record and the PGN text; a write that fails stops the match.
    fn write(&mut self, rec: &GameRecord) {
        if let Some(w) = &mut self.writer {
            if let Err(e) = w.write(rec) {
                self.fatal = Some(RunError::WriteRecords(e));
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        if let Some(f) = &mut self.pgn {
            let text = crate::pgn::write(rec, self.seat_names, self.two_sides);
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                self.fatal = Some(RunError::WritePgn(e));
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The progress: one line rewritten on a terminal, else a line a game.
    fn show(&self, rec: &GameRecord) {
        // Engine text (a forfeit's reason quotes the engine) is escaped:
        // it must not reach the terminal as control sequences.
        let line = self.tally.short(self.cfg.sprt.as_ref());
        let line = printable(&line);
        if self.tty {
            print!("\r\x1b[K[{}/{}] {line}", self.tally.games, self.total);
        } else {
            let who: Vec<String> = rec.seats.iter().enumerate().map(|(s, n)| format!("{}={}", self.seat_names[s], n)).collect();
            println!(
                "Game {} [{}/{}] ({}): {} ({}) | {line}",
                rec.game + 1,
                self.tally.games,
                self.total,
                printable(&who.join(" ")),
                printable(&rec.result),
                printable(&rec.reason)
            );
        }
        let _ = std::io::stdout().flush();
    }

    /// Over shards, the SPRT of the shared folder (decided by the workers
    /// before each new pair) shows on the progress line from the next game
    /// on, and the folder's warnings are shown here; else this match's own
    /// SPRT stops new pairs once it decides.
    fn update_sprt(&mut self) {
        if let Some((folder, s, _)) = self.shared_sprt {
            if let Ok(mut f) = folder.lock() {
                self.tally.all_shards = Some(f.state(s));
                for w in f.warnings.drain(..) {
                    eprintln!("warning: {w}");
                }
            }
        } else if let Some(s) = &self.cfg.sprt {
            let st = s.state(self.tally.llr(s));
            if st != SprtState::Continue && self.sprt_state.is_none() {
                self.sprt_state = Some(st);
                self.no_new_pairs.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The state of the SPRT over all shards now, for the final table (and
/// the shared folder's warnings shown).
fn all_shards_line(cfg: &Config, (folder, s, _): SharedSprt<'_>) -> Option<String> {
    let mut f = folder.lock().ok()?;
    f.refresh();
    let (games, llr) = f.state(s);
    let state = match s.state(llr) {
        SprtState::Continue => "no decision yet",
        SprtState::H0 => "H0 accepted",
        SprtState::H1 => "H1 accepted",
    };
    let dir = cfg.records_dir.as_ref().map_or(String::new(), |d| d.display().to_string());
    let line = format!(
        "  All shards in {dir} now: {games} games, SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{:.2}, {:.2}], {state} (tetrarch match report {dir} for the table)",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        s.lower(),
        s.upper(),
    );
    for w in f.warnings.drain(..) {
        eprintln!("warning: {w}");
    }
    Some(line)
}

/// The final table: the tally's, headed by what stopped the match, then
/// the state of all shards and the runner's own time. A decision of the
/// SPRT over all shards becomes the match's.
fn final_table(cfg: &Config, c: &mut Collector<'_>, decision: Option<Decision>, wall: Instant) -> Vec<String> {
    let mut table = c.tally.table(if c.shared_sprt.is_some() { None } else { cfg.sprt.as_ref() });
    if let Some(st) = c.sprt_state {
        table.insert(0, format!("SPRT stopped the match: {}", if st == SprtState::H1 { "H1 accepted" } else { "H0 accepted" }));
    }
    if let Some(sh) = cfg.shard {
        table.insert(0, format!("Shard {sh}: {} of its {} games recorded", c.tally.games, c.total));
    }
    if let Some(shared) = c.shared_sprt {
        if let Some(d) = &decision {
            table.insert(0, format!("SPRT over all shards stopped this shard: {}", d.text));
            c.sprt_state = Some(d.state);
        }
        table.extend(all_shards_line(cfg, shared));
    }
    table.push(format!(
        "  Runner: {:.1} s wall, {} CPU (its own threads, not the engines)",
        wall.elapsed().as_secs_f64(),
        cpu_seconds().map_or("?".to_string(), |c| format!("{c:.2} s"))
    ));
    table
}

/// The games: `threads` workers play them, this thread collects their
/// records as they finish (none after the runner was interrupted: the
/// engines of the games in play were killed by the signal).
fn play_games<G: GameInfo>(workers: &Workers<'_, G>, c: &mut Collector<'_>, threads: usize) {
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for w in 0..threads {
            let tx = tx.clone();
            std::thread::Builder::new()
                .name(format!("game worker {w}"))
                .spawn_scoped(scope, move || workers.work(tx))
                .expect("spawn a worker thread");
        }
        drop(tx);
        for rec in rx {
            if crate::engine::interrupted() {
                break;
            }
            c.take(&rec);
        }
    });
}

/// Runs a match: the steps from the checks to the final table.
fn run_match<G: GameInfo>(cfg: Config, variant: &'static str) -> Result<Summary, RunError> {
    // 1. The rules, the engines, the openings and the schedule.
    let mut plan = plan_match::<G>(&cfg, variant)?;
    // 2. Earlier records (--resume) of this match and shard.
    let earlier = earlier_records::<G>(&cfg, &mut plan)?;
    let done: HashSet<u64> = earlier.iter().map(|r| r.game).collect();
    // 3. The shards' shared folder: made if needed, every shard file in it
    //    of this match (checked before any game).
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let shared = match &cfg.records_dir {
        Some(dir) => Some(Mutex::new(SharedFolder::open(dir, &plan.match_id, Tally::new(plan.fmt, names.clone(), None))?)),
        None => None,
    };
    // 4. Every engine once: it starts, knows the variant and takes its options.
    let log = match &cfg.log {
        Some(p) => Some(Log::create(p)?),
        None => None,
    };
    check_engines_start(&cfg, &plan, &log)?;
    // 5. The output files, once the input has passed every check.
    if let Some(dir) = &cfg.records_dir {
        std::fs::create_dir_all(dir).map_err(|source| RunError::RecordsDir { dir: dir.clone(), source })?;
    }
    let writer = match &cfg.records {
        Some(p) => Some(RecordWriter::open(p)?),
        None => None,
    };
    let pgn = open_pgn(&cfg, &plan, &earlier)?;
    // 6. The tally of the earlier games, the queue of this shard's others.
    let tour = cfg.tournament.map(|k| TournamentTally::new(k, names.clone(), !plan.two_sides()));
    let mut tally = Tally::new(plan.fmt, names, tour);
    for r in &earlier {
        tally.add(r);
    }
    let (total, shard, per_opening) = (plan.total, plan.shard, plan.schedule.per_opening);
    let queue: Mutex<VecDeque<u64>> =
        Mutex::new((0..total).filter(|g| !done.contains(g) && shard.owns(*g, per_opening)).collect());
    let to_play = queue.lock().map(|q| q.len()).unwrap_or(0);
    let shard_games = if cfg.shard.is_some() { shard.games(total, per_opening).len() as u64 } else { total };
    print_banner(&cfg, &plan, to_play, shard_games);

    // 7. The games: workers play them, this thread collects the records.
    let cfg = Arc::new(cfg);
    let ctx = MatchCtx::<G> {
        variant,
        opts: plan.opts.clone(),
        cfg: cfg.clone(),
        engine_options: plan.engine_options.clone(),
        maxturns: plan.maxturns,
        log,
        match_id: plan.match_id.clone(),
    };
    let (stop, no_new_pairs) = (AtomicBool::new(false), AtomicBool::new(false));
    let decision: Mutex<Option<Decision>> = Mutex::new(None);
    let shared_sprt = match (&shared, &cfg.sprt) {
        (Some(f), Some(s)) => Some((f, s, shard)),
        _ => None,
    };
    let workers = Workers {
        ctx: &ctx,
        plan: &plan,
        queue: &queue,
        stop: &stop,
        no_new_pairs: &no_new_pairs,
        shared_sprt,
        decision: &decision,
    };
    let mut c = Collector {
        cfg: &cfg,
        writer,
        pgn,
        seat_names: &plan.seat_names,
        two_sides: plan.two_sides(),
        tally,
        tty: std::io::stdout().is_terminal(),
        total: shard_games,
        stop: &stop,
        no_new_pairs: &no_new_pairs,
        shared_sprt,
        played: 0,
        sprt_state: None,
        fatal: None,
    };
    let wall = Instant::now();
    play_games(&workers, &mut c, cfg.concurrency.min(to_play.max(1)));
    if c.tty {
        println!();
    }
    if let Some(f) = c.fatal.take() {
        return Err(f);
    }
    // 8. The final table.
    let table = final_table(&cfg, &mut c, decision.into_inner().ok().flatten(), wall);
    for l in &table {
        println!("{}", printable(l));
    }
    Ok(Summary { played: c.played, counted: c.tally.games, sprt: c.sprt_state, table })
}

/// Plays the games of a match quietly for a program that drives the
/// runner (`tetrarch spsa`): [`play_games`] for the game of the variant.
pub struct QuietVisitor {
    /// The match.
    pub cfg: Config,
    /// The number of its first opening.
    pub first_opening: u64,
}

impl GameVisitor for QuietVisitor {
    type Output = Result<Vec<GameRecord>, RunError>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        play_quietly::<G>(self.cfg, variant, self.first_opening)
    }
}

/// The games `0..games` of the match, played as `run` plays them (the same
/// checks before the first game, engine handling, referee, workers), but
/// printing nothing and writing no file: the records come back in game
/// order. Game `g` plays opening `first_opening + g / k` of the match's
/// seed (`k` games an opening: 2 in a pair), so successive calls can play
/// successive openings. `--records`, `--pgnout`, `--resume`, `--sprt`,
/// `--shard` and `--records-dir` do not apply and are ignored.
fn play_quietly<G: GameInfo>(mut cfg: Config, variant: &'static str, first_opening: u64) -> Result<Vec<GameRecord>, RunError> {
    cfg.records = None;
    cfg.pgnout = None;
    cfg.resume = false;
    cfg.sprt = None;
    cfg.shard = None;
    cfg.records_dir = None;
    let mut plan = plan_match::<G>(&cfg, variant)?;
    plan.first_opening = first_opening;
    let log = match &cfg.log {
        Some(p) => Some(Log::create(p)?),
        None => None,
    };
    check_engines_start(&cfg, &plan, &log)?;
    let queue: Mutex<VecDeque<u64>> = Mutex::new((0..plan.total).collect());
    let cfg = Arc::new(cfg);
    let ctx = MatchCtx::<G> {
        variant,
        opts: plan.opts.clone(),
        cfg: cfg.clone(),
        engine_options: plan.engine_options.clone(),
        maxturns: plan.maxturns,
        log,
        match_id: plan.match_id.clone(),
    };
    let (stop, no_new_pairs) = (AtomicBool::new(false), AtomicBool::new(false));
    let decision: Mutex<Option<Decision>> = Mutex::new(None);
    let workers = Workers {
        ctx: &ctx,
        plan: &plan,
        queue: &queue,
        stop: &stop,
        no_new_pairs: &no_new_pairs,
        shared_sprt: None,
        decision: &decision,
    };
    let threads = cfg.concurrency.min(plan.total.max(1) as usize);
    let mut records = Vec::with_capacity(plan.total as usize);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<GameRecord>();
        for w in 0..threads {
            let tx = tx.clone();
            let workers = &workers;
            std::thread::Builder::new()
                .name(format!("game worker {w}"))
                .spawn_scoped(scope, move || workers.work(tx))
                .expect("spawn a worker thread");
        }
        drop(tx);
        records.extend(rx);
    });
    // The signal thread marks the runner interrupted before it kills the
    // engines: a game they were killed in is not a result.
    if crate::engine::interrupted() {
        return Err(RunError::Interrupted);
    }
    records.sort_by_key(|r| r.game);
    Ok(records)
}

//! `tetrarch datagen`: self-play games at a fixed node budget, written as
//! labelled quiet positions (docs/tuning.md).
//!
//! Game `g` is a function of the seed, `g` and the budget alone: its
//! opening comes from `(seed, g)` (a random set-up where the game has one,
//! then random legal turns), and every search runs on one thread from a
//! cleared table, so it plays the same moves whatever the concurrency.
//! Games are written in the order of their numbers.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tetrarch_core::eval::Weights;
use tetrarch_core::game::Seat;
use tetrarch_core::turns::play_turn;
use tetrarch_match::games::{format_of, Format, GameInfo};
use tetrarch_match::openings::make_opening;
use tetrarch_match::play::{free_for_all_places, note_seats_out, places_to_points};
use tetrarch_search::{Config, Limits, Score, Searcher};

use crate::data::{self, GameEnd, Header, Sample};
use crate::Shard;

/// What `tetrarch datagen` was asked.
#[derive(Clone, Debug)]
pub struct DatagenArgs {
    /// The variant.
    pub variant: String,
    /// Games to play (before sharding).
    pub games: u64,
    /// Node budget per turn.
    pub nodes: u64,
    /// The output file.
    pub out: PathBuf,
    /// The seed.
    pub seed: u64,
    /// Games at once.
    pub concurrency: usize,
    /// Random turns after the start (the opening).
    pub random_plies: u32,
    /// Continue an interrupted file.
    pub resume: bool,
    /// Play only this shard's games.
    pub shard: Option<Shard>,
    /// Hash per game, MiB.
    pub hash_mb: usize,
    /// Turns of the game that are not recorded after the opening.
    pub skip_turns: u32,
    /// Turn cap (a draw); 0: the game's default.
    pub max_turns: u32,
    /// Weights to play with (`None`: compiled-in).
    pub weights: Option<Arc<Weights>>,
    /// Print progress to standard error.
    pub progress: bool,
}

/// Why datagen stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// Bad arguments.
    #[error("{0}")]
    Args(String),
    /// The output file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// `--resume` on a file that cannot be read or is from other settings.
    #[error("cannot resume: {0}")]
    Resume(String),
    /// `--variant` names no game.
    #[error(transparent)]
    Variant(#[from] tetrarch_match::games::UnknownVariant),
    /// The weights to play with (`--weights`).
    #[error(transparent)]
    Weights(#[from] crate::WeightsFileError),
}

/// What a finished run did.
#[derive(Clone, Debug, Default)]
pub struct DatagenSummary {
    /// Games in the file (resumed ones included).
    pub games: u64,
    /// Samples in the file.
    pub positions: u64,
    /// Time spent in this run.
    pub elapsed: Duration,
    /// Games played in this run.
    pub played: u64,
    /// Samples written in this run.
    pub written: u64,
}

/// One finished game.
struct Played {
    index: u64,
    samples: Vec<Sample>,
    end: GameEnd,
}

/// The game numbers this run plays, in order.
fn game_numbers(args: &DatagenArgs) -> Vec<u64> {
    (0..args.games).filter(|g| args.shard.is_none_or(|s| s.owns(*g))).collect()
}

/// The turn cap: the flag, else the game's default, else 600 turns.
fn turn_cap<G: GameInfo>(args: &DatagenArgs, variant: &str) -> u32 {
    match args.max_turns {
        0 => match G::default_maxturns(variant) {
            0 => 600,
            n => n,
        },
        n => n,
    }
}

/// Plays game `index` and returns its samples and its end.
fn play_game<G: GameInfo>(
    variant: &'static str,
    args: &DatagenArgs,
    opts: &G::Options,
    searcher: &mut Searcher<G>,
    index: u64,
) -> Played {
    let opening = make_opening::<G>(None, args.random_plies, true, opts, args.seed, index);
    let (mut pos, mut history) = match opening.replay::<G>(opts) {
        Ok(x) => x,
        Err(_) => {
            // make_opening only gives openings that replay; be safe anyway.
            let mut g = G::startpos(opts);
            g.apply_options(opts);
            (g, Vec::new())
        }
    };
    searcher.clear();
    let config = Config { weights: args.weights.clone(), ..Config::default() };
    let limits = Limits { nodes: Some(args.nodes), ..Limits::default() };
    let stop = AtomicBool::new(false);
    let n = pos.seats();
    let fmt = format_of(&pos);
    let cap = turn_cap::<G>(args, variant);
    let mut turns = opening.turns.len() as u32;
    let first_recorded = turns + args.skip_turns;
    let mut out_order: Vec<Seat> = Vec::new();
    // (position string, seat, score) of the quiet positions so far.
    let mut kept: Vec<(String, Seat, i32)> = Vec::new();
    let outcome = loop {
        if let Some(o) = pos.outcome().or_else(|| pos.history_outcome(&history)) {
            break Some(o);
        }
        if turns >= cap {
            break None;
        }
        let res = searcher.search(&pos, &history, &limits, &config, &stop, &mut |_| {});
        if res.best.is_empty() {
            break pos.outcome();
        }
        let mover = pos.to_move();
        if let (true, Score::Cp(cp)) = (turns >= first_recorded, res.score) {
            // The position at the end of its quiescence line: no capture
            // (or check) pending, so its static value means something.
            let (_, line) = searcher.quiet_leaf(&pos, &config);
            let mut leaf = pos.clone();
            for &a in &line {
                leaf.make(a);
            }
            if leaf.at_turn_start() && leaf.outcome().is_none() && !leaf.in_check() {
                let sign = if leaf.side_of(leaf.to_move()) == pos.side_of(mover) { 1 } else { -1 };
                kept.push((leaf.position_string(), leaf.to_move(), sign * cp));
            }
        }
        history.push(pos.key());
        play_turn(&mut pos, &res.best);
        turns += 1;
        if fmt == Format::FreeForAll && pos.outcome().is_none() {
            note_seats_out(&mut out_order, mover, pos.to_move(), n);
        }
    };
    let points: Vec<f64> = match fmt {
        Format::FreeForAll => {
            let groups = free_for_all_places(n, pos.to_move(), outcome.as_ref(), &out_order, |s| pos.seat_in_game(s));
            places_to_points(n, &groups).1
        }
        _ => (0..n)
            .map(|s| match outcome.and_then(|o| o.for_seat(s)) {
                Some(true) => 1.0,
                Some(false) => 0.0,
                None => 0.5,
            })
            .collect(),
    };
    let end = match &outcome {
        Some(o) => o.to_string(),
        None => "draw turncap".to_string(),
    };
    let samples: Vec<Sample> =
        kept.into_iter().map(|(p, seat, score)| Sample { game: index, pos: p, seat, score, result: points.clone() }).collect();
    Played { index, end: GameEnd { game: index, end, turns, positions: samples.len() as u32 }, samples }
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s / 60 % 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// Runs datagen for game `G` playing `variant`.
pub fn run<G: GameInfo>(variant: &'static str, args: &DatagenArgs) -> Result<DatagenSummary, DatagenError> {
    if args.nodes == 0 {
        return Err(DatagenError::Args("--nodes must be at least 1".into()));
    }
    if args.concurrency == 0 {
        return Err(DatagenError::Args("--concurrency must be at least 1".into()));
    }
    let opts = G::default_options(variant);
    let header = Header {
        format: data::FORMAT.into(),
        variant: variant.into(),
        nodes: args.nodes,
        seed: args.seed,
        random_plies: args.random_plies,
        games: args.games,
        shard: args.shard.map(|s| s.to_string()),
    };
    let io = |source| DatagenError::Io { path: args.out.clone(), source };
    let numbers = game_numbers(args);
    let (mut writer, done, mut positions) = if args.resume && args.out.exists() {
        let d = data::read(&args.out).map_err(|e| DatagenError::Resume(e.to_string()))?;
        if d.header != header {
            return Err(DatagenError::Resume(format!(
                "{} was made with other settings ({}), not ({})",
                args.out.display(),
                serde_json::to_string(&d.header).unwrap_or_default(),
                serde_json::to_string(&header).unwrap_or_default()
            )));
        }
        let done = d.ends.len();
        if d.ends.iter().map(|e| e.game).ne(numbers.iter().copied().take(done)) {
            return Err(DatagenError::Resume("its games are not the first games of this run".into()));
        }
        (data::Writer::resume(&args.out, d.complete_len).map_err(io)?, done, d.samples.len() as u64)
    } else {
        if !args.resume && args.out.exists() && std::fs::metadata(&args.out).is_ok_and(|m| m.len() > 0) {
            return Err(DatagenError::Args(format!("{} exists: use --resume to continue it", args.out.display())));
        }
        (data::Writer::create(&args.out, &header).map_err(io)?, 0, 0)
    };
    let todo: Vec<u64> = numbers[done..].to_vec();
    let total = numbers.len() as u64;
    let start = Instant::now();
    let next = AtomicU64::new(0);
    let (tx, rx) = mpsc::channel::<Played>();
    let mut summary = DatagenSummary { games: done as u64, positions, ..Default::default() };
    let threads = args.concurrency.min(todo.len().max(1));
    let result: Result<(), DatagenError> = std::thread::scope(|s| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (todo, next, opts) = (&todo, &next, &opts);
            s.spawn(move || {
                let mut searcher = Searcher::<G>::new(args.hash_mb);
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&g) = todo.get(k) else { break };
                    if tx.send(play_game(variant, args, opts, &mut searcher, g)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Write in game order: hold games that finish early.
        let mut waiting: std::collections::BTreeMap<u64, Played> = Default::default();
        let mut k = 0;
        let mut last_report = Instant::now();
        for p in rx {
            waiting.insert(p.index, p);
            while let Some(p) = todo.get(k).and_then(|g| waiting.remove(g)) {
                writer.game(&p.samples, &p.end).map_err(io)?;
                positions += p.samples.len() as u64;
                summary.written += p.samples.len() as u64;
                summary.played += 1;
                summary.games += 1;
                k += 1;
            }
            if args.progress && (last_report.elapsed() >= Duration::from_secs(2) || summary.games == total) {
                last_report = Instant::now();
                let el = start.elapsed();
                let rate = summary.written as f64 / el.as_secs_f64().max(1e-3);
                let left = total - summary.games;
                let eta = if summary.played > 0 {
                    Duration::from_secs_f64(el.as_secs_f64() / summary.played as f64 * left as f64)
                } else {
                    Duration::ZERO
                };
                eprintln!(
                    "datagen {variant}: games {}/{total}, positions {positions}, {rate:.0} positions/s, elapsed {}, ETA {}",
                    summary.games,
                    fmt_duration(el),
                    fmt_duration(eta)
                );
            }
        }
        Ok(())
    });
    result?;
    summary.positions = positions;
    summary.elapsed = start.elapsed();
    Ok(summary)
}

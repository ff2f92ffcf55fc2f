//! The match: checks everything before the first game, schedules the games
//! (pairs with sides swapped, rotations in free-for-all), runs them on
//! `--concurrency` worker threads (each with its own engine processes),
//! writes the records and PGN as games finish, shows progress, stops on an
//! SPRT decision and prints the final table.
//!
//! - this file: the steps of a match in order (`run_match`), the game
//!   workers started and their records collected;
//! - `error.rs`: [`RunError`], why a match did not run or stopped;
//! - `plan.rs`: the checks before the first game (rules, engines,
//!   schedule, fingerprint, `--resume`, the PGN file, the first line);
//! - `workers.rs`: the worker threads and the queue of games;
//! - `progress.rs`: each finished game written, counted and shown, and the
//!   final table (the tables themselves are `tally.rs`'s);
//! - `quiet.rs`: the games of a match for a program ([`crate::play_games`]).

mod error;
mod plan;
mod progress;
mod quiet;
mod workers;

pub use error::RunError;
pub use quiet::QuietVisitor;

use std::collections::{HashSet, VecDeque};
use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use crate::config::Config;
use crate::engine::Log;
use crate::games::{GameInfo, GameVisitor};
use crate::record::{GameRecord, RecordWriter};
use crate::shared::{Decision, SharedFolder};
use crate::stats::SprtState;
use crate::tally::Tally;
use crate::text::printable;
use crate::tournament::TournamentTally;
use plan::{check_engines_start, earlier_records, open_pgn, plan_match, print_banner};
use progress::{final_table, Collector};
use workers::Workers;

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

/// The games: `threads` workers play them, this thread hands their
/// records to `take` as they finish (none after the runner was
/// interrupted: the engines of the games in play were killed by the
/// signal).
fn play_games<G: GameInfo>(workers: &Workers<'_, G>, threads: usize, mut take: impl FnMut(GameRecord)) {
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
            if crate::interrupt::interrupted() {
                break;
            }
            take(rec);
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
    let ctx = plan.match_ctx(cfg.clone(), log);
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
    play_games(&workers, cfg.concurrency.min(to_play.max(1)), |rec| c.take(&rec));
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

//! The games of a match played quietly for a program that drives the
//! runner (`tetrarch spsa`, [`crate::play_games`]): the same checks,
//! workers and engines as a match, no output and no files.

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use super::error::RunError;
use super::plan::{check_engines_start, plan_match};
use super::workers::Workers;
use crate::config::Config;
use crate::engine::Log;
use crate::games::{GameInfo, GameVisitor};
use crate::record::GameRecord;
use crate::shared::Decision;

/// Plays the games of a match quietly for a program that drives the
/// runner (`tetrarch spsa`): [`crate::play_games`] for the game of the variant.
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
    let ctx = plan.match_ctx(cfg.clone(), log);
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
    super::play_games(&workers, threads, |rec| records.push(rec));
    // The signal thread marks the runner interrupted before it kills the
    // engines: a game they were killed in is not a result.
    if crate::interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    records.sort_by_key(|r| r.game);
    Ok(records)
}

//! The game workers: each takes the next game off the queue (no new pair
//! once the SPRT has decided, here or over all shards), plays it with its
//! own engine processes and sends the record to the collecting thread.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

use super::plan::Plan;
use crate::games::GameInfo;
use crate::play::{play_game, MatchCtx, Slots};
use crate::record::GameRecord;
use crate::shard::Shard;
use crate::shared::{Decision, SharedFolder};

/// The shards' shared folder and the SPRT over all of them, with this
/// shard (`--records-dir` with `--sprt`).
pub(super) type SharedSprt<'a> = (&'a Mutex<SharedFolder>, &'a crate::stats::Sprt, Shard);

/// The next game a worker may start: `None` when the queue is empty, or
/// when the next game would begin a new block (pair, rotation) and no new
/// block may start: the SPRT has decided, here or (`shared`) over all the
/// shards' records in the shared folder. A block already begun is finished.
pub(super) fn next_game(
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

/// What the game workers share: the match, the queue of games, and the
/// flags that stop them.
pub(super) struct Workers<'a, G: GameInfo> {
    pub(super) ctx: &'a MatchCtx<G>,
    pub(super) plan: &'a Plan<G>,
    pub(super) queue: &'a Mutex<VecDeque<u64>>,
    /// A file could not be written: start no new game.
    pub(super) stop: &'a AtomicBool,
    /// The SPRT has decided: start no new pair (the pairs begun finish).
    pub(super) no_new_pairs: &'a AtomicBool,
    pub(super) shared_sprt: Option<SharedSprt<'a>>,
    /// The decision of the SPRT over all shards, once made.
    pub(super) decision: &'a Mutex<Option<Decision>>,
}

impl<G: GameInfo> Workers<'_, G> {
    /// One worker: plays games off the queue with its own engine processes
    /// and sends their records, until the queue is empty or it must stop.
    pub(super) fn work(&self, tx: mpsc::Sender<GameRecord>) {
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

//! Move ordering: the move stack, its ordering scores (table action,
//! tactical actions by [`SearchHints::order_hint`], killers, the counter-move,
//! then quiet actions by history), lazy picking, and the history, killer
//! and counter-move updates after a cut-off.
//!
//! The history table holds, besides the history of each side's actions,
//! the continuation history (the `Cont` switch): how well an action did
//! after the action one ply before it, and after the one two plies before
//! (with one action a turn and no seat skipped, in the four-seat games an
//! opponent's and a partner's), the pair hashed
//! into a region of its own. A quiet action's ordering score is the sum.
//! And the capture history (the `CapHist` switch): how well each side's
//! tactical actions did, divided by `CapHistDiv`, added to their order hint.

use crate::Searchable;
use tetrarch_core::game::ActionList;

use super::Worker;
use crate::hash::fx_hash;
use crate::score::MAX_PLY;

/// History entries per side bucket (four side buckets: `side & 3`).
pub(super) const HIST_BITS: u32 = 15;
/// Continuation history entries per region (one region for the action
/// one ply back, one for two plies back).
const CONT_BITS: u32 = 16;
/// Where the continuation history starts in the history table.
const CONT_BASE: usize = 4 << HIST_BITS;
/// Where the capture history starts in the history table.
const CAP_BASE: usize = CONT_BASE + (2 << CONT_BITS);
/// History entries in all: 4 side buckets × 32768, the continuation
/// history's two regions of 65536, then the capture history's 4 side
/// buckets × 32768.
pub(crate) const HIST_LEN: usize = CAP_BASE + (4 << HIST_BITS);
/// A history entry: bounded by [`HIST_MAX`] (gravity), so 16 bits hold it
/// and the tables stay small enough for the cache.
pub(crate) type Hist = i16;
/// The bound of a history entry.
pub(super) const HIST_MAX: i32 = 16_384;

/// The move stack entry is the table's action.
pub(super) const KIND_TT: u8 = 0;
/// A tactical action ([`SearchHints::is_tactical`]).
pub(super) const KIND_TACTICAL: u8 = 1;
/// A killer or the counter-move.
pub(super) const KIND_KILLER: u8 = 2;
/// Any other action, ordered by history.
pub(super) const KIND_QUIET: u8 = 3;

/// One action on the move stack with its ordering score.
#[derive(Clone, Copy)]
pub(super) struct Entry<A> {
    pub a: A,
    pub score: i32,
    /// Index in the legal action list (what the table stores; at a merged
    /// Best-Reply node, the opponent's rank in bits 12 and up).
    pub idx: u32,
    pub kind: u8,
    /// 0, or 1 + the seat to skip to before making `a` (Best-Reply Search:
    /// an opponent moving out of turn).
    pub skip: u8,
}

impl<A> Entry<A> {
    /// Quiet for the history: not tactical and not the table's action.
    #[inline]
    pub fn is_quiet(&self) -> bool {
        self.kind == KIND_QUIET || self.kind == KIND_KILLER
    }
}

/// The history entry of an action (`a_hash`, its [`fx_hash`]) for `side`
/// (four side buckets).
#[inline(always)]
fn hist_slot(side: usize, a_hash: u64) -> usize {
    ((side & 3) << HIST_BITS) | (a_hash as usize & ((1 << HIST_BITS) - 1))
}

/// The continuation history entry of an action (`a_hash`) after the action
/// `back` plies before it (1 or 2; `prev_hash`, its [`fx_hash`]): the pair
/// hashed into that region.
#[inline(always)]
fn cont_slot(back: usize, prev_hash: u64, a_hash: u64) -> usize {
    let h = (prev_hash ^ a_hash.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    CONT_BASE + ((back - 1) << CONT_BITS) + (h >> (64 - CONT_BITS)) as usize
}

/// Moves a history entry by `delta` towards ±[`HIST_MAX`] (gravity: the
/// nearer the bound, the smaller the step; never past it).
#[inline(always)]
fn gravity(h: &mut Hist, delta: i32) {
    let v = i32::from(*h);
    *h = (v + delta - v * delta.abs() / HIST_MAX) as Hist;
}

/// Move order: higher score first, then the lower list index.
#[inline(always)]
pub(super) fn move_order<A>(x: &Entry<A>, y: &Entry<A>) -> core::cmp::Ordering {
    y.score.cmp(&x.score).then(x.idx.cmp(&y.idx))
}

/// The table's form of a move stack index (`None` if it does not fit).
#[inline]
pub(super) fn tt_idx(idx: u32) -> Option<u16> {
    (idx < 0xFFFF).then_some(idx as u16)
}

impl<G: Searchable> Worker<'_, G> {
    /// The hashes of the actions one and two plies before the node at
    /// `ply` (for the continuation history; none where `Cont` is off, at
    /// the root, or after a null move or an out-of-turn action).
    #[inline]
    fn cont_keys(&self, ply: usize) -> [Option<u64>; 2] {
        if !self.p.cont {
            return [None, None];
        }
        let back = |k: usize| ply.checked_sub(k).and_then(|p| self.stack[p.min(MAX_PLY + 1)].prev).map(|a| fx_hash(&a));
        [back(0), back(1)]
    }

    /// The ordering score of a quiet action from the histories: its own,
    /// plus its continuation entries after `keys`.
    #[inline(always)]
    fn quiet_score(&self, side: usize, a_hash: u64, keys: [Option<u64>; 2]) -> i32 {
        let mut s = i32::from(self.history[hist_slot(side, a_hash)]);
        for (k, key) in keys.iter().enumerate() {
            if let Some(p) = *key {
                s += i32::from(self.history[cont_slot(k + 1, p, a_hash)]);
            }
        }
        s
    }

    /// Moves the histories of a quiet action (`a_hash`) at a node with
    /// continuation `keys` by `delta`.
    #[inline(always)]
    fn reward(&mut self, side: usize, a_hash: u64, keys: [Option<u64>; 2], delta: i32) {
        gravity(&mut self.history[hist_slot(side, a_hash)], delta);
        for (k, key) in keys.iter().enumerate() {
            if let Some(p) = *key {
                gravity(&mut self.history[cont_slot(k + 1, p, a_hash)], delta);
            }
        }
    }

    /// Generates the legal actions onto the move stack, unordered: the
    /// loops take them in order with [`Worker::pick`]. Returns (number of
    /// legal actions, number pushed).
    pub(super) fn generate(&mut self, tt_idx: Option<u16>, ply: usize, tactical_only: bool) -> (usize, usize) {
        let base = self.moves.len();
        let total = self.push_actions(tt_idx, ply, tactical_only, 0, 0);
        if !tactical_only && self.restricted(ply) {
            // `searchmoves` inside the root turn: the listed continuations.
            let mut keep = base;
            for r in base..self.moves.len() {
                let a = self.moves[r].a;
                if self.turn_filter.iter().any(|t| self.continues(t, ply) && t[ply] == a) {
                    self.moves[keep] = self.moves[r];
                    keep += 1;
                }
            }
            self.moves.truncate(keep);
        }
        let n = self.moves.len() - base;
        (total, n)
    }

    /// Plays the `i`-th best of the `n` actions at `base` (put in place
    /// by [`Worker::pick`]): its entry and the undo, with the child's
    /// previous action set and the node counted.
    #[inline(always)]
    pub(super) fn play_picked(&mut self, base: usize, i: usize, n: usize, ply: usize) -> (Entry<G::Action>, G::Undo) {
        self.pick(base, i, n);
        let m = self.moves[base + i];
        let u = self.pos.make(m.a);
        self.stack[ply + 1].prev = Some(m.a);
        self.tick();
        (m, u)
    }

    /// Puts the `i`-th best of the `n` actions at `base` in place: the first
    /// few by selection (most nodes cut off after one or two), then the
    /// rest sorted at once. The same order as sorting them all (score, then
    /// list index), so the search does not depend on how far it got.
    #[inline]
    pub(super) fn pick(&mut self, base: usize, i: usize, n: usize) {
        const SELECT: usize = 3;
        let list = &mut self.moves[base + i..base + n];
        if i < SELECT {
            let mut best = 0;
            for j in 1..list.len() {
                if move_order(&list[j], &list[best]).is_lt() {
                    best = j;
                }
            }
            list.swap(0, best);
        } else if i == SELECT {
            list.sort_unstable_by(move_order);
        }
    }

    /// Pushes the legal actions of the position (unsorted), their indices
    /// offset by `idx_base`, with the skip marker `skip`. Returns the number
    /// of legal actions.
    pub(super) fn push_actions(
        &mut self,
        tt_idx: Option<u16>,
        ply: usize,
        tactical_only: bool,
        idx_base: u32,
        skip: u8,
    ) -> usize {
        self.gen.clear();
        self.pos.search_actions(&mut self.gen);
        let killers = self.stack[ply.min(MAX_PLY)].killers;
        // Quiescence lists tactical actions only: no counter-move to look for.
        let counter = if tactical_only { None } else { self.counter_of(ply) };
        let side = self.pos.side_of(self.pos.to_move());
        let keys = if tactical_only { [None, None] } else { self.cont_keys(ply) };
        for (i, &a) in self.gen.iter().enumerate() {
            let (tactical, hint) = if tactical_only {
                if !self.pos.is_tactical(a) {
                    continue;
                }
                (true, self.pos.order_hint(a))
            } else {
                self.pos.order_info(a)
            };
            let idx = idx_base + i as u32;
            let (kind, score) = if tt_idx.is_some_and(|t| t as u32 == idx) {
                (KIND_TT, i32::MAX)
            } else if tactical {
                let learnt = if self.p.cap_hist {
                    i32::from(self.history[CAP_BASE + hist_slot(side, fx_hash(&a))]) / self.p.cap_hist_div
                } else {
                    0
                };
                (KIND_TACTICAL, (1 << 28) + hint.clamp(-(1 << 24), 1 << 24) + learnt)
            } else if killers[0] == Some(a) {
                (KIND_KILLER, 1 << 26)
            } else if killers[1] == Some(a) {
                (KIND_KILLER, (1 << 26) - 1)
            } else if counter == Some(a) {
                (KIND_KILLER, (1 << 26) - 2)
            } else {
                (KIND_QUIET, self.quiet_score(side, fx_hash(&a), keys) + hint.clamp(-8192, 8192))
            };
            self.moves.push(Entry { a, score, idx, kind, skip });
        }
        self.gen.len()
    }

    /// The counter-move slot of the action that led to `ply`.
    #[inline]
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        let p = self.stack[ply.min(MAX_PLY + 1)].prev?;
        Some(fx_hash(&p) as usize & ((1 << HIST_BITS) - 1))
    }

    /// The counter-move to the action that led to `ply`, if any.
    #[inline]
    fn counter_of(&self, ply: usize) -> Option<G::Action> {
        if !self.p.cm {
            return None;
        }
        self.counter[self.counter_slot(ply)?]
    }

    /// The action at `best` on the move stack cut off (`tactical`: a
    /// tactical one): with the `CapHist` switch, its capture history
    /// rises if it is tactical, and that of the tactical actions searched
    /// before it (from `base`) falls.
    pub(super) fn update_capture_stats(&mut self, depth: i32, best: usize, base: usize, tactical: bool) {
        if !self.p.cap_hist {
            return;
        }
        let bonus = (depth * depth).min(self.p.hist_bonus_max) * 32;
        let side = self.pos.side_of(self.pos.to_move());
        if tactical {
            let a = self.moves[best].a;
            gravity(&mut self.history[CAP_BASE + hist_slot(side, fx_hash(&a))], bonus);
        }
        for j in base..best {
            let e = self.moves[j];
            let tactical = e.kind == KIND_TACTICAL || (e.kind == KIND_TT && self.pos.is_tactical(e.a));
            if tactical && e.skip == 0 {
                gravity(&mut self.history[CAP_BASE + hist_slot(side, fx_hash(&e.a))], -bonus);
            }
        }
    }

    /// A quiet action at `best` on the move stack cut off at `ply`: it
    /// becomes the counter-move and the first killer, its history rises and
    /// that of the quiet actions searched before it (from `base`) falls.
    pub(super) fn update_quiet_stats(&mut self, ply: usize, depth: i32, best: usize, base: usize) {
        let a = self.moves[best].a;
        if let Some(c) = self.counter_slot(ply) {
            self.counter[c] = Some(a);
        }
        let k = &mut self.stack[ply].killers;
        if k[0] != Some(a) {
            k[1] = k[0];
            k[0] = Some(a);
        }
        let bonus = (depth * depth).min(self.p.hist_bonus_max) * 32;
        let side = self.pos.side_of(self.pos.to_move());
        let keys = self.cont_keys(ply);
        self.reward(side, fx_hash(&a), keys, bonus);
        for j in base..best {
            let e = self.moves[j];
            if e.is_quiet() && e.skip == 0 {
                self.reward(side, fx_hash(&e.a), keys, -bonus);
            }
        }
    }
}

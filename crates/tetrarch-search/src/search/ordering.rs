//! Move ordering: the move stack, its ordering scores (table action,
//! tactical actions by [`SearchHints::order_hint`], killers, the counter-move,
//! then quiet actions by history), lazy picking, and the history, killer
//! and counter-move updates after a cut-off.

use crate::Searchable;
use tetrarch_core::game::ActionList;

use super::Worker;
use crate::hash::fx_hash;
use crate::score::MAX_PLY;

/// History entries per side bucket (four side buckets: `side & 3`).
pub(super) const HIST_BITS: u32 = 15;
/// History entries in all: 4 side buckets × 32768.
pub(crate) const HIST_LEN: usize = 4 << HIST_BITS;
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

/// The history entry of action `a` for `side` (four side buckets).
#[inline(always)]
fn hist_slot<A: core::hash::Hash>(side: usize, a: &A) -> usize {
    ((side & 3) << HIST_BITS) | (fx_hash(a) as usize & ((1 << HIST_BITS) - 1))
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
    #[inline]
    fn hist_index(&self, a: &G::Action) -> usize {
        hist_slot(self.pos.side_of(self.pos.to_move()), a)
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
                (KIND_TACTICAL, (1 << 28) + hint.clamp(-(1 << 24), 1 << 24))
            } else if killers[0] == Some(a) {
                (KIND_KILLER, 1 << 26)
            } else if killers[1] == Some(a) {
                (KIND_KILLER, (1 << 26) - 1)
            } else if counter == Some(a) {
                (KIND_KILLER, (1 << 26) - 2)
            } else {
                (KIND_QUIET, i32::from(self.history[hist_slot(side, &a)]) + hint.clamp(-8192, 8192))
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
        let bonus = (depth * depth).min(self.p.hist_bonus_max);
        let i = self.hist_index(&a);
        let h = &mut self.history[i];
        let v = i32::from(*h);
        *h = (v + bonus * 32 - v * bonus * 32 / HIST_MAX) as Hist;
        for j in base..best {
            let e = self.moves[j];
            if e.is_quiet() && e.skip == 0 {
                let i = self.hist_index(&e.a);
                let h = &mut self.history[i];
                let v = i32::from(*h);
                *h = (v - bonus * 32 - v * bonus * 32 / HIST_MAX) as Hist;
            }
        }
    }
}

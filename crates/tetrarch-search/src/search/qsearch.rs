//! Quiescence: the search below the horizon, on tactical actions.

use crate::Searchable;

use super::ordering::tt_idx;
use super::Worker;
use crate::score::{INF, MAX_PLY};
use crate::tt::{score_from_tt, score_to_tt, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER};

impl<G: Searchable> Worker<'_, G> {
    /// Quiescence: stand pat on the static evaluation, then tactical actions
    /// only, at most `QsMax` plies deep; in check (games with checks,
    /// the first `QsEvade` quiescence plies) every action and no stand pat. The
    /// table gives cut-offs and the first action, and keeps the result at
    /// depth 0.
    pub(crate) fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qd: i32) -> i32 {
        // Step 1. Initialise the node.
        self.stack[ply].pv_len = 0;
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = self.is_us();
        if ply >= MAX_PLY - 1 {
            return self.eval(us);
        }

        // Step 2. Transposition table: a cut-off and the first action.
        let tkey = self.pos.key() ^ self.root.salt;
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(tkey).filter(|_| self.p.qtt && !self.qs_pv) {
            tt_move = hit.idx;
            let s = score_from_tt(hit.score, ply);
            match hit.bound {
                BOUND_EXACT => return s,
                BOUND_LOWER if s >= beta => return s,
                BOUND_UPPER if s <= alpha => return s,
                _ => {}
            }
        }

        // Step 3. Early stand pat (before the actions are listed), in
        // check evasions.
        let evade = self.p.evade && qd < self.p.qs_evade && self.pos.in_check();
        let mut stand = None;
        if G::QUICK_OUTCOME && !evade {
            // Stand pat before listing the actions (most quiescence nodes
            // stop here); the game says an ended game shows in `outcome`.
            if self.pos.outcome().is_some() {
                return self.terminal(ply, us);
            }
            let s = self.eval(us);
            if qd >= self.p.qs_max || s >= beta || self.pos.no_tactical() {
                return s;
            }
            stand = Some(s);
        } else if !evade && self.pos.has_quiet_action() {
            // A legal quiet action: the game goes on and not every action
            // is tactical (no `forced`), so Step 5's stand pat holds and
            // can be taken before the tactical actions are listed.
            let s = self.eval(us);
            if qd >= self.p.qs_max || s >= beta {
                return s;
            }
            stand = Some(s);
        }

        // Step 4. The actions: tactical ones (all of them in check); none
        // at all: the game is over.
        let base = self.moves.len();
        let (total, n) = self.generate(tt_move, ply, !evade);
        if total == 0 {
            self.moves.truncate(base);
            return self.terminal(ply, us);
        }

        // Step 5. Stand pat.
        let orig_alpha = alpha;
        let mut best = -INF;
        // Every action tactical (a checkers capture is compulsory): the
        // side cannot stand pat, it must play one of them.
        let forced = self.p.forced && n == total && qd < self.p.qs_max;
        if !evade && !forced {
            let stand = stand.unwrap_or_else(|| self.eval(us));
            if n == 0 || qd >= self.p.qs_max || stand >= beta {
                self.moves.truncate(base);
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }

        // Step 6. The move loop.
        let mut best_idx = None;
        for i in 0..n {
            self.pick(base, i, n);
            let m = self.moves[base + i];
            let u = self.pos.make(m.a);
            self.tick();
            let s = if self.is_us() != us {
                -self.qsearch(ply + 1, -beta, -alpha, qd + 1)
            } else {
                self.qsearch(ply + 1, alpha, beta, qd + 1)
            };
            self.pos.unmake(m.a, u);
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                best_idx = tt_idx(m.idx);
                if s > alpha {
                    alpha = s;
                    if self.qs_pv {
                        self.update_pv(ply, m.a);
                    }
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.moves.truncate(base);

        // Step 7. The result, into the table.
        if self.stopped {
            return 0;
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > orig_alpha && best_idx.is_some() {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        if self.p.qtt {
            self.tt.store(tkey, score_to_tt(best, ply), best_idx, 0, bound);
        }
        best
    }
}

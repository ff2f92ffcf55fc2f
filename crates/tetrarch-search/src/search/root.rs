//! The root: the root action list, one iteration of iterative deepening
//! (aspiration windows, MultiPV lines) and the Lazy SMP helpers' loop.
//! The main thread's loop, which reports and manages time, is
//! [`crate::Searcher::search`].

use crate::Searchable;

use super::ordering::{move_order, tt_idx};
use super::{RootMove, Worker};
use crate::score::{INF, MATE_BOUND};
use crate::tt::{score_to_tt, BOUND_EXACT};
use crate::Strategy;

impl<G: Searchable> Worker<'_, G> {
    /// The root actions in their first order (table move, tactical, …).
    pub(super) fn init_root(&mut self) {
        let tt_idx = self.tt.probe(self.pos.key() ^ self.root.salt).and_then(|h| h.idx);
        let (_, n) = self.generate(tt_idx, 0, false);
        self.moves[..n].sort_unstable_by(move_order);
        self.root_moves = self.moves[..n]
            .iter()
            .map(|e| RootMove { a: e.a, idx: e.idx, score: -INF, prev_score: -INF, pv: vec![e.a] })
            .collect();
        self.moves.clear();
    }

    /// `searchmoves`: keeps only the root actions that start one of `turns`
    /// (index paths, see [`crate::Limits::root_turns`]), and inside the root
    /// turn only the actions that continue one of them. An empty list, or
    /// one that matches nothing, keeps all.
    pub fn restrict_root(&mut self, turns: &[Vec<usize>]) {
        let paths = crate::listed_turns(&self.pos, turns);
        if !self.root_moves.iter().any(|r| paths.iter().any(|p| p[0] == r.a)) {
            return;
        }
        self.root_moves.retain(|r| paths.iter().any(|p| p[0] == r.a));
        self.turn_filter = paths;
    }

    /// One root iteration at `depth` for MultiPV line `line` (0-based): the
    /// root actions from `line` on are searched with a full window; the
    /// line's scores and PVs are updated. Returns false if stopped (the
    /// scores of actions searched completely stay valid).
    pub fn root_iteration(&mut self, depth: i32, line: usize) -> bool {
        self.iter_depth = depth;
        if self.root.strategy == Strategy::MaxN {
            return self.maxn_root(depth, line);
        }
        let prev = self.root_moves[line].score;
        if depth < self.p.asp_depth || prev <= -INF || prev.abs() >= MATE_BOUND {
            return self.root_window(depth, line, -INF, INF);
        }
        // Aspiration: a window around the previous score, widened on a fail.
        let mut delta = self.p.asp_delta;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            if !self.root_window(depth, line, alpha, beta) {
                return false;
            }
            let s = self.root_moves[line].score;
            delta *= 2;
            if s <= alpha {
                alpha = if delta > self.p.asp_max { -INF } else { (s - delta).max(-INF) };
            } else if s >= beta {
                beta = if delta > self.p.asp_max { INF } else { (s + delta).min(INF) };
            } else {
                return true;
            }
        }
    }

    /// One pass over the root actions from `line` on with the window
    /// `(alpha, beta)`; stops at the first fail high.
    fn root_window(&mut self, depth: i32, line: usize, mut alpha: i32, beta: i32) -> bool {
        let (alpha0, beta0) = (alpha, beta);
        for rm in &mut self.root_moves[line..] {
            rm.prev_score = rm.score;
            rm.score = -INF;
        }
        self.stack[0].pv_len = 0;
        // The root records no static value for the improving flag.
        self.stack[0].seat = u8::MAX;
        self.stack[0].stat = None;
        let mut completed_any = false;
        for i in line..self.root_moves.len() {
            if self.stop_requested() {
                self.stopped = true;
                break;
            }
            let a = self.root_moves[i].a;
            let u = self.pos.make(a);
            self.stack[1].prev = Some(a);
            self.tick();
            let flip = !self.is_us();
            let mut s;
            if i == line {
                s = self.child(depth - 1, 1, alpha, beta, flip, true);
            } else {
                s = self.child(depth - 1, 1, alpha, alpha + 1, flip, false);
                if s > alpha && s < beta {
                    s = self.child(depth - 1, 1, alpha, beta, flip, true);
                }
            }
            self.pos.unmake(a, u);
            if self.stopped {
                break;
            }
            completed_any = true;
            if i == line || s > alpha {
                // A first action failing low is an upper bound: keep the window.
                alpha = alpha.max(s);
                let rm = &mut self.root_moves[i];
                rm.score = s;
                // Its line is only a line where it failed low: the rest of
                // the turn would be any action that failed low too (and
                // `bestmove` plays that rest if the search stops before the
                // re-search). Keep the line of the last search that gave a
                // value inside its window.
                if s > alpha0 || rm.pv.is_empty() {
                    self.update_pv(0, a);
                    self.set_root_pv(i);
                }
                if s >= beta {
                    break;
                }
            }
        }
        if !completed_any {
            for rm in &mut self.root_moves[line..] {
                rm.score = rm.prev_score;
            }
            return false;
        }
        // Stable: equal scores keep their previous order.
        self.root_moves[line..].sort_by_key(|x| std::cmp::Reverse(x.score));
        if line == 0 {
            let rm = &self.root_moves[0];
            if !self.stopped && rm.score > alpha0 && rm.score < beta0 {
                self.tt.store(self.pos.key() ^ self.root.salt, score_to_tt(rm.score, 0), tt_idx(rm.idx), depth, BOUND_EXACT);
            }
        }
        !self.stopped
    }

    /// Root action `i` takes the root PV as its line.
    pub(super) fn set_root_pv(&mut self, i: usize) {
        let stack = &self.stack;
        let rm = &mut self.root_moves[i];
        rm.pv.clear();
        rm.pv.extend_from_slice(&stack[0].pv[..stack[0].pv_len]);
    }

    /// A helper thread's loop (Lazy SMP): iterate until the main thread is
    /// done, odd helpers one action deeper.
    pub fn helper_loop(&mut self, max_depth: u32) {
        let offset = (self.id & 1) as u32;
        for d in 1..=max_depth {
            let depth = (d + offset).min(max_depth) as i32;
            if !self.root_iteration(depth, 0) || self.stopped {
                break;
            }
        }
        self.publish();
    }
}

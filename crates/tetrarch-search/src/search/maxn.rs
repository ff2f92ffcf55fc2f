//! Max^n (Luckhardt & Irani 1986) with shallow pruning, for free-for-all
//! games with [`Strategy::MaxN`](crate::Strategy::MaxN): every seat
//! maximises its own share of a fixed total.

use crate::Searchable;
use tetrarch_core::game::Outcome;

use super::ordering::tt_idx;
use super::Worker;
use crate::score::{INF, MAX_PLY};
use crate::tt::BOUND_LOWER;

/// Max^n: the sum of a value vector (each seat's share).
const MAXN_TOTAL: i32 = 10_000;
/// Max^n value vectors, one share per seat (at most four seats).
type Shares = [i32; 4];

impl<G: Searchable> Worker<'_, G> {
    /// Max^n leaf: every seat's share of [`MAXN_TOTAL`], from its own
    /// evaluation through a logistic curve (scale `MaxnScale`), normalised to the total.
    fn maxn_leaf(&self) -> Shares {
        let n = self.root.seats.min(4);
        let mut p = [0f64; 4];
        let mut sum = 0.0;
        for (s, ps) in p.iter_mut().enumerate().take(n) {
            let e = self.pos.evaluate(s, self.weights).clamp(-6000, 6000) as f64;
            *ps = 1.0 / (1.0 + (-e / f64::from(self.p.maxn_scale)).exp());
            sum += *ps;
        }
        let mut w = [0; 4];
        if sum > 0.0 {
            for s in 0..n {
                w[s] = (p[s] / sum * MAXN_TOTAL as f64) as i32;
            }
        }
        w
    }

    /// Max^n value of a finished game: the winners share the total, else
    /// the seats that draw, else everyone.
    fn maxn_outcome(&self, o: Option<Outcome>) -> Shares {
        let n = self.root.seats.min(4);
        let mut won = 0u8;
        let mut drew = 0u8;
        if let Some(o) = o {
            for s in 0..n {
                match o.for_seat(s) {
                    Some(true) => won |= 1 << s,
                    None => drew |= 1 << s,
                    Some(false) => {}
                }
            }
        }
        let mask = if won != 0 {
            won
        } else if drew != 0 {
            drew
        } else {
            (1u8 << n) - 1
        };
        let share = MAXN_TOTAL / mask.count_ones().max(1) as i32;
        let mut w = [0; 4];
        for (s, ws) in w.iter_mut().enumerate().take(n) {
            if mask >> s & 1 != 0 {
                *ws = share;
            }
        }
        w
    }

    /// Max^n with shallow pruning: every seat maximises its own share; the
    /// node stops once its mover's share reaches `limit` (the parent's
    /// mover, another seat, can then get no more than it already has,
    /// because shares are never negative and sum to at most the total).
    /// Below depth 0, a capture-only continuation with stand pat.
    fn maxn(&mut self, depth: i32, ply: usize, limit: i32, qd: i32) -> Shares {
        self.stack[ply].pv_len = 0;
        if self.stopped {
            return [0; 4];
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.maxn_leaf();
        }
        let restricted = self.restricted(ply);
        let quiesce = depth <= 0 && !restricted;
        let turn_start = self.pos.at_turn_start();
        let key = self.pos.key();
        if !quiesce && turn_start && self.keys.iter().rev().any(|&k| k == key) {
            return self.maxn_outcome(self.repeated_outcome());
        }
        let tkey = key ^ self.root.salt;
        let tt_move = self.tt.probe(tkey).and_then(|h| h.idx);
        let base = self.moves.len();
        let (total, n) = self.generate(tt_move, ply, quiesce);
        if total == 0 {
            self.moves.truncate(base);
            return self.maxn_outcome(self.pos.outcome());
        }
        let mover = self.pos.to_move().min(3);
        let mut best = [-1; 4];
        if quiesce {
            let stand = self.maxn_leaf();
            if n == 0 || qd >= self.p.qs_max / 2 || stand[mover] >= limit {
                self.moves.truncate(base);
                return stand;
            }
            best = stand;
        }
        if turn_start && !quiesce {
            self.keys.push(key);
        }
        let mut best_idx = None;
        for i in 0..n {
            let (m, u) = self.play_picked(base, i, n, ply);
            let child_limit =
                if self.pos.to_move() != mover && best[mover] >= 0 { MAXN_TOTAL - best[mover] } else { MAXN_TOTAL + 1 };
            let v = self.maxn(depth - 1, ply + 1, child_limit, if quiesce { qd + 1 } else { 0 });
            self.pos.unmake(m.a, u);
            if self.stopped {
                break;
            }
            if v[mover] > best[mover] {
                best = v;
                best_idx = tt_idx(m.idx);
                self.update_pv(ply, m.a);
                if best[mover] >= limit {
                    break;
                }
            }
        }
        if turn_start && !quiesce {
            self.keys.pop();
        }
        self.moves.truncate(base);
        if !self.stopped && best_idx.is_some() {
            // The table keeps the best action only (values are vectors).
            if !restricted {
                self.tt.store(tkey, 0, best_idx, depth.max(0), BOUND_LOWER);
            }
        }
        best
    }

    /// A root share as a centipawn-like score: 0 is an equal share.
    fn share_cp(&self, w: i32) -> i32 {
        (w * self.root.seats.max(1) as i32 - MAXN_TOTAL) / 16
    }

    /// One max^n root iteration: every root action (with pruning against
    /// the best so far unless several lines are reported).
    pub(super) fn maxn_root(&mut self, depth: i32, line: usize) -> bool {
        if line > 0 {
            return !self.stopped;
        }
        for rm in &mut self.root_moves {
            rm.prev_score = rm.score;
            rm.score = -INF;
        }
        let mover = self.pos.to_move().min(3);
        let full = self.multipv > 1;
        let mut best_share = -1;
        let mut completed = 0;
        for i in 0..self.root_moves.len() {
            if self.stop_requested() {
                self.stopped = true;
                break;
            }
            let a = self.root_moves[i].a;
            let u = self.pos.make(a);
            self.stack[1].prev = Some(a);
            self.tick();
            let limit =
                if !full && self.pos.to_move() != mover && best_share >= 0 { MAXN_TOTAL - best_share } else { MAXN_TOTAL + 1 };
            let v = self.maxn(depth - 1, 1, limit, 0);
            self.pos.unmake(a, u);
            if self.stopped {
                break;
            }
            completed += 1;
            self.update_pv(0, a);
            let cp = self.share_cp(v[mover]);
            let cap = self.share_cp(best_share);
            self.root_moves[i].score = if v[mover] > best_share || i == 0 { cp } else { cp.min(cap) };
            self.set_root_pv(i);
            best_share = best_share.max(v[mover]);
        }
        if completed == 0 {
            for rm in &mut self.root_moves {
                rm.score = rm.prev_score;
            }
            return false;
        }
        self.root_moves.sort_by_key(|x| std::cmp::Reverse(x.score));
        !self.stopped
    }
}

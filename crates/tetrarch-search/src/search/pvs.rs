//! Negamax alpha-beta with principal variation search below the root, on
//! the values of sides: [`Worker::search_node`] in numbered steps, the
//! move loop ([`Worker::move_loop`]) and one action's search with its
//! extension, futility pruning and late move reduction
//! ([`Worker::search_action`]).
//!
//! The steps are functions for the reader only: they are
//! `#[inline(always)]`, so `search_node` compiles to one function as it did
//! before the split (left to the compiler, the calls to the move loop and
//! the pruning steps cost 0.2 % more instructions per node).

use std::ops::ControlFlow;

use crate::Searchable;

use super::ordering::{tt_idx, Entry, KIND_KILLER, KIND_QUIET, KIND_TACTICAL, KIND_TT};
use super::Worker;
use crate::score::{outcome_value, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::tt::{score_from_tt, score_to_tt, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER};

/// What the move loop needs to know about its node.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    pv_node: bool,
    /// The side to move is the root's side.
    us: bool,
    in_check: bool,
    /// Best-Reply Search's merged opponents' layer.
    merged: bool,
}

/// How one action of the move loop went.
enum Searched {
    /// Not played: an out-of-turn action whose seat cannot move now.
    Skipped,
    /// Pruned by futility: the node is worth at least this.
    Futile(i32),
    /// Searched: its value from the node's point of view.
    Value(i32),
}

impl<G: Searchable> Worker<'_, G> {
    /// Searches a child (the action is made): negates only when the side to
    /// move changed between "us" and "them".
    #[inline]
    pub(super) fn child(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, flip: bool, pv: bool) -> i32 {
        if flip {
            -self.search(depth, ply, -beta, -alpha, pv)
        } else {
            self.search(depth, ply, alpha, beta, pv)
        }
    }

    /// One node of the alpha-beta search (fail-soft, PVS), reached through
    /// [`Worker::search`]. Values are from the point of view of the node:
    /// the root's side ("us") or everyone else ("them").
    pub(super) fn search_node(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32, pv_node: bool) -> i32 {
        // Step 1. Initialise the node. A `searchmoves` node is searched
        // full width; at the horizon, quiescence.
        self.stack[ply].pv_len = 0;
        let restricted = self.restricted(ply);
        let depth = if restricted { depth.max(1) } else { depth };
        if depth <= 0 {
            return self.qsearch(ply, alpha, beta, 0);
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = self.is_us();
        if ply >= MAX_PLY - 1 {
            return self.eval(us);
        }

        // Step 2. A turn start already on the stack of turn-start keys is a
        // repetition.
        let turn_start = self.pos.at_turn_start();
        let key = self.pos.key();
        if turn_start && self.keys.iter().rev().any(|&k| k == key) {
            return self.repetition_value(ply, us);
        }

        // Step 3. Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table: the first action to try, and a
        // cut-off at a non-PV node.
        let tkey = key ^ self.root.salt;
        let tt_move = match self.probe_tt(tkey, depth, ply, alpha, beta, !pv_node && !restricted) {
            ControlFlow::Break(s) => return s,
            ControlFlow::Continue(idx) => idx,
        };
        // Internal iterative reduction: a deep node the table knows nothing
        // of is searched a ply shallower (its ordering is a guess anyway).
        let depth = if self.p.iir && tt_move.is_none() && depth >= self.p.iir_depth && !restricted { depth - 1 } else { depth };

        // Step 5. The improving flag, reverse futility pruning, the null move,
        // ProbCut.
        let in_check = self.pos.in_check();
        let merged = self.brs_merged(turn_start, us);
        let node = Node { depth, ply, pv_node, us, in_check, merged };
        // The node's static value, computed once when a step first asks.
        let mut stat = None;
        let improving = self.improving(node, turn_start, &mut stat);
        if let Some(s) = self.reverse_futility(node, beta, restricted, improving, &mut stat) {
            return s;
        }
        if let Some(s) = self.null_move(node, beta, turn_start, &mut stat) {
            return s;
        }
        if let Some(s) = self.probcut(node, beta, (tkey, key), tt_move, turn_start, restricted) {
            return s;
        }

        // Step 6. The actions (at Best-Reply Search's merged layer, those
        // of every opponent); none: the game is over.
        let base = self.moves.len();
        let (_, n) = if merged { self.generate_merged(tt_move, ply) } else { self.generate(tt_move, ply, false) };
        if n == 0 {
            self.moves.truncate(base);
            return self.terminal(ply, us);
        }

        // Step 7. The move loop, with the frontier's pruning limits.
        if turn_start {
            self.keys.push(key);
        }
        let orig_alpha = alpha;
        let futility = self.futility_value(node, alpha, &mut stat);
        let lmp = self.lmp_limit(node, alpha, improving);
        let (best, best_idx) = self.move_loop(node, base, n, alpha, beta, futility, lmp);
        if turn_start {
            self.keys.pop();
        }
        self.moves.truncate(base);

        // Step 8. The result, into the table.
        if self.stopped {
            return 0;
        }
        if best == -INF {
            // Every action was an out-of-turn one that could not be played.
            return self.eval(us);
        }
        let bound = if best >= beta {
            BOUND_LOWER
        } else if best > orig_alpha {
            BOUND_EXACT
        } else {
            BOUND_UPPER
        };
        if !restricted {
            self.tt.store(tkey, score_to_tt(best, ply), best_idx, depth, bound);
        }
        best
    }

    /// Step 2: the value of a repetition, a draw unless the rules say more
    /// (a rule the position applied itself, the game's history rule, or
    /// what the game gives a repetition).
    #[inline(always)]
    fn repetition_value(&self, ply: usize, us: bool) -> i32 {
        match self.repeated_outcome() {
            Some(o) => {
                let v = outcome_value(&o, self.root.seat, ply);
                if us {
                    v
                } else {
                    -v
                }
            }
            None => 0,
        }
    }

    /// Step 4: the table's entry for `tkey`: `Break` with its score if it
    /// cuts the node off (only where `may_cut`, at least as deep, and a
    /// bound outside the window), else `Continue` with its action.
    #[inline]
    fn probe_tt(&self, tkey: u64, depth: i32, ply: usize, alpha: i32, beta: i32, may_cut: bool) -> ControlFlow<i32, Option<u16>> {
        let Some(hit) = self.tt.probe(tkey) else {
            return ControlFlow::Continue(None);
        };
        if may_cut && hit.depth >= depth {
            let s = score_from_tt(hit.score, ply);
            match hit.bound {
                BOUND_EXACT => return ControlFlow::Break(s),
                BOUND_LOWER if s >= beta => return ControlFlow::Break(s),
                BOUND_UPPER if s <= alpha => return ControlFlow::Break(s),
                _ => {}
            }
        }
        ControlFlow::Continue(hit.idx)
    }

    /// Step 5: the improving flag (switch `Improving`): whether the side
    /// to move stands better by its static value than at the nearest
    /// earlier node of the path where the same seat was to move at the
    /// same point of its turn (at most 8 plies up: in the four-seat games
    /// with one action a turn, its own last turn; in Quattuor Reges, the
    /// same action of its last turn). `None` where the switch is off, in
    /// check, at a merged layer, or where that earlier node had no static
    /// value, or none within 8 plies (the root records none: within the
    /// root's first turn the flag is unknown): then nothing depends on it.
    /// Records this node's seat (with the turn-start flag in the top bit)
    /// and value for the nodes below.
    #[inline(always)]
    fn improving(&mut self, node: Node, turn_start: bool, stat: &mut Option<i32>) -> Option<bool> {
        if !self.p.improving {
            return None;
        }
        let seat = self.pos.to_move() as u8 | u8::from(turn_start) << 7;
        let ply = node.ply;
        self.stack[ply].seat = seat;
        self.stack[ply].stat = None;
        if node.in_check || node.merged {
            return None;
        }
        let e = *stat.get_or_insert_with(|| self.eval(node.us));
        // From the root side's view, so that the seats' values compare.
        let now = if node.us { e } else { -e };
        self.stack[ply].stat = Some(now);
        let earlier = (ply.saturating_sub(8)..ply).rev().find(|&k| self.stack[k].seat == seat)?;
        let before = self.stack[earlier].stat?;
        Some(if node.us { now > before } else { now < before })
    }

    /// Step 5: reverse futility pruning. A non-PV node near the frontier
    /// whose static value stands `RfpMargin` per depth above beta is
    /// expected to fail high: its static value is returned (where the game
    /// allows futility, not in check, never at a merged layer). With the
    /// improving flag, the margin is `RfpImp` smaller where the side is
    /// improving.
    #[inline(always)]
    fn reverse_futility(
        &self,
        node: Node,
        beta: i32,
        restricted: bool,
        improving: Option<bool>,
        stat: &mut Option<i32>,
    ) -> Option<i32> {
        if !self.p.rfp
            || node.pv_node
            || node.in_check
            || node.merged
            || restricted
            || node.depth > self.p.rfp_depth
            || beta.abs() >= MATE_BOUND
            || !self.pos.futility_ok()
        {
            return None;
        }
        let e = *stat.get_or_insert_with(|| self.eval(node.us));
        // Never below 0: a static value under beta proves no fail high.
        let margin = (self.p.rfp_margin * node.depth - if improving == Some(true) { self.p.rfp_imp } else { 0 }).max(0);
        (e - margin >= beta && e < MATE_BOUND).then_some(e)
    }

    /// Step 5: the null move. Let the next seat (an opponent) move twice;
    /// if we still stand at or above beta, this node will too. Only where
    /// the game says it is sound. Returns the node's value if it is cut.
    #[inline(always)]
    fn null_move(&mut self, node: Node, beta: i32, turn_start: bool, stat: &mut Option<i32>) -> Option<i32> {
        let Node { depth, ply, us, .. } = node;
        let try_null = self.p.null
            && !node.pv_node
            && depth >= self.p.null_depth
            && turn_start
            && !node.in_check
            && !self.stack[ply].no_null
            && beta.abs() < MATE_BOUND
            && self.pos.null_move_ok()
            && *stat.get_or_insert_with(|| self.eval(us)) >= beta + self.p.null_margin;
        if !try_null {
            return None;
        }
        let next = (self.pos.to_move() + 1) % self.root.seats.max(1);
        let u = self.pos.skip_to(next)?;
        self.stack[ply + 1].prev = None;
        let flip = self.is_us() != us;
        let mut s = -INF;
        if flip {
            self.tick();
            let r = self.p.null_base + depth / self.p.null_div;
            self.stack[ply + 1].no_null = true;
            s = self.child(depth - 1 - r, ply + 1, beta - 1, beta, true, false);
            self.stack[ply + 1].no_null = false;
        }
        self.pos.unskip(u);
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// Step 5: ProbCut. At a non-PV node from `ProbCutDepth`, a tactical
    /// action that reaches the ProbCut bound, `beta + ProbCutMargin`, first
    /// in quiescence and then in a null-window search `ProbCutRed` plies
    /// shallower than the node's own, is taken to show that the full
    /// search would fail high too: the node is cut with that value, kept in
    /// the table as a lower bound at the shallower depth. Not where the
    /// table already holds a value below the bound from about that depth,
    /// not in check, never at a merged layer, and only where the game
    /// allows futility. `keys` are the node's table key and position key.
    #[inline(always)]
    fn probcut(
        &mut self,
        node: Node,
        beta: i32,
        keys: (u64, u64),
        tt_move: Option<u16>,
        turn_start: bool,
        restricted: bool,
    ) -> Option<i32> {
        let Node { depth, ply, us, .. } = node;
        if !self.p.probcut
            || node.pv_node
            || node.in_check
            || node.merged
            || restricted
            || depth < self.p.probcut_depth
            || beta.abs() >= MATE_BOUND
            || !self.pos.futility_ok()
        {
            return None;
        }
        let bound = beta + self.p.probcut_margin;
        // The child's depth of the verifying search.
        let shallow = depth - self.p.probcut_red;
        let (tkey, key) = keys;
        if bound >= MATE_BOUND || self.tt.probe(tkey).is_some_and(|h| h.depth >= shallow && score_from_tt(h.score, ply) < bound) {
            return None;
        }
        let base = self.moves.len();
        let (_, n) = self.generate(tt_move, ply, true);
        if turn_start {
            self.keys.push(key);
        }
        let mut cut = None;
        for i in 0..n {
            let (m, u) = self.play_picked(base, i, n, ply);
            let flip = self.is_us() != us;
            let mut s =
                if flip { -self.qsearch(ply + 1, -bound, -bound + 1, 0) } else { self.qsearch(ply + 1, bound - 1, bound, 0) };
            if s >= bound && shallow > 0 {
                s = self.child(shallow, ply + 1, bound - 1, bound, flip, false);
            }
            self.pos.unmake(m.a, u);
            if self.stopped {
                break;
            }
            if s >= bound {
                cut = Some((if s >= MATE_BOUND { bound } else { s }, m.idx));
                break;
            }
        }
        if turn_start {
            self.keys.pop();
        }
        self.moves.truncate(base);
        if self.stopped {
            return Some(0);
        }
        let (s, idx) = cut?;
        self.tt.store(tkey, score_to_tt(s, ply), tt_idx(idx), (shallow + 1).max(0), BOUND_LOWER);
        Some(s)
    }

    /// Step 7: futility pruning at the frontier. With the static value this
    /// far below alpha, a quiet action one ply from quiescence is not
    /// searched (checking actions still are): the value it stands for.
    #[inline(always)]
    fn futility_value(&self, node: Node, alpha: i32, stat: &mut Option<i32>) -> Option<i32> {
        if self.p.fut && node.depth == 1 && !node.pv_node && !node.in_check && alpha.abs() < MATE_BOUND && self.pos.futility_ok()
        {
            let f = *stat.get_or_insert_with(|| self.eval(node.us)) + self.p.fut_margin;
            (f <= alpha).then_some(f)
        } else {
            None
        }
    }

    /// Step 7: late-move pruning, the number of quiet actions searched at
    /// a non-PV node near the frontier (never at a merged layer); with the
    /// improving flag, `LmpWorse` percent of it where the side is not
    /// improving.
    #[inline(always)]
    fn lmp_limit(&self, node: Node, alpha: i32, improving: Option<bool>) -> usize {
        let n = if !self.p.lmp || node.pv_node || node.in_check || node.merged || alpha.abs() >= MATE_BOUND {
            return usize::MAX;
        } else if node.depth <= 3 {
            self.lmp[node.depth as usize]
        } else if node.depth <= self.p.lmp_deep {
            (3 + node.depth * node.depth * self.p.lmp_deep_mul / 100) as usize
        } else {
            return usize::MAX;
        };
        if improving == Some(false) && n > 0 {
            (n * self.p.lmp_worse as usize / 100).max(1)
        } else {
            n
        }
    }

    /// Step 7: the `n` actions on the move stack from `base`, best first,
    /// until one fails high. Returns the best value (`-INF` if none was
    /// played) and the table index of the best action.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn move_loop(
        &mut self,
        node: Node,
        base: usize,
        n: usize,
        mut alpha: i32,
        beta: i32,
        futility: Option<i32>,
        lmp: usize,
    ) -> (i32, Option<u16>) {
        let ply = node.ply;
        let mut best = -INF;
        let mut best_idx = None;
        let mut quiets = 0;
        for i in 0..n {
            self.pick(base, i, n);
            let m = self.moves[base + i];
            if m.kind == KIND_QUIET && m.skip == 0 {
                // Late-move pruning: the history order has put the quiet
                // actions worth a look first; of the rest, only those that
                // give check.
                if quiets < lmp {
                    quiets += 1;
                } else if !self.p.lmp_chk {
                    break;
                } else if !self.pos.gives_check(m.a) {
                    continue;
                }
            }
            let s = match self.search_action(node, &m, i, alpha, beta, futility) {
                Searched::Skipped => continue,
                Searched::Futile(f) => {
                    best = best.max(f);
                    continue;
                }
                Searched::Value(s) => s,
            };
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                best_idx = tt_idx(m.idx);
                if s > alpha {
                    alpha = s;
                    if node.pv_node {
                        if m.skip != 0 {
                            // Out of turn: not a line of the real game.
                            self.stack[ply].pv_len = 0;
                        } else {
                            self.update_pv(ply, m.a);
                        }
                    }
                    if s >= beta {
                        let quiet = match m.kind {
                            KIND_TACTICAL => false,
                            KIND_TT => !self.pos.is_tactical(m.a),
                            _ => true,
                        };
                        if m.skip == 0 {
                            if quiet {
                                self.update_quiet_stats(ply, node.depth, base + i, base);
                            }
                            self.update_capture_stats(node.depth, base + i, base, !quiet);
                        }
                        break;
                    }
                }
            }
        }
        (best, best_idx)
    }

    /// Step 7, one action (the `i`-th): skip to its seat if it is out of
    /// turn, make it, extend it if it gives check, prune it by futility,
    /// or search it: the first with the node's window, the others with a
    /// null window, reduced when late and quiet, and again at full depth
    /// and full window while they beat alpha.
    #[inline(always)]
    fn search_action(
        &mut self,
        node: Node,
        m: &Entry<G::Action>,
        i: usize,
        alpha: i32,
        beta: i32,
        futility: Option<i32>,
    ) -> Searched {
        let ply = node.ply;
        let sk = if m.skip != 0 {
            match self.pos.skip_to(m.skip as usize - 1) {
                Some(u) => Some(u),
                None => return Searched::Skipped,
            }
        } else {
            None
        };
        let u = self.pos.make(m.a);
        self.stack[ply + 1].prev = (m.skip == 0).then_some(m.a);
        self.tick();
        if node.merged {
            self.brs_replied = true;
        }
        let flip = self.is_us() != node.us;
        // Check extension, while the ply is below twice the iteration depth.
        let gives_check = self.p.ext && self.pos.in_check();
        let ext = i32::from(gives_check && (ply as i32) < 2 * self.iter_depth);
        let new_depth = node.depth - 1 + ext;
        let quiet = m.is_quiet();
        if let Some(f) = futility.filter(|_| i > 0 && quiet && m.skip == 0 && !gives_check) {
            if node.merged {
                self.brs_replied = false;
            }
            self.pos.unmake(m.a, u);
            return Searched::Futile(f);
        }
        let s = if i == 0 {
            self.child(new_depth, ply + 1, alpha, beta, flip, node.pv_node)
        } else {
            let r = self.reduction(node, m, i, new_depth, gives_check);
            let mut s = self.child(new_depth - r, ply + 1, alpha, alpha + 1, flip, false);
            if s > alpha && r > 0 {
                s = self.child(new_depth, ply + 1, alpha, alpha + 1, flip, false);
            }
            if node.pv_node && s > alpha && s < beta {
                s = self.child(new_depth, ply + 1, alpha, beta, flip, true);
            }
            s
        };
        if node.merged {
            self.brs_replied = false;
        }
        self.pos.unmake(m.a, u);
        if let Some(u) = sk {
            self.pos.unskip(u);
        }
        Searched::Value(s)
    }

    /// Late move reduction of the `i`-th action (not the first): quiet
    /// actions from the 3rd (4th at PV nodes), depth ≥ 3, not in check and
    /// not giving check, by the table, one less at PV nodes, for killers
    /// and for a good history, one more for a bad history. With `lmr`
    /// switched off, one action from the 4th quiet action.
    #[inline]
    fn reduction(&self, node: Node, m: &Entry<G::Action>, i: usize, new_depth: i32, gives_check: bool) -> i32 {
        let depth = node.depth;
        if !self.p.lmr {
            return i32::from(depth >= 3 && i >= 3 && m.kind == KIND_QUIET);
        }
        if depth >= self.p.lmr_depth && m.is_quiet() && !node.in_check && !gives_check && i >= 2 + usize::from(node.pv_node) {
            let mut r = self.lmr[(depth.min(63) as usize) * 64 + i.min(63)] as i32;
            if node.pv_node {
                r -= 1;
            }
            if m.kind == KIND_KILLER || m.score > self.p.lmr_hist {
                r -= 1;
            } else if m.score < -self.p.lmr_hist {
                r += 1;
            }
            return r.clamp(0, new_depth - 1);
        }
        0
    }
}

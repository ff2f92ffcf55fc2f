//! The search proper: one [`Worker`] per thread, each with its own copy of
//! the position, move stack, per-ply stack and history, sharing the table.
//!
//! By algorithm:
//! - [`root`](self::root): the root of one iteration (aspiration windows,
//!   the root action list, MultiPV lines, `searchmoves`) and the Lazy SMP
//!   helpers' iterative deepening; the main thread's loop is
//!   [`crate::Searcher::search`].
//! - [`pvs`](self::pvs): negamax alpha-beta with principal variation search
//!   below the root, in numbered steps ([`Worker::search_node`]).
//! - [`brs`](self::brs): Best-Reply Search, the turn-start switch back to
//!   the root seat and the merged opponents' layer.
//! - [`maxn`](self::maxn): max^n with shallow pruning.
//! - [`qsearch`](self::qsearch): quiescence.
//! - [`ordering`](self::ordering): the move stack, move picking, history,
//!   killers and counter-moves.
//!
//! Per-ply state lives in one stack of [`Ply`] records, allocated once per
//! search; the actions of every node share one move stack.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use crate::Searchable;
use tetrarch_core::eval::Weights;
use tetrarch_core::game::{Outcome, Seat};

use crate::params::SearchParams;
use crate::score::{outcome_value, MATE_BOUND, MAX_PLY};
use crate::time::TimeControl;
use crate::tt::Tt;
use crate::Strategy;

mod brs;
mod maxn;
mod ordering;
mod pvs;
mod qsearch;
mod root;

use ordering::{Entry, HIST_BITS};
pub(crate) use ordering::{Hist, HIST_LEN};

/// A root action with the result of its last search.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<A> {
    pub a: A,
    pub idx: u32,
    pub score: i32,
    prev_score: i32,
    /// The line starting with `a` (complete when the score is exact).
    pub pv: Vec<A>,
}

/// State shared by every thread of one search.
pub(crate) struct Shared<'a> {
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Set by the main thread when it is done (helpers stop).
    pub abort: AtomicBool,
    /// Nodes per thread, published every 256 nodes and at the end.
    pub nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Relaxed)).sum()
    }
}

/// What is fixed for the whole search.
pub(crate) struct RootInfo {
    pub seat: Seat,
    pub side: usize,
    pub seats: usize,
    /// The strategy in force: the configured one in games with more than two
    /// sides, [`Strategy::Paranoid`] (plain negamax) otherwise.
    pub strategy: Strategy,
    /// XORed into table keys: nonzero in free-for-all games, where a node's
    /// value depends on which seat is the root and on the strategy.
    pub salt: u64,
}

impl RootInfo {
    pub fn new<G: Searchable>(g: &G, strategy: Strategy) -> RootInfo {
        let seat = g.to_move();
        let side = g.side_of(seat);
        let mut sides = 0u64;
        for s in 0..g.seats() {
            sides |= 1u64 << (g.side_of(s) & 63);
        }
        let multi = sides.count_ones() > 2;
        let strategy = if multi { strategy } else { Strategy::Paranoid };
        let salt = if multi { tetrarch_core::zobrist::splitmix64(0x7E77_A4C8 ^ side as u64 ^ (strategy as u64) << 8) } else { 0 };
        RootInfo { seat, side, seats: g.seats(), strategy, salt }
    }
}

/// The search stack: what the search keeps for the node at one ply.
#[derive(Clone)]
struct Ply<A> {
    /// The two quiet actions that last cut off at this ply.
    killers: [Option<A>; 2],
    /// The action that led to this node (None after a null move, an
    /// out-of-turn action, or at the root).
    prev: Option<A>,
    /// The node follows a null move (no second one).
    no_null: bool,
    /// The seat to move at this node (the top bit: at a turn start), and
    /// its static value from the root side's view where the improving flag
    /// computed one (`None` elsewhere): what a node of the same seat deeper
    /// on the path compares its own with.
    seat: u8,
    stat: Option<i32>,
    /// The principal variation from this node: `pv[..pv_len]`.
    pv_len: usize,
    pv: [A; MAX_PLY],
}

impl<A: Copy + Default> Ply<A> {
    fn new() -> Ply<A> {
        Ply {
            killers: [None, None],
            prev: None,
            no_null: false,
            seat: u8::MAX,
            stat: None,
            pv_len: 0,
            pv: [A::default(); MAX_PLY],
        }
    }
}

/// One search thread.
pub(crate) struct Worker<'a, G: Searchable> {
    pub pos: G,
    tt: &'a Tt,
    shared: &'a Shared<'a>,
    id: usize,
    /// The main thread checks the clock and the node limit.
    time: Option<&'a TimeControl>,
    node_limit: Option<u64>,
    /// The node count at which to poll besides every 256th: the node limit
    /// (main thread only).
    poll_at: u64,
    pub root: RootInfo,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// The game's action list, filled per node and copied onto `moves`.
    gen: G::Actions,
    /// The move stack: the actions of every node on the path, with their
    /// ordering scores (a node's actions from its `base` on).
    moves: Vec<Entry<G::Action>>,
    /// The search stack, indexed by ply (`MAX_PLY + 2` entries).
    stack: Vec<Ply<G::Action>>,
    pub history: Box<[Hist]>,
    /// Counter-moves: the quiet action that last cut off after an action,
    /// indexed by that action's hash.
    counter: Box<[Option<G::Action>]>,
    /// Turn-start keys: the game's history, then the path.
    keys: Vec<u64>,
    pub root_moves: Vec<RootMove<G::Action>>,
    /// `searchmoves` turns as actions from the root (empty: no restriction).
    turn_filter: Vec<Vec<G::Action>>,
    /// Late move reductions, `[depth * 64 + move number]`
    /// ([`SearchParams::lmr_table`]).
    lmr: Vec<u8>,
    /// Late-move pruning's limits by depth ([`SearchParams::lmp_limits`]).
    lmp: [usize; 4],
    /// Best-Reply Search: an opponent has replied since the root seat's
    /// last turn (the next turn start goes back to the root seat).
    brs_replied: bool,
    /// The depth of the current iteration (limits check extensions).
    iter_depth: i32,
    /// MultiPV lines (max^n searches every root action fully when > 1).
    pub multipv: usize,
    /// The tunable numbers and feature switches, read from their fields.
    p: SearchParams,
    /// The evaluation's weights.
    pub weights: &'a Weights,
    /// Quiescence keeps its principal variation and takes no cut-off from
    /// the table ([`crate::Searcher::quiet_leaf`]).
    pub qs_pv: bool,
}

impl<'a, G: Searchable> Worker<'a, G> {
    /// The shared transposition table.
    pub(crate) fn tt(&self) -> &'a Tt {
        self.tt
    }

    #[allow(clippy::too_many_arguments)]
    pub fn new(
        root: &G,
        history_keys: &[u64],
        tt: &'a Tt,
        shared: &'a Shared<'a>,
        id: usize,
        time: Option<&'a TimeControl>,
        node_limit: Option<u64>,
        history: Box<[Hist]>,
        strategy: Strategy,
        weights: &'a Weights,
        params: &SearchParams,
    ) -> Self {
        let mut keys = Vec::with_capacity(history_keys.len() + MAX_PLY + 1);
        keys.extend_from_slice(history_keys);
        if root.at_turn_start() {
            keys.push(root.key());
        }
        let mut w = Worker {
            pos: root.clone(),
            tt,
            shared,
            id,
            time,
            node_limit,
            poll_at: if id == 0 { node_limit.unwrap_or(u64::MAX) } else { u64::MAX },
            root: RootInfo::new(root, strategy),
            nodes: 1, // the root
            seldepth: 0,
            stopped: false,
            gen: G::Actions::default(),
            moves: Vec::with_capacity(1024),
            stack: vec![Ply::new(); MAX_PLY + 2],
            history,
            counter: vec![None; 1 << HIST_BITS].into_boxed_slice(),
            keys,
            root_moves: Vec::new(),
            turn_filter: Vec::new(),
            lmr: params.lmr_table(),
            lmp: params.lmp_limits(),
            brs_replied: false,
            iter_depth: 1,
            multipv: 1,
            p: params.clone(),
            weights,
            qs_pv: false,
        };
        w.init_root();
        w
    }

    /// Whether the node at `ply` is inside the root turn along one of the
    /// `searchmoves` turns, which then limit its actions: such a node is
    /// searched full width (no quiescence) and is neither cut off by nor
    /// stored in the table, whose entries hold unrestricted values.
    #[inline]
    fn restricted(&self, ply: usize) -> bool {
        !self.turn_filter.is_empty() && ply > 0 && self.turn_filter.iter().any(|t| self.continues(t, ply))
    }

    /// Whether the listed turn `t` goes on past `ply` from the actions the
    /// path has played so far.
    fn continues(&self, t: &[G::Action], ply: usize) -> bool {
        t.len() > ply && (0..ply).all(|k| self.stack[k + 1].prev == Some(t[k]))
    }

    #[inline]
    fn is_us(&self) -> bool {
        self.pos.side_of(self.pos.to_move()) == self.root.side
    }

    /// Static evaluation from the node's point of view.
    #[inline]
    fn eval(&self, us: bool) -> i32 {
        let e = self.pos.evaluate(self.root.seat, self.weights).clamp(-MATE_BOUND + 1, MATE_BOUND - 1);
        if us {
            e
        } else {
            -e
        }
    }

    /// The score of a position without legal actions, from the node's view.
    fn terminal(&self, ply: usize, us: bool) -> i32 {
        let v = match self.pos.outcome() {
            Some(o) => outcome_value(&o, self.root.seat, ply),
            None => 0,
        };
        if us {
            v
        } else {
            -v
        }
    }

    /// The outcome at a position that repeats one on the path.
    pub(super) fn repeated_outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| self.pos.history_outcome(&self.keys)).or_else(|| self.pos.repetition_outcome())
    }

    /// Counts a node; every 256 nodes, and at the node limit's own count
    /// (so that a budget that is not a multiple of 256, a weak level's,
    /// stops where it says), publishes the count and checks the stop
    /// conditions.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 255 == 0 || self.nodes == self.poll_at {
            self.poll();
        }
    }

    fn poll(&mut self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
        if self.shared.abort.load(Relaxed) || self.shared.stop.load(Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id == 0 {
            let over_nodes = self.node_limit.is_some_and(|l| self.shared.total_nodes() >= l);
            let over_time = self.time.is_some_and(|t| t.hard_exceeded());
            if over_nodes || over_time {
                self.stopped = true;
                self.shared.abort.store(true, Relaxed);
            }
        }
    }

    /// The principal variation from the root (of the last root action
    /// searched).
    #[inline]
    fn root_pv(&self) -> &[G::Action] {
        &self.stack[0].pv[..self.stack[0].pv_len]
    }

    /// The principal variation of the last search from the root.
    pub fn pv_line(&self) -> Vec<G::Action> {
        self.root_pv().to_vec()
    }

    /// The PV at `ply` becomes `a` followed by the child's PV.
    #[inline]
    fn update_pv(&mut self, ply: usize, a: G::Action) {
        let (node, child) = self.stack.split_at_mut(ply + 1);
        let (node, child) = (&mut node[ply], &child[0]);
        let len = child.pv_len.min(MAX_PLY - 1);
        node.pv[0] = a;
        if len > 0 {
            node.pv[1..len + 1].copy_from_slice(&child.pv[..len]);
        }
        node.pv_len = len + 1;
    }

    /// Publishes the node count.
    pub fn publish(&self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
    }

    /// Nodes of every thread so far.
    pub fn shared_total_nodes(&self) -> u64 {
        self.shared.total_nodes()
    }

    /// Whether this search was stopped or told to stop.
    pub fn stop_requested(&self) -> bool {
        self.stopped || self.shared.stop.load(Relaxed) || self.shared.abort.load(Relaxed)
    }

    /// Table fill, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The search parameters.
    pub fn params(&self) -> &SearchParams {
        &self.p
    }
}

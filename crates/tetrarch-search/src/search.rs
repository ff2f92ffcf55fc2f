//! The search proper: one [`Worker`] per thread, each with its own copy of
//! the position, move stack, killers and history, sharing the table.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use tetrarch_core::eval::Weights;
use tetrarch_core::game::{ActionList, Game, Outcome, Seat};

use crate::hash::fx_hash;
use crate::time::TimeControl;
use crate::tt::{score_from_tt, score_to_tt, Tt, BOUND_EXACT, BOUND_LOWER, BOUND_UPPER};
use crate::Strategy;

/// Plies the search can reach (main search plus quiescence).
pub(crate) const MAX_PLY: usize = 192;
/// Default and maximum iterative-deepening depth, in actions.
pub(crate) const MAX_DEPTH: u32 = 128;
/// Larger than any score.
pub(crate) const INF: i32 = 32_500;
/// The score of a win at the root (a win at ply `p` is `MATE - p`).
pub(crate) const MATE: i32 = 32_000;
/// Scores at least this large (in absolute value) are wins or losses.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Quiescence plies at most.
const QS_MAX: i32 = 8;
/// Futility margin at depth 1 (centipawn-like evaluation units).
const FUTILITY_MARGIN: i32 = 250;
/// Late-move pruning: at a non-PV node this close to quiescence (index:
/// depth), quiet actions after this many are not searched.
const LMP_LIMIT: [usize; 4] = [0, 6, 10, 16];

/// History entries per side bucket (four side buckets: `side & 3`).
const HIST_BITS: u32 = 15;
pub(crate) const HIST_LEN: usize = 4 << HIST_BITS;
/// A history entry: bounded by [`HIST_MAX`] (gravity), so 16 bits hold it
/// and the tables stay small enough for the cache.
pub(crate) type Hist = i16;
const HIST_MAX: i32 = 16_384;

const KIND_TT: u8 = 0;
const KIND_TACTICAL: u8 = 1;
const KIND_KILLER: u8 = 2;
const KIND_QUIET: u8 = 3;

/// One action on the move stack with its ordering score.
#[derive(Clone, Copy)]
struct Entry<A> {
    a: A,
    score: i32,
    /// Index in the legal action list (what the table stores; at a merged
    /// Best-Reply node, the opponent's rank in bits 12 and up).
    idx: u32,
    kind: u8,
    /// 0, or 1 + the seat to skip to before making `a` (Best-Reply Search:
    /// an opponent moving out of turn).
    skip: u8,
}

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
    pub fn new<G: Game>(g: &G, strategy: Strategy) -> RootInfo {
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

/// Max^n: the sum of a value vector (each seat's share).
pub(crate) const MAXN_TOTAL: i32 = 10_000;
/// Max^n value vectors, one share per seat (at most four seats).
pub(crate) type Shares = [i32; 4];

/// The history entry of action `a` for `side` (four side buckets).
#[inline(always)]
fn hist_slot<A: core::hash::Hash>(side: usize, a: &A) -> usize {
    ((side & 3) << HIST_BITS) | (fx_hash(a) as usize & ((1 << HIST_BITS) - 1))
}

/// Move order: higher score first, then the lower list index.
#[inline(always)]
fn move_order<A>(x: &Entry<A>, y: &Entry<A>) -> core::cmp::Ordering {
    y.score.cmp(&x.score).then(x.idx.cmp(&y.idx))
}

/// Features switched off by the environment variable
/// `TETRARCH_SEARCH_OFF` (comma-separated: `ext`, `null`, `lmr`, `evade`,
/// `qtt`, `fut`, `lmp`, `forced`), read once: for A/B matches while tuning.
pub(crate) fn off(feature: &str) -> bool {
    static OFF: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    OFF.get_or_init(|| std::env::var("TETRARCH_SEARCH_OFF").unwrap_or_default()).split(',').any(|f| f == feature)
}

/// Late move reductions by depth and move number (both capped at 63).
fn lmr_table() -> Vec<u8> {
    let mut t = vec![0u8; 64 * 64];
    for d in 1..64 {
        for i in 1..64 {
            let r = 0.75 + (d as f64).ln() * (i as f64).ln() / 2.0;
            t[d * 64 + i] = r.max(0.0) as u8;
        }
    }
    t
}

/// The value of a finished game for the root's side at `ply`.
#[inline]
pub(crate) fn outcome_value(o: &Outcome, root_seat: Seat, ply: usize) -> i32 {
    match o.for_seat(root_seat) {
        Some(true) => MATE - ply as i32,
        Some(false) => -MATE + ply as i32,
        None => 0,
    }
}

/// One search thread.
pub(crate) struct Worker<'a, G: Game> {
    pub pos: G,
    tt: &'a Tt,
    shared: &'a Shared<'a>,
    id: usize,
    /// The main thread checks the clock and the node limit.
    time: Option<&'a TimeControl>,
    node_limit: Option<u64>,
    pub root: RootInfo,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    gen: G::Actions,
    moves: Vec<Entry<G::Action>>,
    killers: Vec<[Option<G::Action>; 2]>,
    pub history: Box<[Hist]>,
    pv: Vec<G::Action>,
    pv_len: Vec<usize>,
    /// Turn-start keys: the game's history, then the path.
    keys: Vec<u64>,
    pub root_moves: Vec<RootMove<G::Action>>,
    /// `searchmoves` turns as actions from the root (empty: no restriction).
    turn_filter: Vec<Vec<G::Action>>,
    /// Late move reductions, `[depth * 64 + move number]`.
    lmr: Vec<u8>,
    /// `no_null[ply]`: the node at `ply` follows a null move.
    no_null: Vec<bool>,
    /// Best-Reply Search: an opponent has replied since the root seat's
    /// last turn (the next turn start goes back to the root seat).
    brs_replied: bool,
    /// The depth of the current iteration (limits check extensions).
    iter_depth: i32,
    /// MultiPV lines (max^n searches every root action fully when > 1).
    pub multipv: usize,
    /// Tuning switches (see [`off`]): check extension, null move, new
    /// reductions, quiescence evasions, quiescence table.
    use_ext: bool,
    use_null: bool,
    use_lmr: bool,
    use_evade: bool,
    use_qtt: bool,
    use_fut: bool,
    use_lmp: bool,
    use_forced: bool,
    use_cm: bool,
    /// `prev[ply]`: the action that led to the node at `ply` (None after a
    /// null move, an out-of-turn action, or at the root).
    prev: Vec<Option<G::Action>>,
    /// Counter-moves: the quiet action that last cut off after an action,
    /// indexed by that action's hash.
    counter: Box<[Option<G::Action>]>,
    /// The evaluation's weights.
    pub weights: &'a Weights,
    /// Quiescence keeps its principal variation and takes no cut-off from
    /// the table ([`crate::Searcher::quiet_leaf`]).
    pub qs_pv: bool,
}

impl<'a, G: Game> Worker<'a, G> {
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
            root: RootInfo::new(root, strategy),
            nodes: 1, // the root
            seldepth: 0,
            stopped: false,
            gen: G::Actions::default(),
            moves: Vec::with_capacity(1024),
            killers: vec![[None, None]; MAX_PLY + 1],
            history,
            pv: vec![G::Action::default(); MAX_PLY * MAX_PLY],
            pv_len: vec![0; MAX_PLY + 1],
            keys,
            root_moves: Vec::new(),
            turn_filter: Vec::new(),
            lmr: lmr_table(),
            no_null: vec![false; MAX_PLY + 2],
            brs_replied: false,
            iter_depth: 1,
            multipv: 1,
            use_ext: !off("ext"),
            use_null: !off("null"),
            use_lmr: !off("lmr"),
            use_evade: !off("evade"),
            use_qtt: !off("qtt"),
            use_fut: !off("fut"),
            use_lmp: !off("lmp"),
            use_forced: !off("forced"),
            use_cm: !off("cm"),
            prev: vec![None; MAX_PLY + 2],
            counter: vec![None; 1 << HIST_BITS].into_boxed_slice(),
            weights,
            qs_pv: false,
        };
        w.init_root();
        w
    }

    /// The root actions in their first order (table move, tactical, …).
    fn init_root(&mut self) {
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
        t.len() > ply && (0..ply).all(|k| self.prev[k + 1] == Some(t[k]))
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

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
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

    /// The principal variation of the last search from the root.
    pub fn pv_line(&self) -> Vec<G::Action> {
        self.pv[..self.pv_len[0]].to_vec()
    }

    /// Publishes the node count.
    pub fn publish(&self) {
        self.shared.nodes[self.id].store(self.nodes, Relaxed);
    }

    #[inline]
    fn hist_index(&self, a: &G::Action) -> usize {
        hist_slot(self.pos.side_of(self.pos.to_move()), a)
    }

    /// Generates the legal actions onto the move stack, unordered: the
    /// loops take them in order with [`Worker::pick`]. Returns (number of
    /// legal actions, number pushed).
    fn generate(&mut self, tt_idx: Option<u16>, ply: usize, tactical_only: bool) -> (usize, usize) {
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
    fn pick(&mut self, base: usize, i: usize, n: usize) {
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
    fn push_actions(&mut self, tt_idx: Option<u16>, ply: usize, tactical_only: bool, idx_base: u32, skip: u8) -> usize {
        self.gen.clear();
        self.pos.search_actions(&mut self.gen);
        let killers = self.killers[ply.min(MAX_PLY)];
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

    /// Best-Reply Search: the actions of every opponent still able to move,
    /// the seat to move first, the others out of turn (marked to be skipped
    /// to). Returns (legal actions, number pushed).
    fn generate_merged(&mut self, tt_idx: Option<u16>, ply: usize) -> (usize, usize) {
        let base = self.moves.len();
        let seats = self.root.seats;
        let first = self.pos.to_move();
        let mut total = self.push_actions(tt_idx, ply, false, 0, 0);
        for k in 1..seats {
            let o = (first + k) % seats;
            if self.pos.side_of(o) == self.root.side {
                continue;
            }
            if let Some(u) = self.pos.skip_to(o) {
                total += self.push_actions(tt_idx, ply, false, (k as u32) << 12, o as u8 + 1);
                self.pos.unskip(u);
            }
        }
        let n = self.moves.len() - base;
        (total, n)
    }

    #[inline]
    fn tt_idx(idx: u32) -> Option<u16> {
        (idx < 0xFFFF).then_some(idx as u16)
    }

    /// Searches a child (the action is made): negates only when the side to
    /// move changed between "us" and "them".
    #[inline]
    fn child(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, flip: bool, pv: bool) -> i32 {
        if flip {
            -self.search(depth, ply, -beta, -alpha, pv)
        } else {
            self.search(depth, ply, alpha, beta, pv)
        }
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, a: G::Action) {
        let row = ply * MAX_PLY;
        let child = row + MAX_PLY;
        let len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        self.pv[row] = a;
        if len > 0 {
            self.pv.copy_within(child..child + len, row + 1);
        }
        self.pv_len[ply] = len + 1;
    }

    /// The counter-move slot of the action that led to `ply`.
    #[inline]
    fn counter_slot(&self, ply: usize) -> Option<usize> {
        let p = self.prev[ply.min(MAX_PLY + 1)]?;
        Some(fx_hash(&p) as usize & ((1 << HIST_BITS) - 1))
    }

    /// The counter-move to the action that led to `ply`, if any.
    #[inline]
    fn counter_of(&self, ply: usize) -> Option<G::Action> {
        if !self.use_cm {
            return None;
        }
        self.counter[self.counter_slot(ply)?]
    }

    fn update_quiet_stats(&mut self, ply: usize, depth: i32, best: usize, base: usize) {
        let a = self.moves[best].a;
        if let Some(c) = self.counter_slot(ply) {
            self.counter[c] = Some(a);
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(a) {
            k[1] = k[0];
            k[0] = Some(a);
        }
        let bonus = (depth * depth).min(400);
        let i = self.hist_index(&a);
        let h = &mut self.history[i];
        let v = i32::from(*h);
        *h = (v + bonus * 32 - v * bonus * 32 / HIST_MAX) as Hist;
        for j in base..best {
            let e = self.moves[j];
            if (e.kind == KIND_QUIET || e.kind == KIND_KILLER) && e.skip == 0 {
                let i = self.hist_index(&e.a);
                let h = &mut self.history[i];
                let v = i32::from(*h);
                *h = (v - bonus * 32 - v * bonus * 32 / HIST_MAX) as Hist;
            }
        }
    }

    /// Alpha-beta (PVS) below the root. Values are from the point of view of
    /// the node: the root's side ("us") or everyone else ("them").
    ///
    /// With Best-Reply Search, a turn start after an opponent's reply goes
    /// straight back to the root seat (the other opponents pass); that
    /// line is not a real game line, so it ends the PV.
    fn search(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, pv_node: bool) -> i32 {
        if self.root.strategy == Strategy::Brs && depth > 0 && self.brs_replied && self.pos.at_turn_start() {
            if self.is_us() {
                self.brs_replied = false;
                let v = self.search_node(depth, ply, alpha, beta, pv_node);
                self.brs_replied = true;
                return v;
            }
            let seat = self.root.seat;
            if let Some(u) = self.pos.skip_to(seat) {
                self.brs_replied = false;
                let v = -self.search_node(depth, ply, -beta, -alpha, pv_node);
                self.brs_replied = true;
                self.pos.unskip(u);
                self.pv_len[ply] = 0;
                return v;
            }
        }
        self.search_node(depth, ply, alpha, beta, pv_node)
    }

    fn search_node(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
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
        let turn_start = self.pos.at_turn_start();
        let key = self.pos.key();
        if turn_start && self.keys.iter().rev().any(|&k| k == key) {
            // A repetition: a draw, unless the rules say more (a rule the
            // position applied itself, the game's history rule, or what the
            // game gives a repetition).
            return match self.repeated_outcome() {
                Some(o) => {
                    let v = outcome_value(&o, self.root.seat, ply);
                    if us {
                        v
                    } else {
                        -v
                    }
                }
                None => 0,
            };
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let tkey = key ^ self.root.salt;
        let mut tt_idx = None;
        if let Some(hit) = self.tt.probe(tkey) {
            tt_idx = hit.idx;
            if !pv_node && !restricted && hit.depth >= depth {
                let s = score_from_tt(hit.score, ply);
                match hit.bound {
                    BOUND_EXACT => return s,
                    BOUND_LOWER if s >= beta => return s,
                    BOUND_UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let in_check = self.pos.in_check();
        // Null move: let the next seat (an opponent) move twice; if we still
        // stand at or above beta, this node will too. Only where the game
        // says it is sound.
        if self.use_null
            && !pv_node
            && depth >= 3
            && turn_start
            && !in_check
            && !self.no_null[ply]
            && beta.abs() < MATE_BOUND
            && self.pos.null_move_ok()
            && self.eval(us) >= beta
        {
            let next = (self.pos.to_move() + 1) % self.root.seats.max(1);
            if let Some(u) = self.pos.skip_to(next) {
                self.prev[ply + 1] = None;
                let flip = self.is_us() != us;
                let mut s = -INF;
                if flip {
                    self.tick();
                    let r = 2 + depth / 4;
                    self.no_null[ply + 1] = true;
                    s = self.child(depth - 1 - r, ply + 1, beta - 1, beta, true, false);
                    self.no_null[ply + 1] = false;
                }
                self.pos.unskip(u);
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        let merged = self.root.strategy == Strategy::Brs && turn_start && !us && !self.brs_replied;
        let base = self.moves.len();
        let (_, n) = if merged { self.generate_merged(tt_idx, ply) } else { self.generate(tt_idx, ply, false) };
        if n == 0 {
            self.moves.truncate(base);
            return self.terminal(ply, us);
        }
        if turn_start {
            self.keys.push(key);
        }
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_idx = None;
        // Futility pruning at the frontier: with the static value this far
        // below alpha, a quiet action one ply from quiescence is not
        // searched (checking actions still are).
        let futility =
            if self.use_fut && depth == 1 && !pv_node && !in_check && alpha.abs() < MATE_BOUND && self.pos.futility_ok() {
                let f = self.eval(us) + FUTILITY_MARGIN;
                (f <= alpha).then_some(f)
            } else {
                None
            };
        let lmp = if self.use_lmp && !pv_node && !in_check && !merged && depth <= 3 && alpha.abs() < MATE_BOUND {
            LMP_LIMIT[depth as usize]
        } else {
            usize::MAX
        };
        let mut quiets = 0;
        for i in 0..n {
            self.pick(base, i, n);
            let m = self.moves[base + i];
            if m.kind == KIND_QUIET && m.skip == 0 {
                // Late-move pruning: the history order has put the quiet
                // actions worth a look first.
                if quiets >= lmp {
                    break;
                }
                quiets += 1;
            }
            let sk = if m.skip != 0 {
                match self.pos.skip_to(m.skip as usize - 1) {
                    Some(u) => Some(u),
                    None => continue,
                }
            } else {
                None
            };
            let u = self.pos.make(m.a);
            self.prev[ply + 1] = (m.skip == 0).then_some(m.a);
            self.tick();
            if merged {
                self.brs_replied = true;
            }
            let flip = self.is_us() != us;
            let gives_check = self.use_ext && self.pos.in_check();
            let ext = i32::from(gives_check && (ply as i32) < 2 * self.iter_depth);
            let new_depth = depth - 1 + ext;
            let quiet = m.kind == KIND_QUIET || m.kind == KIND_KILLER;
            if let Some(f) = futility.filter(|_| i > 0 && quiet && m.skip == 0 && !gives_check) {
                if merged {
                    self.brs_replied = false;
                }
                self.pos.unmake(m.a, u);
                best = best.max(f);
                continue;
            }
            let mut s;
            if i == 0 {
                s = self.child(new_depth, ply + 1, alpha, beta, flip, pv_node);
            } else {
                let mut r = 0;
                if !self.use_lmr {
                    r = i32::from(depth >= 3 && i >= 3 && m.kind == KIND_QUIET);
                } else if depth >= 3 && quiet && !in_check && !gives_check && i >= 2 + usize::from(pv_node) {
                    r = self.lmr[(depth.min(63) as usize) * 64 + i.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if m.kind == KIND_KILLER || m.score > HIST_MAX / 2 {
                        r -= 1;
                    } else if m.score < -HIST_MAX / 2 {
                        r += 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                s = self.child(new_depth - r, ply + 1, alpha, alpha + 1, flip, false);
                if s > alpha && r > 0 {
                    s = self.child(new_depth, ply + 1, alpha, alpha + 1, flip, false);
                }
                if pv_node && s > alpha && s < beta {
                    s = self.child(new_depth, ply + 1, alpha, beta, flip, true);
                }
            }
            if merged {
                self.brs_replied = false;
            }
            self.pos.unmake(m.a, u);
            if let Some(u) = sk {
                self.pos.unskip(u);
            }
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                best_idx = Self::tt_idx(m.idx);
                if s > alpha {
                    alpha = s;
                    if pv_node {
                        if m.skip != 0 {
                            // Out of turn: not a line of the real game.
                            self.pv_len[ply] = 0;
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
                        if quiet && m.skip == 0 {
                            self.update_quiet_stats(ply, depth, base + i, base);
                        }
                        break;
                    }
                }
            }
        }
        if turn_start {
            self.keys.pop();
        }
        self.moves.truncate(base);
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

    /// Quiescence: stand pat on the static evaluation, then tactical actions
    /// only, at most [`QS_MAX`] plies deep; in check (games with checks,
    /// the first two quiescence plies) every action and no stand pat. The
    /// table gives cut-offs and the first action, and keeps the result at
    /// depth 0.
    pub(crate) fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32, qd: i32) -> i32 {
        self.pv_len[ply] = 0;
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = self.is_us();
        if ply >= MAX_PLY - 1 {
            return self.eval(us);
        }
        let tkey = self.pos.key() ^ self.root.salt;
        let mut tt_idx = None;
        if let Some(hit) = self.tt.probe(tkey).filter(|_| self.use_qtt && !self.qs_pv) {
            tt_idx = hit.idx;
            let s = score_from_tt(hit.score, ply);
            match hit.bound {
                BOUND_EXACT => return s,
                BOUND_LOWER if s >= beta => return s,
                BOUND_UPPER if s <= alpha => return s,
                _ => {}
            }
        }
        let evade = self.use_evade && qd < 2 && self.pos.in_check();
        let mut stand = None;
        if G::QUICK_OUTCOME && !evade {
            // Stand pat before listing the actions (most quiescence nodes
            // stop here); the game says an ended game shows in `outcome`.
            if self.pos.outcome().is_some() {
                return self.terminal(ply, us);
            }
            let s = self.eval(us);
            if qd >= QS_MAX || s >= beta || self.pos.no_tactical() {
                return s;
            }
            stand = Some(s);
        }
        let base = self.moves.len();
        let (total, n) = self.generate(tt_idx, ply, !evade);
        if total == 0 {
            self.moves.truncate(base);
            return self.terminal(ply, us);
        }
        let orig_alpha = alpha;
        let mut best = -INF;
        // Every action tactical (a checkers capture is compulsory): the
        // side cannot stand pat, it must play one of them.
        let forced = self.use_forced && n == total && qd < QS_MAX;
        if !evade && !forced {
            let stand = stand.unwrap_or_else(|| self.eval(us));
            if n == 0 || qd >= QS_MAX || stand >= beta {
                self.moves.truncate(base);
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
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
                best_idx = Self::tt_idx(m.idx);
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
        if self.use_qtt {
            self.tt.store(tkey, score_to_tt(best, ply), best_idx, 0, bound);
        }
        best
    }

    // ---- max^n (free-for-all, `Strategy::MaxN`) ----------------------------

    /// Max^n leaf: every seat's share of [`MAXN_TOTAL`], from its own
    /// evaluation through a logistic curve, normalised to the total.
    fn maxn_leaf(&self) -> Shares {
        let n = self.root.seats.min(4);
        let mut p = [0f64; 4];
        let mut sum = 0.0;
        for (s, ps) in p.iter_mut().enumerate().take(n) {
            let e = self.pos.evaluate(s, self.weights).clamp(-6000, 6000) as f64;
            *ps = 1.0 / (1.0 + (-e / 300.0).exp());
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

    /// The outcome at a position that repeats one on the path.
    fn repeated_outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| self.pos.history_outcome(&self.keys)).or_else(|| self.pos.repetition_outcome())
    }

    /// Max^n with shallow pruning: every seat maximises its own share; the
    /// node stops once its mover's share reaches `limit` (the parent's
    /// mover, another seat, can then get no more than it already has,
    /// because shares are never negative and sum to at most the total).
    /// Below depth 0, a capture-only continuation with stand pat.
    fn maxn(&mut self, depth: i32, ply: usize, limit: i32, qd: i32) -> Shares {
        self.pv_len[ply] = 0;
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
        let tt_idx = self.tt.probe(tkey).and_then(|h| h.idx);
        let base = self.moves.len();
        let (total, n) = self.generate(tt_idx, ply, quiesce);
        if total == 0 {
            self.moves.truncate(base);
            return self.maxn_outcome(self.pos.outcome());
        }
        let mover = self.pos.to_move().min(3);
        let mut best = [-1; 4];
        if quiesce {
            let stand = self.maxn_leaf();
            if n == 0 || qd >= QS_MAX / 2 || stand[mover] >= limit {
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
            self.pick(base, i, n);
            let m = self.moves[base + i];
            let u = self.pos.make(m.a);
            self.prev[ply + 1] = Some(m.a);
            self.tick();
            let child_limit =
                if self.pos.to_move() != mover && best[mover] >= 0 { MAXN_TOTAL - best[mover] } else { MAXN_TOTAL + 1 };
            let v = self.maxn(depth - 1, ply + 1, child_limit, if quiesce { qd + 1 } else { 0 });
            self.pos.unmake(m.a, u);
            if self.stopped {
                break;
            }
            if v[mover] > best[mover] {
                best = v;
                best_idx = Self::tt_idx(m.idx);
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
    pub(crate) fn share_cp(&self, w: i32) -> i32 {
        (w * self.root.seats.max(1) as i32 - MAXN_TOTAL) / 16
    }

    /// One max^n root iteration: every root action (with pruning against
    /// the best so far unless several lines are reported).
    fn maxn_root(&mut self, depth: i32, line: usize) -> bool {
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
            self.prev[1] = Some(a);
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
            let rm = &mut self.root_moves[i];
            rm.score = if v[mover] > best_share || i == 0 { cp } else { cp.min(cap) };
            rm.pv.clear();
            rm.pv.extend_from_slice(&self.pv[..self.pv_len[0]]);
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
        if depth < 4 || prev <= -INF || prev.abs() >= MATE_BOUND {
            return self.root_window(depth, line, -INF, INF);
        }
        // Aspiration: a window around the previous score, widened on a fail.
        let mut delta = 30;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            if !self.root_window(depth, line, alpha, beta) {
                return false;
            }
            let s = self.root_moves[line].score;
            delta *= 2;
            if s <= alpha {
                alpha = if delta > 600 { -INF } else { (s - delta).max(-INF) };
            } else if s >= beta {
                beta = if delta > 600 { INF } else { (s + delta).min(INF) };
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
        self.pv_len[0] = 0;
        let mut completed_any = false;
        for i in line..self.root_moves.len() {
            if self.stop_requested() {
                self.stopped = true;
                break;
            }
            let a = self.root_moves[i].a;
            let u = self.pos.make(a);
            self.prev[1] = Some(a);
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
                    let rm = &mut self.root_moves[i];
                    rm.pv.clear();
                    rm.pv.extend_from_slice(&self.pv[..self.pv_len[0]]);
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
                self.tt.store(
                    self.pos.key() ^ self.root.salt,
                    score_to_tt(rm.score, 0),
                    Self::tt_idx(rm.idx),
                    depth,
                    BOUND_EXACT,
                );
            }
        }
        !self.stopped
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

impl<G: Game> Worker<'_, G> {
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
}

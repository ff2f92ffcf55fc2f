//! Alpha-beta search, generic over the game model of `tetrarch-core` and
//! monomorphised per game: it never asks which game it plays.
//!
//! API contract (used by the `tetrarch` binary):
//! - [`Searcher::new`] with a hash size; [`Searcher::resize`], [`Searcher::clear`].
//! - [`Searcher::search`] runs iterative deepening on a root position until a
//!   [`Limits`] is reached or `stop` is set, reports every iteration through the
//!   `info` callback and returns a [`SearchResult`] whose `best` is a complete
//!   turn (one or more actions, ending where the turn ends).
//!
//! # Design
//!
//! **What is searched.** The tree is a tree of *actions*, not turns: depth and
//! ply count actions, so a 2-action turn costs 2 plies. Iterative deepening
//! (1, 2, … up to `depth` or 128) drives a fail-soft negamax alpha-beta with
//! principal variation search (null windows after the first action, re-search
//! on a fail high inside the window), aspiration windows at the root from
//! depth 4 (±30, doubled on each fail, full width past 600), mate-distance
//! pruning, and a quiescence search (stand pat on the static evaluation, then
//! [`SearchHints::is_tactical`] actions only, at most 8 plies; the table gives it
//! cut-offs and its first action and keeps its results at depth 0).
//!
//! The numbers here are the defaults of [`SearchParams`] (`params.rs`),
//! which also switch each technique off (`docs/search.md`, "Search
//! parameters").
//!
//! Selectivity, each where the game model says it is sound (see
//! `docs/search.md`):
//! - **Check extension**: an action after which the side to move is
//!   [`SearchHints::in_check`] is searched one action deeper (while the ply is
//!   below twice the iteration depth); in check, quiescence searches every
//!   action and does not stand pat (its first two plies). Games without
//!   checks keep the default `false`.
//! - **Null move**: at a non-PV turn start with depth ≥ 3, static value ≥
//!   beta and [`SearchHints::null_move_ok`], the side passes ([`SearchHints::skip_to`] the
//!   next seat, which must be an opponent) and a null-window search
//!   reduced by `2 + depth/4` that still fails high cuts the node. Only
//!   fourchess and teamchess opt in; never in checkers (zugzwang) or in
//!   multi-action games (a null turn would skip both actions).
//! - **Late move reductions**: quiet actions from the 3rd (4th at PV nodes),
//!   depth ≥ 3, not in check and not giving check, are reduced by
//!   `0.75 + ln(depth)·ln(n)/2` actions, one less at PV nodes, for killers
//!   and for a good history, one more for a bad history; a reduced search
//!   that fails high is repeated at full depth.
//! - **Futility and late-move pruning** near the frontier (non-PV, not in
//!   check): at depth 1 a quiet action that gives no check is skipped when
//!   the static value + 250 is at most alpha (where
//!   [`SearchHints::futility_ok`]: not in checkers); at depth 1 / 2 / 3 the quiet
//!   actions after the 6th / 10th / 16th are not searched (never at a
//!   Best-Reply merged node).
//! - **Forced quiescence**: where every legal action is tactical (a
//!   compulsory checkers capture) quiescence does not stand pat.
//!
//! A position without legal actions is over: [`Rules::outcome`] scores it as a
//! win `MATE - ply`, a loss `-MATE + ply` or a draw `0` for the root. A
//! turn-start position whose key is already on the stack of turn-start keys
//! (the `history` passed in, then the search path) is a repetition: a draw,
//! unless [`Rules::history_outcome`] on that stack says otherwise. Rule draws
//! (move counters) come from [`Rules::outcome`].
//!
//! **Sides, teams, free-for-all.** Values belong to sides ([`Rules::side_of`]).
//! A node is "us" when the side to move is the root's side and "them"
//! otherwise; its value is the root side's value, negated at "them" nodes.
//! After an action the child's value is negated only if the node switched
//! between "us" and "them": the second action of a turn (same seat) and, in
//! general, any action after which the same side moves again keep the sign.
//! In 2-side games (2 seats, or 4 seats in 2 alternating teams) this is plain
//! negamax. In free-for-all (every seat its own side) [`Config::strategy`]
//! chooses:
//! - [`Strategy::Paranoid`]: the root seat against all the other seats as
//!   one coalition, in the real turn order; the leaf value is
//!   [`Evaluation::evaluate`]`(root seat)`, which for free-for-all already means
//!   "that seat against all the others".
//! - [`Strategy::Brs`] (Best-Reply Search, Schadd & Winands 2011): after the
//!   root seat's turn, one minimising layer holds the actions of *every*
//!   opponent ([`SearchHints::skip_to`] lets a seat move out of turn); after the
//!   chosen reply the turn goes straight back to the root seat, the other
//!   opponents passing. Values as in paranoid. The PV stops at the first
//!   out-of-turn action (not a line of the real game); quiescence follows
//!   the real order. A game whose `skip_to` refuses falls back to the real
//!   order at that node.
//! - [`Strategy::MaxN`]: a vector of shares (per seat, from
//!   `evaluate(seat)` through a logistic curve, summing to 10000); each
//!   seat maximises its own share; only shallow pruning (a node stops once
//!   its mover's share leaves the parent's mover no more than it has); a
//!   capture-only continuation below depth 0; the table keeps best actions
//!   only. Scores are reported as `(share · seats − 10000) / 16`.
//!
//! Because a node's value then depends on the root seat and the strategy,
//! table keys are salted with both in games with more than two sides.
//!
//! **Code.** `score.rs`: the score scale (`MATE`, `MATE_BOUND`, `INF`) and
//! the ply limits. `search/`: one `Worker` per thread, split by algorithm:
//! `mod.rs` (the worker, its per-ply stack), `root.rs`
//! (root list, aspiration windows, MultiPV lines, the helpers' loop),
//! `pvs.rs` (negamax/PVS in numbered steps), `brs.rs` (Best-Reply Search),
//! `maxn.rs` (max^n), `qsearch.rs` (quiescence), `ordering.rs` (the move
//! stack, picking, history, killers, counter-moves). This file: the API,
//! the main thread's iterative deepening, threads, result and mate counting.
//!
//! **Transposition table** (`tt.rs`). A boxed array of 64-byte buckets of
//! four entries; an entry is two `AtomicU64`s `(key ^ data, data)`, written
//! and read with relaxed atomics and verified by XOR, so all threads share it
//! without locks (a torn entry reads as a miss). `data` holds the score
//! (i16; mate scores stored relative to the node), the best action as its
//! **index in the node's search action list** (u16; `G::Action` has no bit
//! form, and `search_actions` is deterministic per position), the depth, the
//! bound and a 6-bit age bumped per search. Replacement: same key is
//! overwritten unless the old entry is of this search and deeper by more
//! than 2 (exact results always replace); otherwise the entry with the lowest
//! `depth - 8 * age distance` (empty first). `hashfull` samples the first
//! 1000 entries for the current age.
//!
//! **Move ordering.** Table action; tactical actions by
//! [`SearchHints::order_hint`]; two killers per ply; the counter-move (the quiet
//! action that last cut off after the previous action); quiet actions by a
//! history table (per thread, 4 side buckets × 32768 `i16` entries bounded by
//! ±16384 with gravity, indexed by an Fx-style hash of the action's `Hash`;
//! halved at each new search), with the `Cont` switch plus the continuation
//! history (the same table's two regions of 65536 entries: the action after
//! the action one ply back, and two plies back, the pair hashed), plus a
//! clamped `order_hint`; with the `CapHist` switch, tactical actions by
//! `order_hint` plus a capture history (the same table's last region,
//! 4 side buckets × 32768). Actions live on
//! one move stack per thread (no allocation per node); killers, the previous
//! action and the PV live in a per-ply stack allocated once per search.
//!
//! **Threads.** Lazy SMP: `threads - 1` helpers (scoped threads) run the same
//! iterative deepening on the same root sharing the table, odd helpers one
//! action deeper; only the main thread checks the clock and the node limit,
//! reports, and decides (its own result). One thread is deterministic: the
//! same depth gives the same nodes and the same best turn (on a fresh or
//! cleared searcher).
//!
//! **MultiPV** works over root *actions*: line `k` searches the root actions
//! not already chosen by lines `1..k`.
//!
//! **Time** (`time.rs`). `movetime` minus `move_overhead` is a hard limit.
//! With a clock: budget = `time / movestogo` (or `/ 30`) + `3/4 inc` −
//! overhead is the soft limit (no new iteration once `elapsed > 0.6 · soft`,
//! times 1.8 right after the best root action changed down to 0.8 once it
//! has held for four iterations);
//! the hard limit is `min(time / 4 + inc, time − overhead)`; both ≥ 1 ms. The
//! stop flag, the hard limit and the node limit are polled every 256 nodes.
//! With `infinite` (and no depth, node or time limit) the search waits for
//! `stop` before returning even if it reaches the maximum depth.
//!
//! **Result.** `best` is the root PV cut where the first turn ends
//! ([`tetrarch_core::game::turn_done`]). A PV that ends mid-turn is completed
//! with the table's action of the mid-turn position, else
//! [`Rules::end_turn_action`], else the action with the best static value
//! after it (1-ply). `ponder` is the next turn of the PV, completed likewise.
//! The `pv` of every [`Info`] is completed the same way at its end, so it is
//! made of whole turns (a line cut mid-turn would print a token that is
//! illegal, or that means stopping the turn early).
//! A search stopped before depth 1 completes returns the first root action in
//! its ordering (table action first).
//!
//! **Mate scores.** [`Score::Mate`] counts the root seat's own turns to the
//! end of the game: the turns the root seat starts along the PV, and for any
//! part of the mating distance the PV does not cover, an estimate of one root
//! turn per `seats × actions per turn` plies (actions per turn taken as 1 for
//! [`Rules::ONE_ACTION_PER_TURN`] games and 2 otherwise). For single-action
//! 2-seat games this is exactly `(plies + 1) / 2`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use std::sync::Arc;

use tetrarch_core::eval::Weights;
use tetrarch_core::game::{turn_done, Evaluation, Rules, SearchHints, Seat};

/// What the search needs of a game: its rules, its evaluation and its
/// search hints; never its notation or presentation (docs/architecture.md,
/// "A game's traits"). Every [`tetrarch_core::game::Game`] is one.
pub trait Searchable: Rules + Evaluation + SearchHints {}

impl<T: Rules + Evaluation + SearchHints> Searchable for T {}

mod hash;
mod params;
mod score;
mod search;
mod skill;
mod time;
mod tt;

pub use params::{ParamError, ParamSpec, SearchParams};
use score::{outcome_value, INF, MATE, MATE_BOUND, MAX_DEPTH, MAX_PLY};
use search::{RootInfo, Shared, Worker, HIST_LEN};
pub use skill::{Scale, Skill};
use time::TimeControl;
pub use tt::AllocError;
use tt::Tt;

/// A score from the point of view of the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// A forced win in `n` of the side to move's own turns (`n > 0`), or a
    /// forced loss in `-n` turns (`n < 0`).
    Mate(i32),
}

/// The clock of the seat to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left, ms.
    pub time_ms: u64,
    /// Increment per turn, ms.
    pub inc_ms: u64,
    /// Turns to the next time control, if any.
    pub movestogo: Option<u32>,
}

/// When to stop searching. Every field that is set applies; with none set
/// (and not `infinite`) the search runs to its maximum depth.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in actions.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Fixed time for this turn.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// The mover's clock.
    pub clock: Option<Clock>,
    /// Safety margin subtracted from clock-based budgets (`Move Overhead`).
    pub move_overhead: Duration,
    /// `searchmoves`: the root turns to consider, each as the index of each
    /// of its actions in the `search_actions` list of the position it is
    /// played in (that order is fixed for a position); empty means all.
    /// The search keeps to them for the whole root turn, not only its first
    /// action.
    pub root_turns: Vec<Vec<usize>>,
}

/// How a game with more than two sides (free-for-all) is searched. Games
/// with two sides (duels, two teams) always use plain negamax.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The root seat against a coalition of all the others.
    Paranoid,
    /// Best-Reply Search: after the root seat's turn, only the single best
    /// reply among all opponents is played, the others pass.
    Brs,
    /// Max^n: a share per seat, each seat maximising its own.
    MaxN,
}

impl Strategy {
    /// The protocol's name (`Strategy` option).
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Paranoid => "paranoid",
            Strategy::Brs => "brs",
            Strategy::MaxN => "maxn",
        }
    }

    /// The strategy of a protocol name (case-insensitive).
    pub fn from_name(s: &str) -> Option<Strategy> {
        [Strategy::Paranoid, Strategy::Brs, Strategy::MaxN].into_iter().find(|x| x.name().eq_ignore_ascii_case(s))
    }
}

impl Default for Strategy {
    /// The strongest in our matches (see `docs/search.md`).
    fn default() -> Self {
        Strategy::Paranoid
    }
}

/// Search settings that persist across searches.
#[derive(Clone, Debug)]
pub struct Config {
    /// Lines reported (`MultiPV`).
    pub multipv: usize,
    /// Worker threads (`Threads`).
    pub threads: usize,
    /// Free-for-all strategy (`Strategy`).
    pub strategy: Strategy,
    /// Evaluation weights (`EvalFile`); `None`: the game's compiled-in
    /// weights for the root's variant.
    pub weights: Option<Arc<Weights>>,
    /// Play below full strength (`Skill Level`, `UCI_Elo`): see [`Skill`].
    /// Such a search uses one thread and at least [`Skill::LINES`] lines.
    pub skill: Option<Skill>,
}

impl Default for Config {
    fn default() -> Self {
        Config { multipv: 1, threads: 1, strategy: Strategy::default(), weights: None, skill: None }
    }
}

impl Config {
    /// The weights a search of `root` uses.
    pub fn weights_for<G: Searchable>(&self, root: &G) -> &Weights {
        match &self.weights {
            Some(w) => w,
            None => G::default_weights(root.variant()),
        }
    }
}

/// One line of an iteration's report.
#[derive(Clone, Debug)]
pub struct Info<A> {
    /// Completed depth, in actions.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Elapsed time.
    pub time: Duration,
    /// Table fill, per mille.
    pub hashfull: u32,
    /// The principal variation, action by action, from the root.
    pub pv: Vec<A>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult<A> {
    /// A complete legal turn of the root (empty only when the game is over).
    pub best: Vec<A>,
    /// The expected reply turn, if known.
    pub ponder: Option<Vec<A>>,
    /// Score of the best line.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A searcher with its transposition table, reused across searches, and
/// the search parameters it searches with.
pub struct Searcher<G: Searchable> {
    tt: Tt,
    /// Set by the owner ([`Searcher::set_params`]); from the game's
    /// defaults ([`SearchParams::for_game`]) until then.
    params: SearchParams,
    /// Per-thread history tables (kept across searches, halved at each).
    histories: Vec<Box<[search::Hist]>>,
    _g: std::marker::PhantomData<fn() -> G>,
}

fn new_history() -> Box<[search::Hist]> {
    vec![0; HIST_LEN].into_boxed_slice()
}

impl<G: Searchable> Searcher<G> {
    /// A searcher with a table of `hash_mb` MiB and the game's default
    /// parameters ([`SearchParams::for_game`]).
    pub fn new(hash_mb: usize) -> Self {
        Searcher {
            tt: Tt::new(hash_mb),
            params: SearchParams::for_game::<G>(),
            histories: Vec::new(),
            _g: std::marker::PhantomData,
        }
    }

    /// The parameters the searches use.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The parameters the next searches use (they stay until set again;
    /// [`Searcher::clear`] keeps them).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
    }

    /// Resizes (and clears) the table.
    pub fn resize(&mut self, hash_mb: usize) {
        // Free the old table first so both are never held at once.
        self.tt = Tt::new(0);
        self.tt = Tt::new(hash_mb);
    }

    /// Resizes (and clears) the table, or reports that the memory cannot be
    /// had; the searcher then keeps a table of `fallback_mb`.
    pub fn try_resize(&mut self, hash_mb: usize, fallback_mb: usize) -> Result<(), AllocError> {
        self.tt = Tt::new(0);
        match Tt::try_new(hash_mb) {
            Ok(t) => {
                self.tt = t;
                Ok(())
            }
            Err(e) => {
                self.tt = Tt::try_new(fallback_mb).unwrap_or_else(|_| Tt::new(1));
                Err(e)
            }
        }
    }

    /// Clears the table and all learned move-ordering state.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.histories.clear();
    }

    /// Table fill of the current search's age, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `root` (whose earlier turn-start keys are `history`, oldest
    /// first) within `limits`, stopping as soon as `stop` is set, and calls
    /// `info` after every completed iteration (once per MultiPV line).
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        config: &Config,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info<G::Action>),
    ) -> SearchResult<G::Action> {
        // A weakened search: its budget, one thread, its lines (`skill.rs`).
        let (skill_limits, skill_config);
        let (limits, config) = match config.skill {
            Some(skill) => {
                let nodes = limits.nodes.map_or(skill.nodes(), |n| n.min(skill.nodes()));
                skill_limits = Limits { nodes: Some(nodes), ..limits.clone() };
                skill_config = Config { threads: 1, multipv: config.multipv.max(Skill::LINES), ..config.clone() };
                (&skill_limits, &skill_config)
            }
            None => (limits, config),
        };
        let mut tc = TimeControl::new(limits, Instant::now(), G::TURNS_TO_GO, &self.params);
        if let Some(cap) = config.skill.and_then(|s| s.time_cap()) {
            tc.cap(cap);
        }
        self.tt.new_search();

        let mut list = G::Actions::default();
        root.search_actions(&mut list);
        if list.is_empty() {
            let score = match root.outcome() {
                Some(o) if o.for_seat(root.to_move()).is_some() => Score::Mate(0),
                _ => Score::Cp(0),
            };
            return SearchResult { best: Vec::new(), ponder: None, score, depth: 0, nodes: 1 };
        }
        drop(list);

        let threads = config.threads.max(1);
        while self.histories.len() < threads {
            self.histories.push(new_history());
        }
        for h in &mut self.histories {
            h.iter_mut().for_each(|x| *x /= 2);
        }
        let mut hists = std::mem::take(&mut self.histories);
        let spare = hists.split_off(threads);
        let helper_hists = hists.split_off(1);
        let main_hist = hists.pop().expect("one history per thread");

        let shared = Shared { stop, abort: AtomicBool::new(false), nodes: (0..threads).map(|_| AtomicU64::new(0)).collect() };
        let max_depth = limits.depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH));
        let wait_for_stop = limits.infinite && limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none();
        let tt = &self.tt;
        let weights = config.weights_for(root);
        let params = &self.params;

        let (out, main_hist, helper_hists) = std::thread::scope(|s| {
            let shared = &shared;
            let mut handles = Vec::new();
            for (i, h) in helper_hists.into_iter().enumerate() {
                let id = i + 1;
                let spawned =
                    std::thread::Builder::new().name(format!("search-{id}")).stack_size(16 << 20).spawn_scoped(s, move || {
                        let mut w = Worker::new(root, history, tt, shared, id, None, None, h, config.strategy, weights, params);
                        w.restrict_root(&limits.root_turns);
                        w.helper_loop(max_depth);
                        w.history
                    });
                // A helper that cannot be spawned is simply missing.
                if let Ok(handle) = spawned {
                    handles.push(handle);
                }
            }
            let mut w =
                Worker::new(root, history, tt, shared, 0, Some(&tc), limits.nodes, main_hist, config.strategy, weights, params);
            w.multipv = config.multipv;
            w.restrict_root(&limits.root_turns);
            let out = main_loop(&mut w, root, &tc, limits, config, max_depth, info);
            shared.abort.store(true, Relaxed);
            if wait_for_stop && !w.stopped {
                while !stop.load(Relaxed) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let hs: Vec<Box<[search::Hist]>> =
                handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect();
            (out, w.history, hs)
        });
        self.histories.push(main_hist);
        self.histories.extend(helper_hists);
        while self.histories.len() < threads {
            self.histories.push(new_history());
        }
        self.histories.extend(spare);

        let (lines, depth) = out;
        let chosen = match config.skill {
            Some(skill) => {
                let scores: Vec<i32> = lines.iter().map(|l| l.1).collect();
                skill.pick(&scores, -INF, 100, root.key())
            }
            None => 0,
        };
        let (line, value) = lines.into_iter().nth(chosen).unwrap_or_default();
        let nodes = shared.total_nodes();
        let salt = RootInfo::new(root, config.strategy).salt;
        let (mut best, after, mut used) = complete_turn(root, &line, &self.tt, salt, weights);
        let listed = listed_turns(root, &limits.root_turns);
        if !listed.is_empty() && !listed.contains(&best) {
            // Completed past the search (stopped early): a listed turn, the
            // first with the same first action if there is one.
            best = listed.iter().find(|t| t.first() == best.first()).unwrap_or(&listed[0]).clone();
            used = line.len() + 1; // no ponder from this line
        }
        let ponder = if used > line.len() {
            None
        } else if after.outcome().is_none() && (used < line.len() || self.tt.probe(after.key() ^ salt).is_some()) {
            let (p, _, _) = complete_turn(&after, &line[used..], &self.tt, salt, weights);
            (!p.is_empty()).then_some(p)
        } else {
            None
        };
        let score = if value <= -INF { Score::Cp(0) } else { to_score(root, value, &line) };
        SearchResult { best, ponder, score, depth, nodes }
    }
}

impl<G: Searchable> Searcher<G> {
    /// The quiescence search of `root` alone (a full window, no table
    /// cut-offs): its value for the side to move and its line, the
    /// captures (and check evasions) that settle the position. Playing the
    /// line gives a quiet position whose static value means something
    /// (`tetrarch datagen` records those).
    pub fn quiet_leaf(&mut self, root: &G, config: &Config) -> (i32, Vec<G::Action>) {
        let stop = AtomicBool::new(false);
        let shared = Shared { stop: &stop, abort: AtomicBool::new(false), nodes: vec![AtomicU64::new(0)] };
        if self.histories.is_empty() {
            self.histories.push(new_history());
        }
        let hist = std::mem::replace(&mut self.histories[0], new_history());
        let weights = config.weights_for(root);
        let mut w = Worker::new(root, &[], &self.tt, &shared, 0, None, None, hist, config.strategy, weights, &self.params);
        w.qs_pv = true;
        let v = w.qsearch(0, -INF, INF, 0);
        let line = w.pv_line();
        self.histories[0] = std::mem::replace(&mut w.history, new_history());
        (v, line)
    }
}

/// A root line and its value.
type Line<A> = (Vec<A>, i32);

/// The main thread's iterative deepening. Returns the lines (the best
/// first; as many as MultiPV asks, each with its value) and the last
/// completed depth.
fn main_loop<G: Searchable>(
    w: &mut Worker<'_, G>,
    root: &G,
    tc: &TimeControl,
    limits: &Limits,
    config: &Config,
    max_depth: u32,
    info: &mut dyn FnMut(&Info<G::Action>),
) -> (Vec<Line<G::Action>>, u32) {
    let lines = config.multipv.clamp(1, w.root_moves.len());
    let mut completed = 0;
    let mut last_best = None;
    let mut stable = 0;
    for depth in 1..=max_depth {
        let mut done = true;
        for k in 0..lines {
            if !w.root_iteration(depth as i32, k) {
                done = false;
                break;
            }
        }
        if !done {
            break;
        }
        completed = depth;
        w.publish();
        let nodes = w.shared_total_nodes();
        let time = tc.elapsed();
        let hashfull = w.hashfull();
        for k in 0..lines {
            let rm = &w.root_moves[k];
            info(&Info {
                depth,
                seldepth: w.seldepth as u32,
                multipv: k + 1,
                score: to_score(root, rm.score, &rm.pv),
                nodes,
                time,
                hashfull,
                pv: complete_line(root, &rm.pv, w.tt(), w.root.salt, w.weights),
            });
        }
        let best = w.root_moves[0].a;
        let changed = last_best.is_some_and(|b| b != best);
        stable = if changed { 0 } else { stable + 1 };
        last_best = Some(best);
        let scale = if w.params().tm { time::stability_scale(changed, stable, w.params()) } else { 1.0 };
        if tc.stop_iterating(scale) || limits.nodes.is_some_and(|l| nodes >= l) || w.stop_requested() {
            break;
        }
    }
    w.publish();
    (w.root_moves[..lines].iter().map(|rm| (rm.pv.clone(), rm.score)).collect(), completed)
}

/// The action to continue a turn with when the line has run out: the
/// table's action, else the game's end-of-turn action, else the action with
/// the best static value for the mover after it.
fn extend_action<G: Searchable>(pos: &G, tt: &Tt, salt: u64, weights: &Weights) -> Option<G::Action> {
    let mut list = G::Actions::default();
    pos.search_actions(&mut list);
    if list.is_empty() {
        return None;
    }
    if let Some(i) = tt.probe(pos.key() ^ salt).and_then(|h| h.idx) {
        if (i as usize) < list.len() {
            return Some(list[i as usize]);
        }
    }
    if let Some(a) = pos.end_turn_action() {
        return Some(a);
    }
    let mover = pos.to_move();
    let mut p = pos.clone();
    let mut best = (i32::MIN, list[0]);
    for &a in list.iter() {
        let u = p.make(a);
        let v = match p.outcome() {
            Some(o) => outcome_value(&o, mover, 1),
            None => p.evaluate(mover, weights).clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
        };
        p.unmake(a, u);
        if v > best.0 {
            best = (v, a);
        }
    }
    Some(best.1)
}

/// The first complete turn of `line` played from `pos` (extended where the
/// line stops mid-turn), the position after it and how many actions of
/// `line` it used.
fn complete_turn<G: Searchable>(
    pos: &G,
    line: &[G::Action],
    tt: &Tt,
    salt: u64,
    weights: &Weights,
) -> (Vec<G::Action>, G, usize) {
    let mut p = pos.clone();
    let mut out = Vec::new();
    let mut used = 0;
    loop {
        let a = if used < line.len() {
            used += 1;
            line[used - 1]
        } else {
            match extend_action(&p, tt, salt, weights) {
                Some(a) => a,
                None => break,
            }
        };
        out.push(a);
        p.make(a);
        if turn_done(&p) || out.len() > 4 * MAX_PLY {
            break;
        }
    }
    (out, p, used)
}

/// The `searchmoves` turns (index paths, [`Limits::root_turns`]) as actions;
/// a path that does not fit the position is left out.
pub(crate) fn listed_turns<G: Searchable>(root: &G, turns: &[Vec<usize>]) -> Vec<Vec<G::Action>> {
    let mut out = Vec::new();
    for t in turns {
        let mut pos = root.clone();
        let mut path = Vec::with_capacity(t.len());
        for &i in t {
            let mut list = G::Actions::default();
            pos.search_actions(&mut list);
            let Some(&a) = list.get(i) else { break };
            path.push(a);
            pos.make(a);
        }
        if path.len() == t.len() && !path.is_empty() {
            out.push(path);
        }
    }
    out
}

/// `line` played from `pos`, with its last turn completed as in
/// [`complete_turn`] where the line stops mid-turn, so that every turn of
/// it is a whole turn token (a `pv` of `info`).
fn complete_line<G: Searchable>(pos: &G, line: &[G::Action], tt: &Tt, salt: u64, weights: &Weights) -> Vec<G::Action> {
    let mut p = pos.clone();
    for &a in line {
        p.make(a);
    }
    let mut out = line.to_vec();
    if !line.is_empty() && !turn_done(&p) {
        out.extend(complete_turn(&p, &[], tt, salt, weights).0);
    }
    out
}

/// A root value as a protocol score (see the module documentation for how
/// mate distances become turns).
fn to_score<G: Searchable>(root: &G, v: i32, pv: &[G::Action]) -> Score {
    if v.abs() < MATE_BOUND {
        return Score::Cp(v);
    }
    let plies = (MATE - v.abs()).max(0) as usize;
    let seat = root.to_move();
    let mut pos = root.clone();
    let mut turns = 0usize;
    let mut i = 0;
    while i < plies.min(pv.len()) {
        if pos.at_turn_start() && pos.to_move() == seat {
            turns += 1;
        }
        pos.make(pv[i]);
        i += 1;
    }
    if i < plies {
        // Past the PV: a turn left in its middle ends with its next action
        // (no new turn of anyone), then whole rounds of turns.
        let rest = plies - i - usize::from(!pos.at_turn_start());
        let apt = if G::ONE_ACTION_PER_TURN { 1 } else { 2 };
        let cycle = (root.seats().max(1) * apt).max(1);
        turns += rest.div_ceil(cycle);
    }
    let n = turns.max(1) as i32;
    if v > 0 {
        Score::Mate(n)
    } else {
        Score::Mate(-n)
    }
}

/// The seat whose side a root score belongs to (the side to move).
pub fn root_seat<G: Searchable>(g: &G) -> Seat {
    g.to_move()
}

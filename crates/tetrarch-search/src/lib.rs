//! Alpha-beta search, generic over the game model of `tetrarch-core` and
//! monomorphised per game: it never asks which game it plays.
//!
//! API contract (used by the `tetrarch` binary):
//! - [`Searcher::new`] with a hash size; [`Searcher::resize`], [`Searcher::clear`].
//! - [`Searcher::search`] runs iterative deepening on a root position until a
//!   [`Limits`] is reached or `stop` is set, reports every iteration through the
//!   `info` callback and returns a [`SearchResult`] whose `best` is a complete
//!   turn (one or more actions, ending where the turn ends).

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tetrarch_core::game::{Game, Seat};

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
}

/// Search settings that persist across searches.
#[derive(Clone, Debug)]
pub struct Config {
    /// Lines reported (`MultiPV`).
    pub multipv: usize,
    /// Worker threads (`Threads`).
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config { multipv: 1, threads: 1 }
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

/// A searcher with its transposition table, reused across searches.
pub struct Searcher<G: Game> {
    _g: std::marker::PhantomData<G>,
}

impl<G: Game> Searcher<G> {
    /// A searcher with a table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Self {
        let _ = hash_mb;
        Searcher { _g: std::marker::PhantomData }
    }

    /// Resizes (and clears) the table.
    pub fn resize(&mut self, hash_mb: usize) {
        let _ = hash_mb;
    }

    /// Clears the table and all learned move-ordering state.
    pub fn clear(&mut self) {}

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
        let _ = (root, history, limits, config, stop, info);
        unimplemented!("search")
    }
}

/// The seat whose side a root score belongs to (the side to move).
pub fn root_seat<G: Game>(g: &G) -> Seat {
    g.to_move()
}

//! The threads `go` starts: a search (with pondering, `bestmove` at its
//! end) or a perft count, and the one-shot search of `bench`.

use crate::GameInfo;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tetrarch_core::turns::{divide_until, perft_until, DivideError};
use tetrarch_search::{Clock, Config, Info, Limits, SearchParams, SearchResult, Searcher, Strategy};

use super::lines::{best_move, info_line, search_report, BestMove};
use super::{game_over, lock, panic_text, Panicked, Session, SessionOps};
use crate::error::CommandError;
use crate::go::GoSearch;
use crate::job::{Flags, Job, JobKind, SpawnError};
use crate::options::Settings;
use crate::out::{EngineEvent, Out};

impl<G: GameInfo> Session<G> {
    pub(super) fn limits(&self, g: &GoSearch, settings: &Settings) -> Limits {
        let seat = self.pos().to_move();
        let (time, inc) = g.clock_of(seat);
        Limits {
            depth: g.depth,
            nodes: g.nodes,
            movetime: g.movetime.map(Duration::from_millis),
            infinite: g.infinite,
            clock: time.map(|t| Clock { time_ms: t, inc_ms: inc.unwrap_or(0), movestogo: g.movestogo }),
            move_overhead: Duration::from_millis(settings.move_overhead_ms),
            root_turns: Vec::new(),
        }
    }

    pub(super) fn start_search(&mut self, g: GoSearch, settings: &Settings, out: &Out) -> Result<Job, CommandError> {
        let mut limits = self.limits(&g, settings);
        limits.root_turns = self.root_turns(&g.searchmoves)?;
        let config = Config {
            multipv: settings.multipv,
            threads: settings.threads,
            strategy: Strategy::from_name(settings.strategy.unwrap_or(crate::options::default_strategy(self.variant())))
                .unwrap_or_default(),
            weights: self.weights.clone(),
            skill: settings.skill(self.variant(), crate::levels::start_seed()),
        };
        let params = settings.search_params_for::<G>();
        let random =
            settings.random.then(|| if settings.skill_seed != 0 { settings.skill_seed } else { crate::levels::start_seed() });
        let flags = Arc::new(Flags::default());
        // A `go` without any limit only ends by `stop`, like `go infinite`
        // (so the end of the input stops it rather than waiting forever).
        let unbounded = limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() && limits.clock.is_none();
        let kind = if g.ponder {
            JobKind::Ponder { then_infinite: g.infinite }
        } else if g.infinite || unbounded {
            JobKind::Infinite
        } else {
            JobKind::Search
        };
        let job = SearchJob {
            root: self.pos().clone(),
            opts: self.game.options().clone(),
            history: self.game.history().to_vec(),
            capped: self.capped(settings.turn_cap),
            with_ponder: settings.ponder_in_bestmove(),
            limits,
            ponder: g.ponder,
            config,
            params,
            random,
            searcher: Arc::clone(&self.searcher),
            hash_mb: self.hash_mb,
            flags: Arc::clone(&flags),
            out: out.clone(),
        };
        Ok(Job::spawn(kind, flags, move || job.run())?)
    }

    pub(super) fn start_perft(&self, depth: u32, actions: bool, out: &Out) -> Result<Job, SpawnError> {
        let root = self.pos().clone();
        let out = out.clone();
        let flags = Arc::new(Flags::default());
        let stop = Arc::clone(&flags);
        Job::spawn(JobKind::Perft, flags, move || {
            let res = catch_unwind(AssertUnwindSafe(|| {
                if depth == 0 {
                    return Ok((Vec::new(), 1));
                }
                let d = match divide_until(&root, depth, actions, &stop.stop) {
                    Err(DivideError::TooManyTurns) => {
                        // No table, but the total (perft streams any number).
                        out.line(format!("info string perft: {}; counting the total only", DivideError::TooManyTurns));
                        let total = perft_until(&mut root.clone(), depth, &stop.stop).ok_or(DivideError::Stopped)?;
                        return Ok((Vec::new(), total));
                    }
                    d => d?,
                };
                let total = d.iter().map(|(_, n)| n).sum();
                Ok((d, total))
            }));
            match res {
                Ok(Err(DivideError::Stopped)) => out.line("info string perft stopped"),
                Ok(Err(e)) => out.error(format!("perft: {e}")),
                Ok(Ok((lines, total))) => {
                    let mut v: Vec<String> = lines.into_iter().map(|(t, n)| format!("{t}: {n}")).collect();
                    v.push(String::new());
                    v.push(format!("Nodes searched: {total}"));
                    out.lines(v);
                }
                Err(p) => out.error(format!("perft failed: {}", panic_text(&*p))),
            }
        })
    }
}

/// Everything a search thread owns.
struct SearchJob<G: GameInfo> {
    root: G,
    opts: G::Options,
    history: Vec<u64>,
    /// `TurnCap` reached: no search, `bestmove (none)`.
    capped: bool,
    /// Whether `bestmove` may name a `ponder` turn.
    with_ponder: bool,
    limits: Limits,
    ponder: bool,
    config: Config,
    /// The search parameters (the game's, with `Search_…` over them).
    params: SearchParams,
    /// `tetrarch --random`: no search, a uniformly drawn legal turn, with
    /// this seed.
    random: Option<u64>,
    searcher: Arc<Mutex<Searcher<G>>>,
    hash_mb: usize,
    flags: Arc<Flags>,
    out: Out,
}

impl<G: GameInfo> SearchJob<G> {
    /// One search; a panic in the search is reported and leaves a fresh
    /// searcher behind. The random player draws a legal turn instead.
    fn search(&self, limits: &Limits, stop: &AtomicBool) -> Option<SearchResult<G::Action>> {
        if let Some(seed) = self.random {
            return random_result(&self.root, seed);
        }
        let mut s = lock(&self.searcher);
        s.set_params(self.params.clone());
        let mut report = |info: &Info<G::Action>| {
            let r = search_report(&self.root, &self.opts, info);
            self.out.line(info_line(&r));
            if self.out.wants_events() {
                self.out.event(EngineEvent::Report(r));
            }
        };
        let r = catch_unwind(AssertUnwindSafe(|| s.search(&self.root, &self.history, limits, &self.config, stop, &mut report)));
        match r {
            Ok(r) => Some(r),
            Err(p) => {
                self.out.error(format!("search failed: {}", panic_text(&*p)));
                // Free the old table before the new one is made.
                *s = Searcher::new(1);
                let _ = s.try_resize(self.hash_mb, 1);
                None
            }
        }
    }

    fn run(self) {
        let f = &*self.flags;
        let mut result = None;
        let over = self.capped || game_over(&self.root, &self.history);
        if self.ponder {
            if !over {
                let open = Limits { infinite: true, move_overhead: self.limits.move_overhead, ..Limits::default() };
                result = self.search(&open, &f.ponder_stop);
            }
            // A pondering search never answers before `ponderhit` or `stop`.
            f.wait_until(|f| f.stopped() || f.hit());
            if !f.stopped() && !over {
                if let Some(r) = self.search(&self.limits, &f.stop) {
                    result = Some(r);
                }
            }
        } else if !over {
            result = self.search(&self.limits, &f.stop);
        }
        if self.limits.infinite {
            // UCI: an infinite search answers only after `stop`.
            f.wait_until(|f| f.stopped());
        }
        let best = if self.capped {
            BestMove::default()
        } else {
            best_move(&self.root, &self.opts, &self.history, result.as_ref(), self.with_ponder, &self.out)
        };
        self.out.line(best.line());
        self.out.event(EngineEvent::BestMove(best.turn));
    }
}

/// The random player's answer (docs/levels.md): a legal turn of `root`
/// drawn uniformly with the random numbers of `seed` and the position, so
/// that a seeded game is reproducible.
fn random_result<G: GameInfo>(root: &G, seed: u64) -> Option<SearchResult<G::Action>> {
    let mut state = seed ^ root.key();
    let best = tetrarch_core::turns::random_turn(root, |n| {
        state = tetrarch_core::zobrist::splitmix64(state);
        // Multiply-shift: uniform enough for any n far below 2^64.
        ((u128::from(state) * u128::from(n)) >> 64) as u64
    })?;
    Some(SearchResult { best, ponder: None, score: tetrarch_search::Score::Cp(0), depth: 0, nodes: 0 })
}

/// Runs a search to `depth` on `pos` with a fresh table and the variant's
/// default `strategy` (for `bench`); returns the result, the nodes and the
/// time, or the panic.
pub(crate) fn bench_search<G: GameInfo>(
    searcher: &mut Searcher<G>,
    pos: &G,
    depth: u32,
    strategy: &str,
) -> Result<(SearchResult<G::Action>, Duration), Panicked> {
    searcher.clear();
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let config = Config { strategy: Strategy::from_name(strategy).unwrap_or_default(), ..Config::default() };
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| searcher.search(pos, &[], &limits, &config, &stop, &mut |_| {})))
        .map_err(|p| Panicked(panic_text(&*p)))?;
    Ok((r, t.elapsed()))
}

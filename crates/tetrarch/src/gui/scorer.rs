//! The score graph's quick searches ([`Scorer`]): a second, small
//! in-process engine that scores, in the background, the positions after
//! the turns no engine seat scored (a person's turns, turns given with
//! the new game or imported), at [`SCORE_NODES`] nodes each. It runs only
//! while no engine seat is searching, so it never takes a seat's time.

use serde::Serialize;

use super::thinking::Thinking;
use crate::options::Settings;
use crate::out::{Captured, EngineEvent, Events};
use crate::{Engine, Out};

/// The node budget of one quick search.
pub(super) const SCORE_NODES: u64 = 20_000;

/// A point of the score graph: the score of the position after a turn, from
/// the view of the seat that searched it (seats from 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub(super) struct EvalPoint {
    /// Whose view (the seat to move after the turn, or the engine seat
    /// that played it).
    pub(super) seat: usize,
    /// As the engine printed it (`cp 34`, `mate -3`).
    pub(super) score: String,
    /// As centipawns (mates beyond ±9,000).
    pub(super) cp: i64,
}

impl EvalPoint {
    /// The best line's score of a search for `seat` (0-based).
    pub(super) fn of(seat: usize, best: &Thinking) -> Option<EvalPoint> {
        Some(EvalPoint { seat: seat + 1, score: best.score.clone(), cp: best.cp()? })
    }
}

/// What is known of the position after one turn.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Eval {
    /// Not scored yet.
    Pending,
    /// Scored.
    Known(EvalPoint),
    /// Not to be scored (the game ended there, or the search gave no score).
    Never,
}

/// A quick search under way.
struct Job {
    game: u64,
    index: usize,
    seat: usize,
    best: Option<Thinking>,
}

/// The second engine and its search under way.
pub(super) struct Scorer {
    /// Whether it scores at all (the server turns it on; the fuzz harness
    /// and most unit tests leave it off: a search costs time by design).
    pub(super) on: bool,
    engine: Option<(Engine, Captured, Events)>,
    job: Option<Job>,
}

impl Scorer {
    /// A scorer that is off.
    pub(super) fn off() -> Scorer {
        Scorer { on: false, engine: None, job: None }
    }

    /// Whether a quick search is under way.
    pub(super) fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Starts scoring turn `index` (0-based) of game `game`: the engine is
    /// set up by `setup` (variant, rule options) and the first of
    /// `positions` it accepts; `seat` (0-based) is the seat to move there.
    /// `false` if it accepted none (nothing runs).
    pub(super) fn start(&mut self, setup: &[String], positions: &[String], game: u64, index: usize, seat: usize) -> bool {
        let (engine, cap, events) = self.engine.get_or_insert_with(|| {
            let (out, cap, events) = Out::buffer_with_events();
            let settings = Settings { hash_mb: 4, threads: 1, ..Settings::default() };
            (Engine::with_settings(out, crate::DEFAULT_VARIANT, settings).expect("the default variant"), cap, events)
        });
        for l in setup {
            engine.handle_line(l);
        }
        cap.take_lines();
        let accepted = positions.iter().any(|p| {
            engine.handle_line(p);
            !cap.take_lines().iter().any(|l| l.starts_with("info string error"))
        });
        if accepted {
            events.take();
            engine.handle_line(&format!("go nodes {SCORE_NODES}"));
            self.job = Some(Job { game, index, seat, best: None });
        }
        accepted
    }

    /// Takes in the engine's output; a finished search answers (game, turn
    /// index, what it found).
    pub(super) fn poll(&mut self) -> Option<(u64, usize, Eval)> {
        let (_, cap, events) = self.engine.as_mut()?;
        let job = self.job.as_mut()?;
        let mut done = false;
        cap.take_lines();
        for e in events.take() {
            match e {
                EngineEvent::Report(r) if r.multipv <= 1 => job.best = Some(Thinking::of(&r)),
                EngineEvent::Report(_) => {}
                EngineEvent::BestMove(_) => done = true,
            }
        }
        if !done {
            return None;
        }
        let job = self.job.take()?;
        let eval = job.best.as_ref().and_then(|b| EvalPoint::of(job.seat, b)).map_or(Eval::Never, Eval::Known);
        Some((job.game, job.index, eval))
    }

    /// Stops a quick search and forgets it (the turns it was for changed).
    pub(super) fn cancel(&mut self) {
        if self.job.take().is_some() {
            if let Some((engine, cap, events)) = self.engine.as_mut() {
                engine.stop_job();
                cap.take_lines();
                events.take();
            }
        }
    }
}

//! The SPSA loop, without the match runner: [`iteration`] draws, plays
//! (through a callback) and updates; [`run`] repeats it with the state
//! written after every iteration.

use std::path::Path;
use std::time::{Duration, Instant};

use super::gains::{Perturbation, Schedule};
use super::params::Param;
use super::state::{
    append_trajectory, load_state, repair_trajectory, setup_difference, write_state, Setup, State, TrajectoryLine,
};
use super::{SpsaError, STATE_FORMAT};
use crate::score::Score;

/// What an iteration's games are asked to play: the iteration, its first
/// opening (`(k − 1) · pairs`: every iteration new openings), and the two
/// engines' options.
#[derive(Clone, Debug)]
pub struct Games<'a> {
    /// The iteration (1-based).
    pub k: u64,
    /// The number of its first opening.
    pub first_opening: u64,
    /// Game pairs.
    pub pairs: u64,
    /// `(name, value)` of the `θ+` engine.
    pub plus: Vec<(&'a str, i64)>,
    /// `(name, value)` of the `θ−` engine.
    pub minus: Vec<(&'a str, i64)>,
}

/// What [`run`] reports after each iteration.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// The state just written.
    pub state: &'a State,
    /// The parameters with θ now.
    pub params: &'a [Param],
    /// The iteration's line.
    pub line: &'a TrajectoryLine,
    /// Time of all sessions.
    pub elapsed: Duration,
}

/// The progress line of an iteration.
pub fn progress_line(p: &Progress<'_>) -> String {
    let s = p.elapsed.as_secs();
    let theta: Vec<String> = p.params.iter().map(|q| format!("{} {:.2}", q.name, q.value)).collect();
    let t = &p.state.score;
    format!(
        "iteration {}/{} {}:{:02}:{:02} | {} | {:+} | total {}-{}-{} ({:.1}%)",
        p.state.iteration,
        p.state.setup.iterations,
        s / 3600,
        s / 60 % 60,
        s % 60,
        theta.join(", "),
        p.line.result,
        t.wins,
        t.losses,
        t.draws,
        t.percent()
    )
}

/// Iteration `k` of a run, without files: draws its perturbation, has
/// `play` play its games and updates θ (`params`' values). [`run`] is this
/// in a loop, with the state written after each.
pub fn iteration(
    params: &mut [Param],
    sched: &Schedule,
    seed: u64,
    pairs: u64,
    k: u64,
    play: &mut dyn FnMut(&Games<'_>) -> Result<Score, SpsaError>,
) -> Result<TrajectoryLine, SpsaError> {
    let pert = Perturbation::draw(params, sched, seed, k);
    let games = Games {
        k,
        first_opening: (k - 1) * pairs,
        pairs,
        plus: params.iter().zip(&pert.plus).map(|(p, &v)| (p.name.as_str(), v)).collect(),
        minus: params.iter().zip(&pert.minus).map(|(p, &v)| (p.name.as_str(), v)).collect(),
    };
    let score = play(&games)?;
    pert.update(params, sched, score.result());
    Ok(TrajectoryLine {
        iteration: k,
        result: score.result(),
        score,
        flips: pert.flips,
        c: pert.c,
        plus: pert.plus,
        minus: pert.minus,
        theta: params.iter().map(|p| p.value).collect(),
    })
}

/// Runs (or continues) an SPSA run in `dir`: from its state file when
/// there is one of the same setup, else from the start. `play` plays an
/// iteration's games; `progress` hears of each iteration after its state
/// is written. Returns the final state.
///
/// Files: after every iteration its line is appended to
/// [`TRAJECTORY_FILE`](super::TRAJECTORY_FILE) (flushed), then
/// [`STATE_FILE`](super::STATE_FILE) is replaced (a
/// temporary file, synced, renamed): a kill at any moment leaves a state
/// file of a whole iteration, and a trajectory line past it is cut off when
/// the run continues. The folder is made when the first iteration ends, so
/// a run refused before its first games leaves nothing.
pub fn run(
    dir: &Path,
    setup: Setup,
    play: &mut dyn FnMut(&Games<'_>) -> Result<Score, SpsaError>,
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<State, SpsaError> {
    if setup.iterations == 0 {
        return Err(SpsaError::Zero("--iterations"));
    }
    if setup.pairs == 0 {
        return Err(SpsaError::Zero("--pairs-per-iteration"));
    }
    let mut state = match load_state(dir)? {
        Some(s) if s.setup == setup => s,
        Some(s) => return Err(SpsaError::OtherRun { dir: dir.into(), difference: setup_difference(&s.setup, &setup) }),
        None => State {
            format: STATE_FORMAT.into(),
            theta: setup.params.iter().map(|p| p.value).collect(),
            setup,
            iteration: 0,
            score: Score::default(),
            seconds: 0.0,
        },
    };
    repair_trajectory(dir, state.iteration)?;
    let sched = Schedule::new(state.setup.iterations);
    let mut params = state.setup.params.clone();
    for (p, &v) in params.iter_mut().zip(&state.theta) {
        p.value = v;
    }
    let session = Instant::now();
    let before = state.seconds;
    while state.iteration < state.setup.iterations {
        let k = state.iteration + 1;
        let line = iteration(&mut params, &sched, state.setup.seed, state.setup.pairs, k, play)?;
        state.iteration = k;
        state.theta = line.theta.clone();
        state.score.add(&line.score);
        state.seconds = before + session.elapsed().as_secs_f64();
        append_trajectory(dir, &line)?;
        write_state(dir, &state)?;
        progress(&Progress { state: &state, params: &params, line: &line, elapsed: Duration::from_secs_f64(state.seconds) });
    }
    Ok(state)
}

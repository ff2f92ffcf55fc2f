//! What a run leaves in its output folder: the [`State`] after each
//! iteration ([`STATE_FILE`](super::STATE_FILE), replaced atomically), the
//! [`TrajectoryLine`]s ([`TRAJECTORY_FILE`](super::TRAJECTORY_FILE),
//! appended), and reading them back to continue a run.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::params::Param;
use super::{SpsaError, STATE_FILE, STATE_FORMAT, TRAJECTORY_FILE};
use crate::score::Score;

/// What fixes a run: the start, the gains, the seed and the games. A run
/// continues from its state file only with the same setup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The parameters as they started.
    pub params: Vec<Param>,
    /// `N`.
    pub iterations: u64,
    /// Game pairs an iteration.
    pub pairs: u64,
    /// The seed of the flips and the openings.
    pub seed: u64,
    /// How the games are played (for `tetrarch spsa`: the runner's words
    /// but the concurrency, which does not change the games).
    pub games: Vec<String>,
}

/// The state after an iteration: `state.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// [`STATE_FORMAT`].
    pub format: String,
    /// The run.
    pub setup: Setup,
    /// Iterations done.
    pub iteration: u64,
    /// θ now, in the setup's order (exact: the file keeps every bit).
    pub theta: Vec<f64>,
    /// `θ+`'s games so far.
    pub score: Score,
    /// Seconds spent in iterations so far (all sessions).
    pub seconds: f64,
}

/// One line of `trajectory.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryLine {
    /// The iteration (1-based).
    pub iteration: u64,
    /// wins − losses of `θ+`.
    pub result: i64,
    /// Its games.
    pub score: Score,
    /// `Δ`.
    pub flips: Vec<f64>,
    /// `c_k`.
    pub c: Vec<f64>,
    /// The `θ+` engine's values.
    pub plus: Vec<i64>,
    /// The `θ−` engine's values.
    pub minus: Vec<i64>,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// The parameters of a state: the setup's with θ.
pub fn final_params(state: &State) -> Vec<Param> {
    let mut params = state.setup.params.clone();
    for (p, &v) in params.iter_mut().zip(&state.theta) {
        p.value = v;
    }
    params
}

/// The state file of `dir`, if there is one.
pub fn load_state(dir: &Path) -> Result<Option<State>, SpsaError> {
    let path = dir.join(STATE_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(SpsaError::BadState { path, reason: e.to_string() }),
    };
    let s: State = serde_json::from_str(&text).map_err(|e| SpsaError::BadState { path: path.clone(), reason: e.to_string() })?;
    if s.format != STATE_FORMAT {
        return Err(SpsaError::BadState { path, reason: format!("format `{}`, not `{STATE_FORMAT}`", s.format) });
    }
    if s.theta.len() != s.setup.params.len() || s.iteration > s.setup.iterations {
        return Err(SpsaError::BadState { path, reason: "θ or the iteration does not fit the run".into() });
    }
    Ok(Some(s))
}

/// In words, what differs between the run in the folder and this one.
pub(super) fn setup_difference(old: &Setup, new: &Setup) -> String {
    let mut d = Vec::new();
    if old.params != new.params {
        d.push("parameters".to_string());
    }
    if old.iterations != new.iterations {
        d.push(format!("iterations {} vs {}", old.iterations, new.iterations));
    }
    if old.pairs != new.pairs {
        d.push(format!("pairs per iteration {} vs {}", old.pairs, new.pairs));
    }
    if old.seed != new.seed {
        d.push(format!("seed {} vs {}", old.seed, new.seed));
    }
    if old.games != new.games {
        d.push(format!("games `{}` vs `{}`", old.games.join(" "), new.games.join(" ")));
    }
    d.join(", ")
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> SpsaError + '_ {
    move |source| SpsaError::Write { path: path.into(), source }
}

/// Writes `text` to `path` atomically ([`crate::files::write_atomically`]).
pub(super) fn write_atomically(path: &Path, text: &str) -> Result<(), SpsaError> {
    crate::files::write_atomically(path, text).map_err(write_err(path))
}

pub(super) fn write_state(dir: &Path, state: &State) -> Result<(), SpsaError> {
    let text = serde_json::to_string_pretty(state).expect("the state serialises") + "\n";
    write_atomically(&dir.join(STATE_FILE), &text)
}

pub(super) fn append_trajectory(dir: &Path, line: &TrajectoryLine) -> Result<(), SpsaError> {
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    let path = dir.join(TRAJECTORY_FILE);
    let text = serde_json::to_string(line).expect("a line serialises") + "\n";
    let r = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.flush()
    });
    r.map_err(write_err(&path))
}

/// Keeps the trajectory's whole lines of iterations `1..=done` (a kill
/// after a line was written but before the state was, or in the middle of
/// a line, leaves more).
pub(super) fn repair_trajectory(dir: &Path, done: u64) -> Result<(), SpsaError> {
    let path = dir.join(TRAJECTORY_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(()) };
    let keep: String = text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .filter(|l| serde_json::from_str::<TrajectoryLine>(l).is_ok_and(|t| t.iteration <= done))
        .collect();
    if keep != text {
        write_atomically(&path, &keep)?;
    }
    Ok(())
}

//! `tetrarch spsa`: SPSA tuning of engine parameters by games, as
//! OpenBench and fishtest run it (docs/tuning.md, "SPSA").
//!
//! The parameters come from a JSON file ([`read_params`]) and reach the
//! engines as protocol options by name (`setoption name NAME value V`), so
//! the tuner knows nothing of what they mean. Every iteration `k` flips a
//! sign `Δᵢ = ±1` for each parameter, plays game pairs between the engine
//! with `θ + c_k·Δ` and the same engine with `θ − c_k·Δ`, and moves
//! `θ += a_k / c_k · (wins − losses) · Δ` (the result from `θ+`'s side).
//!
//! - [`Param`], [`parse_params`], [`read_params`]: the parameters file
//!   (`params.rs`);
//! - [`Schedule`]: the gains `c_k`, `a_k` (OpenBench's formulas);
//! - [`Perturbation`]: an iteration's flips and the two engines' values,
//!   a function of the seed and `k` alone (`gains.rs`);
//! - [`run`]: the loop, with its state written after every iteration
//!   (`run.rs`), resumable from the files it writes ([`State`],
//!   [`STATE_FILE`], [`TRAJECTORY_FILE`]: `state.rs`);
//! - [`spsa_main`]: the command, playing its games with the match runner
//!   ([`tetrarch_match::play_games`]: `command.rs`).

use std::path::PathBuf;

use tetrarch_match::{ConfigError, RunError};

mod command;
mod gains;
mod params;
mod run;
mod state;

pub use crate::score::{score_of, Score};
pub use command::{spsa_main, SpsaArgs, SpsaOutcome};
pub use gains::{Perturbation, Schedule};
pub use params::{engine_value, option_words, params_text, parse_params, read_params, Param, ParamsError};
pub use run::{iteration, progress_line, run, Games, Progress};
pub use state::{final_params, load_state, Setup, State, TrajectoryLine};

/// The state file in the output folder.
pub const STATE_FILE: &str = "state.json";
/// The trajectory: one JSON line per iteration.
pub const TRAJECTORY_FILE: &str = "trajectory.jsonl";
/// The final parameters, written at the end of the run.
pub const FINAL_FILE: &str = "final.json";
/// The first line of the state file's `format`.
pub const STATE_FORMAT: &str = "tetrarch-spsa 1";

/// `A` as a fraction of the iterations.
pub const A_RATIO: f64 = 0.1;
/// The learning rate's decay exponent.
pub const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent.
pub const GAMMA: f64 = 0.101;
/// The least perturbation: the engine gets whole numbers, and below half
/// a unit `θ+` and `θ−` would mostly round to the same value (OpenBench's
/// floor for integer parameters).
pub const MIN_C: f64 = 0.5;

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// The parameters file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    ReadParams {
        /// The file.
        path: PathBuf,
        /// The I/O error of reading it (not found, no permission, not UTF-8, …).
        source: std::io::Error,
    },
    /// The parameters file is wrong.
    #[error("{}: {source}", path.display())]
    Params {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ParamsError,
    },
    /// `--iterations 0` or `--pairs-per-iteration 0`.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// The games' settings, refused by the match runner.
    #[error("{0}")]
    Match(ConfigError),
    /// The state file cannot be read or is not one.
    #[error("{}: {reason}", path.display())]
    BadState {
        /// The file.
        path: PathBuf,
        /// What is wrong: the read's I/O error, bad JSON, another format, or a θ
        /// or iteration count that does not fit the setup.
        reason: String,
    },
    /// The output folder holds another run.
    #[error("{} holds another run ({difference}): use another --out, or the command that started it", dir.display())]
    OtherRun {
        /// The folder.
        dir: PathBuf,
        /// What differs.
        difference: String,
    },
    /// A file of the output folder cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error of making the folder or writing, syncing or renaming the
        /// file.
        source: std::io::Error,
    },
    /// The games could not be played (an engine does not start or
    /// rejects an option, interrupted, …).
    #[error(transparent)]
    Games(#[from] RunError),
}

impl SpsaError {
    /// The exit code: 2 for input refused before any game, else 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            SpsaError::Games(e) => e.exit_code(),
            SpsaError::Write { .. } => 1,
            _ => 2,
        }
    }
}

#[cfg(test)]
mod tests;

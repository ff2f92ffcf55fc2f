//! `tetrarch calibrate`: measures the Elo of the engine's skill levels on
//! a ladder of games, per variant, and writes the table the engine reads
//! for `UCI_LimitStrength`/`UCI_Elo` (docs/levels.md).
//!
//! The ladder's rungs are, in order: `random` (the anchor, Elo 0: the
//! engine run as `tetrarch --random`, a uniform-random player of legal
//! turns), each `--levels` skill level (`option.Skill Level=K`), and
//! `full` (no skill option). Every rung plays the next one (`--pairs`
//! game pairs) and every rung from the third on also plays the rung two
//! below (half as many pairs, at least one), so the fit is
//! over-determined. All rungs get the same `--each` words: the reference
//! (its limit, e.g. `nodes=20000`).
//!
//! A game's score is [`score_of`](crate::score::score_of)'s: in a
//! free-for-all variant (four seats, two engines with two seats each) a
//! game is a rung's win when its seats take more points on average than
//! the other rung's.
//!
//! - [`Rung`], [`Table`], [`Row`], [`Step`]: the table file and its
//!   interpolation (`table.rs`);
//! - [`fit()`]: the Bradley–Terry Elo fit with its errors (`fit.rs`);
//! - [`run_ladder`]: the ladder's loop over its batches, resumable from
//!   the batches file, with the games played through a callback, and its
//!   optional top-up of the steps short of the target ([`top_up`])
//!   (`ladder.rs`);
//! - [`calibrate_main`]: the command, playing the batches with the match
//!   runner ([`tetrarch_match::play_games`]: `command.rs`);
//! - [`svg`], [`write_plot`]: the plot of every table in the folder
//!   (`plot.rs`).

use std::path::PathBuf;

use tetrarch_match::games::UnknownVariant;
use tetrarch_match::{ConfigError, RunError};

mod command;
pub mod fit;
mod ladder;
mod levels;
mod plot;
mod table;

pub use command::{batch_words, calibrate_main, setup_words, table_text, CalibrateArgs};
pub use fit::{fit, Fit, FitError, PairGames};
pub use ladder::{
    batches_path, meets_target, plan, progress_line, read_batches, run_ladder, rungs, table_path, top_up, Batch, BatchLine,
    BatchProgress, Ladder, TARGET_GAMES, TARGET_SCORE,
};
pub use levels::{Levels, LevelsError, DEFAULT_LEVELS};
pub use plot::{svg, write_plot, PLOT_FILE};
pub use table::{Row, Rung, Step, Table, TableError, FULL_LEVEL, MAX_ELO, MAX_TABLE_LEVEL};

/// The highest level `--levels` takes (20 is `full`).
pub const MAX_LEVEL: u8 = 19;

/// The protocol option of a rung's skill level.
pub const SKILL_OPTION: &str = "Skill Level";

/// The engine argument that makes it the uniform-random anchor.
pub const RANDOM_ARG: &str = "--random";

/// Why a calibration stopped.
#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    /// `--levels` is wrong.
    #[error("--levels: {0}")]
    Levels(#[from] LevelsError),
    /// `--pairs 0` (or too many to play as one match).
    #[error("{0} must be at least 1 (and 2 × it a count of games the runner takes)")]
    Zero(&'static str),
    /// `--variant` names no game.
    #[error(transparent)]
    Variant(#[from] UnknownVariant),
    /// A variant name that cannot name the folder's files.
    #[error("variant `{0}` cannot name a file")]
    VariantName(String),
    /// An `--engine`/`--each` word that sets what the ladder sets for each
    /// rung (the skill options, the random player).
    #[error("`{0}`: the ladder sets the skill level (and `arg=--random`) of each rung itself")]
    RungWord(String),
    /// The games' settings, refused by the match runner.
    #[error("{0}")]
    Match(ConfigError),
    /// The batches file cannot be read or holds a line that is not a batch.
    #[error("{}: {reason}", path.display())]
    BadBatches {
        /// The file.
        path: PathBuf,
        /// What is wrong: the read's I/O error, or the line and its JSON error.
        reason: String,
    },
    /// The batches file holds games of another setup.
    #[error("{} holds games of another setup ({difference}): use another --out, or the command that started it", path.display())]
    OtherSetup {
        /// The file.
        path: PathBuf,
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
    /// The games do not fix the Elos.
    #[error(transparent)]
    Fit(#[from] FitError),
}

impl CalibrateError {
    /// The exit code: 2 for input refused before any game, else 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            CalibrateError::Games(e) => e.exit_code(),
            CalibrateError::Write { .. } | CalibrateError::Fit(_) => 1,
            _ => 2,
        }
    }
}

#[cfg(test)]
mod tests;

//! The ladder's levels (`--levels`): [`Levels`] and their checks, shared
//! by the command and the ladder.

use std::str::FromStr;

use super::MAX_LEVEL;

/// `--levels`' default.
pub const DEFAULT_LEVELS: &str = "0,3,6,9,12,15,18";

/// Why a `--levels` value is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelsError {
    /// No level.
    #[error("no level given")]
    Empty,
    /// A word that is not a whole number.
    #[error("`{0}` is not a skill level (a whole number 0..=19)")]
    NotANumber(String),
    /// A level above 19 (20 is `full`, always on the ladder).
    #[error("level {0} is above 19 (full strength, level 20, is always the ladder's top)")]
    TooHigh(u64),
    /// Levels not strictly ascending.
    #[error("levels must ascend, each once: {next} after {previous}")]
    Unsorted {
        /// The level before.
        previous: u8,
        /// The level that is not above it.
        next: u8,
    },
}

/// The skill levels of the ladder, ascending, each at most
/// [`MAX_LEVEL`]: `--levels 0,3,6`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Levels(pub Vec<u8>);

impl FromStr for Levels {
    type Err = LevelsError;
    fn from_str(s: &str) -> Result<Levels, LevelsError> {
        let mut out = Vec::new();
        for w in s.split(',').map(str::trim) {
            let k: u64 = w.parse().map_err(|_| LevelsError::NotANumber(w.to_string()))?;
            let k = u8::try_from(k).ok().filter(|&k| k <= MAX_LEVEL).ok_or(LevelsError::TooHigh(k))?;
            out.push(k);
        }
        check_levels(&out)?;
        Ok(Levels(out))
    }
}

/// Checks a ladder's levels: at least one, ascending, each at most
/// [`MAX_LEVEL`].
pub(super) fn check_levels(levels: &[u8]) -> Result<(), LevelsError> {
    if levels.is_empty() {
        return Err(LevelsError::Empty);
    }
    if let Some(&k) = levels.iter().find(|&&k| k > MAX_LEVEL) {
        return Err(LevelsError::TooHigh(k as u64));
    }
    if let Some(w) = levels.windows(2).find(|w| w[1] <= w[0]) {
        return Err(LevelsError::Unsorted { previous: w[0], next: w[1] });
    }
    Ok(())
}

//! The calibrated strength tables (`UCI_Elo`; docs/levels.md): one per
//! variant, written by `tetrarch calibrate` and compiled in.

/// PLACEHOLDER until the calibration tables land.
pub struct Table;

impl Table {
    /// The UCI_Elo range.
    pub fn elo_range(&self) -> (i64, i64) {
        (0, 0)
    }
    /// The level of an Elo.
    pub fn level_for_elo(&self, _elo: f64) -> f64 {
        20.0
    }
}

/// The table of `variant`, if it has been calibrated.
pub fn table(_variant: &str) -> Option<&'static Table> {
    None
}

/// The seed of weakened searches and of `--random` while `SkillSeed` is 0:
/// drawn once per process from the clock and the process id.
pub fn start_seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        tetrarch_core::zobrist::splitmix64(t ^ u64::from(std::process::id()).rotate_left(32)) | 1
    })
}

#[cfg(test)]
mod tests;

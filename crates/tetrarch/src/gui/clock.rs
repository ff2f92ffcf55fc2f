//! [`Clock`]: the base time and increment of a game, as the requests and
//! the records spell it. The clocks running are the game's (`state.rs`).

use super::error::GuiError;

/// A clock for every seat: base time and increment per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time at the start, ms.
    pub base_ms: u64,
    /// Added after each of the seat's turns, ms.
    pub inc_ms: u64,
}

impl Clock {
    /// `<minutes>+<seconds>` (`5+3`, `0.5+0`, `10`): `None` for an empty
    /// string, `none` or `0`.
    pub(super) fn parse(s: &str) -> Result<Option<Clock>, GuiError> {
        let s = s.trim();
        if s.is_empty() || s == "none" || s == "0" || s == "0+0" {
            return Ok(None);
        }
        let bad = || GuiError::BadClock(s.into());
        let (m, i) = s.split_once('+').unwrap_or((s, "0"));
        let num = |x: &str| x.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
        let (m, i) = (num(m).ok_or_else(bad)?, num(i).ok_or_else(bad)?);
        let (base_ms, inc_ms) = ((m * 60_000.0).round() as u64, (i * 1000.0).round() as u64);
        if !(100..=24 * 3_600_000).contains(&base_ms) || inc_ms > 3_600_000 {
            return Err(GuiError::ClockRange(s.into()));
        }
        Ok(Some(Clock { base_ms, inc_ms }))
    }
    /// As `parse` reads it.
    pub(super) fn word(self) -> String {
        let m = self.base_ms as f64 / 60_000.0;
        let i = self.inc_ms as f64 / 1000.0;
        format!("{m}+{i}")
    }
}

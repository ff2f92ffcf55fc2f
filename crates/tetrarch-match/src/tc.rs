//! Time controls and the clocks the runner keeps for every seat.
//!
//! `tc=` strings as cutechess writes them: `[moves/]time[+increment]`, times in
//! seconds (decimals allowed) or `minutes:seconds`; `inf` for none. `moves/`
//! is a repeating period: after that many turns of a seat its base time is
//! added again.

/// A clock time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Turns per period (0: the base time is for the whole game).
    pub moves: u32,
    /// Base time per period, ms.
    pub base_ms: u64,
    /// Increment per turn, ms.
    pub inc_ms: u64,
}

/// Why a `tc=` or `st=` value is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TcError {
    /// `moves/` that is not a whole number of turns, at least 1.
    #[error("bad moves `{moves}` in time control `{tc}`")]
    BadMoves {
        /// The moves part.
        moves: String,
        /// The whole time control.
        tc: String,
    },
    /// A time, increment or time per turn that is not a number of seconds.
    #[error("bad {what} `{value}` in time control (seconds, e.g. `10`, `0.5`, `1:30`): `{given}`")]
    BadSeconds {
        /// `time`, `increment` or `time per turn`.
        what: &'static str,
        /// The part that is not a time.
        value: String,
        /// The value as given (`10+x`, `st=x`).
        given: String,
    },
    /// A clock with neither base time nor increment.
    #[error("time control `{0}` gives no time")]
    NoTime(String),
    /// `st=0`.
    #[error("st={0}: the time per turn must be positive")]
    ZeroSt(String),
}

/// Milliseconds of a time in seconds (`10`, `0.5`, `1:30`); `None` if it is
/// not one.
fn seconds(s: &str) -> Option<u64> {
    let secs = if let Some((m, sec)) = s.split_once(':') {
        let m: u64 = m.parse().ok()?;
        let sec: f64 = sec.parse().ok()?;
        m as f64 * 60.0 + sec
    } else {
        s.parse::<f64>().ok()?
    };
    if !(0.0..=1e7).contains(&secs) || s.starts_with('+') || s.starts_with('-') {
        return None;
    }
    Some((secs * 1000.0).round() as u64)
}

/// [`seconds`], or the error naming `what` and the whole value `given`.
fn seconds_of(s: &str, what: &'static str, given: String) -> Result<u64, TcError> {
    seconds(s).ok_or_else(|| TcError::BadSeconds { what, value: s.to_string(), given })
}

/// Parses a `tc=` value: `Ok(None)` for `inf`.
pub fn parse_tc(s: &str) -> Result<Option<TimeControl>, TcError> {
    if s == "inf" || s == "infinite" {
        return Ok(None);
    }
    let (moves, rest) = match s.split_once('/') {
        Some((m, r)) => {
            let bad = || TcError::BadMoves { moves: m.to_string(), tc: s.to_string() };
            let m: u32 = m.parse().ok().filter(|m| *m > 0).ok_or_else(bad)?;
            (m, r)
        }
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = seconds_of(base, "time", s.to_string())?;
    let inc_ms = match inc {
        Some(i) => seconds_of(i, "increment", s.to_string())?,
        None => 0,
    };
    if base_ms == 0 && inc_ms == 0 {
        return Err(TcError::NoTime(s.to_string()));
    }
    Ok(Some(TimeControl { moves, base_ms, inc_ms }))
}

/// Parses `st=` (seconds per turn) into ms.
pub fn parse_st(s: &str) -> Result<u64, TcError> {
    let ms = seconds_of(s, "time per turn", format!("st={s}"))?;
    if ms == 0 {
        return Err(TcError::ZeroSt(s.to_string()));
    }
    Ok(ms)
}

/// One seat's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The control (None: no clock).
    pub tc: Option<TimeControl>,
    /// Time left, ms (may not go below 0).
    pub left_ms: u64,
    /// Turns this seat has played.
    pub turns: u32,
}

impl Clock {
    /// A full clock.
    pub fn new(tc: Option<TimeControl>) -> Self {
        Clock { tc, left_ms: tc.map_or(0, |t| t.base_ms), turns: 0 }
    }

    /// Turns left in the current period (`movestogo`), if the control has
    /// periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.filter(|t| t.moves > 0).map(|t| t.moves - self.turns % t.moves)
    }

    /// Charges a turn that took `used_ms`. Returns false when the flag fell
    /// (more than the time left plus `margin_ms`); otherwise the time left
    /// is reduced (not below 0), the increment added, and at the end of a
    /// period the base time added again.
    pub fn charge(&mut self, used_ms: u64, margin_ms: u64) -> bool {
        let Some(tc) = self.tc else {
            self.turns += 1;
            return true;
        };
        if used_ms > self.left_ms + margin_ms {
            self.left_ms = 0;
            return false;
        }
        self.left_ms = self.left_ms.saturating_sub(used_ms) + tc.inc_ms;
        self.turns += 1;
        #[allow(clippy::manual_is_multiple_of)] // `is_multiple_of` is newer than the MSRV (1.80)
        if tc.moves > 0 && self.turns % tc.moves == 0 {
            self.left_ms += tc.base_ms;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_forms() {
        assert_eq!(parse_tc("10+0.1").unwrap(), Some(TimeControl { moves: 0, base_ms: 10_000, inc_ms: 100 }));
        assert_eq!(parse_tc("40/60+0.6").unwrap(), Some(TimeControl { moves: 40, base_ms: 60_000, inc_ms: 600 }));
        assert_eq!(parse_tc("1:30").unwrap(), Some(TimeControl { moves: 0, base_ms: 90_000, inc_ms: 0 }));
        assert_eq!(parse_tc("0+1").unwrap(), Some(TimeControl { moves: 0, base_ms: 0, inc_ms: 1000 }));
        assert_eq!(parse_tc("inf").unwrap(), None);
        for bad in ["", "abc", "10+", "+1", "0/10", "x/10", "10+x", "-5", "0", "10+0.1+2", "nan"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_st("0.5").unwrap(), 500);
        assert_eq!(parse_st("0"), Err(TcError::ZeroSt("0".into())));
        assert!(matches!(parse_st("x"), Err(TcError::BadSeconds { what: "time per turn", .. })));
        // The text the user sees.
        assert_eq!(
            parse_tc("10+x").unwrap_err().to_string(),
            "bad increment `x` in time control (seconds, e.g. `10`, `0.5`, `1:30`): `10+x`"
        );
        assert_eq!(parse_tc("x/10").unwrap_err().to_string(), "bad moves `x` in time control `x/10`");
        assert_eq!(parse_tc("0").unwrap_err(), TcError::NoTime("0".into()));
        assert_eq!(
            parse_st("x").unwrap_err().to_string(),
            "bad time per turn `x` in time control (seconds, e.g. `10`, `0.5`, `1:30`): `st=x`"
        );
    }

    #[test]
    fn clock_runs() {
        let mut c = Clock::new(parse_tc("2/1+0.5").unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.charge(400, 0));
        assert_eq!(c.left_ms, 1100);
        assert_eq!(c.moves_to_go(), Some(1));
        assert!(c.charge(100, 0));
        assert_eq!(c.left_ms, 1000 + 500 + 1000); // period over: base again
        assert!(!c.charge(2600, 50));
        let mut c = Clock::new(parse_tc("1").unwrap());
        assert!(c.charge(1040, 50)); // within the margin
        assert_eq!(c.left_ms, 0);
        assert!(!c.charge(51, 50));
    }
}

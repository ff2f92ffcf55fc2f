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

fn seconds(s: &str, what: &str) -> Result<u64, String> {
    let bad = || format!("bad {what} `{s}` in time control (seconds, e.g. `10`, `0.5`, `1:30`)");
    let secs = if let Some((m, sec)) = s.split_once(':') {
        let m: u64 = m.parse().map_err(|_| bad())?;
        let sec: f64 = sec.parse().map_err(|_| bad())?;
        m as f64 * 60.0 + sec
    } else {
        s.parse::<f64>().map_err(|_| bad())?
    };
    if !(0.0..=1e7).contains(&secs) || s.starts_with('+') || s.starts_with('-') {
        return Err(bad());
    }
    Ok((secs * 1000.0).round() as u64)
}

/// Parses a `tc=` value: `Ok(None)` for `inf`.
pub fn parse_tc(s: &str) -> Result<Option<TimeControl>, String> {
    if s == "inf" || s == "infinite" {
        return Ok(None);
    }
    let (moves, rest) = match s.split_once('/') {
        Some((m, r)) => {
            let m: u32 = m.parse().ok().filter(|m| *m > 0).ok_or_else(|| format!("bad moves `{m}` in time control `{s}`"))?;
            (m, r)
        }
        None => (0, s),
    };
    let (base, inc) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(i)),
        None => (rest, None),
    };
    let base_ms = seconds(base, "time").map_err(|e| format!("{e}: `{s}`"))?;
    let inc_ms = match inc {
        Some(i) => seconds(i, "increment").map_err(|e| format!("{e}: `{s}`"))?,
        None => 0,
    };
    if base_ms == 0 && inc_ms == 0 {
        return Err(format!("time control `{s}` gives no time"));
    }
    Ok(Some(TimeControl { moves, base_ms, inc_ms }))
}

/// Parses `st=` (seconds per turn) into ms.
pub fn parse_st(s: &str) -> Result<u64, String> {
    let ms = seconds(s, "time per turn").map_err(|e| format!("{e}: `st={s}`"))?;
    if ms == 0 {
        return Err(format!("st={s}: the time per turn must be positive"));
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
        assert!(parse_st("0").is_err());
        assert!(parse_st("x").is_err());
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

//! Time management: a soft limit (checked between iterations) and a hard
//! limit (checked every 256 nodes).

use std::time::{Duration, Instant};

use crate::Limits;

const MIN: Duration = Duration::from_millis(1);

/// The limits of one search.
#[derive(Clone, Debug)]
pub(crate) struct TimeControl {
    pub start: Instant,
    /// Do not start another iteration once `elapsed > soft * 0.6`.
    pub soft: Option<Duration>,
    /// Abort the search at once past this.
    pub hard: Option<Duration>,
}

impl TimeControl {
    pub fn new(limits: &Limits, start: Instant) -> TimeControl {
        let overhead = limits.move_overhead;
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(MIN);
            return TimeControl {
                start,
                soft: None,
                hard: Some(t),
            };
        }
        if let Some(c) = limits.clock {
            if limits.infinite {
                return TimeControl {
                    start,
                    soft: None,
                    hard: None,
                };
            }
            let time = Duration::from_millis(c.time_ms);
            let inc = Duration::from_millis(c.inc_ms);
            let mtg = c.movestogo.unwrap_or(30).max(1);
            let budget = (time / mtg + inc * 3 / 4).saturating_sub(overhead).max(MIN);
            let hard = (time / 4 + inc).min(time.saturating_sub(overhead)).max(MIN);
            return TimeControl {
                start,
                soft: Some(budget.min(hard)),
                hard: Some(hard),
            };
        }
        TimeControl {
            start,
            soft: None,
            hard: None,
        }
    }

    #[inline]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Past the hard limit.
    #[inline]
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// After an iteration: whether to start no further one.
    pub fn stop_iterating(&self) -> bool {
        let e = self.elapsed();
        self.soft.is_some_and(|s| e > s.mul_f64(0.6)) || self.hard.is_some_and(|h| e >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn budgets() {
        let now = Instant::now();
        let l = Limits {
            clock: Some(Clock {
                time_ms: 30_000,
                inc_ms: 400,
                movestogo: None,
            }),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, now);
        assert_eq!(tc.soft, Some(Duration::from_millis(1000 + 300 - 10)));
        assert_eq!(tc.hard, Some(Duration::from_millis(7500 + 400)));
        let l = Limits {
            clock: Some(Clock {
                time_ms: 5,
                inc_ms: 0,
                movestogo: Some(1),
            }),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, now);
        assert_eq!(tc.hard, Some(MIN));
        assert_eq!(tc.soft, Some(MIN));
        let l = Limits {
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(
            TimeControl::new(&l, now).hard,
            Some(Duration::from_millis(100))
        );
    }
}

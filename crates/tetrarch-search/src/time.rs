//! Time management: a soft limit (checked between iterations) and a hard
//! limit (checked every 256 nodes).

use std::time::{Duration, Instant};

use crate::{Limits, SearchParams};

const MIN: Duration = Duration::from_millis(1);

/// The limits of one search.
#[derive(Clone, Debug)]
pub(crate) struct TimeControl {
    pub start: Instant,
    /// Do not start another iteration once `elapsed > soft * TmSoft / 100`
    /// (times the stability scale).
    pub soft: Option<Duration>,
    /// `TmSoft / 100`.
    pub soft_share: f64,
    /// Abort the search at once past this.
    pub hard: Option<Duration>,
}

impl TimeControl {
    /// The limits of one search started at `start`; a clock without
    /// `movestogo` is spread over `turns_to_go` turns (`SearchHints::TURNS_TO_GO`);
    /// `p` gives the shares of the increment and of the time left
    /// (`TmInc`, `TmHard`) and of the soft limit (`TmSoft`).
    pub fn new(limits: &Limits, start: Instant, turns_to_go: u32, p: &SearchParams) -> TimeControl {
        let overhead = limits.move_overhead;
        let soft_share = f64::from(p.tm_soft) / 100.0;
        if let Some(mt) = limits.movetime {
            // A fixed time per turn is no clock that runs down: keep back
            // the overhead, but at most a twentieth of the time (25 ms of
            // 0.5 s; the whole 100 ms from 2 s up).
            let t = mt.saturating_sub(overhead.min(mt / 20)).max(MIN);
            return TimeControl { start, soft: None, soft_share, hard: Some(t) };
        }
        if let Some(c) = limits.clock {
            if limits.infinite {
                return TimeControl { start, soft: None, soft_share, hard: None };
            }
            let time = Duration::from_millis(c.time_ms);
            let inc = Duration::from_millis(c.inc_ms);
            let mtg = c.movestogo.unwrap_or(turns_to_go).max(1);
            let budget = (time / mtg + percent(inc, p.tm_inc)).saturating_sub(overhead).max(MIN);
            let hard = (percent(time, p.tm_hard) + inc).min(time.saturating_sub(overhead)).max(MIN);
            return TimeControl { start, soft: Some(budget.min(hard)), soft_share, hard: Some(hard) };
        }
        TimeControl { start, soft: None, soft_share, hard: None }
    }

    /// Never past `cap`, whatever the limits said (a weakened search,
    /// [`crate::Skill::time_cap`]).
    pub fn cap(&mut self, cap: Duration) {
        self.hard = Some(self.hard.map_or(cap, |h| h.min(cap)));
        self.soft = self.soft.map(|s| s.min(cap));
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

    /// After an iteration: whether to start no further one. `scale`
    /// stretches or shrinks the soft limit (see [`stability_scale`]).
    pub fn stop_iterating(&self, scale: f64) -> bool {
        let e = self.elapsed();
        self.soft.is_some_and(|s| e > s.mul_f64(self.soft_share * scale)) || self.hard.is_some_and(|h| e >= h)
    }
}

/// `d * pct / 100` (`Duration::MAX` where that overflows).
fn percent(d: Duration, pct: i32) -> Duration {
    d.checked_mul(pct.max(0) as u32).map_or(Duration::MAX, |x| x / 100)
}

/// How much of the soft limit to use after an iteration, from how settled
/// the best action is: `changed` whether this iteration's best action
/// differs from the last one's, `stable` for how many iterations in a row
/// it has not. An unsettled choice gets more time, a settled one less
/// (never past the hard limit): `TmChanged`, `TmUnsettled`, 100 % and
/// `TmSettled` percent.
pub(crate) fn stability_scale(changed: bool, stable: u32, p: &SearchParams) -> f64 {
    let pct = if changed {
        p.tm_changed
    } else {
        match stable {
            0..=1 => p.tm_unsettled,
            2..=3 => 100,
            _ => p.tm_settled,
        }
    };
    f64::from(pct) / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clock;

    #[test]
    fn an_unsettled_best_action_gets_more_time() {
        let p = SearchParams::default();
        let tc = TimeControl {
            start: Instant::now() - Duration::from_millis(70),
            soft: Some(Duration::from_millis(100)),
            soft_share: 0.6,
            hard: Some(Duration::from_secs(60)),
        };
        // 70 ms spent of a 100 ms soft limit: past 60 % of it.
        assert!(tc.stop_iterating(1.0));
        assert!(tc.stop_iterating(stability_scale(false, 5, &p)));
        // The best action just changed: up to 108 ms.
        assert!(!tc.stop_iterating(stability_scale(true, 0, &p)));
        assert!(stability_scale(true, 0, &p) > stability_scale(false, 1, &p));
        assert!(stability_scale(false, 1, &p) > stability_scale(false, 5, &p));
        // Never past the hard limit, whatever the scale.
        let late = TimeControl { hard: Some(Duration::from_millis(50)), ..tc };
        assert!(late.stop_iterating(100.0));
    }

    #[test]
    fn budgets() {
        let p = SearchParams::default();
        let now = Instant::now();
        let l = Limits {
            clock: Some(Clock { time_ms: 30_000, inc_ms: 400, movestogo: None }),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, now, 30, &p);
        assert_eq!(tc.soft, Some(Duration::from_millis(1000 + 300 - 10)));
        assert_eq!(tc.hard, Some(Duration::from_millis(7500 + 400)));
        // A game of short races spreads the clock over fewer turns; the
        // hard limit stays.
        let short = TimeControl::new(&l, now, 15, &p);
        assert_eq!(short.soft, Some(Duration::from_millis(2000 + 300 - 10)));
        assert_eq!(short.hard, tc.hard);
        let l = Limits {
            clock: Some(Clock { time_ms: 5, inc_ms: 0, movestogo: Some(1) }),
            move_overhead: Duration::from_millis(10),
            ..Limits::default()
        };
        let tc = TimeControl::new(&l, now, 30, &p);
        assert_eq!(tc.hard, Some(MIN));
        assert_eq!(tc.soft, Some(MIN));
        let l = Limits { movetime: Some(Duration::from_millis(100)), ..Limits::default() };
        assert_eq!(TimeControl::new(&l, now, 30, &p).hard, Some(Duration::from_millis(100)));
    }

    #[test]
    fn movetime_keeps_back_the_overhead_but_at_most_a_twentieth() {
        let p = SearchParams::default();
        let now = Instant::now();
        let hard = |mt: u64, oh: u64| {
            let l = Limits {
                movetime: Some(Duration::from_millis(mt)),
                move_overhead: Duration::from_millis(oh),
                ..Limits::default()
            };
            TimeControl::new(&l, now, 30, &p).hard.unwrap().as_millis()
        };
        assert_eq!(hard(500, 100), 475);
        assert_eq!(hard(2000, 100), 1900);
        assert_eq!(hard(10_000, 100), 9900);
        assert_eq!(hard(500, 10), 490);
        assert_eq!(hard(500, 0), 500);
        assert_eq!(hard(1, 100), 1);
    }
}

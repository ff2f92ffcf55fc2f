//! Playing below full strength (`Skill Level`, `UCI_Elo`; docs/levels.md).
//!
//! A level is a number from 0 (the weakest) to [`Skill::FULL`] (the full
//! engine), fractional in between so that a calibrated Elo can be met
//! between two integer levels. Below full strength a search:
//!
//! 1. gets a node budget of [`Skill::nodes`], growing geometrically with
//!    the level along the game's [`Scale`]: by default 512 nodes at level
//!    0, twice as many every 2.5 levels (8,192 at level 10, about 100,000
//!    at level 19); a game where more nodes buy little strength spreads its
//!    levels over a wider range of budgets (the caller chooses the scale:
//!    the search knows no game); the `go` command's own limits still apply
//!    when they are smaller;
//! 2. at level 10 and below, stops after [`Skill::TIME_CAP`] whatever the
//!    clock says, so that a person never waits for a weak turn;
//! 3. searches [`Skill::LINES`] root lines (MultiPV) with one thread, and
//! 4. plays one of them, chosen by [`Skill::pick`]: every line's value is
//!    raised by a share of its distance to the best value and by a random
//!    amount, both shares growing as the level drops; the line with the
//!    highest raised value is played. At level 0 the four lines are nearly
//!    equally likely; near full strength the best line is played unless
//!    another is almost as good.
//!
//! So a weaker level sees less (the budget) and, among the turns it sees,
//! chooses a worse one more often (the noise) — but always among turns its
//! search, with its quiescence, thinks are among the best: no level plays a
//! turn that gives away a piece to a one-move capture it has searched, and
//! none has a blind spot of its own (the idea is Stockfish's `Skill`; the
//! numbers are ours, measured in docs/levels.md).
//!
//! The choice is a function of the seed and of the root position, so a
//! game between two seeded levels is reproducible.

use std::time::Duration;

use tetrarch_core::zobrist::splitmix64;

/// How a level's node budget grows with the level: geometrically, from
/// `at_0` nodes at level 0 to `at_full` at level [`Skill::FULL`] (where
/// the full engine plays instead, with whatever limit it is given).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    at_0: f64,
    at_full: f64,
}

impl Scale {
    /// The default: 512 nodes at level 0, twice as many every 2.5 levels
    /// (131,072 at level 20).
    pub const DEFAULT: Scale = Scale { at_0: 512.0, at_full: 131_072.0 };

    /// `at_0` nodes at level 0 and `at_full` at level 20, or `None` unless
    /// `1 <= at_0 <= at_full`.
    pub const fn new(at_0: u32, at_full: u32) -> Option<Scale> {
        if at_0 >= 1 && at_0 <= at_full {
            Some(Scale { at_0: at_0 as f64, at_full: at_full as f64 })
        } else {
            None
        }
    }

    /// The budget at `level` (0..=20).
    pub fn nodes(&self, level: f64) -> u64 {
        (self.at_0 * (self.at_full / self.at_0).powf(level / Skill::FULL)).round() as u64
    }
}

impl Default for Scale {
    fn default() -> Self {
        Scale::DEFAULT
    }
}

/// A strength below the full engine's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
    seed: u64,
    scale: Scale,
}

impl Skill {
    /// The level of the full engine (no [`Skill`]).
    pub const FULL: f64 = 20.0;
    /// Root lines a weakened search keeps (MultiPV).
    pub const LINES: usize = 4;
    /// The longest a search at level [`Skill::CAPPED_UP_TO`] or below
    /// thinks (wall time of one thread, so also its CPU time).
    pub const TIME_CAP: Duration = Duration::from_millis(400);
    /// The highest level whose searches are capped at [`Skill::TIME_CAP`].
    pub const CAPPED_UP_TO: f64 = 10.0;
    /// Level `level` (clamped to `0..=FULL`; NaN reads as 0) with the
    /// random choices of `seed`, or `None` at full strength.
    pub fn new(level: f64, seed: u64) -> Option<Skill> {
        let level = if level.is_nan() { 0.0 } else { level.clamp(0.0, Skill::FULL) };
        (level < Skill::FULL).then_some(Skill { level, seed, scale: Scale::DEFAULT })
    }

    /// This skill with the node budgets of `scale` (a game's own).
    pub fn with_scale(self, scale: Scale) -> Skill {
        Skill { scale, ..self }
    }

    /// The scale of the node budgets.
    pub fn scale(&self) -> Scale {
        self.scale
    }

    /// The level, `0.0..FULL`.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// The node budget of a search at this level.
    pub fn nodes(&self) -> u64 {
        self.scale.nodes(self.level)
    }

    /// The longest a search at this level may think, if capped.
    pub fn time_cap(&self) -> Option<Duration> {
        (self.level <= Skill::CAPPED_UP_TO).then_some(Skill::TIME_CAP)
    }

    /// How far the choice strays from the best line: 0.94 at level 0,
    /// falling linearly to 0 at full strength.
    pub fn weakness(&self) -> f64 {
        0.94 * (Skill::FULL - self.level) / Skill::FULL
    }

    /// The index of the line to play among `scores` (the root lines' values
    /// for the side to move, in MultiPV order; values at or below `floor` are
    /// lines the search did not finish and are never chosen, except the
    /// first), with the random choices of this skill's seed at the root
    /// whose key is `key`.
    ///
    /// Each line `i` gets `s_i + w·(best − s_i) + w·u_i·spread`, with `w` the
    /// [`Skill::weakness`], `u_i` uniform in `[0, 1)` and `spread` the
    /// distance from the best to the worst line, at most `unit` (a pawn of
    /// the game's evaluation); the highest wins, the earlier line on a tie.
    pub fn pick(&self, scores: &[i32], floor: i32, unit: i32, key: u64) -> usize {
        let usable = scores.iter().take_while(|&&s| s > floor).count();
        if usable <= 1 {
            return 0;
        }
        // The lines come best first, but a line searched after the first
        // can come out higher (its own window): take the extremes.
        let best = f64::from(*scores[..usable].iter().max().unwrap_or(&0));
        let worst = f64::from(*scores[..usable].iter().min().unwrap_or(&0));
        let spread = (best - worst).min(f64::from(unit.max(1)));
        let w = self.weakness();
        let mut state = splitmix64(self.seed ^ key.rotate_left(17));
        let mut pick = (0, f64::NEG_INFINITY);
        for (i, &s) in scores[..usable].iter().enumerate() {
            state = splitmix64(state);
            let u = (state >> 11) as f64 / (1u64 << 53) as f64;
            let s = f64::from(s);
            let raised = s + w * (best - s) + w * u * spread;
            if raised > pick.1 {
                pick = (i, raised);
            }
        }
        pick.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_is_no_skill() {
        assert!(Skill::new(20.0, 1).is_none());
        assert!(Skill::new(25.0, 1).is_none());
        assert_eq!(Skill::new(-3.0, 1).unwrap().level(), 0.0);
        assert_eq!(Skill::new(f64::NAN, 1).unwrap().level(), 0.0);
    }

    #[test]
    fn budgets_grow_with_the_level() {
        let n = |l: f64| Skill::new(l, 0).unwrap().nodes();
        assert_eq!(n(0.0), 512);
        assert_eq!(n(10.0), 8192);
        assert!((95_000..=105_000).contains(&n(19.0)), "{}", n(19.0));
        for l in 0..19 {
            assert!(n(f64::from(l) + 1.0) > n(f64::from(l)));
        }
        assert_eq!(Skill::new(10.0, 0).unwrap().time_cap(), Some(Skill::TIME_CAP));
        assert_eq!(Skill::new(10.5, 0).unwrap().time_cap(), None);
    }

    #[test]
    fn a_scale_spans_its_budgets_geometrically() {
        let scale = Scale::new(64, 262_144).unwrap();
        let n = |l: f64| Skill::new(l, 0).unwrap().with_scale(scale).nodes();
        assert_eq!(n(0.0), 64);
        // 12 doublings over 20 levels: 0.6 a level.
        assert_eq!(n(10.0), 4096);
        assert_eq!(n(5.0), 512);
        assert_eq!(scale.nodes(20.0), 262_144);
        for l in 0..19 {
            assert!(n(f64::from(l) + 1.0) > n(f64::from(l)));
        }
        // The default scale is the one the levels always had.
        assert_eq!(Scale::default().nodes(7.5), 4096);
        assert_eq!(Skill::new(3.0, 0).unwrap().scale(), Scale::DEFAULT);
        // A flat scale is allowed (every level the same budget), a falling
        // one or an empty budget is not.
        assert!(Scale::new(100, 100).is_some());
        assert!(Scale::new(200, 100).is_none());
        assert!(Scale::new(0, 100).is_none());
    }

    /// How often the best of four lines is played, over many roots.
    fn best_share(level: f64, scores: &[i32]) -> f64 {
        let s = Skill::new(level, 7).unwrap();
        let n = 4000;
        let best = (0..n).filter(|&k| s.pick(scores, -1_000_000, 100, splitmix64(k)) == 0).count();
        best as f64 / n as f64
    }

    #[test]
    fn weaker_levels_stray_more_often() {
        let scores = [50, 20, 0, -40];
        let shares: Vec<f64> = [0.0, 5.0, 10.0, 15.0, 19.0].iter().map(|&l| best_share(l, &scores)).collect();
        for w in shares.windows(2) {
            assert!(w[1] > w[0] || w[0] == 1.0, "{shares:?}");
        }
        // Level 0 is far from always best, level 19 nearly always.
        assert!(shares[0] < 0.45, "{shares:?}");
        assert!(shares[4] > 0.95, "{shares:?}");
        // A line far worse than the rest is rarely played even at level 0.
        let blunder = [100, 90, 80, -900];
        let s = Skill::new(0.0, 3).unwrap();
        let worst = (0..4000).filter(|&k| s.pick(&blunder, -1_000_000, 100, splitmix64(k)) == 3).count();
        assert!(worst < 40, "{worst}");
    }

    #[test]
    fn the_choice_is_the_seed_s() {
        let scores = [10, 9, 8, 7];
        let a = Skill::new(2.0, 11).unwrap();
        let b = Skill::new(2.0, 12).unwrap();
        let picks = |s: &Skill| (0..64).map(|k| s.pick(&scores, -1_000_000, 100, k)).collect::<Vec<_>>();
        assert_eq!(picks(&a), picks(&a));
        assert_ne!(picks(&a), picks(&b));
    }

    #[test]
    fn unfinished_lines_are_never_chosen() {
        let s = Skill::new(0.0, 5).unwrap();
        for k in 0..500 {
            assert!(s.pick(&[30, 20, -1_000_000, -1_000_000], -1_000_000, 100, k) <= 1);
            assert_eq!(s.pick(&[-1_000_000, -1_000_000], -1_000_000, 100, k), 0);
            assert_eq!(s.pick(&[5], -1_000_000, 100, k), 0);
        }
    }
}

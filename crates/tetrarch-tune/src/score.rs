//! The score of two engines' games as the tools that drive the match
//! runner count it (`tetrarch spsa`, `tetrarch calibrate`): [`Score`] and
//! [`score_of`].
//!
//! In a game of two sides a game is won, lost or drawn. In a free-for-all
//! game (four seats, two engines: each engine holds two seats) a game is
//! engine 0's win when its seats take more points on average than engine
//! 1's, its loss when they take fewer, and a draw when they take the same.

use serde::{Deserialize, Serialize};
use tetrarch_match::GameRecord;

/// Games of engine 0 against engine 1, from engine 0's side (in `tetrarch
/// spsa`: the `θ+` engine's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Games engine 0 won.
    pub wins: u64,
    /// Games it lost.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

impl Score {
    /// wins − losses.
    pub fn result(&self) -> i64 {
        self.wins as i64 - self.losses as i64
    }

    /// Adds `o`'s games.
    pub fn add(&mut self, o: &Score) {
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }

    /// Games in all.
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// The same games from engine 1's side.
    pub fn flipped(&self) -> Score {
        Score { wins: self.losses, losses: self.wins, draws: self.draws }
    }

    /// The score of engine 0 in percent (50 with no games).
    pub fn percent(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            50.0
        } else {
            100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
        }
    }
}

/// The score of engine 0 in these games: a game is its win when its
/// seats take more points than engine 1's (in a game of two sides: it
/// won; in a free-for-all game, the mean points of its seats against the
/// mean of engine 1's).
pub fn score_of(records: &[GameRecord]) -> Score {
    let mut s = Score::default();
    for r in records {
        let mean = |e: usize| {
            let pts: Vec<f64> = (0..r.points.len()).filter(|&i| r.seat_engines[i] == e).map(|i| r.points[i]).collect();
            pts.iter().sum::<f64>() / pts.len().max(1) as f64
        };
        let (p, m) = (mean(0), mean(1));
        if p > m {
            s.wins += 1;
        } else if p < m {
            s.losses += 1;
        } else {
            s.draws += 1;
        }
    }
    s
}

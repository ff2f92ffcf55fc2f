//! Score scale and search limits: what a mate is worth and how deep the
//! search can reach. Its own module so that the table ([`crate::tt`]) and
//! the search ([`crate::search`]) both read it without depending on each
//! other.

use tetrarch_core::game::{Outcome, Seat};

/// Plies the search can reach (main search plus quiescence).
pub(crate) const MAX_PLY: usize = 192;
/// Default and maximum iterative-deepening depth, in actions.
pub(crate) const MAX_DEPTH: u32 = 128;
/// Larger than any score.
pub(crate) const INF: i32 = 32_500;
/// The score of a win at the root (a win at ply `p` is `MATE - p`).
pub(crate) const MATE: i32 = 32_000;
/// Scores at least this large (in absolute value) are wins or losses.
pub(crate) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// The value of a finished game for the root's side at `ply`.
#[inline]
pub(crate) fn outcome_value(o: &Outcome, root_seat: Seat, ply: usize) -> i32 {
    match o.for_seat(root_seat) {
        Some(true) => MATE - ply as i32,
        Some(false) => -MATE + ply as i32,
        None => 0,
    }
}

//! The end of a `teamchess` game (§6.6).

use super::TeamChess;
use crate::game::{Outcome, SeatSet};

/// The seats of the team that is not `seat`'s.
fn other_team(seat: usize) -> SeatSet {
    if seat & 1 == 0 {
        SeatSet(0b1010)
    } else {
        SeatSet(0b0101)
    }
}

impl TeamChess {
    /// Rule 1 (a King was captured) and rule 3 (no progress): the ends that
    /// need no move generation. Rule 2 comes first in the spec but cannot
    /// hold at the same time as rule 1, and only its reason word differs
    /// from rule 3's, so `game_outcome` checks it between them.
    pub(super) fn quick_outcome(&self) -> Option<Outcome> {
        self.king_capture().or_else(|| self.no_progress())
    }

    fn king_capture(&self) -> Option<Outcome> {
        (0..4).find(|&s| !self.men.has_king(s)).map(|s| Outcome::win(other_team(s), "kingcapture"))
    }

    fn no_progress(&self) -> Option<Outcome> {
        crate::games::cross_board::shared_rules::no_progress(self.halfmove, self.rules.no_progress_plies)
    }

    /// §6.6 rules 1–3.
    pub(super) fn game_outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.king_capture() {
            return Some(o);
        }
        let s = self.side as usize;
        if !self.has_legal_move() {
            return Some(if self.seat_in_check(s) {
                Outcome::win(other_team(s), "checkmate")
            } else {
                Outcome::draw(SeatSet(0b1111), "stalemate")
            });
        }
        self.no_progress()
    }

    /// §6.6 rule 4: the third occurrence (board, side, castling, en passant).
    pub(super) fn repetition(&self, history: &[u64]) -> Option<Outcome> {
        crate::games::cross_board::shared_rules::repetition(self.key, history, self.rules.repetition_draw)
    }
}

//! Best-Reply Search (Schadd & Winands 2011), for free-for-all games with
//! [`Strategy::Brs`]: after the root seat's turn, one minimising layer
//! holds the actions of every opponent (the merged node of
//! [`Worker::search_node`], listed by [`Worker::generate_merged`]); the
//! chosen opponent moves out of turn ([`SearchHints::skip_to`]) and the next turn
//! start goes straight back to the root seat ([`Worker::search`]).

use crate::Searchable;

use super::Worker;
use crate::Strategy;

impl<G: Searchable> Worker<'_, G> {
    /// Alpha-beta (PVS) below the root: [`Worker::search_node`], after the
    /// Best-Reply switch. Values are from the point of view of the node:
    /// the root's side ("us") or everyone else ("them").
    ///
    /// With Best-Reply Search, a turn start after an opponent's reply goes
    /// straight back to the root seat (the other opponents pass); that
    /// line is not a real game line, so it ends the PV.
    pub(super) fn search(&mut self, depth: i32, ply: usize, alpha: i32, beta: i32, pv_node: bool) -> i32 {
        if self.root.strategy == Strategy::Brs && depth > 0 && self.brs_replied && self.pos.at_turn_start() {
            if self.is_us() {
                self.brs_replied = false;
                let v = self.search_node(depth, ply, alpha, beta, pv_node);
                self.brs_replied = true;
                return v;
            }
            let seat = self.root.seat;
            if let Some(u) = self.pos.skip_to(seat) {
                self.brs_replied = false;
                let v = -self.search_node(depth, ply, -beta, -alpha, pv_node);
                self.brs_replied = true;
                self.pos.unskip(u);
                self.stack[ply].pv_len = 0;
                return v;
            }
        }
        self.search_node(depth, ply, alpha, beta, pv_node)
    }

    /// Whether the node is the merged opponents' layer: a turn start of
    /// "them" before any opponent has replied.
    #[inline]
    pub(super) fn brs_merged(&self, turn_start: bool, us: bool) -> bool {
        self.root.strategy == Strategy::Brs && turn_start && !us && !self.brs_replied
    }

    /// The merged layer's actions: those of every opponent still able to
    /// move, the seat to move first, the others out of turn (marked to be
    /// skipped to). Returns (legal actions, number pushed).
    pub(super) fn generate_merged(&mut self, tt_idx: Option<u16>, ply: usize) -> (usize, usize) {
        let base = self.moves.len();
        let seats = self.root.seats;
        let first = self.pos.to_move();
        let mut total = self.push_actions(tt_idx, ply, false, 0, 0);
        for k in 1..seats {
            let o = (first + k) % seats;
            if self.pos.side_of(o) == self.root.side {
                continue;
            }
            if let Some(u) = self.pos.skip_to(o) {
                total += self.push_actions(tt_idx, ply, false, (k as u32) << 12, o as u8 + 1);
                self.pos.unskip(u);
            }
        }
        let n = self.moves.len() - base;
        (total, n)
    }
}

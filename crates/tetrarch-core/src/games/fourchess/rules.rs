//! Mate, release and the end of the game (§5.6–5.8).

use super::board::{Sq, KING_ZONE};
use super::moves::Move;
use super::piece::*;
use super::{partner, FourChess, MAX_ACTIONS};
use crate::game::{Outcome, SeatSet};
use arrayvec::ArrayVec;

impl FourChess {
    /// The status update after a move by `mover` from `from` to `to` (§5.6).
    ///
    /// Fast path, when nobody was inert: a legal move leaves the mover out of
    /// check and does not put the partner in check (§5.5); an enemy's check
    /// can only change if the move touched a cell of his King's zone. If then
    /// nobody is in check, nobody is mated and nobody inert: the update is a
    /// no-op. Everything else goes through the spec's loop.
    pub(super) fn update_status(&mut self, mover: usize, from: Sq, to: Sq) {
        if self.inert == 0 {
            let mut checks = self.checks & !(1 << mover);
            for s in [(mover + 1) & 3, (mover + 2) & 3, (mover + 3) & 3] {
                let was = self.checks >> s & 1 != 0;
                if s == partner(mover) && !was {
                    continue;
                }
                let zone = &KING_ZONE[self.men.kings[s] as Sq];
                if zone.has(from) || zone.has(to) {
                    checks &= !(1 << s);
                    if self.seat_in_check(s, 0) {
                        checks |= 1 << s;
                    }
                }
            }
            self.checks = checks;
            if checks == 0 {
                return;
            }
        }
        self.slow_update(mover);
    }

    /// The spec's status update loop (§5.6), then the check cache for the new
    /// inert set.
    pub(super) fn slow_update(&mut self, mover: usize) {
        let order = [(mover + 1) & 3, (mover + 2) & 3, (mover + 3) & 3, mover];
        let mut flipped = 0u8;
        loop {
            let mut changed = false;
            for &s in &order {
                if flipped >> s & 1 != 0 {
                    continue;
                }
                let mated = self.seat_in_check(s, self.inert) && !self.has_legal_move(s, self.inert);
                if mated != (self.inert >> s & 1 != 0) {
                    self.inert ^= 1 << s;
                    self.key ^= super::INERT_KEYS[s];
                    flipped |= 1 << s;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.recompute_checks();
    }

    /// Recomputes which seats are in check under the current inert set.
    pub(super) fn recompute_checks(&mut self) {
        self.checks = 0;
        for s in 0..4 {
            if self.seat_in_check(s, self.inert) {
                self.checks |= 1 << s;
            }
        }
    }

    /// §5.8 rule 2: no Queen, no Rook, at most one minor piece per team.
    fn material_draw(&self) -> bool {
        if (self.men.by_type[QUEEN] | self.men.by_type[ROOK]).any() {
            return false;
        }
        let minors = self.men.by_type[KNIGHT] | self.men.by_type[BISHOP];
        (minors & (self.men.by_seat[0] | self.men.by_seat[2])).count() <= 1
            && (minors & (self.men.by_seat[1] | self.men.by_seat[3])).count() <= 1
    }

    /// §5.8 rules 1, 2 and 4: the ends that need no move generation.
    pub(super) fn quick_outcome(&self) -> Option<Outcome> {
        if self.inert & 0b0101 == 0b0101 {
            return Some(Outcome::win(SeatSet(0b1010), "checkmate"));
        }
        if self.inert & 0b1010 == 0b1010 {
            return Some(Outcome::win(SeatSet(0b0101), "checkmate"));
        }
        if self.material_draw() {
            return Some(Outcome::draw(SeatSet(0b1111), "material"));
        }
        None
    }

    fn no_progress(&self) -> Option<Outcome> {
        crate::games::cross_board::shared_rules::no_progress(self.halfmove, self.rules.no_progress_plies)
    }

    /// §5.8 rule 3 for a side to move without legal moves: stalemate when he
    /// is live, not in check, and his partner is inert or has no move either.
    fn stalemate_without_moves(&self) -> bool {
        let s = self.side as usize;
        let p = partner(s);
        self.inert >> s & 1 == 0 && self.checks >> s & 1 == 0 && (self.inert >> p & 1 != 0 || !self.has_legal_move(p, self.inert))
    }

    /// The end of the game by §5.8 rules 1–4.
    pub(super) fn game_outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.quick_outcome() {
            return Some(o);
        }
        let s = self.side as usize;
        if self.inert >> s & 1 == 0 && self.checks >> s & 1 == 0 {
            let mut list = ArrayVec::<Move, MAX_ACTIONS>::new();
            self.gen_legal(&mut list);
            if list.is_empty() && self.stalemate_without_moves() {
                return Some(Outcome::draw(SeatSet(0b1111), "stalemate"));
            }
        }
        self.no_progress()
    }

    /// §5.8 rule 5: the third occurrence of the position.
    pub(super) fn repetition(&self, history: &[u64]) -> Option<Outcome> {
        crate::games::cross_board::shared_rules::repetition(self.key, history, self.rules.repetition_draw)
    }

    /// The legal turns (§5.7): none when the game is over, the pass for an
    /// inert or stalemated (or stuck) seat, else the legal moves.
    pub(super) fn turns(&self, out: &mut ArrayVec<Move, MAX_ACTIONS>) {
        if self.quick_outcome().is_some() || self.no_progress().is_some() {
            return;
        }
        let s = self.side as usize;
        if self.inert >> s & 1 != 0 {
            out.push(Move::PASS);
            return;
        }
        self.gen_legal(out);
        if out.is_empty() && !self.stalemate_without_moves() {
            out.push(Move::PASS);
        }
    }

    /// Whether [`FourChess::turns`] holds a turn that `tactical` says no to
    /// (a quiet turn), found without listing them all: an inert seat's
    /// pass, or the legal moves in their order up to the first quiet one.
    /// A seat without moves is answered no (its pass is not looked for).
    pub(super) fn has_quiet_turn(&self, tactical: impl Fn(Move) -> bool) -> bool {
        if self.quick_outcome().is_some() || self.no_progress().is_some() {
            return false;
        }
        let s = self.side as usize;
        if self.inert >> s & 1 != 0 {
            return true;
        }
        let (sc, pc) = (self.checks >> s & 1 != 0, self.checks >> partner(s) & 1 != 0);
        !self.for_each_legal(s, self.inert, sc, pc, &mut |m| tactical(m))
    }
}

//! Turn order, elimination (§6.2, §6.3) and the end of the game (§6.4–6.6).

use super::keys;
use super::{Mode, QueensKings, KING, MAN, QUEEN};
use crate::game::{Outcome, SeatSet};

impl QueensKings {
    /// Whether the colours in `mask` all belong to one side (§6.4.1).
    #[inline(always)]
    pub(crate) fn one_side(&self, mask: u8) -> bool {
        match self.rules.mode {
            Mode::Teams => mask & 0b1010 == 0 || mask & 0b0101 == 0,
            _ => mask.count_ones() <= 1,
        }
    }

    /// The end-of-turn procedure after `mover`'s move (§6.2 step 2–3): the
    /// draw counter and turn number are already updated.
    pub(crate) fn end_of_turn(&mut self, mover: usize) {
        let old = self.st.to_move as usize;
        for i in 1..4 {
            let x = (mover + i) & 3;
            if self.st.in_game >> x & 1 == 0 {
                continue;
            }
            if self.has_any_move(x) {
                self.set_to_move(old, x);
                return;
            }
            self.eliminate(x);
            if self.one_side(self.st.in_game) {
                break;
            }
        }
        self.set_to_move(old, mover);
    }

    #[inline(always)]
    fn set_to_move(&mut self, old: usize, new: usize) {
        self.st.key ^= keys::TO_MOVE[old] ^ keys::TO_MOVE[new];
        self.st.to_move = new as u8;
    }

    /// Colour `x` is out (§6.2, §6.3).
    fn eliminate(&mut self, x: usize) {
        self.st.in_game &= !(1 << x);
        self.st.key ^= keys::IN_GAME[x];
        self.st.counter = 0;
        if self.rules.mode == Mode::FreeForAll && !self.rules.keep_eliminated {
            for ty in [MAN, KING, QUEEN] {
                for s in self.st.by_colour[x] & self.st.by_type[ty as usize] {
                    self.remove(x, ty, s);
                }
            }
        }
    }

    /// The seats of the side of colour `c`.
    fn side_seats(&self, c: usize) -> SeatSet {
        match self.rules.mode {
            Mode::Teams => SeatSet(0b0101 << (c & 1)),
            _ => SeatSet(1 << self.seat_of(c)),
        }
    }

    /// The seats that share a draw: the seats in the game in free-for-all,
    /// everybody otherwise (§6.4.2).
    fn draw_seats(&self) -> SeatSet {
        match self.rules.mode {
            Mode::FreeForAll => SeatSet(self.st.in_game),
            Mode::Teams => SeatSet(0b1111),
            Mode::Duel => SeatSet(0b11),
        }
    }

    /// Whether the draw counter has reached the limit of §6.5.
    #[inline(always)]
    pub(crate) fn counter_limit_reached(&self) -> bool {
        let r = self.rules.draw_rounds;
        r != 0 && self.st.counter as u64 >= r as u64 * self.st.in_game.count_ones() as u64
    }

    /// The end of the game by rules that depend on the position alone.
    pub(crate) fn game_outcome(&self) -> Option<Outcome> {
        if self.one_side(self.st.in_game) {
            let c = self.st.in_game.trailing_zeros() as usize & 3;
            return Some(Outcome::win(self.side_seats(c), "elimination"));
        }
        if self.counter_limit_reached() {
            return Some(Outcome::draw(self.draw_seats(), "rounds"));
        }
        None
    }

    /// §6.6: the third occurrence of the same board, colour to move and
    /// colours in the game.
    pub(crate) fn repetition(&self, history: &[u64]) -> Option<Outcome> {
        if !self.rules.repetition_draw {
            return None;
        }
        let seen = history.iter().filter(|&&k| k == self.st.key).count();
        (seen >= 2).then(|| Outcome::draw(self.draw_seats(), "repetition"))
    }
}

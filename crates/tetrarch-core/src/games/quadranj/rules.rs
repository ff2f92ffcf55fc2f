//! The end of an action and of a turn (§6.1–6.5), finished positions (§7.12)
//! and the repetition rules (§6.6, §6.7).

use super::board::{Sq, NO_SQ};
use super::cell::{self, EMPTY, T_GUARD, T_PILOT, T_ROYAL};
use super::{keys, reason, Burglar, Quadranj};
use crate::bitboard::Bb128;
use crate::game::{Outcome, SeatSet};

impl Quadranj {
    pub(crate) fn set_win(&mut self, seat: usize, why: u8) {
        self.st.res = 1;
        self.st.res_seats = 1 << seat;
        self.st.res_reason = why;
    }

    /// §6.8: the highest tally among the seats in the game wins; a shared
    /// highest tally is a draw of every seat in the game.
    pub(crate) fn captures_decide(&self) -> (u8, u8) {
        let best = (0..self.geo.seats).filter(|&s| self.in_game(s)).map(|s| self.st.tally[s]).max().unwrap_or(0);
        let top: u8 = (0..self.geo.seats).filter(|&s| self.in_game(s) && self.st.tally[s] == best).fold(0, |m, s| m | 1 << s);
        if top.count_ones() == 1 {
            (1, top)
        } else {
            (2, self.st.in_game)
        }
    }

    pub(crate) fn set_captures_decide(&mut self, why: u8) {
        let (r, s) = self.captures_decide();
        self.st.res = r;
        self.st.res_seats = s;
        self.st.res_reason = why;
    }

    /// §2.7, §3.5: a lone pilot of the mover standing in its own Keep
    /// reveals itself (and, if the burglar was unknown, becomes known).
    fn reveal(&mut self, me: usize) {
        let keep = self.geo.keep[me];
        match self.st.burglar[me] {
            Burglar::Unknown => {
                if let Some(s) = (self.st.pilots & self.st.own[me] & keep).lsb() {
                    self.st.burglar[me] = Burglar::Known { sq: s as u8, level: 0, revealed: true };
                }
            }
            Burglar::Known { sq, level: 0, revealed: false } if keep.has(sq as Sq) => {
                self.st.burglar[me] = Burglar::Known { sq, level: 0, revealed: true };
            }
            _ => {}
        }
    }

    /// §6.1: a seat whose royal, or burglar as a lone pilot, is on its home.
    pub(crate) fn home_winner(&self) -> Option<(usize, u8)> {
        for s in 0..self.geo.seats {
            if !self.in_game(s) {
                continue;
            }
            let home = self.geo.home[s];
            if self.st.royal[s] == home {
                return Some((s, reason::HOME));
            }
            let c = self.st.cell[home as Sq];
            if c == cell::unit(s, T_PILOT) {
                if let Burglar::Known { sq, level: 0, .. } = self.st.burglar[s] {
                    if sq == home {
                        return Some((s, reason::BURGLAR));
                    }
                }
            }
        }
        None
    }

    /// After every action: reveal, home arrival, then the second-action check
    /// (§6.3) or the end of the turn (§6.4).
    pub(crate) fn after_action(&mut self, me: usize, first: bool, marks: Bb128) {
        self.reveal(me);
        if let Some((w, why)) = self.home_winner() {
            self.set_win(w, why);
            if first {
                self.st.index = 1;
                self.st.marks = marks;
            } else {
                self.pass_turn(me);
            }
            return;
        }
        if first {
            self.st.index = 1;
            self.st.marks = marks;
            if !self.has_any_action() {
                if self.geo.seats == 2 {
                    self.set_win(1 - me, reason::NOMOVE);
                } else {
                    self.go_out(me);
                    self.end_of_turn(me, false);
                }
            }
        } else {
            self.end_of_turn(me, true);
        }
    }

    /// §6.4 steps 1–5 for seat `p`'s turn (`both`: p made both actions).
    pub(crate) fn end_of_turn(&mut self, p: usize, both: bool) {
        if both {
            self.custodian(p);
        }
        if self.geo.seats == 2 {
            let o = 1 - p;
            if self.royal_immobile(o) {
                self.set_win(p, reason::IMMOBILISED);
            } else if self.royal_immobile(p) {
                self.set_win(o, reason::IMMOBILISED);
            }
        } else {
            let mut outs = 0u8;
            for s in 0..4 {
                if s != p && self.in_game(s) && self.royal_immobile(s) {
                    outs |= 1 << s;
                }
            }
            for s in 0..4 {
                if outs >> s & 1 != 0 {
                    self.go_out(s);
                }
            }
            if outs == 0 && both && self.in_game(p) && self.royal_immobile(p) {
                self.go_out(p);
            }
            if self.st.in_game.count_ones() == 1 {
                self.set_win(self.st.in_game.trailing_zeros() as usize, reason::ELIMINATION);
            }
        }
        if self.st.res == 0 && self.st.quiet >= 50 * self.st.in_game.count_ones() {
            self.set_captures_decide(reason::ROUNDS);
        }
        self.pass_turn(p);
        if self.history_rules && self.st.res == 0 && self.in_game(p) {
            self.record_arrangement(p);
        }
    }

    /// §6.4 step 5: the next seat in the game after `p` is to move.
    fn pass_turn(&mut self, p: usize) {
        let n = self.geo.seats;
        let mut next = p;
        for i in 1..=n {
            let s = (p + i) % n;
            if self.in_game(s) {
                next = s;
                break;
            }
        }
        self.st.key ^= keys::side(self.st.to_move as usize) ^ keys::side(next);
        self.st.to_move = next as u8;
        self.st.index = 0;
        self.st.marks = Bb128::EMPTY;
        self.st.turn += 1;
    }

    /// Going out (`quadranj4`, §6.4): every unit of the seat leaves, empty
    /// blockers stay, its Keep becomes inactive, it has no burglar.
    pub(crate) fn go_out(&mut self, s: usize) {
        for sq in self.st.own[s] {
            self.set(sq, EMPTY);
        }
        self.st.in_game &= !(1 << s);
        self.st.burglar[s] = Burglar::None;
        self.st.quiet = 0;
    }

    /// §6.2: the custodian captures by `p`, all found on one board.
    pub(crate) fn custodian(&mut self, p: usize) {
        let caps = self.custodian_targets(p);
        for u in caps {
            let code = self.st.cell[u];
            let o = cell::owner(code);
            self.st.tally[p] += cell::value2(code);
            if let Burglar::Known { sq, .. } = self.st.burglar[o] {
                if sq as Sq == u {
                    self.st.burglar[o] = Burglar::None;
                }
            }
            self.set(u, EMPTY);
            self.st.quiet = 0;
        }
    }

    /// §6.2 on the current board: the units `p` would capture if its turn
    /// ended now (what [`Quadranj::custodian`] removes at the end of `p`'s
    /// turn; the board's pending captures, `view`).
    #[inline(always)]
    pub(crate) fn custodian_targets(&self, p: usize) -> Bb128 {
        let g = self.geo;
        let mine = self.st.own[p];
        let targets = self.st.occ & !self.st.walls & !mine & g.bracketed(mine);
        let mut caps = Bb128::EMPTY;
        for u in targets {
            let code = self.st.cell[u];
            if cell::kind(code) == T_ROYAL {
                continue;
            }
            let st = &g.step[u];
            let has = |d: usize| st[d] != NO_SQ && mine.has(st[d] as Sq);
            debug_assert!((has(0) && has(2)) || (has(1) && has(3)));
            let sum: u32 = (g.nbr8[u] & mine).into_iter().map(|v| cell::value2(self.st.cell[v])).sum();
            if sum >= 2 * cell::value2(code) {
                caps.set(u);
            }
        }
        caps
    }

    /// §6.4 step 2: the royal of `s` has no slide, swap or charge with its
    /// seat to move and no unit marked (a charge needs an empty neighbour,
    /// which already allows a slide).
    pub(crate) fn royal_immobile(&self, s: usize) -> bool {
        let r = self.st.royal[s];
        r != NO_SQ && self.royal_exits(s, r as Sq) == 0 && !self.royal_can_swap(s, r as Sq)
    }

    /// The orthogonal neighbours of the royal of `s` on `r` that it could
    /// slide onto (empty, or an enemy lone pilot).
    pub(crate) fn royal_exits(&self, s: usize, r: Sq) -> u32 {
        let st = &self.st;
        let enemy_p = st.pilots & !st.own[s];
        (self.geo.nbr4[r] & (!st.occ | enemy_p) & self.geo.all).count()
    }

    /// Whether the royal of `s` on `r` has a unit of its seat to swap with
    /// (§5.10), marks aside.
    pub(crate) fn royal_can_swap(&self, s: usize, r: Sq) -> bool {
        let g = self.geo;
        let st = &self.st;
        let active = self.active_keeps();
        (g.nbr8[r] & st.own[s]).into_iter().any(|p| match cell::kind(st.cell[p]) {
            T_GUARD => !(active & !g.keep[s]).has(r),
            T_PILOT => !active.has(r) || (g.keep[s].has(r) && self.lone_is_burglar(s, p)),
            3 => !active.has(r),
            _ => false,
        })
    }

    /// §7.12: the result of a parsed position, in the spec's precedence.
    pub(crate) fn compute_static_result(&mut self) {
        self.st.res = 0;
        if let Some((w, why)) = self.home_winner() {
            return self.set_win(w, why);
        }
        let me = self.st.to_move as usize;
        if self.geo.seats == 4 && self.st.in_game.count_ones() == 1 {
            return self.set_win(self.st.in_game.trailing_zeros() as usize, reason::ELIMINATION);
        }
        if self.geo.seats == 2 && self.st.index == 0 {
            if self.royal_immobile(me) {
                return self.set_win(1 - me, reason::IMMOBILISED);
            }
            if self.royal_immobile(1 - me) {
                return self.set_win(me, reason::IMMOBILISED);
            }
        }
        if self.st.index == 0 && self.st.quiet >= 50 * self.st.in_game.count_ones() {
            return self.set_captures_decide(reason::ROUNDS);
        }
        if self.geo.seats == 2 && !self.has_any_action() {
            self.set_win(1 - me, reason::NOMOVE);
        }
    }

    /// A seat's arrangement (§6.7): its units' squares, kinds and heights.
    pub(crate) fn arrangement(&self, s: usize) -> u64 {
        let mut k = 0x9E37_79B9_7F4A_7C15u64;
        for sq in self.st.own[s] {
            k ^= keys::CELL[sq * 80 + self.st.cell[sq] as usize];
        }
        k
    }
}

/// One recording of §6.7: a seat's arrangement at the end of its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ArrRecord {
    seat: u8,
    /// Recorded at no earlier turn end of the seat.
    new: bool,
    arr: u64,
}

impl Quadranj {
    /// §6.7 after seat `x`'s turn (the end-of-turn procedure done, the game
    /// not over, `x` still in it): records `x`'s arrangement, and if `x` is
    /// now repeating, ends the game or puts `x` out. The records of lines
    /// taken back are overwritten (`st.arr_len` says which are valid), so
    /// after warming up this allocates nothing.
    fn record_arrangement(&mut self, x: usize) {
        let arr = self.arrangement(x);
        let n = self.st.arr_len as usize;
        self.arrangements.truncate(n);
        let recs = &self.arrangements[..];
        let new = !recs.iter().any(|r| r.seat as usize == x && r.arr == arr);
        // Walking back to x's most recent new arrangement (that one
        // included): how often `arr` was recorded, and where last.
        let mut count = 1;
        let mut prev = None;
        if !new {
            for (i, r) in recs.iter().enumerate().rev() {
                if r.seat as usize != x {
                    continue;
                }
                if r.arr == arr {
                    count += 1;
                    prev.get_or_insert(i);
                }
                if r.new {
                    break;
                }
            }
        }
        self.arrangements.push(ArrRecord { seat: x as u8, new, arr });
        self.st.arr_len += 1;
        let Some(prev) = prev.filter(|_| count >= 3) else {
            return;
        };
        // Every other seat in the game recorded nothing new since then?
        let others_repeat =
            self.arrangements[prev + 1..n].iter().all(|r| r.seat as usize == x || !r.new || !self.in_game(r.seat as usize));
        if others_repeat {
            self.set_captures_decide(reason::REPETITION);
        } else if self.geo.seats == 2 {
            self.set_win(1 - x, reason::ARRANGEMENT);
        } else {
            self.go_out(x);
            if self.st.in_game.count_ones() == 1 {
                self.set_win(self.st.in_game.trailing_zeros() as usize, reason::ELIMINATION);
            }
        }
    }
}

pub(crate) fn decide(p: &Quadranj, why: &'static str) -> Outcome {
    let (r, s) = p.captures_decide();
    if r == 1 {
        Outcome::win(SeatSet(s), why)
    } else {
        Outcome::draw(SeatSet(s), why)
    }
}

/// §6.6 on the keys of the earlier turn boundaries (§6.7 is applied by
/// `make`, [`Quadranj::record_arrangement`], before this is asked).
pub(crate) fn history_outcome(p: &Quadranj, history: &[u64]) -> Option<Outcome> {
    if p.st.res != 0 || history.is_empty() {
        return None;
    }
    repetition(p, history, crate::game::Rules::key(p))
}

/// Provisional window (§6.6): the current key occurs three times since the
/// most recent new boundary (that one included).
pub(crate) fn repetition(p: &Quadranj, history: &[u64], key: u64) -> Option<Outcome> {
    let cur = key >> 16;
    let len = history.len() + 1;
    let at = |j: usize| history.get(j).map_or(cur, |k| k >> 16);
    let last_new = (0..len).rev().find(|&j| !(0..j).any(|i| at(i) == at(j))).unwrap_or(0);
    let n = (last_new..len).filter(|&j| at(j) == cur).count();
    (n >= 3).then(|| decide(p, "repetition"))
}

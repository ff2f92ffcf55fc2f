//! The end of an action and of a turn (§6.1–6.5), finished positions (§7.12)
//! and the repetition rules (§6.6, §6.7).

use super::board::{Sq, NO_SQ};
use super::cell::{self, EMPTY, T_GUARD, T_PILOT, T_ROYAL};
use super::{keys, reason, Burglar, Quadranj};
use crate::bitboard::Bb128;
use crate::game::{Outcome, SeatSet};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

impl Quadranj {
    fn set_win(&mut self, seat: usize, why: u8) {
        self.st.res = 1;
        self.st.res_seats = 1 << seat;
        self.st.res_reason = why;
    }

    /// §6.8: the highest tally among the seats in the game wins; a shared
    /// highest tally is a draw of every seat in the game.
    pub(crate) fn captures_decide(&self) -> (u8, u8) {
        let best = (0..self.geo.seats).filter(|&s| self.in_game(s)).map(|s| self.st.tally[s]).max().unwrap_or(0);
        let top: u8 = (0..self.geo.seats)
            .filter(|&s| self.in_game(s) && self.st.tally[s] == best)
            .fold(0, |m, s| m | 1 << s);
        if top.count_ones() == 1 {
            (1, top)
        } else {
            (2, self.st.in_game)
        }
    }

    fn set_captures_decide(&mut self, why: u8) {
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

    /// §6.4 step 2: the royal of `s` has no slide, swap or charge with its
    /// seat to move and no unit marked (a charge needs an empty neighbour,
    /// which already allows a slide).
    pub(crate) fn royal_immobile(&self, s: usize) -> bool {
        let r = self.st.royal[s];
        if r == NO_SQ {
            return false;
        }
        let r = r as Sq;
        let g = self.geo;
        let st = &self.st;
        let enemy_p = st.pilots & !st.own[s];
        if (g.nbr4[r] & (!st.occ | enemy_p) & g.all).any() {
            return false;
        }
        let active = self.active_keeps();
        for p in g.nbr8[r] & st.own[s] {
            let c = st.cell[p];
            let ok = match cell::kind(c) {
                T_GUARD => !(active & !g.keep[s]).has(r),
                T_PILOT => !active.has(r) || (g.keep[s].has(r) && self.lone_is_burglar(s, p)),
                3 => !active.has(r),
                _ => false,
            };
            if ok {
                return false;
            }
        }
        true
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

/// What §6.7 needs of a turn boundary, remembered by its key.
#[derive(Clone, Copy)]
struct Boundary {
    to_move: u8,
    in_game: u8,
    arr: [u64; 4],
}

/// A memo from a position key to its arrangements. The game model hands
/// `history_outcome` only the keys of the earlier boundaries, so every
/// position that `history_outcome` sees is remembered here (a pure function
/// of the board, so the memo is only a cache); boundaries never seen (inside
/// a search) leave §6.7 undecided.
fn memo() -> &'static Mutex<HashMap<u64, Boundary>> {
    static M: OnceLock<Mutex<HashMap<u64, Boundary>>> = OnceLock::new();
    M.get_or_init(|| Mutex::new(HashMap::new()))
}

fn boundary(p: &Quadranj) -> Boundary {
    let mut arr = [0u64; 4];
    for (s, a) in arr.iter_mut().enumerate().take(p.geo.seats) {
        *a = p.arrangement(s);
    }
    Boundary { to_move: p.st.to_move, in_game: p.st.in_game, arr }
}

fn decide(p: &Quadranj, why: &'static str) -> Outcome {
    let (r, s) = p.captures_decide();
    if r == 1 {
        Outcome::win(SeatSet(s), why)
    } else {
        Outcome::draw(SeatSet(s), why)
    }
}

/// §6.6 and §6.7 (6.7 first), on the keys of the earlier turn boundaries.
pub(crate) fn history_outcome(p: &Quadranj, history: &[u64]) -> Option<Outcome> {
    let cur = boundary(p);
    let key = crate::game::Game::key(p);
    let known: Option<Vec<Boundary>> = {
        let mut m = memo().lock().unwrap_or_else(|e| e.into_inner());
        if m.len() > 1 << 20 {
            m.clear();
        }
        m.insert(key, cur);
        history.iter().map(|k| m.get(k).copied()).collect()
    };
    if p.st.res != 0 || history.is_empty() {
        return None;
    }
    if let Some(mut bs) = known {
        bs.push(cur);
        if let Some(o) = arrangement_repetition(p, &bs) {
            return Some(o);
        }
    }
    repetition(p, history, key)
}

/// Provisional window (§6.6): the current key occurs three times since the
/// most recent new boundary (that one included).
pub(crate) fn repetition(p: &Quadranj, history: &[u64], key: u64) -> Option<Outcome> {
    let mut seq: Vec<u64> = history.iter().map(|k| k >> 16).collect();
    seq.push(key >> 16);
    let mut last_new = 0;
    for j in 0..seq.len() {
        if !seq[..j].contains(&seq[j]) {
            last_new = j;
        }
    }
    let cur = key >> 16;
    let n = seq[last_new..].iter().filter(|&&k| k == cur).count();
    (n >= 3).then(|| decide(p, "repetition"))
}

/// Provisional window (§6.7) on the boundaries `bs` (the last is the
/// current one). `quadranj4`'s "X goes out" cannot change the position
/// through this hook and is left undecided (see docs/quadranj.md).
fn arrangement_repetition(p: &Quadranj, bs: &[Boundary]) -> Option<Outcome> {
    let m = bs.len() - 1;
    // Turn t (1..=m) was made by the seat to move at boundary t − 1.
    let rec = |t: usize| -> Option<(usize, u64)> {
        let x = bs[t - 1].to_move as usize;
        (bs[t].in_game >> x & 1 != 0).then(|| (x, bs[t].arr[x]))
    };
    let is_new = |t: usize| -> bool {
        let (x, a) = rec(t).expect("recorded");
        !(1..t).any(|u| rec(u) == Some((x, a)))
    };
    let (x, a) = rec(m)?;
    let recs: Vec<usize> = (1..=m).filter(|&t| rec(t).map(|r| r.0) == Some(x)).collect();
    let last_new = *recs.iter().rev().find(|&&t| is_new(t))?;
    let count = recs.iter().filter(|&&t| t >= last_new && rec(t) == Some((x, a))).count();
    if count < 3 {
        return None;
    }
    let prev = *recs.iter().rev().find(|&&t| t < m && rec(t) == Some((x, a)))?;
    let all_repeating = (0..p.geo.seats).filter(|&y| y != x && p.in_game(y)).all(|y| {
        !(prev + 1..=m).any(|t| rec(t).map(|r| r.0) == Some(y) && is_new(t))
    });
    if all_repeating {
        return Some(decide(p, "repetition"));
    }
    if p.geo.seats == 2 {
        return Some(Outcome::win(SeatSet(1 << (1 - x)), "arrangement"));
    }
    None
}

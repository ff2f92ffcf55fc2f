//! A second, deliberately simple rules implementation for tests: a mailbox,
//! square-by-square walks, trial moves and the spec's status loop written as
//! directly as the text reads. The fast generator must agree with it.

use super::board::{exists_xy, sq};
use super::piece::*;
use super::FourChess;
use std::collections::BTreeMap;

type Xy = (i32, i32);

#[derive(Clone, Debug, PartialEq)]
pub struct Naive {
    pub men: BTreeMap<Xy, (usize, usize)>,
    pub side: usize,
    pub inert: u8,
    pub leap_own: bool,
}

const FWD: [Xy; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

fn back_line(seat: usize, (x, y): Xy) -> bool {
    match seat {
        0 => y == 0 && (3..=10).contains(&x),
        1 => x == 0 && (3..=10).contains(&y),
        2 => y == 13 && (3..=10).contains(&x),
        _ => x == 13 && (3..=10).contains(&y),
    }
}

fn pawn_line(seat: usize, (x, y): Xy) -> bool {
    match seat {
        0 => y == 1 && (3..=10).contains(&x),
        1 => x == 1 && (3..=10).contains(&y),
        2 => y == 12 && (3..=10).contains(&x),
        _ => x == 12 && (3..=10).contains(&y),
    }
}

fn enemy(a: usize, b: usize) -> bool {
    a % 2 != b % 2
}

impl Naive {
    pub fn from(p: &FourChess) -> Naive {
        let mut men = BTreeMap::new();
        for y in 0..14 {
            for x in 0..14 {
                if exists_xy(x, y) {
                    if let Some(m) = p.piece_at(sq(x as usize, y as usize)) {
                        men.insert((x, y), m);
                    }
                }
            }
        }
        Naive { men, side: p.side(), inert: p.inert_mask(), leap_own: p.rules.leap_own_pawns }
    }

    fn dir(&self, seat: usize, ty: usize) -> Xy {
        let d = FWD[seat];
        if ty == RPAWN {
            (-d.0, -d.1)
        } else {
            d
        }
    }

    /// Squares a man on `at` attacks (§3.2).
    fn attacks(&self, at: Xy) -> Vec<Xy> {
        let (seat, ty) = self.men[&at];
        let mut out = vec![];
        let (x, y) = at;
        let walk = |dirs: &[Xy], slide: bool, out: &mut Vec<Xy>| {
            for &(dx, dy) in dirs {
                let (mut cx, mut cy) = (x + dx, y + dy);
                while exists_xy(cx, cy) {
                    out.push((cx, cy));
                    if !slide || self.men.contains_key(&(cx, cy)) {
                        break;
                    }
                    cx += dx;
                    cy += dy;
                }
            }
        };
        let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match ty {
            KING => {
                walk(&orth, false, &mut out);
                walk(&diag, false, &mut out);
            }
            KNIGHT => walk(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)], false, &mut out),
            ROOK => walk(&orth, true, &mut out),
            BISHOP => walk(&diag, true, &mut out),
            QUEEN => {
                walk(&orth, true, &mut out);
                walk(&diag, true, &mut out);
            }
            _ => {
                let (dx, dy) = self.dir(seat, ty);
                for side in [1, -1] {
                    let c = (x + dx + side * dy.abs(), y + dy + side * dx.abs());
                    if exists_xy(c.0, c.1) {
                        out.push(c);
                    }
                }
            }
        }
        out
    }

    fn king(&self, s: usize) -> Xy {
        *self.men.iter().find(|(_, &(seat, ty))| seat == s && ty == KING).unwrap().0
    }

    pub fn in_check(&self, s: usize, inert: u8) -> bool {
        let k = self.king(s);
        self.men
            .iter()
            .filter(|(_, &(seat, _))| enemy(seat, s) && inert >> seat & 1 == 0)
            .any(|(&at, _)| self.attacks(at).contains(&k))
    }

    fn pseudo(&self, s: usize, inert: u8) -> Vec<(Xy, Xy)> {
        let capturable =
            |n: &Naive, c: Xy| n.men.get(&c).is_some_and(|&(seat, ty)| enemy(seat, s) && inert >> seat & 1 == 0 && ty != KING);
        let mut out = vec![];
        for (&at, &(seat, ty)) in &self.men {
            if seat != s {
                continue;
            }
            if ty <= RPAWN {
                let (dx, dy) = self.dir(seat, ty);
                let one = (at.0 + dx, at.1 + dy);
                if exists_xy(one.0, one.1) {
                    match self.men.get(&one) {
                        None => out.push((at, one)),
                        Some(&(ps, pt)) if pt <= RPAWN && (ps == (s + 2) % 4 || (self.leap_own && ps == s)) => {
                            let two = (one.0 + dx, one.1 + dy);
                            if exists_xy(two.0, two.1) && !self.men.contains_key(&two) {
                                out.push((at, two));
                            }
                        }
                        _ => {}
                    }
                }
                for c in self.attacks(at) {
                    if capturable(self, c) {
                        out.push((at, c));
                    }
                }
            } else {
                for c in self.attacks(at) {
                    if !self.men.contains_key(&c) || capturable(self, c) {
                        out.push((at, c));
                    }
                }
            }
        }
        out
    }

    fn apply(&self, (from, to): (Xy, Xy)) -> Naive {
        let mut n = self.clone();
        let (seat, mut ty) = n.men.remove(&from).unwrap();
        if ty <= RPAWN {
            if back_line((seat + 1) % 4, to) || back_line((seat + 3) % 4, to) {
                ty = QUEEN;
            } else if ty == PAWN && back_line((seat + 2) % 4, to) {
                ty = RPAWN;
            } else if ty == RPAWN && pawn_line(seat, to) {
                ty = PAWN;
            }
        }
        n.men.insert(to, (seat, ty));
        n
    }

    // Read as the rule says it: not in check, and not leaving the guarded partner in check.
    #[allow(clippy::nonminimal_bool)]
    pub fn legal(&self, s: usize, inert: u8) -> Vec<(Xy, Xy)> {
        let p = (s + 2) % 4;
        let partner_guard = inert >> p & 1 == 0 && !self.in_check(p, inert);
        self.pseudo(s, inert)
            .into_iter()
            .filter(|&m| {
                let after = self.apply(m);
                !after.in_check(s, inert) && !(partner_guard && after.in_check(p, inert))
            })
            .collect()
    }

    fn mated(&self, s: usize, inert: u8) -> bool {
        self.in_check(s, inert) && self.legal(s, inert).is_empty()
    }

    /// Whether §5.8 rules 1–3 end the game (the clock is not modelled here).
    pub fn over(&self) -> bool {
        if self.inert & 5 == 5 || self.inert & 10 == 10 {
            return true;
        }
        let count = |f: &dyn Fn(usize, usize) -> bool| self.men.values().filter(|&&(s, t)| f(s, t)).count();
        if count(&|_, t| t == QUEEN || t == ROOK) == 0
            && count(&|s, t| s % 2 == 0 && (t == KNIGHT || t == BISHOP)) <= 1
            && count(&|s, t| s % 2 == 1 && (t == KNIGHT || t == BISHOP)) <= 1
        {
            return true;
        }
        let s = self.side;
        let p = (s + 2) % 4;
        self.inert >> s & 1 == 0
            && self.legal(s, self.inert).is_empty()
            && !self.in_check(s, self.inert)
            && (self.inert >> p & 1 != 0 || self.legal(p, self.inert).is_empty())
    }

    /// The legal turns as (from, to) pairs; `None` is the pass.
    pub fn turns(&self) -> Vec<Option<(Xy, Xy)>> {
        if self.over() {
            return vec![];
        }
        if self.inert >> self.side & 1 != 0 {
            return vec![None];
        }
        let l = self.legal(self.side, self.inert);
        if l.is_empty() {
            return vec![None];
        }
        l.into_iter().map(Some).collect()
    }

    /// Plays a turn and runs the status update exactly as §5.6 writes it.
    pub fn play(&self, t: Option<(Xy, Xy)>) -> Naive {
        let mut n = match t {
            Some(m) => self.apply(m),
            None => self.clone(),
        };
        let m = self.side;
        n.side = (m + 1) % 4;
        let order = [(m + 1) % 4, (m + 2) % 4, (m + 3) % 4, m];
        let mut flipped = 0u8;
        loop {
            let mut changed = false;
            for s in order {
                if flipped >> s & 1 != 0 {
                    continue;
                }
                if n.mated(s, n.inert) != (n.inert >> s & 1 != 0) {
                    n.inert ^= 1 << s;
                    flipped |= 1 << s;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        n
    }
}

//! A second, deliberately simple rules implementation for tests: a map of
//! (file, rank) to unit, the rules written as directly as §2–§6 read, its
//! own token and position writers. Every legal action is returned with the
//! position (and result) it leads to.

use super::cell;
use super::{Burglar, Quadranj};
use crate::game::{Notation, Rules};
use std::collections::{BTreeMap, BTreeSet};

type P = (i32, i32); // (file, rank), 0-based

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum U {
    Royal(usize),
    Guard(usize),
    Pilot(usize),
    Col(usize, usize),
    Wall,
}

impl U {
    fn owner(self) -> Option<usize> {
        match self {
            U::Royal(s) | U::Guard(s) | U::Pilot(s) | U::Col(s, _) => Some(s),
            U::Wall => None,
        }
    }
    /// Value in half units.
    fn v2(self) -> u32 {
        match self {
            U::Royal(_) => 8,
            U::Guard(_) => 4,
            U::Pilot(_) => 1,
            U::Col(_, h) => 2 * h as u32,
            U::Wall => 0,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bg {
    None,
    Unknown,
    At(P, usize, bool),
}

#[derive(Clone, Debug)]
pub struct Naive {
    n: i32,
    seats: usize,
    letters: Vec<char>,
    cells: BTreeMap<P, U>,
    to_move: usize,
    index: u8,
    marks: BTreeSet<P>,
    in_game: Vec<bool>,
    tally: Vec<u32>,
    bg: Vec<Bg>,
    quiet: u32,
    turn: u32,
    before: bool,
    result: Option<String>,
}

const DIRS: [P; 8] = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

fn add(a: P, d: P) -> P {
    (a.0 + d.0, a.1 + d.1)
}

fn adjacent(a: P, b: P) -> bool {
    a != b && (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1
}

impl Naive {
    pub fn from(p: &Quadranj) -> Naive {
        let g = p.geo;
        let n = g.n as i32;
        let mut cells = BTreeMap::new();
        for s in g.all {
            let c = p.code(s);
            let at = ((s % g.n) as i32, (s / g.n) as i32);
            let u = match c {
                0 => continue,
                1 => U::Wall,
                _ => {
                    let o = cell::owner(c);
                    match cell::kind(c) {
                        0 => U::Royal(o),
                        1 => U::Guard(o),
                        2 => U::Pilot(o),
                        _ => U::Col(o, cell::height(c)),
                    }
                }
            };
            cells.insert(at, u);
        }
        let sp = |s: usize| ((s % g.n) as i32, (s / g.n) as i32);
        Naive {
            n,
            seats: g.seats,
            letters: g.letters[..g.seats].iter().map(|&c| c as char).collect(),
            cells,
            to_move: p.st.to_move as usize,
            index: p.st.index,
            marks: p.st.marks.into_iter().map(sp).collect(),
            in_game: (0..g.seats).map(|s| p.in_game(s)).collect(),
            tally: p.st.tally[..g.seats].to_vec(),
            bg: (0..g.seats)
                .map(|s| match p.burglar(s) {
                    Burglar::None => Bg::None,
                    Burglar::Unknown => Bg::Unknown,
                    Burglar::Known { sq, level, revealed } => Bg::At(sp(sq as usize), level as usize, revealed),
                })
                .collect(),
            quiet: p.st.quiet,
            turn: p.st.turn,
            before: p.charge_before,
            result: p.outcome().map(|o| o.to_string()),
        }
    }

    fn on(&self, a: P) -> bool {
        a.0 >= 0 && a.1 >= 0 && a.0 < self.n && a.1 < self.n
    }
    fn name(&self, a: P) -> String {
        format!("{}{}", (b'a' + a.0 as u8) as char, a.1 + 1)
    }
    fn home(&self, s: usize) -> P {
        let m = self.n - 1;
        if self.seats == 2 {
            [(m, m), (0, 0)][s]
        } else {
            [(m, 0), (0, 0), (0, m), (m, m)][s]
        }
    }
    fn in_keep(&self, s: usize, a: P) -> bool {
        let h = self.home(s);
        (a.0 - h.0).abs() <= 1 && (a.1 - h.1).abs() <= 1
    }
    /// The seat whose active Keep holds `a`.
    fn keep_at(&self, a: P) -> Option<usize> {
        (0..self.seats).find(|&s| self.in_game[s] && self.in_keep(s, a))
    }
    /// §2.6 for a unit kind of `seat` on `a`.
    fn may_stand(&self, u: U, a: P, burglar: bool) -> bool {
        match (u, self.keep_at(a)) {
            (_, None) | (U::Royal(_), _) => true,
            (U::Guard(s), Some(k)) => k == s,
            (U::Pilot(s), Some(k)) => k == s && burglar,
            _ => false,
        }
    }
    fn empty(&self, a: P) -> bool {
        self.on(a) && !self.cells.contains_key(&a)
    }
    fn enemy_pilot(&self, a: P, me: usize) -> bool {
        matches!(self.cells.get(&a), Some(U::Pilot(s)) if *s != me)
    }
    fn landable(&self, a: P, me: usize) -> bool {
        self.empty(a) || self.enemy_pilot(a, me)
    }
    fn landing(&self, a: P, me: usize) -> String {
        if self.enemy_pilot(a, me) {
            format!("x{}", self.name(a))
        } else {
            self.name(a)
        }
    }
    /// Whether the pilot at (a, level) (level 0 = lone) may count as the burglar.
    fn is_burglar(&self, s: usize, a: P, level: usize) -> bool {
        match self.bg[s] {
            Bg::Unknown => true,
            Bg::At(q, l, _) => q == a && l == level,
            Bg::None => false,
        }
    }

    pub fn write(&self) -> String {
        let mut o = String::new();
        for r in (0..self.n).rev() {
            let mut run = 0;
            for f in 0..self.n {
                match self.cells.get(&(f, r)) {
                    None => run += 1,
                    Some(u) => {
                        if run > 0 {
                            o += &run.to_string();
                            run = 0;
                        }
                        let l = |s: usize| self.letters[s].to_string();
                        o += &match *u {
                            U::Wall => "X".to_string(),
                            U::Royal(s) => l(s) + "K",
                            U::Guard(s) => l(s) + "G",
                            U::Pilot(s) => l(s) + "P",
                            U::Col(s, 1) => l(s) + "B",
                            U::Col(s, h) => format!("{}{}B", l(s), h),
                        };
                    }
                }
            }
            if run > 0 {
                o += &run.to_string();
            }
            if r > 0 {
                o.push('/');
            }
        }
        let marks: Vec<P> = {
            let mut m: Vec<P> = self.marks.iter().copied().collect();
            m.sort_by_key(|&(f, r)| (r, f));
            m
        };
        let marks =
            if self.index == 0 { "-".to_string() } else { marks.iter().map(|&a| self.name(a)).collect::<Vec<_>>().join(",") };
        let ig: String = (0..self.seats).filter(|&s| self.in_game[s]).map(|s| self.letters[s]).collect();
        let tal: Vec<String> =
            self.tally.iter().map(|&t| if t % 2 == 1 { format!("{}.5", t / 2) } else { format!("{}", t / 2) }).collect();
        let bg: Vec<String> = self
            .bg
            .iter()
            .map(|b| match *b {
                Bg::None => "-".into(),
                Bg::Unknown => "?".into(),
                Bg::At(a, l, rv) => {
                    format!(
                        "{}{}{}",
                        self.name(a),
                        if l > 0 { format!(":{l}") } else { String::new() },
                        if rv { "!" } else { "" }
                    )
                }
            })
            .collect();
        format!(
            "{o} {} {} {marks} {ig} {} {} {} {}",
            self.letters[self.to_move],
            self.index,
            tal.join("/"),
            bg.join("/"),
            self.quiet,
            self.turn
        )
    }

    // ---- actions ------------------------------------------------------------

    /// Every legal action: (token, position after, result after).
    pub fn actions(&self) -> Vec<(String, String)> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut out: Vec<(String, String)> = self
            .moves()
            .into_iter()
            .map(|(t, mut q)| {
                q.finish(self);
                let s = format!("{} {}", q.write(), q.result.clone().unwrap_or_default());
                (t, s)
            })
            .collect();
        out.sort();
        out
    }

    fn fresh(&self, a: P) -> bool {
        !self.marks.contains(&a)
    }

    /// Legal actions as (token, position after the action itself, with
    /// `marks` set to the action's marks but no end-of-action processing).
    fn moves(&self) -> Vec<(String, Naive)> {
        let me = self.to_move;
        let mut out = Vec::new();
        let units: Vec<(P, U)> = self.cells.iter().map(|(&a, &u)| (a, u)).collect();
        for &(a, u) in &units {
            if u.owner() != Some(me) || !self.fresh(a) {
                continue;
            }
            match u {
                U::Royal(_) | U::Guard(_) => {
                    for d in &DIRS[..4] {
                        let mut t = add(a, *d);
                        while self.on(t) && self.may_stand(u, t, false) {
                            if self.empty(t) {
                                out.push(self.simple(a, t, "", u));
                            } else {
                                if self.enemy_pilot(t, me) {
                                    out.push(self.simple(a, t, "", u));
                                }
                                break;
                            }
                            t = add(t, *d);
                        }
                    }
                    if let U::Royal(_) = u {
                        self.royal_specials(a, &mut out);
                    }
                }
                U::Col(_, h) => {
                    for d in DIRS {
                        let t = add(a, d);
                        if self.landable(t, me) && self.keep_at(t).is_none() {
                            out.push(self.simple(a, t, "", u));
                        }
                    }
                    if h == 1 {
                        let bur = self.is_burglar(me, a, 1);
                        for d in DIRS {
                            let t = add(a, d);
                            if self.landable(t, me) && self.may_stand(U::Pilot(me), t, bur) {
                                let mut q = self.clone();
                                q.capture(t);
                                q.cells.insert(a, U::Wall);
                                q.cells.insert(t, U::Pilot(me));
                                q.move_bg(me, a, 1, t, 0);
                                q.marks = [t].into();
                                out.push((format!("{}^{}", self.name(a), self.landing(t, me)), q));
                            }
                        }
                    } else {
                        self.unstack(a, h, &mut vec![(a, h)], &mut out);
                    }
                }
                U::Pilot(_) => {
                    for d in &DIRS[..4] {
                        let t = add(a, *d);
                        if self.landable(t, me) && self.may_stand(u, t, self.is_burglar(me, a, 0)) {
                            out.push(self.simple(a, t, "", u));
                        }
                    }
                    self.climb_in(a, &mut out);
                }
                U::Wall => {}
            }
        }
        self.stackings(&mut out);
        out
    }

    /// A unit moving from `a` to `t` (capturing there).
    fn simple(&self, a: P, t: P, sep: &str, u: U) -> (String, Naive) {
        let mut q = self.clone();
        let tok = format!("{}{}{}", self.name(a), sep, self.landing(t, self.to_move));
        q.capture(t);
        q.cells.remove(&a);
        q.cells.insert(t, u);
        if let Bg::At(p, l, r) = q.bg[self.to_move] {
            if p == a {
                q.bg[self.to_move] = Bg::At(t, l, r);
            }
        }
        q.marks = [t].into();
        (tok, q)
    }

    fn capture(&mut self, t: P) -> bool {
        let me = self.to_move;
        if let Some(U::Pilot(s)) = self.cells.get(&t).copied() {
            if s != me {
                self.cells.remove(&t);
                self.tally[me] += 1;
                if self.bg[s] != Bg::Unknown && matches!(self.bg[s], Bg::At(p, 0, _) if p == t) {
                    self.bg[s] = Bg::None;
                }
                self.quiet = u32::MAX; // marks "a capture happened" until finish
                return true;
            }
        }
        false
    }

    fn move_bg(&mut self, s: usize, a: P, la: usize, t: P, lt: usize) {
        if let Bg::At(p, l, r) = self.bg[s] {
            if p == a && l == la {
                self.bg[s] = Bg::At(t, lt, r);
            }
        }
    }

    fn royal_specials(&self, a: P, out: &mut Vec<(String, Naive)>) {
        let me = self.to_move;
        for d in DIRS {
            let t = add(a, d);
            let Some(&u) = self.cells.get(&t) else { continue };
            if u.owner() != Some(me) || !self.fresh(t) {
                continue;
            }
            let ok = match u {
                U::Guard(_) => self.may_stand(u, a, false),
                U::Col(_, 1) => self.may_stand(u, a, false),
                U::Pilot(_) => self.may_stand(u, a, self.is_burglar(me, t, 0)),
                _ => false,
            };
            if ok {
                let mut q = self.clone();
                q.cells.insert(a, u);
                q.cells.insert(t, U::Royal(me));
                if let Bg::At(p, l, r) = q.bg[me] {
                    if p == t {
                        q.bg[me] = Bg::At(a, l, r);
                    }
                }
                q.marks = [a, t].into();
                out.push((format!("{}~{}", self.name(a), self.name(t)), q));
            }
        }
        for d in &DIRS[..4] {
            let first = add(a, *d);
            if !self.empty(first) {
                continue;
            }
            let mut t = first;
            while self.empty(t) {
                t = add(t, *d);
            }
            if !self.on(t) {
                continue;
            }
            let u = self.cells[&t];
            let ok = matches!(u, U::Guard(s) | U::Royal(s) | U::Col(s, 1) if s != me);
            if !ok {
                continue;
            }
            let q_sq = if self.before { (t.0 - d.0, t.1 - d.1) } else { add(t, *d) };
            if !self.before && !self.empty(q_sq) {
                continue;
            }
            let mut q = self.clone();
            q.cells.remove(&a);
            q.cells.remove(&t);
            let s = u.owner().unwrap();
            if self.may_stand(u, q_sq, false) {
                q.cells.insert(q_sq, u);
                if let Bg::At(p, l, r) = q.bg[s] {
                    if p == t {
                        q.bg[s] = Bg::At(q_sq, l, r);
                    }
                }
            } else {
                q.tally[me] += u.v2();
                q.quiet = u32::MAX;
                if matches!(q.bg[s], Bg::At(p, _, _) if p == t) {
                    q.bg[s] = Bg::None;
                }
            }
            q.cells.insert(t, U::Royal(me));
            q.marks = [t].into();
            out.push((format!("{}@{}", self.name(a), self.name(t)), q));
        }
    }

    fn climb_in(&self, a: P, out: &mut Vec<(String, Naive)>) {
        let me = self.to_move;
        // Breadth-first over empty blockers.
        let mut seen: BTreeSet<P> = BTreeSet::new();
        let mut todo: Vec<P> = DIRS.iter().map(|&d| add(a, d)).filter(|t| self.cells.get(t) == Some(&U::Wall)).collect();
        while let Some(e) = todo.pop() {
            if !seen.insert(e) {
                continue;
            }
            for d in DIRS {
                let t = add(e, d);
                if self.cells.get(&t) == Some(&U::Wall) && !seen.contains(&t) {
                    todo.push(t);
                }
            }
        }
        for &e in &seen {
            let mut base = self.clone();
            base.cells.remove(&a);
            base.cells.insert(e, U::Col(me, 1));
            base.move_bg(me, a, 0, e, 1);
            let tok = format!("{}:{}", self.name(a), self.name(e));
            let mut q = base.clone();
            q.marks = [e].into();
            out.push((tok.clone(), q));
            if !self.fresh(e) {
                continue;
            }
            for d in DIRS {
                let t = add(e, d);
                if base.landable(t, me) && base.keep_at(t).is_none() {
                    let (tk, mut q) = base.simple(e, t, "", U::Col(me, 1));
                    q.quiet = if base.enemy_pilot(t, me) { u32::MAX } else { self.quiet };
                    out.push((format!("{tok}{}", &tk[self.name(e).len()..]), q));
                }
            }
            let cols: Vec<P> =
                base.cells.iter().filter(|(&p, &u)| p != e && matches!(u, U::Col(s, _) if s == me)).map(|(&p, _)| p).collect();
            for l in cols {
                if base.reaches(e, l) {
                    let mut q = base.clone();
                    q.stack(l, &[e]);
                    q.marks = [l].into();
                    out.push((format!("{tok}+{}", self.name(l)), q));
                }
            }
        }
    }

    /// Whether the single on `c` may stack onto `l` (adjacent, or through an
    /// express lane of §5.9).
    fn reaches(&self, c: P, l: P) -> bool {
        if adjacent(c, l) {
            return true;
        }
        let Some(&U::Col(s, h)) = self.cells.get(&l) else { return false };
        if h < 2 || self.cells.get(&c) != Some(&U::Col(s, 1)) {
            return false;
        }
        for d in DIRS {
            let mut t = add(l, d);
            while self.cells.get(&t) == Some(&U::Col(s, h)) {
                if adjacent(c, t) {
                    return true;
                }
                t = add(t, d);
            }
        }
        false
    }

    fn stack(&mut self, l: P, cs: &[P]) {
        let me = self.to_move;
        let mut sorted = cs.to_vec();
        sorted.sort_by_key(|&(f, r)| (r, f));
        for c in sorted {
            let U::Col(_, hl) = self.cells[&l] else { panic!() };
            let U::Col(_, hc) = self.cells[&c] else { panic!() };
            if let Bg::At(p, lv, r) = self.bg[me] {
                if p == c {
                    self.bg[me] = Bg::At(l, lv + hl, r);
                }
            }
            self.cells.remove(&c);
            self.cells.insert(l, U::Col(me, hl + hc));
        }
    }

    fn stackings(&self, out: &mut Vec<(String, Naive)>) {
        let me = self.to_move;
        let cols: Vec<P> = self.cells.iter().filter(|(_, &u)| matches!(u, U::Col(s, _) if s == me)).map(|(&p, _)| p).collect();
        for &l in &cols {
            let mut cands: Vec<P> = cols.iter().copied().filter(|&c| c != l && self.fresh(c) && self.reaches(c, l)).collect();
            cands.sort_by_key(|&(f, r)| (r, f));
            for mask in 1u32..1 << cands.len() {
                let set: Vec<P> = (0..cands.len()).filter(|i| mask >> i & 1 != 0).map(|i| cands[i]).collect();
                let mut q = self.clone();
                q.stack(l, &set);
                q.marks = [l].into();
                let tok: String = set.iter().map(|&c| self.name(c)).collect::<String>() + "+" + &self.name(l);
                out.push((tok, q));
            }
        }
    }

    /// Unstacking chains (§5.12): `chain` holds (square, blockers there
    /// after the chain so far); the last entry is the group that may split.
    fn unstack(&self, x0: P, h0: usize, chain: &mut Vec<(P, usize)>, out: &mut Vec<(String, Naive)>) {
        let me = self.to_move;
        let (last, avail) = *chain.last().unwrap();
        for k in 1..avail {
            for d in DIRS {
                let t = add(last, d);
                if !self.landable(t, me) || self.keep_at(t).is_some() || chain.iter().any(|c| c.0 == t) {
                    continue;
                }
                let n = chain.len();
                chain[n - 1].1 = avail - k;
                chain.push((t, k));
                // Token and board.
                let mut tok = self.name(x0);
                let mut q = self.clone();
                q.cells.insert(x0, U::Col(me, h0));
                let mut prev_h = h0;
                for i in 1..chain.len() {
                    let (sq, _) = chain[i];
                    let kk = if i + 1 < chain.len() { chain[i].1 + chain[i + 1].1 } else { chain[i].1 };
                    let _ = kk;
                    // Count moved by link i: the blockers now on sq plus those moved on from it.
                    let moved: usize = chain[i..].iter().map(|c| c.1).sum();
                    tok += &format!("/{}{}", moved, self.landing(sq, me));
                    let from = chain[i - 1].0;
                    q.capture(sq);
                    if let Bg::At(p, lv, r) = q.bg[me] {
                        if p == from && lv > prev_h - moved {
                            q.bg[me] = Bg::At(sq, lv - (prev_h - moved), r);
                        }
                    }
                    prev_h = moved;
                }
                for &(sq, c) in chain.iter() {
                    q.cells.insert(sq, U::Col(me, c));
                }
                q.marks = chain.iter().map(|c| c.0).collect();
                out.push((tok.clone(), q.clone()));
                for i in 1..chain.len() {
                    let (xi, c) = chain[i];
                    if c != 1 {
                        continue;
                    }
                    let bur = q.is_burglar(me, xi, 1);
                    for e in DIRS {
                        let dst = add(xi, e);
                        if q.landable(dst, me) && q.may_stand(U::Pilot(me), dst, bur) {
                            let mut r = q.clone();
                            let t2 = format!("{tok}.{}^{}", self.name(xi), q.landing(dst, me));
                            r.capture(dst);
                            r.cells.insert(xi, U::Wall);
                            r.cells.insert(dst, U::Pilot(me));
                            r.move_bg(me, xi, 1, dst, 0);
                            r.marks.insert(dst);
                            out.push((t2, r));
                        }
                    }
                }
                if k >= 2 {
                    self.unstack(x0, h0, chain, out);
                }
                chain.pop();
                chain[n - 1].1 = avail;
            }
        }
    }

    // ---- after the action ---------------------------------------------------

    fn royal_stuck(&self, s: usize) -> bool {
        let Some((&a, _)) = self.cells.iter().find(|(_, &u)| u == U::Royal(s)) else { return false };
        for d in &DIRS[..4] {
            let t = add(a, *d);
            if self.empty(t) || self.enemy_pilot(t, s) {
                return false;
            }
        }
        for d in DIRS {
            let t = add(a, d);
            let ok = match self.cells.get(&t) {
                Some(&u @ U::Guard(o)) | Some(&u @ U::Col(o, 1)) if o == s => self.may_stand(u, a, false),
                Some(&u @ U::Pilot(o)) if o == s => self.may_stand(u, a, self.is_burglar(s, t, 0)),
                _ => false,
            };
            if ok {
                return false;
            }
        }
        true
    }

    fn decide(&mut self, why: &str) {
        let best = (0..self.seats).filter(|&s| self.in_game[s]).map(|s| self.tally[s]).max().unwrap();
        let top: Vec<usize> = (0..self.seats).filter(|&s| self.in_game[s] && self.tally[s] == best).collect();
        self.result = Some(if top.len() == 1 { format!("win {} {why}", top[0] + 1) } else { format!("draw {why}") });
    }

    fn go_out(&mut self, s: usize) {
        self.cells.retain(|_, u| u.owner() != Some(s));
        self.in_game[s] = false;
        self.bg[s] = Bg::None;
        self.quiet = 0;
    }

    fn pass(&mut self, p: usize) {
        let mut next = (p + 1) % self.seats;
        while !self.in_game[next] {
            next = (next + 1) % self.seats;
        }
        self.to_move = next;
        self.index = 0;
        self.marks.clear();
        self.turn += 1;
    }

    /// The rest of an action played from `prev`: counters, reveal, home,
    /// second-action check or end of turn.
    fn finish(&mut self, prev: &Naive) {
        let me = prev.to_move;
        self.quiet = if self.quiet == u32::MAX { 0 } else { prev.quiet + 1 };
        // Reveal.
        let h = self.home(me);
        match self.bg[me] {
            Bg::Unknown => {
                let inside: Vec<P> =
                    self.cells.iter().filter(|(&a, &u)| u == U::Pilot(me) && self.in_keep(me, a)).map(|(&a, _)| a).collect();
                if let Some(&a) = inside.first() {
                    self.bg[me] = Bg::At(a, 0, true);
                }
            }
            Bg::At(a, 0, false) if self.in_keep(me, a) => self.bg[me] = Bg::At(a, 0, true),
            _ => {}
        }
        let _ = h;
        for s in 0..self.seats {
            if !self.in_game[s] {
                continue;
            }
            let home = self.home(s);
            if self.cells.get(&home) == Some(&U::Royal(s)) {
                self.result = Some(format!("win {} home", s + 1));
            } else if self.cells.get(&home) == Some(&U::Pilot(s)) && matches!(self.bg[s], Bg::At(a, 0, _) if a == home) {
                self.result = Some(format!("win {} burglar", s + 1));
            }
        }
        let first = prev.index == 0;
        if self.result.is_some() {
            if first {
                self.index = 1;
            } else {
                self.pass(me);
            }
            return;
        }
        if first {
            self.index = 1;
            if self.moves().is_empty() {
                if self.seats == 2 {
                    self.result = Some(format!("win {} nomove", 2 - me));
                    return;
                }
                self.go_out(me);
                self.end_turn(me, false);
            }
            return;
        }
        self.end_turn(me, true);
    }

    fn end_turn(&mut self, p: usize, both: bool) {
        if both {
            let mut caps = Vec::new();
            for (&a, &u) in &self.cells {
                if u.owner().is_none() || u.owner() == Some(p) || matches!(u, U::Royal(_)) {
                    continue;
                }
                let mine = |t: P| self.cells.get(&t).and_then(|v| v.owner()) == Some(p);
                let bracket = (mine((a.0, a.1 + 1)) && mine((a.0, a.1 - 1))) || (mine((a.0 + 1, a.1)) && mine((a.0 - 1, a.1)));
                let sum: u32 = DIRS.iter().map(|&d| add(a, d)).filter(|&t| mine(t)).map(|t| self.cells[&t].v2()).sum();
                if bracket && sum >= 2 * u.v2() {
                    caps.push(a);
                }
            }
            for a in caps {
                let u = self.cells.remove(&a).unwrap();
                self.tally[p] += u.v2();
                let s = u.owner().unwrap();
                if matches!(self.bg[s], Bg::At(q, _, _) if q == a) {
                    self.bg[s] = Bg::None;
                }
                self.quiet = 0;
            }
        }
        if self.seats == 2 {
            if self.royal_stuck(1 - p) {
                self.result = Some(format!("win {} immobilised", p + 1));
            } else if self.royal_stuck(p) {
                self.result = Some(format!("win {} immobilised", 2 - p));
            }
        } else {
            let outs: Vec<usize> = (0..4).filter(|&s| s != p && self.in_game[s] && self.royal_stuck(s)).collect();
            for &s in &outs {
                self.go_out(s);
            }
            if outs.is_empty() && both && self.in_game[p] && self.royal_stuck(p) {
                self.go_out(p);
            }
            let left: Vec<usize> = (0..4).filter(|&s| self.in_game[s]).collect();
            if left.len() == 1 {
                self.result = Some(format!("win {} elimination", left[0] + 1));
            }
        }
        let seats_in = self.in_game.iter().filter(|&&b| b).count() as u32;
        if self.result.is_none() && self.quiet >= 50 * seats_in {
            self.decide("rounds");
        }
        self.pass(p);
    }
}

/// The fast implementation's view in the same form as [`Naive::actions`].
pub fn fast(p: &Quadranj) -> Vec<(String, String)> {
    let mut l = super::ActionVec::default();
    p.legal_actions(&mut l);
    let mut v: Vec<(String, String)> = l
        .iter()
        .map(|&a| {
            let mut q = p.clone();
            let t = crate::game::action_string(&q, a);
            q.make(a);
            (t, format!("{} {}", q.position_string(), q.outcome().map(|o| o.to_string()).unwrap_or_default()))
        })
        .collect();
    v.sort();
    v
}

/// A seat's arrangement (§6.7) read off the board: its units by square.
pub fn arrangement(p: &Quadranj, seat: usize) -> Vec<String> {
    Naive::from(p).cells.iter().filter(|(_, u)| u.owner() == Some(seat)).map(|(a, u)| format!("{a:?}{u:?}")).collect()
}

/// §6.7 read literally on every recording of the game so far, the last
/// being the one just made: `None` if its seat X is not repeating, else
/// whether every other seat in the game (`in_game`) is repeating too.
pub fn arrangement_verdict(recs: &[(usize, Vec<String>)], in_game: &[bool]) -> Option<bool> {
    let m = recs.len() - 1;
    let x = recs[m].0;
    let is_new = |t: usize| !recs[..t].contains(&recs[t]);
    let last_new = (0..=m).rev().find(|&t| recs[t].0 == x && is_new(t))?;
    let count = (last_new..=m).filter(|&t| recs[t] == recs[m]).count();
    if count < 3 {
        return None;
    }
    let prev = (0..m).rev().find(|&t| recs[t] == recs[m])?;
    let all = (0..in_game.len()).filter(|&y| y != x && in_game[y]).all(|y| !(prev + 1..m).any(|t| recs[t].0 == y && is_new(t)));
    Some(all)
}

//! A second, deliberately simple rules implementation for tests: a map of
//! (rank, file) to piece, breadth-first walks over the spec's neighbour
//! table, the rules written as directly as §5–§7 read, and its own position
//! writer. Every legal action is returned with the position it leads to.

use super::{Quattuor, CAPTURES};
use crate::game::Notation;
use std::collections::{BTreeMap, VecDeque};

type Cell = (i32, i32); // (rank 1..=15, file 0..)

#[derive(Clone, Debug, PartialEq)]
pub struct Naive {
    pub cells: BTreeMap<Cell, usize>,
    pub side: usize,
    pub moved: Option<usize>,
    pub locked: Vec<Cell>,
    pub turn: u32,
}

const SUITS: &[u8] = b"dhcs";
const VALUES: &[u8] = b"789TJQKA";

fn width(r: i32) -> i32 {
    if r % 2 == 1 {
        17
    } else {
        16
    }
}

fn name((r, f): Cell) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r)
}

fn code(p: usize) -> String {
    format!("{}{}", SUITS[p / 8] as char, VALUES[p % 8] as char)
}

fn neighbours((r, f): Cell) -> Vec<Cell> {
    let d: [(i32, i32); 6] = if r % 2 == 1 {
        [(0, -1), (0, 1), (1, -1), (1, 0), (-1, -1), (-1, 0)]
    } else {
        [(0, -1), (0, 1), (1, 0), (1, 1), (-1, 0), (-1, 1)]
    };
    d.iter().map(|&(dr, df)| (r + dr, f + df)).filter(|&(rr, ff)| (1..=15).contains(&rr) && ff >= 0 && ff < width(rr)).collect()
}

fn own_bases(side: usize) -> [Cell; 2] {
    if side == 0 {
        [(4, 5), (4, 13)]
    } else {
        [(12, 2), (12, 10)]
    }
}

fn goal(side: usize) -> i32 {
    if side == 0 {
        15
    } else {
        1
    }
}

fn range(v: usize) -> usize {
    match v {
        1 => 4,
        0 | 2 => 3,
        _ => 2,
    }
}

impl Naive {
    pub fn from(p: &Quattuor) -> Naive {
        // Read the fast position string, in its own simple way.
        let s = p.position_string();
        let f: Vec<&str> = s.split(' ').collect();
        let mut cells = BTreeMap::new();
        for (i, text) in f[0].split('/').enumerate() {
            let r = 15 - i as i32;
            let b = text.as_bytes();
            let (mut j, mut file) = (0, 0);
            while j < b.len() {
                if b[j].is_ascii_digit() {
                    let st = j;
                    while j < b.len() && b[j].is_ascii_digit() {
                        j += 1;
                    }
                    file += text[st..j].parse::<i32>().unwrap();
                } else {
                    let su = SUITS.iter().position(|&c| c == b[j]).unwrap();
                    let v = VALUES.iter().position(|&c| c == b[j + 1]).unwrap();
                    cells.insert((r, file), su * 8 + v);
                    file += 1;
                    j += 2;
                }
            }
        }
        let moved = SUITS.iter().position(|&c| f[2].as_bytes()[0] == c);
        let locked = if f[4] == "-" {
            vec![]
        } else {
            f[4].split(',')
                .map(|n| {
                    let b = n.as_bytes();
                    ((n[1..].parse::<i32>().unwrap()), (b[0] - b'a') as i32)
                })
                .collect()
        };
        Naive { cells, side: (f[1] == "b") as usize, moved, locked, turn: f[5].parse().unwrap() }
    }

    fn on_board(&self, p: usize) -> bool {
        self.cells.values().any(|&q| q == p)
    }

    /// §7.1: Some(winner side).
    pub fn winner(&self) -> Option<usize> {
        for side in 0..2 {
            let has_ka = self.cells.values().any(|&q| q / 16 == side && q % 8 >= 6);
            if !has_ka {
                return Some(1 - side);
            }
        }
        (0..2).find(|&side| self.cells.iter().any(|(&(r, _), &q)| q / 16 == side && q % 8 >= 5 && r == goal(side)))
    }

    pub fn write(&self) -> String {
        let mut out = String::new();
        for r in (1..=15).rev() {
            let mut run = 0;
            for f in 0..width(r) {
                match self.cells.get(&(r, f)) {
                    None => run += 1,
                    Some(&p) => {
                        if run > 0 {
                            out += &run.to_string();
                        }
                        run = 0;
                        out += &code(p);
                    }
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            if r > 1 {
                out.push('/');
            }
        }
        out += if self.side == 0 { " r " } else { " b " };
        out.push(self.moved.map_or('-', |s| SUITS[s] as char));
        out.push(' ');
        let caps: String = (0..32).filter(|&p| !self.on_board(p)).map(code).collect();
        out += if caps.is_empty() { "-" } else { &caps };
        out.push(' ');
        let mut l: Vec<String> = self.locked.iter().map(|&c| name(c)).collect();
        l.sort();
        out += if l.is_empty() { "-".to_string() } else { l.join(",") }.as_str();
        out += &format!(" {}", self.turn);
        out
    }

    fn end_turn(&mut self) {
        self.side = 1 - self.side;
        self.moved = None;
        self.locked.clear();
        self.turn += 1;
    }

    /// Every legal action token with the position after it.
    pub fn actions(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.winner().is_some() {
            return out;
        }
        let mut n = self.clone();
        n.end_turn();
        out.push(("0000".to_string(), n.write()));
        let s = self.side;
        let prior = self.moved.is_some();
        for (&c, &p) in &self.cells {
            let (suit, v) = (p / 8, p % 8);
            if p / 16 != s || self.moved == Some(suit) || self.locked.contains(&c) {
                continue;
            }
            if v != 7 && !self.on_board(suit * 8 + 6) {
                continue;
            }
            // breadth-first distances through empty cells
            let mut dist: BTreeMap<Cell, usize> = BTreeMap::new();
            dist.insert(c, 0);
            let mut queue = VecDeque::from([c]);
            while let Some(x) = queue.pop_front() {
                let d = dist[&x];
                if d == range(v) {
                    continue;
                }
                for y in neighbours(x) {
                    if !self.cells.contains_key(&y) && !dist.contains_key(&y) {
                        dist.insert(y, d + 1);
                        queue.push_back(y);
                    }
                }
            }
            let mut dests: Vec<Cell> = dist.keys().copied().filter(|&y| y != c).collect();
            for (&x, &d) in &dist {
                if d < range(v) {
                    for y in neighbours(x) {
                        if let Some(&q) = self.cells.get(&y) {
                            if q / 16 != s && CAPTURES[v] >> (q % 8) & 1 != 0 && !dests.contains(&y) {
                                dests.push(y);
                            }
                        }
                    }
                }
            }
            for t in dests {
                let capture = self.cells.contains_key(&t);
                let mut base = self.clone();
                base.cells.remove(&t);
                base.cells.remove(&c);
                base.moved = Some(suit);
                let tok = format!("{}{}", name(c), name(t));
                if v == 7 && capture {
                    let mut r = base.clone();
                    r.cells.insert(c, p);
                    out.push((format!("{tok}{}", name(c)), r.finish(prior)));
                }
                let allowance = if own_bases(1 - s).contains(&t) {
                    1
                } else if t.0 == goal(s) && v <= 4 {
                    2
                } else {
                    0
                };
                if allowance == 0 {
                    let mut r = base.clone();
                    r.cells.insert(t, p);
                    out.push((tok, r.finish(prior)));
                    continue;
                }
                // the mover is captured; rescues
                out.push((tok.clone(), base.clone().finish(prior)));
                let pool: Vec<usize> = (s * 16..s * 16 + 16).filter(|&q| !base.on_board(q)).collect();
                let free: Vec<Cell> = own_bases(s).into_iter().filter(|b| !base.cells.contains_key(b)).collect();
                for &b in &free {
                    for &q in &pool {
                        let mut r = base.clone();
                        r.cells.insert(b, q);
                        r.locked.push(b);
                        out.push((format!("{tok}/{}@{}", code(q), name(b)), r.finish(prior)));
                    }
                }
                if allowance == 2 && free.len() == 2 {
                    for &q1 in &pool {
                        for &q2 in &pool {
                            if q1 != q2 {
                                let mut r = base.clone();
                                r.cells.insert(free[0], q1);
                                r.cells.insert(free[1], q2);
                                r.locked.push(free[0]);
                                r.locked.push(free[1]);
                                out.push((
                                    format!("{tok}/{}@{}/{}@{}", code(q1), name(free[0]), code(q2), name(free[1])),
                                    r.finish(prior),
                                ));
                            }
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// After an action: end checks and the end of the turn (§5.4);
    /// `prior` says whether the other suit already moved this turn.
    fn finish(mut self, prior: bool) -> String {
        if self.winner().is_some() || self.turn == 1 || prior {
            self.end_turn();
        }
        self.write()
    }
}

//! A second, deliberately simple implementation of the rules for tests: a
//! map from (file, rank) to pieces, square-by-square walks, the spec's
//! sentences one by one. It shares no code with the fast generator (only
//! the option types): it parses and prints position strings on its own.

use super::{CrownInCapture, Mode, Options};
use std::collections::BTreeMap;

type Xy = (i32, i32);

#[derive(Clone, Debug, PartialEq)]
pub struct Naive {
    pub n: i32,
    pub opts: Options,
    /// (colour, type letter 'm' 'k' 'q')
    pub cells: BTreeMap<Xy, (usize, char)>,
    pub to_move: usize,
    pub in_game: Vec<usize>,
    pub counter: u32,
    pub turn: u32,
}

const LETTERS: [char; 4] = ['s', 'w', 'n', 'e'];
const ALL: [Xy; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn forward(colour: usize) -> [Xy; 2] {
    match colour {
        0 => [(-1, 1), (1, 1)],
        1 => [(1, -1), (1, 1)],
        2 => [(-1, -1), (1, -1)],
        _ => [(-1, -1), (-1, 1)],
    }
}

fn name((f, r): Xy) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

impl Naive {
    /// Parses a valid position string.
    pub fn parse(s: &str, opts: Options) -> Naive {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let n = opts.size as i32;
        let mut cells = BTreeMap::new();
        for (i, rank) in fields[0].split('/').enumerate() {
            let r = n - 1 - i as i32;
            let mut f = 0;
            let chars: Vec<char> = rank.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                if chars[j].is_ascii_digit() {
                    let mut k = 0;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        k = k * 10 + chars[j].to_digit(10).unwrap() as i32;
                        j += 1;
                    }
                    f += k;
                } else {
                    let colour = LETTERS.iter().position(|&c| c == chars[j]).unwrap();
                    cells.insert((f, r), (colour, chars[j + 1]));
                    f += 1;
                    j += 2;
                }
            }
        }
        Naive {
            n,
            opts,
            cells,
            to_move: LETTERS.iter().position(|&c| c.to_string() == fields[1]).unwrap(),
            in_game: fields[2].chars().map(|c| LETTERS.iter().position(|&x| x == c).unwrap()).collect(),
            counter: fields[3].parse().unwrap(),
            turn: fields[4].parse().unwrap(),
        }
    }

    pub fn string(&self) -> String {
        let mut out = String::new();
        for r in (0..self.n).rev() {
            let mut run = 0;
            for f in 0..self.n {
                match self.cells.get(&(f, r)) {
                    None => run += 1,
                    Some(&(c, t)) => {
                        if run > 0 {
                            out += &run.to_string();
                        }
                        run = 0;
                        out.push(LETTERS[c]);
                        out.push(t);
                    }
                }
            }
            if run > 0 {
                out += &run.to_string();
            }
            if r > 0 {
                out.push('/');
            }
        }
        let seats: String = self.in_game.iter().map(|&c| LETTERS[c]).collect();
        format!("{out} {} {seats} {} {}", LETTERS[self.to_move], self.counter, self.turn)
    }

    fn on_board(&self, (f, r): Xy) -> bool {
        f >= 0 && r >= 0 && f < self.n && r < self.n
    }

    fn teams(&self) -> bool {
        self.opts.mode == Mode::Teams
    }

    fn is_enemy(&self, me: usize, other: usize) -> bool {
        other != me && !(self.teams() && other == (me + 2) % 4)
    }

    fn is_partner(&self, me: usize, other: usize) -> bool {
        self.teams() && other == (me + 2) % 4
    }

    fn crown_type(&self, colour: usize, (f, r): Xy) -> Option<char> {
        let c = self.n / 2;
        if (f, r) == (c, c) {
            return Some('k');
        }
        let top = self.n - 1;
        let edge = match colour {
            0 => r == top,
            1 => f == top,
            2 => r == 0,
            _ => f == 0,
        };
        edge.then_some('q')
    }

    /// Single jumps of a piece of `colour` and type `t` on `at` during a
    /// capture from `origin` with `captured` taken so far: (landing, captured).
    fn jumps(&self, colour: usize, t: char, origin: Xy, at: Xy, captured: &[Xy]) -> Vec<(Xy, Xy)> {
        let immediate = self.opts.immediate_removal;
        let empty = |x: Xy| -> bool {
            self.on_board(x) && (x == origin || !self.cells.contains_key(&x) || (immediate && captured.contains(&x)))
        };
        let takeable = |x: Xy| -> bool {
            self.on_board(x)
                && x != origin
                && !captured.contains(&x)
                && self.cells.get(&x).is_some_and(|&(c, _)| self.is_enemy(colour, c))
        };
        let mut out = Vec::new();
        let dirs: Vec<Xy> = if t == 'm' { forward(colour).to_vec() } else { ALL.to_vec() };
        for (df, dr) in dirs {
            if t == 'q' {
                let mut x = (at.0 + df, at.1 + dr);
                while empty(x) {
                    x = (x.0 + df, x.1 + dr);
                }
                if takeable(x) {
                    let mut u = (x.0 + df, x.1 + dr);
                    while empty(u) {
                        out.push((u, x));
                        u = (u.0 + df, u.1 + dr);
                    }
                }
            } else {
                let mid = (at.0 + df, at.1 + dr);
                let land = (mid.0 + df, mid.1 + dr);
                if takeable(mid) && empty(land) {
                    out.push((land, mid));
                }
            }
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn explore(
        &self,
        colour: usize,
        t: char,
        origin: Xy,
        at: Xy,
        captured: &mut Vec<Xy>,
        path: &mut Vec<Xy>,
        out: &mut Vec<Vec<Xy>>,
    ) {
        let mut js = self.jumps(colour, t, origin, at, captured);
        if js.is_empty() {
            out.push(path.clone());
            return;
        }
        if t == 'q' && !self.opts.queen_landing_free {
            // per captured piece: keep landings that allow another jump, if any
            let mut kept = Vec::new();
            let victims: Vec<Xy> = {
                let mut v: Vec<Xy> = js.iter().map(|j| j.1).collect();
                v.dedup();
                v
            };
            for v in victims {
                let group: Vec<(Xy, Xy)> = js.iter().copied().filter(|j| j.1 == v).collect();
                let good: Vec<(Xy, Xy)> = group
                    .iter()
                    .copied()
                    .filter(|&(u, v)| {
                        let mut c2 = captured.clone();
                        c2.push(v);
                        !self.jumps(colour, 'q', origin, u, &c2).is_empty()
                    })
                    .collect();
                kept.extend(if good.is_empty() { group } else { good });
            }
            js = kept;
        }
        for (u, v) in js {
            captured.push(v);
            path.push(u);
            let crown = if t == 'm' { self.crown_type(colour, u) } else { None };
            match (crown, self.opts.crown) {
                (Some(_), CrownInCapture::End) => out.push(path.clone()),
                (Some(nt), CrownInCapture::Continue) => self.explore(colour, nt, origin, u, captured, path, out),
                _ => self.explore(colour, t, origin, u, captured, path, out),
            }
            path.pop();
            captured.pop();
        }
    }

    fn hops(&self, colour: usize, t: char, at: Xy, path: &mut Vec<Xy>, out: &mut Vec<Vec<Xy>>) {
        let dirs: Vec<Xy> = if t == 'm' { forward(colour).to_vec() } else { ALL.to_vec() };
        let origin = path[0];
        for (df, dr) in dirs {
            let mid = (at.0 + df, at.1 + dr);
            let land = (mid.0 + df, mid.1 + dr);
            let hoppable = self.cells.get(&mid).is_some_and(|&(c, _)| self.is_partner(colour, c));
            let free = self.on_board(land) && (!self.cells.contains_key(&land) || land == origin);
            if hoppable && free && !path.contains(&land) {
                path.push(land);
                out.push(path.clone());
                if !(t == 'm' && self.crown_type(colour, land).is_some()) {
                    self.hops(colour, t, land, path, out);
                }
                path.pop();
            }
        }
    }

    /// The legal moves of `colour` as (is capture, path), ignoring the end
    /// of the game.
    pub fn moves_of(&self, colour: usize) -> Vec<(bool, Vec<Xy>)> {
        let own: Vec<(Xy, char)> = self.cells.iter().filter(|(_, &(c, _))| c == colour).map(|(&x, &(_, t))| (x, t)).collect();
        let mut caps = Vec::new();
        for &(x, t) in &own {
            if !self.jumps(colour, t, x, x, &[]).is_empty() {
                self.explore(colour, t, x, x, &mut Vec::new(), &mut vec![x], &mut caps);
            }
        }
        if !caps.is_empty() {
            return caps.into_iter().map(|p| (true, p)).collect();
        }
        let mut out = Vec::new();
        for &(x, t) in &own {
            let dirs: Vec<Xy> = if t == 'm' { forward(colour).to_vec() } else { ALL.to_vec() };
            for (df, dr) in dirs {
                let mut y = (x.0 + df, x.1 + dr);
                while self.on_board(y) && !self.cells.contains_key(&y) {
                    out.push((false, vec![x, y]));
                    if t != 'q' {
                        break;
                    }
                    y = (y.0 + df, y.1 + dr);
                }
            }
            if self.teams() {
                let mut hs = Vec::new();
                self.hops(colour, t, x, &mut vec![x], &mut hs);
                out.extend(hs.into_iter().map(|p| (false, p)));
            }
        }
        out
    }

    pub fn token((capture, path): &(bool, Vec<Xy>)) -> String {
        let names: Vec<String> = path.iter().map(|&x| name(x)).collect();
        names.join(if *capture { "x" } else { "" })
    }

    fn one_side(&self) -> bool {
        let sides: std::collections::BTreeSet<usize> =
            self.in_game.iter().map(|&c| if self.teams() { c % 2 } else { c }).collect();
        sides.len() <= 1
    }

    pub fn over(&self) -> bool {
        let limit = self.opts.draw_rounds * self.in_game.len() as u32;
        self.one_side() || (self.opts.draw_rounds > 0 && self.counter >= limit)
    }

    /// Sorted tokens of the legal turns.
    pub fn tokens(&self) -> Vec<String> {
        if self.over() {
            return Vec::new();
        }
        let mut v: Vec<String> = self.moves_of(self.to_move).iter().map(Naive::token).collect();
        v.sort();
        v
    }

    /// Plays a legal move and the end-of-turn procedure.
    pub fn play(&self, mv: &(bool, Vec<Xy>)) -> Naive {
        let mut p = self.clone();
        let (capture, path) = mv;
        let m = p.to_move;
        let (_, t) = p.cells.remove(&path[0]).unwrap();
        if *capture {
            for w in path.windows(2) {
                let (a, b) = (w[0], w[1]);
                let d = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
                let mut x = (a.0 + d.0, a.1 + d.1);
                while !p.cells.contains_key(&x) {
                    x = (x.0 + d.0, x.1 + d.1);
                }
                p.cells.remove(&x);
            }
        }
        let mut nt = t;
        if t == 'm' {
            if *capture && p.opts.crown == CrownInCapture::Final {
                nt = p.crown_type(m, *path.last().unwrap()).unwrap_or('m');
            } else if let Some(c) = path[1..].iter().find_map(|&x| p.crown_type(m, x)) {
                nt = c;
            }
        }
        p.cells.insert(*path.last().unwrap(), (m, nt));
        p.counter = if *capture || t == 'm' { 0 } else { p.counter + 1 };
        p.turn += 1;
        let pos = p.in_game.iter().position(|&c| c == m).unwrap();
        let order: Vec<usize> = (1..p.in_game.len()).map(|i| p.in_game[(pos + i) % p.in_game.len()]).collect();
        for x in order {
            if !p.moves_of(x).is_empty() {
                p.to_move = x;
                return p;
            }
            p.in_game.retain(|&c| c != x);
            p.counter = 0;
            if p.opts.mode == Mode::FreeForAll && !p.opts.keep_eliminated {
                p.cells.retain(|_, &mut (c, _)| c != x);
            }
            if p.one_side() {
                break;
            }
        }
        p.to_move = m;
        p
    }

    /// Plays the move with this token.
    pub fn play_token(&self, token: &str) -> Naive {
        let mv = self
            .moves_of(self.to_move)
            .into_iter()
            .find(|m| Naive::token(m) == token)
            .unwrap_or_else(|| panic!("{token} is not legal for the naive rules"));
        self.play(&mv)
    }
}

//! A second, deliberately simple implementation of the `teamchess` rules
//! for tests, written from `shared/spec/fourchess.md` §1–§3, §6 and §7
//! sentence by sentence: a 14 × 14 array of cells, square-by-square walks,
//! every move tried on a copy of the board. It shares no code with the fast
//! implementation (not its cell indices, bitboards, attack tables, piece
//! codes or castling table: the §6.4 table is copied here from the spec):
//! it reads and writes position strings on its own, so the tests hand it
//! the fast side's position string and compare what comes back.

type Xy = (i32, i32);

/// Colour letters by seat (§2.1): Red, Blue, Yellow, Green.
const COLOURS: [char; 4] = ['r', 'b', 'y', 'g'];

/// Each seat's forward direction (§2.1): north, east, south, west.
const FWD: [Xy; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// What the no-progress rule (§6.6 rule 3) is at by default
/// (`FC_NoProgressPlies`, §4); the tests use the default options.
const NO_PROGRESS_PLIES: u32 = 200;

/// §1.2: the 14 × 14 square without its four 3 × 3 corners.
fn exists((x, y): Xy) -> bool {
    (0..14).contains(&x) && (0..14).contains(&y) && ((3..=10).contains(&x) || (3..=10).contains(&y))
}

fn add((x, y): Xy, (dx, dy): Xy) -> Xy {
    (x + dx, y + dy)
}

fn name((x, y): Xy) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

fn square(t: &str) -> Xy {
    let x = t.as_bytes()[0] as i32 - b'a' as i32;
    let y: i32 = t[1..].parse().unwrap_or_else(|_| panic!("square `{t}`"));
    assert!(exists((x, y - 1)), "square `{t}`");
    (x, y - 1)
}

fn enemies(a: usize, b: usize) -> bool {
    a % 2 != b % 2
}

/// §1.4: d2–k2, b4–b11, d13–k13, m4–m11.
fn on_pawn_line(seat: usize, (x, y): Xy) -> bool {
    match seat {
        0 => y == 1 && (3..=10).contains(&x),
        1 => x == 1 && (3..=10).contains(&y),
        2 => y == 12 && (3..=10).contains(&x),
        _ => x == 12 && (3..=10).contains(&y),
    }
}

/// §6.2.4: Red rank 11, Blue file k, Yellow rank 4, Green file d.
fn on_promotion_line(seat: usize, (x, y): Xy) -> bool {
    match seat {
        0 => y == 10,
        1 => x == 10,
        2 => y == 3,
        _ => x == 3,
    }
}

/// §6.2.3: one step forward plus one step to either side.
fn capture_squares(seat: usize, (x, y): Xy) -> [Xy; 2] {
    let (fx, fy) = FWD[seat];
    if fx == 0 {
        [(x - 1, y + fy), (x + 1, y + fy)]
    } else {
        [(x + fx, y - 1), (x + fx, y + 1)]
    }
}

/// One row of the §6.4 table.
struct Castling {
    king: &'static str,
    king_to: &'static str,
    rook: &'static str,
    rook_to: &'static str,
    empty: &'static [&'static str],
    not_attacked: &'static [&'static str],
}

const fn row(
    king: &'static str,
    king_to: &'static str,
    rook: &'static str,
    rook_to: &'static str,
    empty: &'static [&'static str],
    not_attacked: &'static [&'static str],
) -> Castling {
    Castling { king, king_to, rook, rook_to, empty, not_attacked }
}

/// §6.4.2, copied from the spec: `[seat][0]` King side, `[1]` Queen side.
const CASTLINGS: [[Castling; 2]; 4] = [
    [row("h1", "j1", "k1", "i1", &["i1", "j1"], &["h1", "i1"]), row("h1", "f1", "d1", "g1", &["g1", "f1", "e1"], &["h1", "g1"])],
    [
        row("a7", "a5", "a4", "a6", &["a6", "a5"], &["a7", "a6"]),
        row("a7", "a9", "a11", "a8", &["a8", "a9", "a10"], &["a7", "a8"]),
    ],
    [
        row("g14", "e14", "d14", "f14", &["f14", "e14"], &["g14", "f14"]),
        row("g14", "i14", "k14", "h14", &["h14", "i14", "j14"], &["g14", "h14"]),
    ],
    [
        row("n8", "n10", "n11", "n9", &["n9", "n10"], &["n8", "n9"]),
        row("n8", "n6", "n4", "n7", &["n7", "n6", "n5"], &["n8", "n7"]),
    ],
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Plain,
    /// A pawn's two steps from its pawn line.
    Double,
    /// King side (0) or Queen side (1).
    Castle(usize),
    /// The square of the pawn taken.
    EnPassant(Xy),
}

/// A move of the side to move.
#[derive(Clone, Copy, Debug)]
pub struct NaiveMove {
    from: Xy,
    to: Xy,
    promotion: Option<char>,
    kind: Kind,
}

impl NaiveMove {
    /// The token (§10): `e2e4`, `e10e11q`, castling as the King's move, en
    /// passant as the pawn's move to the skipped square.
    pub fn token(&self) -> String {
        let mut t = name(self.from) + &name(self.to);
        if let Some(p) = self.promotion {
            t.push(p.to_ascii_lowercase());
        }
        t
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Naive {
    /// `cells[y][x]`: (seat, piece letter `K Q R B N P`).
    cells: [[Option<(usize, char)>; 14]; 14],
    side: usize,
    /// `castling[seat][0]` King side, `[1]` Queen side.
    castling: [[bool; 2]; 4],
    /// En-passant entries by colour (§6.3.1): (skipped square, landing square).
    ep: [Option<(Xy, Xy)>; 4],
    clock: u32,
    fullmove: u32,
}

impl Naive {
    fn at(&self, (x, y): Xy) -> Option<(usize, char)> {
        self.cells[y as usize][x as usize]
    }

    fn set(&mut self, (x, y): Xy, man: Option<(usize, char)>) {
        self.cells[y as usize][x as usize] = man;
    }

    /// The existing squares of rank index `y`, from file a up (§7.1).
    fn rank_squares(y: i32) -> Vec<Xy> {
        (0..14).map(|x| (x, y)).filter(|&s| exists(s)).collect()
    }

    /// Reads a valid position string (§7.2); panics on anything else.
    pub fn parse(s: &str) -> Naive {
        let f: Vec<&str> = s.split_whitespace().collect();
        assert_eq!(f.len(), 6, "{s}");
        let mut n = Naive {
            cells: [[None; 14]; 14],
            side: COLOURS.iter().position(|&c| f[1] == c.to_string()).expect("side"),
            castling: [[false; 2]; 4],
            ep: [None; 4],
            clock: f[4].parse().expect("clock"),
            fullmove: f[5].parse().expect("fullmove"),
        };
        let ranks: Vec<&str> = f[0].split('/').collect();
        assert_eq!(ranks.len(), 14, "{s}");
        for (i, text) in ranks.iter().enumerate() {
            let squares = Self::rank_squares(13 - i as i32);
            let mut next = 0;
            let chars: Vec<char> = text.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                if chars[j].is_ascii_digit() {
                    let mut run = 0;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        run = 10 * run + chars[j].to_digit(10).unwrap() as usize;
                        j += 1;
                    }
                    next += run;
                } else {
                    let seat = COLOURS.iter().position(|&c| c == chars[j]).expect("colour");
                    assert!("KQRBNP".contains(chars[j + 1]), "{s}");
                    n.set(squares[next], Some((seat, chars[j + 1])));
                    next += 1;
                    j += 2;
                }
            }
            assert_eq!(next, squares.len(), "{s}: rank {}", 14 - i);
        }
        let mut seat = 0;
        for c in f[2].chars().filter(|&c| c != '-') {
            match c {
                'K' => n.castling[seat][0] = true,
                'Q' => n.castling[seat][1] = true,
                _ => seat = COLOURS.iter().position(|&l| l == c).expect("castling"),
            }
        }
        for t in f[3].split(',').filter(|&t| t != "-") {
            let skipped = square(t);
            // §7.2: the colour whose pawn line is one step behind the square.
            let c = (0..4).find(|&c| on_pawn_line(c, add(skipped, (-FWD[c].0, -FWD[c].1)))).expect("en passant");
            n.ep[c] = Some((skipped, add(skipped, FWD[c])));
        }
        n
    }

    /// The canonical position string (§7.1, §7.2).
    pub fn position_string(&self) -> String {
        let mut ranks = vec![];
        for y in (0..14).rev() {
            let mut r = String::new();
            let mut run = 0;
            for s in Self::rank_squares(y) {
                match self.at(s) {
                    None => run += 1,
                    Some((seat, p)) => {
                        if run > 0 {
                            r += &run.to_string();
                            run = 0;
                        }
                        r.push(COLOURS[seat]);
                        r.push(p);
                    }
                }
            }
            if run > 0 {
                r += &run.to_string();
            }
            ranks.push(r);
        }
        let mut castling = String::new();
        for seat in 0..4 {
            if self.castling[seat][0] || self.castling[seat][1] {
                castling.push(COLOURS[seat]);
                if self.castling[seat][0] {
                    castling.push('K');
                }
                if self.castling[seat][1] {
                    castling.push('Q');
                }
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        let ep: Vec<String> = self.ep.iter().flatten().map(|&(skipped, _)| name(skipped)).collect();
        let ep = if ep.is_empty() { "-".to_string() } else { ep.join(",") };
        format!("{} {} {} {} {} {}", ranks.join("/"), COLOURS[self.side], castling, ep, self.clock, self.fullmove)
    }

    fn king(&self, seat: usize) -> Option<Xy> {
        (0..14).flat_map(|y| (0..14).map(move |x| (x, y))).find(|&s| exists(s) && self.at(s) == Some((seat, 'K')))
    }

    /// The squares holding men, with the men.
    fn men(&self) -> Vec<(Xy, (usize, char))> {
        let mut out = vec![];
        for y in 0..14 {
            for x in 0..14 {
                if let Some(m) = self.cells[y as usize][x as usize] {
                    out.push(((x, y), m));
                }
            }
        }
        out
    }

    /// §3.2: whether the man on `from` attacks the existing square `to`.
    fn attacks(&self, from: Xy, to: Xy) -> bool {
        let (seat, piece) = self.at(from).expect("a man");
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let line = |straight: bool, diagonal: bool| {
            let ok = (straight && (dx == 0) != (dy == 0)) || (diagonal && dx != 0 && dx.abs() == dy.abs());
            if !ok {
                return false;
            }
            // Square by square: every square between exists (§1.5) and is empty.
            let step = (dx.signum(), dy.signum());
            let mut c = add(from, step);
            while c != to {
                if !exists(c) || self.at(c).is_some() {
                    return false;
                }
                c = add(c, step);
            }
            true
        };
        match piece {
            'K' => dx.abs().max(dy.abs()) == 1,
            'N' => (dx.abs(), dy.abs()) == (1, 2) || (dx.abs(), dy.abs()) == (2, 1),
            'R' => line(true, false),
            'B' => line(false, true),
            'Q' => line(true, true),
            _ => capture_squares(seat, from).contains(&to),
        }
    }

    /// Whether an enemy of `seat` attacks the square.
    fn attacked(&self, s: Xy, seat: usize) -> bool {
        self.men().into_iter().any(|(at, (owner, _))| enemies(owner, seat) && self.attacks(at, s))
    }

    /// §3.2: the seat's King is attacked by an enemy.
    pub fn in_check(&self, seat: usize) -> bool {
        self.king(seat).is_some_and(|k| self.attacked(k, seat))
    }

    /// §6.2–§6.4 without §6.5: the moves of the side to move's men.
    fn pseudo_moves(&self) -> Vec<NaiveMove> {
        let s = self.side;
        let mut out = vec![];
        let free = |t: Xy| exists(t) && self.at(t).is_none();
        let enemy = |t: Xy| exists(t) && self.at(t).is_some_and(|(o, _)| enemies(o, s));
        let pawn = |from: Xy, to: Xy, kind: Kind, out: &mut Vec<NaiveMove>| {
            if on_promotion_line(s, to) {
                for p in ['N', 'B', 'R', 'Q'] {
                    out.push(NaiveMove { from, to, promotion: Some(p), kind });
                }
            } else {
                out.push(NaiveMove { from, to, promotion: None, kind });
            }
        };
        for (from, (seat, piece)) in self.men() {
            if seat != s {
                continue;
            }
            let plain = |to: Xy| NaiveMove { from, to, promotion: None, kind: Kind::Plain };
            match piece {
                'P' => {
                    let one = add(from, FWD[s]);
                    if free(one) {
                        pawn(from, one, Kind::Plain, &mut out);
                        let two = add(one, FWD[s]);
                        if on_pawn_line(s, from) && free(two) {
                            out.push(NaiveMove { from, to: two, promotion: None, kind: Kind::Double });
                        }
                    }
                    for c in capture_squares(s, from) {
                        if enemy(c) {
                            pawn(from, c, Kind::Plain, &mut out);
                        }
                    }
                    // §6.3.2: the forward square holds the pawn of an enemy
                    // whose entry landed there; the skipped square is empty.
                    for c in (0..4).filter(|&c| enemies(c, s)) {
                        if let Some((skipped, landing)) = self.ep[c] {
                            if landing == one && self.at(landing) == Some((c, 'P')) && free(skipped) {
                                assert!(capture_squares(s, from).contains(&skipped), "§6.3.2: a capture square");
                                pawn(from, skipped, Kind::EnPassant(landing), &mut out);
                            }
                        }
                    }
                }
                'N' | 'K' => {
                    let steps: &[Xy] = if piece == 'N' {
                        &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
                    } else {
                        &[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
                    };
                    for &d in steps {
                        let to = add(from, d);
                        if free(to) || enemy(to) {
                            out.push(plain(to));
                        }
                    }
                }
                _ => {
                    let straight = [(0, 1), (1, 0), (0, -1), (-1, 0)];
                    let diagonal = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
                    let dirs: Vec<Xy> = match piece {
                        'R' => straight.to_vec(),
                        'B' => diagonal.to_vec(),
                        _ => straight.iter().chain(diagonal.iter()).copied().collect(),
                    };
                    for d in dirs {
                        let mut to = add(from, d);
                        while free(to) {
                            out.push(plain(to));
                            to = add(to, d);
                        }
                        if enemy(to) {
                            out.push(plain(to));
                        }
                    }
                }
            }
        }
        // §6.4.2: the right, the listed squares empty, the listed squares
        // not attacked (the destination is left to §6.5).
        for (side, c) in CASTLINGS[s].iter().enumerate() {
            if self.castling[s][side]
                && self.at(square(c.king)) == Some((s, 'K'))
                && self.at(square(c.rook)) == Some((s, 'R'))
                && c.empty.iter().all(|&t| self.at(square(t)).is_none())
                && c.not_attacked.iter().all(|&t| !self.attacked(square(t), s))
            {
                out.push(NaiveMove { from: square(c.king), to: square(c.king_to), promotion: None, kind: Kind::Castle(side) });
            }
        }
        out
    }

    /// Plays a move: the men, then castling rights (§6.4.1), en-passant
    /// entries (§6.3.1), clocks (§6.7) and the turn.
    pub fn play(&self, m: &NaiveMove) -> Naive {
        let s = self.side;
        let mut n = self.clone();
        let (_, piece) = n.at(m.from).expect("a man to move");
        n.set(m.from, None);
        let taken = match m.kind {
            Kind::EnPassant(victim) => {
                assert!(n.at(m.to).is_none());
                let taken = n.at(victim);
                n.set(victim, None);
                taken
            }
            _ => n.at(m.to),
        };
        if let Kind::Castle(side) = m.kind {
            let c = &CASTLINGS[s][side];
            n.set(square(c.rook), None);
            n.set(square(c.rook_to), Some((s, 'R')));
        }
        n.set(m.to, Some((s, m.promotion.unwrap_or(piece))));
        for seat in 0..4 {
            for side in 0..2 {
                let c = &CASTLINGS[seat][side];
                n.castling[seat][side] &= n.at(square(c.king)) == Some((seat, 'K')) && n.at(square(c.rook)) == Some((seat, 'R'));
            }
        }
        n.ep[s] = (m.kind == Kind::Double).then(|| (add(m.from, FWD[s]), m.to));
        n.ep[(s + 1) % 4] = None;
        for c in 0..4 {
            if n.ep[c].is_some_and(|(_, landing)| n.at(landing) != Some((c, 'P'))) {
                n.ep[c] = None;
            }
        }
        n.clock = if piece == 'P' || taken.is_some() { 0 } else { n.clock + 1 };
        if s == 3 {
            n.fullmove += 1;
        }
        n.side = (s + 1) % 4;
        n
    }

    /// §6.5: a move that captures a King, or one after which the mover's
    /// King is not attacked. No game-end rule is applied.
    fn moves(&self) -> Vec<NaiveMove> {
        let s = self.side;
        self.pseudo_moves()
            .into_iter()
            .filter(|m| {
                let takes_king = m.kind == Kind::Plain && self.at(m.to).is_some_and(|(_, p)| p == 'K');
                takes_king || !self.play(m).in_check(s)
            })
            .collect()
    }

    /// The legal moves: none once the game is over by §6.6 rule 1 or 3
    /// (rule 2 is an empty list anyway; rule 4 is not applied, as in perft).
    pub fn legal(&self) -> Vec<NaiveMove> {
        if (0..4).any(|seat| self.king(seat).is_none()) || self.clock >= NO_PROGRESS_PLIES {
            return vec![];
        }
        self.moves()
    }

    /// The legal moves as tokens, sorted as bytes (§10.6).
    pub fn tokens(&self) -> Vec<String> {
        let mut t: Vec<String> = self.legal().iter().map(NaiveMove::token).collect();
        t.sort();
        t
    }

    /// §6.6 rules 1–3 in the protocol's words (`win 2 4 checkmate`).
    pub fn outcome(&self) -> Option<String> {
        let winners = |loser: usize| if loser % 2 == 0 { "win 2 4" } else { "win 1 3" };
        if let Some(seat) = (0..4).find(|&seat| self.king(seat).is_none()) {
            return Some(format!("{} kingcapture", winners(seat)));
        }
        if self.moves().is_empty() {
            return Some(if self.in_check(self.side) {
                format!("{} checkmate", winners(self.side))
            } else {
                "draw stalemate".into()
            });
        }
        (self.clock >= NO_PROGRESS_PLIES).then(|| "draw noprogress".into())
    }

    /// Perft (§12): every leaf made.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal().iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }
}

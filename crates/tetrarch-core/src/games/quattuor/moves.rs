//! Actions: encoding, legal generation (§6.1–6.4) and make/unmake with the
//! end checks (§6.5, §7.1) and the end of the turn (§5.4–5.5).

use super::board::*;
use super::value::*;
use super::{keys, result, side_of_piece, suit_of, value_of, Piece, Quattuor, CAPTURES, MAX_ACTIONS, NONE, RANGE};
use crate::bitboard::Bb256;
use arrayvec::ArrayVec;

/// One action: `from` (bits 0–7), `to` (8–15), the Ace's retreat (bit 16),
/// the piece rescued onto the side's first own Base + 1 (bits 17–22, 0 for
/// none) and onto its second own Base + 1 (bits 23–28). Own Bases are in
/// increasing order of square name (`f4 n4`, `c12 k12`), so the canonical
/// order of two rescues is the encoding's. `Action(0)` is `0000`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Action(u32);

const RETREAT: u32 = 1 << 16;

impl Action {
    /// `0000`: the empty turn, or the end of a turn after its first action.
    pub const PASS: Action = Action(0);

    /// A move from `from` to `to` without retreat or rescue.
    #[inline(always)]
    pub const fn new(from: Sq, to: Sq) -> Action {
        Action(from as u32 | (to as u32) << 8)
    }
    /// The same move with the Ace's retreat.
    #[inline(always)]
    pub const fn with_retreat(self) -> Action {
        Action(self.0 | RETREAT)
    }
    /// The same move with `p` rescued onto own Base `b` (0 or 1).
    #[inline(always)]
    pub const fn with_rescue(self, b: usize, p: Piece) -> Action {
        Action(self.0 | ((p as u32 + 1) << (17 + 6 * b)))
    }
    /// The starting cell.
    #[inline(always)]
    pub const fn from(self) -> Sq {
        (self.0 & 0xFF) as Sq
    }
    /// The final cell.
    #[inline(always)]
    pub const fn to(self) -> Sq {
        (self.0 >> 8 & 0xFF) as Sq
    }
    /// Whether the Ace retreats.
    #[inline(always)]
    pub const fn retreat(self) -> bool {
        self.0 & RETREAT != 0
    }
    /// The piece rescued onto own Base `b`, if any.
    #[inline(always)]
    pub const fn rescue(self, b: usize) -> Option<Piece> {
        let x = (self.0 >> (17 + 6 * b)) & 63;
        if x == 0 {
            None
        } else {
            Some(x as Piece - 1)
        }
    }
    /// Whether the action rescues anything.
    #[inline(always)]
    pub const fn has_rescue(self) -> bool {
        self.0 >> 17 != 0
    }
    /// Whether this is `0000`.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
    /// The raw encoding.
    pub const fn bits(self) -> u32 {
        self.0
    }
}

impl core::fmt::Debug for Action {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if self.is_pass() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", square_name(self.from()), square_name(self.to()))?;
        if self.retreat() {
            write!(f, "{}", square_name(self.from()))?;
        }
        for b in 0..2 {
            if let Some(p) = self.rescue(b) {
                write!(f, "/{}@base{}", super::piece_code(p), b)?;
            }
        }
        Ok(())
    }
}

/// What `make` saves for `unmake`.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    key: u64,
    mover: u8,
    cap: u8,
    moved: u8,
    locked: u8,
    result: u8,
    ended: bool,
}

/// The pieces of a side as a mask over [`Piece`].
const SIDE_PIECES: [u32; 2] = [0x0000_FFFF, 0xFFFF_0000];

impl Quattuor {
    /// Whether the piece on own Base `from` is locked.
    #[inline(always)]
    fn is_locked(&self, from: Sq) -> bool {
        if self.locked == 0 {
            return false;
        }
        let bases = &BASES[self.side as usize];
        (self.locked & 1 != 0 && bases[0] == from) || (self.locked & 2 != 0 && bases[1] == from)
    }

    /// For each attacker value, the enemy cells it may capture (§3.3).
    #[inline(always)]
    fn capture_targets(&self) -> [Bb256; 8] {
        let mut t = [Bb256::EMPTY; 8];
        let enemy = 1 - self.side as usize;
        let mut on = !self.captured & SIDE_PIECES[enemy];
        while on != 0 {
            let q = on.trailing_zeros() as usize;
            on &= on - 1;
            let w = value_of(q);
            let s = self.sq_of[q] as usize;
            for (a, t) in t.iter_mut().enumerate() {
                if CAPTURES[a] >> w & 1 != 0 {
                    t.set(s);
                }
            }
        }
        t
    }

    /// Whether a piece may act now (§6.1.1): its suit has not moved, it is an
    /// Ace or its King is on the board, it is not locked.
    pub(crate) fn can_act(&self, p: Piece) -> bool {
        let suit = suit_of(p);
        side_of_piece(p) == self.side as usize
            && self.result == result::NONE
            && self.moved >> suit & 1 == 0
            && self.sq_of[p] != NONE
            && (value_of(p) == ACE || self.captured >> (suit * 8 + KING) & 1 == 0)
            && !self.is_locked(self.sq_of[p] as Sq)
    }

    /// Every legal action (§6, §10.2): `0000` first, then the actions of
    /// every piece that may act.
    pub(crate) fn generate(&self, out: &mut ArrayVec<Action, MAX_ACTIONS>) {
        if self.result != result::NONE {
            return;
        }
        out.push(Action::PASS);
        let s = self.side as usize;
        let empty = EXISTS & !self.occupied();
        let caps = self.capture_targets();
        let enemy_bases = BASES_BB[1 - s];
        let goal = GOAL[s];
        let own_pool = self.captured & SIDE_PIECES[s];
        for suit in [2 * s, 2 * s + 1] {
            if self.moved >> suit & 1 != 0 {
                continue;
            }
            let king_on = self.captured >> (suit * 8 + KING) & 1 == 0;
            let mut pieces = (!self.captured >> (suit * 8)) & 0xFF;
            if !king_on {
                pieces &= 1 << ACE;
            }
            while pieces != 0 {
                let v = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let p = suit * 8 + v;
                let from = self.sq_of[p] as Sq;
                if self.is_locked(from) {
                    continue;
                }
                let (dest_empty, dest_cap) = reach(from, RANGE[v], empty, caps[v]);
                let special = if v <= JACK { enemy_bases | goal } else { enemy_bases };
                let all = dest_empty | dest_cap;
                for to in all.and_not(special) {
                    out.push(Action::new(from, to));
                }
                if v == ACE {
                    for to in dest_cap {
                        out.push(Action::new(from, to).with_retreat());
                    }
                }
                let sp = all & special;
                if sp.any() {
                    self.rescue_variants(out, from, p, sp, enemy_bases, own_pool | 1 << p);
                }
            }
        }
    }

    /// The no-rescue and rescue variants of landings on enemy Bases or (7 to
    /// Jack) the goal rank (§6.4.2–6.4.4, §8.3.1).
    #[cold]
    fn rescue_variants(
        &self,
        out: &mut ArrayVec<Action, MAX_ACTIONS>,
        from: Sq,
        _mover: Piece,
        targets: Bb256,
        enemy_bases: Bb256,
        pool: u32,
    ) {
        let bases = BASES[self.side as usize];
        // Own Bases empty once the mover has left its cell.
        let free = [self.board[bases[0]] == 0 || bases[0] == from, self.board[bases[1]] == 0 || bases[1] == from];
        for to in targets {
            let a = Action::new(from, to);
            out.push(a);
            for (b, &f) in free.iter().enumerate() {
                if f {
                    let mut m = pool;
                    while m != 0 {
                        let r = m.trailing_zeros() as usize;
                        m &= m - 1;
                        out.push(a.with_rescue(b, r));
                    }
                }
            }
            if !enemy_bases.has(to) && free[0] && free[1] {
                let mut m1 = pool;
                while m1 != 0 {
                    let r1 = m1.trailing_zeros() as usize;
                    m1 &= m1 - 1;
                    let a1 = a.with_rescue(0, r1);
                    let mut m2 = pool & !(1 << r1);
                    while m2 != 0 {
                        let r2 = m2.trailing_zeros() as usize;
                        m2 &= m2 - 1;
                        out.push(a1.with_rescue(1, r2));
                    }
                }
            }
        }
    }

    /// Ends the turn (§5.5).
    #[inline(always)]
    fn end_turn(&mut self) {
        let s = self.side as usize;
        let mut k = keys::black();
        for suit in [2 * s, 2 * s + 1] {
            if self.moved >> suit & 1 != 0 {
                k ^= keys::moved(suit);
            }
        }
        for b in 0..2 {
            if self.locked >> b & 1 != 0 {
                k ^= keys::locked(s, b);
            }
        }
        if self.turn == 1 {
            k ^= keys::turn1();
        }
        self.key ^= k;
        self.side ^= 1;
        self.moved = 0;
        self.locked = 0;
        self.turn += 1;
    }

    /// Plays a legal action.
    #[inline]
    pub(crate) fn make_action(&mut self, a: Action) -> Undo {
        let mut u =
            Undo { key: self.key, mover: 0, cap: NONE, moved: self.moved, locked: self.locked, result: self.result, ended: true };
        if a.is_pass() {
            self.end_turn();
            return u;
        }
        let s = self.side as usize;
        let (from, to) = (a.from(), a.to());
        let p = self.board[from] as usize - 1;
        u.mover = p as u8;
        let q = self.board[to];
        if q != 0 {
            let q = q as usize - 1;
            u.cap = q as u8;
            self.remove(q, to);
            self.key ^= keys::piece(q, to);
        }
        let v = value_of(p);
        if !a.retreat() {
            self.remove(p, from);
            self.key ^= keys::piece(p, from);
            if BASES_BB[1 - s].has(to) || (v <= JACK && GOAL[s].has(to)) {
                // Captured at once (§6.4.2–6.4.3); rescues onto own Bases.
                self.captured |= 1 << p;
                if a.has_rescue() {
                    for b in 0..2 {
                        if let Some(r) = a.rescue(b) {
                            let base = BASES[s][b];
                            self.put(r, base);
                            self.key ^= keys::piece(r, base) ^ keys::locked(s, b);
                            self.locked |= 1 << b;
                        }
                    }
                }
            } else {
                self.put(p, to);
                self.key ^= keys::piece(p, to);
                if v >= QUEEN && GOAL[s].has(to) {
                    self.result = if s == 0 { result::RED_REACH } else { result::BLACK_REACH };
                }
            }
        }
        let suit = suit_of(p);
        self.moved |= 1 << suit;
        self.key ^= keys::moved(suit);
        // §7.1: annihilation first (Red before Black), then reaching.
        const KA: u32 = 1 << KING | 1 << ACE | 1 << (8 + KING) | 1 << (8 + ACE);
        if self.captured & KA == KA {
            self.result = result::BLACK_ANNIHILATION;
        } else if self.captured & (KA << 16) == (KA << 16) {
            self.result = result::RED_ANNIHILATION;
        }
        if self.result != result::NONE || self.turn == 1 || self.moved == 3 << (2 * s) {
            self.end_turn();
        } else {
            u.ended = false;
        }
        u
    }

    /// Takes back [`Quattuor::make_action`].
    #[inline]
    pub(crate) fn unmake_action(&mut self, a: Action, u: Undo) {
        self.key = u.key;
        self.result = u.result;
        if u.ended {
            self.side ^= 1;
            self.turn -= 1;
        }
        self.moved = u.moved;
        self.locked = u.locked;
        if a.is_pass() {
            return;
        }
        let (from, to) = (a.from(), a.to());
        let p = u.mover as usize;
        if !a.retreat() {
            if a.has_rescue() {
                let s = self.side as usize;
                for b in 0..2 {
                    if let Some(r) = a.rescue(b) {
                        self.remove(r, BASES[s][b]);
                    }
                }
            }
            if self.sq_of[p] as Sq == to {
                self.remove(p, to);
            }
            self.put(p, from);
        }
        if u.cap != NONE {
            self.put(u.cap as usize, to);
        }
    }
}

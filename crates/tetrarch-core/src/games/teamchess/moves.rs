//! Moves of `teamchess` (§6.2–6.5): encoding, legal generation, make/unmake.

use super::{castle, TeamChess, MAX_ACTIONS};
use crate::bitboard::Bb256;
use crate::games::cross_board::board::*;
use crate::games::cross_board::enemies_mask;
use crate::games::cross_board::keys;
use crate::games::cross_board::men::{attacks_of, code, code_seat, code_type, Men, NO_KING};
use crate::games::cross_board::piece::*;
use arrayvec::ArrayVec;

/// A move: `from` (bits 0–7), `to` (8–15), promotion type (16–18, 0 none),
/// castling (19), en passant (20), double step (21).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u32);

const CASTLE: u32 = 1 << 19;
const EP: u32 = 1 << 20;
const DOUBLE: u32 = 1 << 21;

impl Move {
    #[inline(always)]
    const fn new(from: Sq, to: Sq, flags: u32) -> Move {
        Move(from as u32 | (to as u32) << 8 | flags)
    }
    /// The starting cell (the King's for castling).
    #[inline(always)]
    pub const fn from(self) -> Sq {
        (self.0 & 0xFF) as Sq
    }
    /// The destination cell (the skipped square for en passant).
    #[inline(always)]
    pub const fn to(self) -> Sq {
        (self.0 >> 8 & 0xFF) as Sq
    }
    /// The piece type promoted to, if any.
    #[inline(always)]
    pub const fn promotion(self) -> Option<usize> {
        let t = (self.0 >> 16 & 7) as usize;
        if t == 0 {
            None
        } else {
            Some(t)
        }
    }
    /// Whether this is a castling move.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 & CASTLE != 0
    }
    /// Whether this is an en-passant capture.
    #[inline(always)]
    pub const fn is_ep(self) -> bool {
        self.0 & EP != 0
    }
    /// Whether this is a pawn's double step.
    #[inline(always)]
    pub const fn is_double(self) -> bool {
        self.0 & DOUBLE != 0
    }
}

/// What `make` saves for `unmake`.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    moved: u8,
    castling: u8,
    ep: [u8; 4],
    halfmove: u32,
    key: u64,
}

/// The promotion line of each seat (§6.2.4): Red rank 11, Blue file k,
/// Yellow rank 4, Green file d.
pub static PROMO_LINE: [Bb256; 4] = {
    let mut t = [Bb256::EMPTY; 4];
    let mut i = 0;
    while i < 14 {
        if exists_xy(i as i32, 10) {
            t[0] = t[0].with(sq(i, 10));
        }
        if exists_xy(10, i as i32) {
            t[1] = t[1].with(sq(10, i));
        }
        if exists_xy(i as i32, 3) {
            t[2] = t[2].with(sq(i, 3));
        }
        if exists_xy(3, i as i32) {
            t[3] = t[3].with(sq(3, i));
        }
        i += 1;
    }
    t
};

/// The promotion pieces in token order (`n b r q`).
const PROMOS: [usize; 4] = [KNIGHT, BISHOP, ROOK, QUEEN];

/// What generating one position's moves needs to know, found once.
struct Gen<'a> {
    men: &'a Men,
    /// The side to move.
    s: usize,
    /// Its King's square.
    ksq: Sq,
    enemies: Bb256,
    occ: Bb256,
    empty: Bb256,
    /// Empty squares and enemy men.
    targets: Bb256,
    in_check: bool,
    /// The mover's men that alone shield its King from an enemy slider:
    /// the only men besides the King whose moves need the trial.
    pinned: Bb256,
    enemy_kings: Bb256,
}

impl<'a> Gen<'a> {
    #[inline(always)]
    fn new(p: &'a TeamChess, s: usize) -> Gen<'a> {
        let men = &p.men;
        let ksq = men.kings[s] as Sq;
        let enemies = men.men_of(enemies_mask(s));
        let occ = men.occ;
        let empty = EXISTS & !occ;
        Gen {
            men,
            s,
            ksq,
            enemies,
            occ,
            empty,
            targets: empty | enemies,
            in_check: men.attacked(ksq, enemies, occ),
            pinned: men.pinned(ksq, men.by_seat[s], enemies, occ),
            enemy_kings: enemies & men.by_type[KING],
        }
    }

    /// Whether the move leaves the mover's King safe. A King capture is
    /// always legal; only King moves, en passant, moves while in check and
    /// moves of pinned men need the trial ([`Men::pinned`]).
    #[inline(always)]
    fn legal(&self, from: Sq, to: Sq, king: bool, ep_victim: Option<Sq>) -> bool {
        if self.enemy_kings.has(to) {
            return true;
        }
        if !(king || self.in_check || ep_victim.is_some() || self.pinned.has(from)) {
            return true;
        }
        let tb = Bb256::from_cell(to);
        let mut occ2 = (self.occ & !Bb256::from_cell(from)) | tb;
        let mut att = self.enemies & !tb;
        if let Some(v) = ep_victim {
            occ2.clear(v);
            att.clear(v);
        }
        !self.men.attacked(if king { to } else { self.ksq }, att, occ2)
    }

    /// The legal moves of the man on `from` to `targets` (not a King).
    #[inline(always)]
    fn emit_to(&self, from: Sq, targets: Bb256, f: &mut impl FnMut(Move) -> bool) -> bool {
        for to in targets {
            if self.legal(from, to, false, None) && !f(Move::new(from, to, 0)) {
                return false;
            }
        }
        true
    }

    /// A pawn move, as four moves when it reaches the promotion line.
    #[inline(always)]
    fn emit_pawn(&self, from: Sq, to: Sq, flags: u32, f: &mut impl FnMut(Move) -> bool) -> bool {
        if PROMO_LINE[self.s].has(to) {
            PROMOS.iter().all(|&p| f(Move::new(from, to, flags | (p as u32) << 16)))
        } else {
            f(Move::new(from, to, flags))
        }
    }

    /// Pushes, double steps, captures and en passant (§6.3).
    fn pawn_moves(&self, p: &TeamChess, f: &mut impl FnMut(Move) -> bool) -> bool {
        let s = self.s;
        let (empty, enemies) = (self.empty, self.enemies);
        let pawns = self.men.by_seat[s] & self.men.by_type[PAWN];
        if pawns.is_empty() {
            return true;
        }
        let sh = DIR_SHIFT[s];
        for to in pawns.shift(sh) & empty {
            let from = (to as i32 - sh) as Sq;
            if self.legal(from, to, false, None) && !self.emit_pawn(from, to, 0, f) {
                return false;
            }
        }
        let doubles = ((pawns & PAWN_LINE[s]).shift(sh) & empty).shift(sh) & empty;
        for to in doubles {
            let from = (to as i32 - 2 * sh) as Sq;
            if self.legal(from, to, false, None) && !f(Move::new(from, to, DOUBLE)) {
                return false;
            }
        }
        for from in pawns {
            for to in PAWN_CAPS[s][from] & enemies {
                if self.legal(from, to, false, None) && !self.emit_pawn(from, to, 0, f) {
                    return false;
                }
            }
        }
        // En passant (§6.3.2): the forward square holds an enemy's pawn
        // on its entry's landing square; the skipped square is empty.
        for c in 0..4 {
            let sk = p.ep[c];
            if sk == 0 || enemies_mask(s) >> c & 1 == 0 {
                continue;
            }
            let landing = (sk as i32 + DIR_SHIFT[c]) as Sq;
            let from = landing as i32 - sh;
            if from < 0 || !pawns.has(from as Sq) || !empty.has(sk as Sq) {
                continue;
            }
            let (from, sk) = (from as Sq, sk as Sq);
            if PAWN_CAPS[s][from].has(sk) && self.legal(from, sk, false, Some(landing)) && !self.emit_pawn(from, sk, EP, f) {
                return false;
            }
        }
        true
    }

    /// Castling (§6.4), not in check: right, empty squares, King's square
    /// and the one it passes not attacked, destination not attacked.
    fn castles(&self, p: &TeamChess, f: &mut impl FnMut(Move) -> bool) -> bool {
        let (s, occ) = (self.s, self.occ);
        for side in 0..2 {
            let c = &castle::TABLE[s][side];
            if p.castling >> (2 * s + side) & 1 == 0 || (c.empty & occ).any() {
                continue;
            }
            if self.men.attacked(c.pass, self.enemies, occ) {
                continue;
            }
            let occ2 = (occ & !Bb256::from_cell(c.king_from) & !Bb256::from_cell(c.rook_from))
                | Bb256::from_cell(c.king_to)
                | Bb256::from_cell(c.rook_to);
            if !self.men.attacked(c.king_to, self.enemies, occ2) && !f(Move::new(c.king_from, c.king_to, CASTLE)) {
                return false;
            }
        }
        true
    }
}

impl TeamChess {
    /// Calls `f` with every legal move of the side to move (§6.5), in the
    /// order pawns, knights, bishops and queens, rooks and queens, King,
    /// castling; stops when `f` returns `false` (and returns `false`).
    pub(super) fn for_each_legal(&self, f: &mut impl FnMut(Move) -> bool) -> bool {
        let s = self.side as usize;
        let men = &self.men;
        if men.kings[s] == NO_KING {
            return true;
        }
        let g = Gen::new(self, s);
        if !g.pawn_moves(self, f) {
            return false;
        }
        let own = men.by_seat[s];
        for from in own & men.by_type[KNIGHT] {
            if !g.emit_to(from, KNIGHT_STEPS[from] & g.targets, f) {
                return false;
            }
        }
        for from in own & (men.by_type[BISHOP] | men.by_type[QUEEN]) {
            if !g.emit_to(from, bishop_attacks(from, g.occ) & g.targets, f) {
                return false;
            }
        }
        for from in own & (men.by_type[ROOK] | men.by_type[QUEEN]) {
            if !g.emit_to(from, rook_attacks(from, g.occ) & g.targets, f) {
                return false;
            }
        }
        for to in KING_STEPS[g.ksq] & g.targets {
            if g.legal(g.ksq, to, true, None) && !f(Move::new(g.ksq, to, 0)) {
                return false;
            }
        }
        g.in_check || g.castles(self, f)
    }

    /// The legal moves of the side to move.
    pub(super) fn gen_legal(&self, out: &mut ArrayVec<Move, MAX_ACTIONS>) {
        self.for_each_legal(&mut |m| {
            out.push(m);
            true
        });
    }

    /// Whether the side to move has a legal move that `tactical` says no
    /// to (a quiet move: no capture, no promotion): a pawn push or a
    /// Knight move to an empty cell by a man off every line through its
    /// King while it is not in check is legal without a trial (no pin can
    /// hold it); otherwise the legal moves in their order up to the first
    /// quiet one.
    pub(super) fn has_quiet_move(&self, tactical: impl Fn(Move) -> bool) -> bool {
        let s = self.side as usize;
        let men = &self.men;
        if men.kings[s] == NO_KING {
            return false;
        }
        let ksq = men.kings[s] as Sq;
        let own = men.by_seat[s];
        let free = own & !QUEEN_LINES[ksq];
        let empty = EXISTS & !men.occ;
        let pushes = (free & men.by_type[PAWN]).shift(DIR_SHIFT[s]) & empty & !PROMO_LINE[s];
        let jumps = (free & men.by_type[KNIGHT]).into_iter().any(|n| (KNIGHT_STEPS[n] & empty).any());
        if (pushes.any() || jumps) && !men.attacked(ksq, men.men_of(enemies_mask(s)), men.occ) {
            return true;
        }
        !self.for_each_legal(&mut |m| tactical(m))
    }

    /// Whether the side to move has a legal move.
    pub(super) fn has_legal_move(&self) -> bool {
        !self.for_each_legal(&mut |_| false)
    }

    #[inline(always)]
    fn set_ep(&mut self, c: usize, sk: u8) {
        if self.ep[c] != 0 {
            self.key ^= super::EP_KEYS[c * CELLS + self.ep[c] as usize];
        }
        self.ep[c] = sk;
        if sk != 0 {
            self.key ^= super::EP_KEYS[c * CELLS + sk as usize];
        }
    }

    /// Plays a legal move.
    pub(super) fn make_move(&mut self, m: Move) -> Undo {
        let s = self.side as usize;
        let undo = Undo { captured: 0, moved: 0, castling: self.castling, ep: self.ep, halfmove: self.halfmove, key: self.key };
        let mut undo = undo;
        let (from, to) = (m.from(), m.to());
        let c = self.men.board[from];
        undo.moved = c;
        let ty = code_type(c);
        let mut reset = ty == PAWN;
        if m.is_castle() {
            let side = if castle::TABLE[s][0].king_to == to { 0 } else { 1 };
            let t = &castle::TABLE[s][side];
            let rook = code(s, ROOK);
            self.men.remove(c, from);
            self.men.remove(rook, t.rook_from);
            self.men.put(c, to);
            self.men.put(rook, t.rook_to);
            self.key ^= keys::piece(s, KING, from)
                ^ keys::piece(s, KING, to)
                ^ keys::piece(s, ROOK, t.rook_from)
                ^ keys::piece(s, ROOK, t.rook_to);
        } else {
            let victim_sq = if m.is_ep() { (self.ep_landing_for(to)) as Sq } else { to };
            let cap = self.men.board[victim_sq];
            if cap != 0 {
                undo.captured = cap;
                self.men.remove(cap, victim_sq);
                self.key ^= keys::piece(code_seat(cap), code_type(cap), victim_sq);
                reset = true;
            }
            self.men.remove(c, from);
            self.key ^= keys::piece(s, ty, from);
            let nty = m.promotion().unwrap_or(ty);
            self.men.put(code(s, nty), to);
            self.key ^= keys::piece(s, nty, to);
        }
        // Castling rights whose King or Rook left (or was taken from) home.
        let lost = self.castling & (castle::CLEARS[from] | castle::CLEARS[to]);
        if lost != 0 {
            self.castling &= !lost;
            for bit in 0..8 {
                if lost >> bit & 1 != 0 {
                    self.key ^= super::CASTLE_KEYS[bit];
                }
            }
        }
        // En-passant entries (§6.3.1); usually there is none before the
        // move and none after it, and nothing to do.
        let next = (s + 1) & 3;
        let sk = if m.is_double() { (from as i32 + DIR_SHIFT[s]) as u8 } else { 0 };
        if sk != 0 || self.ep != [0; 4] {
            self.set_ep(s, sk);
            self.set_ep(next, 0);
            for col in 0..4 {
                let e = self.ep[col];
                if e != 0 {
                    let landing = (e as i32 + DIR_SHIFT[col]) as Sq;
                    if self.men.board[landing] != code(col, PAWN) {
                        self.set_ep(col, 0);
                    }
                }
            }
        }
        self.halfmove = if reset { 0 } else { self.halfmove + 1 };
        self.key ^= keys::SIDE[s] ^ keys::SIDE[next];
        self.side = next as u8;
        if s == 3 {
            self.fullmove += 1;
        }
        undo
    }

    /// A null move for the search: the side to move passes; its own and
    /// the next seat's en-passant entries lapse as after a quiet move.
    pub(super) fn make_null(&mut self) -> Undo {
        let s = self.side as usize;
        let undo = Undo { captured: 0, moved: 0, castling: self.castling, ep: self.ep, halfmove: self.halfmove, key: self.key };
        let next = (s + 1) & 3;
        self.set_ep(s, 0);
        self.set_ep(next, 0);
        self.halfmove += 1;
        self.key ^= keys::SIDE[s] ^ keys::SIDE[next];
        self.side = next as u8;
        if s == 3 {
            self.fullmove += 1;
        }
        undo
    }

    /// Takes back [`TeamChess::make_null`].
    pub(super) fn unmake_null(&mut self, u: Undo) {
        let s = (self.side as usize + 3) & 3;
        self.side = s as u8;
        if s == 3 {
            self.fullmove -= 1;
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.key = u.key;
    }

    /// The landing square of the entry whose skipped square is `sk`.
    fn ep_landing_for(&self, sk: Sq) -> Sq {
        for c in 0..4 {
            if self.ep[c] as Sq == sk && sk != 0 {
                return (sk as i32 + DIR_SHIFT[c]) as Sq;
            }
        }
        sk
    }

    /// Takes back [`TeamChess::make_move`].
    pub(super) fn unmake_move(&mut self, m: Move, u: Undo) {
        let s = (self.side as usize + 3) & 3;
        self.side = s as u8;
        if s == 3 {
            self.fullmove -= 1;
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.key = u.key;
        let (from, to) = (m.from(), m.to());
        if m.is_castle() {
            let side = if castle::TABLE[s][0].king_to == to { 0 } else { 1 };
            let t = &castle::TABLE[s][side];
            let rook = code(s, ROOK);
            self.men.remove(u.moved, to);
            self.men.remove(rook, t.rook_to);
            self.men.put(u.moved, from);
            self.men.put(rook, t.rook_from);
            return;
        }
        let now = self.men.board[to];
        self.men.remove(now, to);
        self.men.put(u.moved, from);
        if u.captured != 0 {
            let victim_sq = if m.is_ep() { self.ep_landing_for(to) } else { to };
            self.men.put(u.captured, victim_sq);
        }
    }

    /// Whether seat `s`'s King is attacked by an enemy.
    pub(super) fn seat_in_check(&self, s: usize) -> bool {
        self.men.has_king(s) && self.men.attacked(self.men.kings[s] as Sq, self.men.men_of(enemies_mask(s)), self.men.occ)
    }

    /// Whether move `m` of the seat to move leaves the next seat in check
    /// (what `seat_in_check` says of it after the move), told without
    /// making it: the moved man's own attack, or any other man of the team
    /// through the cells the move opens. Castling and en passant are
    /// answered no (a hint for pruning, not a rule), and so is taking the
    /// King.
    pub(super) fn checks_next_seat(&self, m: Move) -> bool {
        let next = (self.side as usize + 1) & 3;
        if !self.men.has_king(next) || m.is_castle() || m.is_ep() {
            return false;
        }
        let k = self.men.kings[next] as Sq;
        let (from, to) = (m.from(), m.to());
        let Some((seat, ty)) = self.men.piece_at(from).filter(|_| to != k) else {
            return false;
        };
        let mut occ = self.men.occ;
        occ.clear(from);
        occ.set(to);
        let direct = attacks_of(seat, m.promotion().unwrap_or(ty), to, occ).has(k);
        let mut others = self.men.men_of(enemies_mask(next));
        others.clear(from);
        direct || self.men.attacked(k, others, occ)
    }
}

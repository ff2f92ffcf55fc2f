//! Moves: encoding, legal generation (§5.3–5.5) and make/unmake.
//!
//! Legality without trial moves for most men: a man that does not stand on a
//! line through its own King (or, when the partner is not in check, the
//! partner's King) cannot expose either, so only moves of such men, King
//! moves and all moves while in check are tested on the board after the move.

use super::board::*;
use super::keys;
use super::piece::*;
use super::{enemies_mask, partner, FourChess};
use crate::bitboard::Bb256;
use crate::games::cross_board::men::{code, code_seat, code_type};

/// A move: `from` (bits 0–7), `to` (8–15), promotion flag (16). `Move(0)` is
/// the pass `0000` (cell 0, `a1`, does not exist).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u32);

const PROMO: u32 = 1 << 16;

impl Move {
    /// The pass `0000`.
    pub const PASS: Move = Move(0);
    /// A move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Sq, to: Sq, promotion: bool) -> Move {
        Move(from as u32 | (to as u32) << 8 | if promotion { PROMO } else { 0 })
    }
    /// The starting cell.
    #[inline(always)]
    pub const fn from(self) -> Sq {
        (self.0 & 0xFF) as Sq
    }
    /// The destination cell.
    #[inline(always)]
    pub const fn to(self) -> Sq {
        (self.0 >> 8 & 0xFF) as Sq
    }
    /// Whether the move is a pawn promotion (always to a Queen).
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMO != 0
    }
    /// Whether this is the pass.
    #[inline(always)]
    pub const fn is_pass(self) -> bool {
        self.0 == 0
    }
}

/// What `make` saves for `unmake`.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    moved: u8,
    inert: u8,
    checks: u8,
    halfmove: u32,
    key: u64,
}

/// What a legality test needs to know about the mover.
struct Ctx {
    ksq: Sq,
    pk: Sq,
    self_check: bool,
    guard_partner: bool,
    attackers: Bb256,
    /// The mover's men that alone shield its King, or its partner's, from
    /// a live enemy slider ([`Men::pinned`]): the only men besides the
    /// King whose moves need a trial.
    pinned_own: Bb256,
    pinned_partner: Bb256,
}

impl FourChess {
    /// Men of live enemies of `s` under the inert set `inert`.
    #[inline(always)]
    pub(super) fn live_enemy_men(&self, s: usize, inert: u8) -> Bb256 {
        self.men.men_of(enemies_mask(s) & !inert)
    }

    /// Whether seat `s`'s King is attacked by a live enemy under `inert`.
    #[inline]
    pub(super) fn seat_in_check(&self, s: usize, inert: u8) -> bool {
        self.men.attacked(self.men.kings[s] as Sq, self.live_enemy_men(s, inert), self.men.occ)
    }

    #[inline(always)]
    fn is_legal(&self, c: &Ctx, from: Sq, to: Sq, king: bool) -> bool {
        let need_self = king || c.self_check || c.pinned_own.has(from);
        let need_partner = c.guard_partner && c.pinned_partner.has(from);
        if !need_self && !need_partner {
            return true;
        }
        let tb = Bb256::from_cell(to);
        let occ = (self.men.occ & !Bb256::from_cell(from)) | tb;
        let att = c.attackers & !tb;
        if need_self && self.men.attacked(if king { to } else { c.ksq }, att, occ) {
            return false;
        }
        !(need_partner && self.men.attacked(c.pk, att, occ))
    }

    /// Calls `f` with every legal move of seat `s` under the inert set
    /// `inert` (§5.5), whoever is to move; stops early when `f` returns
    /// false. Returns false if it stopped early.
    pub(super) fn for_each_legal(
        &self,
        s: usize,
        inert: u8,
        self_check: bool,
        partner_check: bool,
        f: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        let p = partner(s);
        let ksq = self.men.kings[s] as Sq;
        let pk = self.men.kings[p] as Sq;
        let guard_partner = inert >> p & 1 == 0 && !partner_check;
        let attackers = self.live_enemy_men(s, inert);
        let own = self.men.by_seat[s];
        let occ = self.men.occ;
        let c = Ctx {
            ksq,
            pk,
            self_check,
            guard_partner,
            attackers,
            pinned_own: if self_check { Bb256::EMPTY } else { self.men.pinned(ksq, own, attackers, occ) },
            pinned_partner: if guard_partner { self.men.pinned(pk, own, attackers, occ) } else { Bb256::EMPTY },
        };
        let empty = EXISTS & !self.men.occ;
        let capturable = attackers & !self.men.by_type[KING];
        let targets = empty | capturable;
        let promo_zone = BACK[(s + 1) & 3] | BACK[(s + 3) & 3];

        macro_rules! emit {
            ($from:expr, $to:expr, $king:expr, $promo:expr) => {
                if self.is_legal(&c, $from, $to, $king) && !f(Move::new($from, $to, $promo)) {
                    return false;
                }
            };
        }

        // Pawns, by the direction they move in (§5.3).
        for (pawns, d) in [(own & self.men.by_type[PAWN], s), (own & self.men.by_type[RPAWN], opposite(s))] {
            if pawns.is_empty() {
                continue;
            }
            let sh = DIR_SHIFT[d];
            let steps = pawns.shift(sh) & empty;
            for to in steps {
                let from = (to as i32 - sh) as Sq;
                emit!(from, to, false, promo_zone.has(to));
            }
            let mut leapable = self.men.by_type[PAWN] | self.men.by_type[RPAWN];
            leapable &= if self.rules.leap_own_pawns { self.men.by_seat[p] | own } else { self.men.by_seat[p] };
            let leaps = (pawns.shift(sh) & leapable).shift(sh) & empty;
            for to in leaps {
                let from = (to as i32 - 2 * sh) as Sq;
                emit!(from, to, false, promo_zone.has(to));
            }
            for from in pawns {
                for to in PAWN_CAPS[d][from] & capturable {
                    emit!(from, to, false, promo_zone.has(to));
                }
            }
        }
        for from in own & self.men.by_type[KNIGHT] {
            for to in KNIGHT_STEPS[from] & targets {
                emit!(from, to, false, false);
            }
        }
        for from in own & (self.men.by_type[BISHOP] | self.men.by_type[QUEEN]) {
            for to in bishop_attacks(from, self.men.occ) & targets {
                emit!(from, to, false, false);
            }
        }
        for from in own & (self.men.by_type[ROOK] | self.men.by_type[QUEEN]) {
            for to in rook_attacks(from, self.men.occ) & targets {
                emit!(from, to, false, false);
            }
        }
        for to in KING_STEPS[ksq] & targets {
            emit!(ksq, to, true, false);
        }
        true
    }

    /// Whether seat `s` has a legal move under `inert`, computing its own and
    /// its partner's check status afresh.
    pub(super) fn has_legal_move(&self, s: usize, inert: u8) -> bool {
        let sc = self.seat_in_check(s, inert);
        let pc = self.seat_in_check(partner(s), inert);
        !self.for_each_legal(s, inert, sc, pc, &mut |_| false)
    }

    /// Legal moves of the side to move, with the cached check statuses.
    pub(super) fn gen_legal(&self, out: &mut arrayvec::ArrayVec<Move, { super::MAX_ACTIONS }>) {
        let s = self.side as usize;
        let sc = self.checks >> s & 1 != 0;
        let pc = self.checks >> partner(s) & 1 != 0;
        self.for_each_legal(s, self.inert, sc, pc, &mut |m| {
            out.push(m);
            true
        });
    }

    /// The type a pawn of seat `s` of type `ty` has after arriving on `to`
    /// (§5.3.5).
    #[inline(always)]
    fn arrival(s: usize, ty: usize, to: Sq) -> usize {
        if (BACK[(s + 1) & 3] | BACK[(s + 3) & 3]).has(to) {
            QUEEN
        } else if ty == PAWN && BACK[partner(s)].has(to) {
            RPAWN
        } else if ty == RPAWN && PAWN_LINE[s].has(to) {
            PAWN
        } else {
            ty
        }
    }

    /// Plays a legal move or the pass, then updates the statuses (§5.6).
    pub(super) fn make_move(&mut self, m: Move) -> Undo {
        let s = self.side as usize;
        let mut undo =
            Undo { captured: 0, moved: 0, inert: self.inert, checks: self.checks, halfmove: self.halfmove, key: self.key };
        let next = (s + 1) & 3;
        self.key ^= keys::SIDE[s] ^ keys::SIDE[next];
        self.side = next as u8;
        if s == 3 {
            self.fullmove += 1;
        }
        if m.is_pass() {
            self.halfmove += 1;
            if self.inert != 0 || self.checks != 0 {
                self.slow_update(s);
            }
            // With nobody inert or in check a pass changes no status.
            return undo;
        }
        let (from, to) = (m.from(), m.to());
        let c = self.men.board[from];
        let ty = code_type(c);
        undo.moved = c;
        let cap = self.men.board[to];
        if cap != 0 {
            undo.captured = cap;
            self.men.remove(cap, to);
            self.key ^= keys::piece(code_seat(cap), code_type(cap), to);
            self.sub_man(code_seat(cap), code_type(cap), to);
        }
        self.men.remove(c, from);
        self.key ^= keys::piece(s, ty, from);
        self.sub_man(s, ty, from);
        let nty = if ty <= RPAWN { Self::arrival(s, ty, to) } else { ty };
        self.men.put(code(s, nty), to);
        self.key ^= keys::piece(s, nty, to);
        self.add_man(s, nty, to);
        self.halfmove = if ty <= RPAWN || cap != 0 { 0 } else { self.halfmove + 1 };
        self.update_status(s, from, to);
        undo
    }

    /// Takes back [`FourChess::make_move`].
    pub(super) fn unmake_move(&mut self, m: Move, u: Undo) {
        let s = (self.side as usize + 3) & 3;
        self.side = s as u8;
        if s == 3 {
            self.fullmove -= 1;
        }
        self.inert = u.inert;
        self.checks = u.checks;
        self.halfmove = u.halfmove;
        self.key = u.key;
        if m.is_pass() {
            return;
        }
        let (from, to) = (m.from(), m.to());
        let now = self.men.board[to];
        self.men.remove(now, to);
        self.sub_man(s, code_type(now), to);
        self.men.put(u.moved, from);
        self.add_man(s, code_type(u.moved), from);
        if u.captured != 0 {
            self.men.put(u.captured, to);
            self.add_man(code_seat(u.captured), code_type(u.captured), to);
        }
    }

    /// The key from scratch.
    pub(super) fn compute_key(&self) -> u64 {
        let mut k = keys::SIDE[self.side as usize] ^ self.men.key();
        for seat in 0..4 {
            if self.inert >> seat & 1 != 0 {
                k ^= super::INERT_KEYS[seat];
            }
        }
        k
    }
}

//! The men on the cross board: bitboards by type and seat, a mailbox, the
//! King squares, and attack detection (§3.2).

use super::board::*;
use super::keys;
use super::piece::*;
use crate::bitboard::Bb256;

/// Mailbox code of a man: 0 is empty, else 1 + 8·seat + type.
#[inline(always)]
pub const fn code(seat: usize, ty: usize) -> u8 {
    (1 + 8 * seat + ty) as u8
}
/// The seat of a mailbox code.
#[inline(always)]
pub const fn code_seat(c: u8) -> usize {
    ((c - 1) >> 3) as usize
}
/// The type of a mailbox code.
#[inline(always)]
pub const fn code_type(c: u8) -> usize {
    ((c - 1) & 7) as usize
}

/// No King on the board (`teamchess` after a King capture).
pub const NO_KING: u8 = 0;

/// The cells a man of type `ty` of `seat` on `s` attacks (occupancy
/// `occ`), its pawns moving in the seat's own direction (`PAWN`; the
/// reversed pawns of Four-handed Chess, `RPAWN`, attack nothing here).
#[inline(always)]
pub fn attacks_of(seat: usize, ty: usize, s: Sq, occ: Bb256) -> Bb256 {
    match ty {
        PAWN => PAWN_CAPS[seat][s],
        KNIGHT => KNIGHT_STEPS[s],
        BISHOP => bishop_attacks(s, occ),
        ROOK => rook_attacks(s, occ),
        QUEEN => bishop_attacks(s, occ) | rook_attacks(s, occ),
        KING => KING_STEPS[s],
        _ => Bb256::EMPTY,
    }
}

/// The men and where they stand.
#[derive(Clone, Debug)]
pub struct Men {
    /// Men of each type, every colour.
    pub by_type: [Bb256; COUNT],
    /// Men of each seat.
    pub by_seat: [Bb256; 4],
    /// Every man.
    pub occ: Bb256,
    /// Mailbox: 0 empty, else [`code`].
    pub board: [u8; CELLS],
    /// King square of each seat ([`NO_KING`], cell 0 which does not exist,
    /// when it has none).
    pub kings: [u8; 4],
}

impl Default for Men {
    fn default() -> Self {
        Men {
            by_type: [Bb256::EMPTY; COUNT],
            by_seat: [Bb256::EMPTY; 4],
            occ: Bb256::EMPTY,
            board: [0; CELLS],
            kings: [NO_KING; 4],
        }
    }
}

impl Men {
    /// Puts a man with mailbox code `c` on `s` (the key is the caller's).
    #[inline(always)]
    pub fn put(&mut self, c: u8, s: Sq) {
        let (seat, ty) = (code_seat(c), code_type(c));
        self.by_type[ty].set(s);
        self.by_seat[seat].set(s);
        self.occ.set(s);
        self.board[s] = c;
        if ty == KING {
            self.kings[seat] = s as u8;
        }
    }

    /// Removes the man with mailbox code `c` from `s`.
    #[inline(always)]
    pub fn remove(&mut self, c: u8, s: Sq) {
        let (seat, ty) = (code_seat(c), code_type(c));
        self.by_type[ty].clear(s);
        self.by_seat[seat].clear(s);
        self.occ.clear(s);
        self.board[s] = 0;
        if ty == KING && self.kings[seat] as Sq == s {
            self.kings[seat] = NO_KING;
        }
    }

    /// The man on a cell as (seat, type), if any.
    #[inline(always)]
    pub fn piece_at(&self, s: Sq) -> Option<(usize, usize)> {
        let c = self.board[s];
        (c != 0).then(|| (code_seat(c), code_type(c)))
    }

    /// Whether seat `s` has a King on the board.
    #[inline(always)]
    pub fn has_king(&self, s: usize) -> bool {
        self.kings[s] != NO_KING
    }

    /// The men of the seats in `mask` (bit per seat).
    #[inline(always)]
    pub fn men_of(&self, mask: u8) -> Bb256 {
        let mut b = Bb256::EMPTY;
        for seat in 0..4 {
            if mask >> seat & 1 != 0 {
                b |= self.by_seat[seat];
            }
        }
        b
    }

    /// Pawns currently moving in direction `d` (N E S W): forward pawns of
    /// seat `d` (seat index = its forward direction), reversed pawns of the
    /// seat opposite.
    #[inline(always)]
    pub fn pawns_moving(&self, d: usize) -> Bb256 {
        (self.by_type[PAWN] & self.by_seat[d]) | (self.by_type[RPAWN] & self.by_seat[opposite(d)])
    }

    /// Whether `s` is attacked by a man in `att` with occupancy `occ` (§3.2).
    #[inline]
    pub fn attacked(&self, s: Sq, att: Bb256, occ: Bb256) -> bool {
        if (KNIGHT_STEPS[s] & att & self.by_type[KNIGHT]).any() || (KING_STEPS[s] & att & self.by_type[KING]).any() {
            return true;
        }
        if (KING_STEPS[s] & att & (self.by_type[PAWN] | self.by_type[RPAWN])).any() {
            for d in 0..4 {
                if (PAWN_CAPS[opposite(d)][s] & att & self.pawns_moving(d)).any() {
                    return true;
                }
            }
        }
        let q = self.by_type[QUEEN];
        let rq = (self.by_type[ROOK] | q) & att;
        let bq = (self.by_type[BISHOP] | q) & att;
        if (QUEEN_LINES[s] & (rq | bq)).is_empty() {
            return false;
        }
        for d in 0..4 {
            if (RAYS[d][s] & rq).any() {
                if let Some(b) = first_blocker(d, s, occ) {
                    if rq.has(b) {
                        return true;
                    }
                }
            }
        }
        for d in 4..8 {
            if (RAYS[d][s] & bq).any() {
                if let Some(b) = first_blocker(d, s, occ) {
                    if bq.has(b) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The men of `movers` that alone stand between the King on `ksq` and
    /// a Rook, Bishop or Queen of `att` that could take it along that line
    /// (occupancy `occ`). While that King is not attacked, only the King
    /// itself, en passant and these men can expose it by moving: vacating
    /// any other cell opens no line to it, and the cell a man moves to
    /// only blocks. The move generators test only these men with
    /// [`Men::attacked`], and get the same legal moves as testing all.
    #[inline]
    pub fn pinned(&self, ksq: Sq, movers: Bb256, att: Bb256, occ: Bb256) -> Bb256 {
        let q = self.by_type[QUEEN];
        let rq = (self.by_type[ROOK] | q) & att;
        let bq = (self.by_type[BISHOP] | q) & att;
        let mut pinned = Bb256::EMPTY;
        if (QUEEN_LINES[ksq] & (rq | bq)).is_empty() {
            return pinned;
        }
        for d in 0..8 {
            let sliders = if d < 4 { rq } else { bq };
            if (RAYS[d][ksq] & sliders).is_empty() {
                continue;
            }
            if let Some(b) = first_blocker(d, ksq, occ) {
                if movers.has(b) && first_blocker(d, b, occ).is_some_and(|b2| sliders.has(b2)) {
                    pinned.set(b);
                }
            }
        }
        pinned
    }

    /// The Zobrist key of the men alone.
    pub fn key(&self) -> u64 {
        let mut k = 0;
        for s in EXISTS {
            let c = self.board[s];
            if c != 0 {
                k ^= keys::piece(code_seat(c), code_type(c), s);
            }
        }
        k
    }
}

/// The board field of a position string (§7.1): ranks 14 to 1, existing
/// cells only, runs of empty cells as counts, men as colour letter and piece
/// letter (`colours` by seat).
pub fn write_board_field(men: &Men, colours: [char; 4], out: &mut String) {
    for y in (0..14).rev() {
        let mut run = 0;
        for x in (0..14).filter(|&x| exists_xy(x as i32, y as i32)) {
            match men.piece_at(sq(x, y)) {
                None => run += 1,
                Some((seat, ty)) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(colours[seat]);
                    out.push(LETTERS[ty]);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
        if y > 0 {
            out.push('/');
        }
    }
}

/// A picture of the board, rank 14 at the top, men as colour letter and
/// piece letter (`colours` by seat).
pub fn render(men: &Men, colours: [char; 4]) -> String {
    let mut out = String::new();
    for y in (0..14).rev() {
        out += &format!("{:>3} ", y + 1);
        for x in 0..14 {
            let s = sq(x, y);
            if !exists(s) {
                out += "   ";
            } else if let Some((seat, ty)) = men.piece_at(s) {
                out += &format!(" {}{}", colours[seat], LETTERS[ty]);
            } else {
                out += "  .";
            }
        }
        out.push('\n');
    }
    out += "    ";
    for x in 0..14 {
        out += &format!("  {}", (b'a' + x as u8) as char);
    }
    out.push('\n');
    out
}

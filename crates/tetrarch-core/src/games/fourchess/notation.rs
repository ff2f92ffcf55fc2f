//! Position strings (§7) and move tokens (§10).

use super::board::*;
use super::moves::Move;
use super::piece::*;
use super::{partner, FourChess, Options, MAX_ACTIONS};
use crate::game::{PositionError, TokenError};
use crate::games::cross_board::notation::read_board;
use arrayvec::ArrayVec;

/// Layout A (§9).
pub const START_A: &str = "yRyNyByQyKyByNyR/yPyPyPyPyPyPyPyP/8/bRbP10rPrR/bNbP10rPrN/bBbP10rPrB/bQbP10rPrK/bKbP10rPrQ/bBbP10rPrB/bNbP10rPrN/bRbP10rPrR/8/wPwPwPwPwPwPwPwP/wRwNwBwKwQwBwNwR w - 0 1";
/// Layout B (§9).
pub const START_B: &str = "yRyNyByKyQyByNyR/yPyPyPyPyPyPyPyP/8/bRbP10rPrR/bNbP10rPrN/bBbP10rPrB/bKbP10rPrQ/bQbP10rPrK/bBbP10rPrB/bNbP10rPrN/bRbP10rPrR/8/wPwPwPwPwPwPwPwP/wRwNwBwQwKwBwNwR w - 0 1";

const COLOURS: [char; 4] = ['w', 'b', 'y', 'r'];
const PIECES: [char; 7] = LETTERS;

fn colour_seat(c: char) -> Option<usize> {
    COLOURS.iter().position(|&x| x == c)
}

fn parse_number(field: &str, what: &str) -> Result<u32, PositionError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::field(what, format!("`{field}` is not a decimal number")));
    }
    // Capped far below u32::MAX so that counting turns can never overflow.
    field
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= 1_000_000_000)
        .ok_or_else(|| PositionError::field(what, format!("`{field}` is too large (at most 1000000000)")))
}

/// Parses a `fourchess` position string.
pub fn parse_position(s: &str, rules: Options) -> Result<FourChess, PositionError> {
    let fields: Vec<&str> = s.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() != 5 {
        return Err(PositionError::field(
            "position",
            format!("expected 5 fields (board, side, inert, clock, fullmove), found {}", fields.len()),
        ));
    }
    let mut pos = FourChess::empty(rules);
    let mut king_count = [0u32; 4];
    read_board(
        fields[0],
        colour_seat,
        |c| PIECES.iter().position(|&x| x == c),
        |seat, ty, sq_| {
            let name = square_name(sq_);
            if ty == PAWN && BACK[seat].has(sq_) {
                return Err(format!("{name}: a forward pawn on its own back line"));
            }
            if ty <= RPAWN && (BACK[(seat + 1) & 3] | BACK[(seat + 3) & 3]).has(sq_) {
                return Err(format!("{name}: a pawn on an enemy's back line"));
            }
            if ty == PAWN && BACK[partner(seat)].has(sq_) {
                return Err(format!("{name}: a forward pawn on its partner's back line"));
            }
            if ty == RPAWN && PAWN_LINE[seat].has(sq_) {
                return Err(format!("{name}: a reversed pawn on its own pawn line"));
            }
            if ty == KING {
                king_count[seat] += 1;
            }
            pos.put(seat, ty, sq_);
            Ok(())
        },
    )
    .map_err(|e| PositionError::field("board", e.to_string()))?;
    for (seat, &n) in king_count.iter().enumerate() {
        if n != 1 {
            return Err(PositionError::field("board", format!("colour `{}` has {n} Kings, expected exactly 1", COLOURS[seat])));
        }
    }
    let side = fields[1];
    pos.side = match side.chars().collect::<Vec<_>>().as_slice() {
        [c] => colour_seat(*c).ok_or_else(|| PositionError::field("side", format!("`{side}` is not one of w b y r")))? as u8,
        _ => return Err(PositionError::field("side", format!("`{side}` is not one of w b y r"))),
    };
    let inert = fields[2];
    if inert != "-" {
        let mut last: Option<usize> = None;
        for c in inert.chars() {
            let seat = colour_seat(c).ok_or_else(|| PositionError::field("inert", format!("unknown colour letter `{c}`")))?;
            if last.is_some_and(|l| seat <= l) {
                return Err(PositionError::field(
                    "inert",
                    format!("`{inert}` has repeated or out-of-order letters (order w b y r)"),
                ));
            }
            last = Some(seat);
            pos.inert |= 1 << seat;
        }
    }
    pos.halfmove = parse_number(fields[3], "clock")?;
    pos.fullmove = parse_number(fields[4], "fullmove")?;
    if pos.fullmove == 0 {
        return Err(PositionError::field("fullmove", "must be at least 1"));
    }
    pos.key = pos.compute_key();
    pos.recompute_checks();
    Ok(pos)
}

/// The canonical position string.
pub fn write_position(p: &FourChess) -> String {
    let mut out = String::with_capacity(160);
    crate::games::cross_board::men::write_board_field(&p.men, COLOURS, &mut out);
    out.push(' ');
    out.push(COLOURS[p.side as usize]);
    out.push(' ');
    if p.inert == 0 {
        out.push('-');
    } else {
        for (seat, c) in COLOURS.iter().enumerate() {
            if p.inert >> seat & 1 != 0 {
                out.push(*c);
            }
        }
    }
    out += &format!(" {} {}", p.halfmove, p.fullmove);
    out
}

/// A picture of the board, rank 14 at the top.
pub fn render(p: &FourChess) -> String {
    crate::games::cross_board::men::render(&p.men, COLOURS)
}

/// Writes a move token (§10).
pub fn write_move(m: Move, out: &mut String) {
    if m.is_pass() {
        out.push_str("0000");
        return;
    }
    out.push_str(&square_name(m.from()));
    out.push_str(&square_name(m.to()));
    if m.is_promotion() {
        out.push('q');
    }
}

/// Splits `<square><square>[suffix]` into its parts by the grammar
/// `[a-n][1-9][0-9]?` twice.
fn split_squares(t: &str) -> Option<(&str, &str, &str)> {
    let b = t.as_bytes();
    let square_len = |i: usize| -> Option<usize> {
        if i >= b.len() || !b[i].is_ascii_lowercase() {
            return None;
        }
        let mut j = i + 1;
        while j < b.len() && j < i + 3 && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > i + 1).then_some(j - i)
    };
    let l1 = square_len(0)?;
    let l2 = square_len(l1)?;
    Some((&t[..l1], &t[l1..l1 + l2], &t[l1 + l2..]))
}

/// Parses a move token in `p`: `e2e3`, `b10a11q` (the `q` may be left out),
/// `0000`.
pub fn parse_move(p: &FourChess, t: &str) -> Result<Move, TokenError> {
    let mut legal = ArrayVec::<Move, MAX_ACTIONS>::new();
    p.turns(&mut legal);
    if t == "0000" {
        return if legal.contains(&Move::PASS) {
            Ok(Move::PASS)
        } else if legal.is_empty() {
            Err(TokenError::Illegal("the game is over".into()))
        } else {
            Err(TokenError::Illegal("`0000` is legal only for an inert or stalemated player".into()))
        };
    }
    let (a, b, suffix) = split_squares(t).ok_or_else(|| TokenError::Malformed("expected <from><to>[q], e.g. `e2e3`".into()))?;
    let from = parse_square(a).ok_or_else(|| TokenError::Malformed(format!("`{a}` is not a square")))?;
    let to = parse_square(b).ok_or_else(|| TokenError::Malformed(format!("`{b}` is not a square")))?;
    let promo = match suffix {
        "" => false,
        "q" => true,
        _ => return Err(TokenError::Malformed(format!("unknown suffix `{suffix}` (only `q`)"))),
    };
    if legal.is_empty() {
        return Err(TokenError::Illegal("the game is over".into()));
    }
    match legal.iter().find(|m| !m.is_pass() && m.from() == from && m.to() == to) {
        Some(&m) if promo && !m.is_promotion() => Err(TokenError::Illegal(format!("{a}{b} is not a promotion"))),
        Some(&m) => Ok(m),
        None => Err(TokenError::Illegal(format!("{a}{b} is not a legal move"))),
    }
}

/// A move prints as its token (tests, assertion messages).
impl core::fmt::Debug for super::moves::Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut s = String::new();
        write_move(*self, &mut s);
        f.write_str(&s)
    }
}

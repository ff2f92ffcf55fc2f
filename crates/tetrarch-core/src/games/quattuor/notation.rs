//! Position strings (§9), action tokens (§8) and set-up tokens (§4.2).

use super::board::*;
use super::moves::Action;
use super::value::*;
use super::{parse_piece, piece_code, side_of_piece, suit_of, value_of, Piece, Quattuor, MAX_ACTIONS, NONE, SUITS, VALUES};
use crate::bitboard::Bb256;
use crate::game::{PositionError, TokenError};
use crate::ranks::{first_char, read_ranks};
use arrayvec::ArrayVec;

/// The default set-ups (§4.4): Red's, Black's.
pub const START_SETUP: [&str; 2] = [
    "d7@m3,d8@c6,d9@j5,dT@p5,dJ@m5,dQ@g6,dK@d4,dA@j3,h7@e3,h8@n6,h9@h5,hT@b5,hJ@e5,hQ@j6,hK@m4,hA@h3",
    "c7@e13,c8@n10,c9@h11,cT@b11,cJ@e11,cQ@j10,cK@m12,cA@h13,s7@m13,s8@c10,s9@j11,sT@p11,sJ@m11,sQ@g10,sK@d12,sA@j13",
];

/// The start position (§4.4.1).
pub const START: &str = "17/16/4c72cA1sA2s74/3sK8cK3/1cT2cJ2c91s92sJ2sT1/2s83sQ2cQ3c82/17/16/17/2d83dQ2hQ3h82/1hT2hJ2h91d92dJ2dT1/3dK8hK3/4h72hA1dA2d74/16/17 r - - - 1";

const FIELD_NAMES: [&str; 6] = ["board", "side", "moved", "captured", "locked", "turn"];

fn ferr(field: usize, msg: impl AsRef<str>) -> PositionError {
    PositionError::field(format!("field {field} ({})", FIELD_NAMES[field - 1]), msg.as_ref())
}

/// Field 1's cards, placed on `pos` (each card at most once, none on an
/// enemy Base, no 7 to Jack on its goal rank, not both sides home).
fn read_board(pos: &mut Quattuor, field: &str) -> Result<(), PositionError> {
    let widths: Vec<usize> = (0..15).map(width).collect();
    let card = |t: &str| {
        let c = first_char(t);
        let Some(suit) = SUITS.iter().position(|&x| x == c) else {
            return Err(format!("`{c}` is neither a digit nor a suit letter"));
        };
        let Some(v) = t.as_bytes().get(1).and_then(|&x| VALUES.iter().position(|&y| y as u8 == x)) else {
            return Err(format!("suit letter `{c}` is not followed by a value (7 8 9 T J Q K A)"));
        };
        Ok((suit * 8 + v, 2))
    };
    let put = |cell: usize, y: usize, p: Piece| {
        if pos.sq_of[p] != NONE {
            return Err(format!("piece {} appears more than once", piece_code(p)));
        }
        pos.put(p, sq(cell, y));
        Ok(())
    };
    read_ranks(field, &widths, card, put).map_err(|e| ferr(1, e.to_string()))?;
    for p in 0..32 {
        if let Some(at) = pos.square_of(p) {
            let side = side_of_piece(p);
            if BASES_BB[1 - side].has(at) {
                return Err(ferr(1, format!("{} stands on an enemy Base {}", piece_code(p), square_name(at))));
            }
            if value_of(p) <= JACK && GOAL[side].has(at) {
                return Err(ferr(1, format!("{} (a 7 to Jack) stands on its goal rank at {}", piece_code(p), square_name(at))));
            }
        }
    }
    let reached = |side: usize| {
        (0..32).any(|p| side_of_piece(p) == side && value_of(p) >= QUEEN && pos.square_of(p).is_some_and(|s| GOAL[side].has(s)))
    };
    if reached(0) && reached(1) {
        return Err(ferr(1, "both sides have a Queen, King or Ace on their goal ranks"));
    }
    Ok(())
}

/// Field 4: the captured cards, which must be exactly those not on the
/// board, in the canonical order.
fn check_captured(pos: &Quattuor, c: &str) -> Result<(), PositionError> {
    let mut listed = 0u32;
    if c != "-" {
        if c.len() % 2 != 0 || !c.is_ascii() {
            return Err(ferr(4, format!("`{c}` is not `-` or a list of piece codes")));
        }
        let mut last: Option<Piece> = None;
        for k in (0..c.len()).step_by(2) {
            let code = &c[k..k + 2];
            let p = parse_piece(code).ok_or_else(|| ferr(4, format!("`{code}` is not a piece code")))?;
            if listed >> p & 1 != 0 {
                return Err(ferr(4, format!("{code} is listed twice")));
            }
            if pos.sq_of[p] != NONE {
                return Err(ferr(4, format!("{code} is listed but stands on the board")));
            }
            if last.is_some_and(|l| p < l) {
                return Err(ferr(4, format!("{code} is out of the canonical order (d h c s, 7 8 9 T J Q K A)")));
            }
            last = Some(p);
            listed |= 1 << p;
        }
    }
    if listed != pos.captured {
        let missing = (0..32).find(|&p| pos.captured >> p & 1 != 0 && listed >> p & 1 == 0).unwrap();
        return Err(ferr(4, format!("{} is not on the board but not listed", piece_code(missing))));
    }
    Ok(())
}

/// Parses a position string (§9), with every check of §9.2.
pub fn parse_position(s: &str) -> Result<Quattuor, PositionError> {
    let fields: Vec<&str> = s.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() != 6 {
        return Err(PositionError::field(
            "position",
            format!("expected 6 fields (board side moved captured locked turn), found {}", fields.len()),
        ));
    }
    let mut pos = Quattuor::empty();
    // ---- field 1: board
    read_board(&mut pos, fields[0])?;
    // ---- field 2: side
    pos.side = match fields[1] {
        "r" => 0,
        "b" => 1,
        x => return Err(ferr(2, format!("`{x}` is not `r` or `b`"))),
    };
    // ---- field 6: turn
    let t = fields[5];
    if t.is_empty() || !t.bytes().all(|c| c.is_ascii_digit()) || t.starts_with('0') {
        return Err(ferr(6, format!("`{t}` is not a positive decimal integer without leading zeros")));
    }
    // Capped far below u32::MAX, as every game's counters are, so that
    // playing on can never wrap the number round (to turn 1's rule).
    pos.turn = t
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= 1_000_000_000)
        .ok_or_else(|| ferr(6, format!("`{t}` is too large (at most 1000000000)")))?;
    if (pos.turn % 2 == 1) != (pos.side == 0) {
        return Err(ferr(6, format!("turn {} does not match the side to move `{}` (odd ↔ r, even ↔ b)", pos.turn, fields[1])));
    }
    // ---- field 3: moved
    let m = fields[2];
    if m != "-" {
        let suit = match m.as_bytes() {
            [c] => SUITS.iter().position(|&x| x as u8 == *c),
            _ => None,
        };
        match suit {
            Some(su) if su / 2 == pos.side as usize => pos.moved = 1 << su,
            _ => return Err(ferr(3, format!("`{m}` is not `-` or one suit letter of the side to move"))),
        }
        if pos.turn == 1 {
            return Err(ferr(3, "must be `-` on turn 1 (one action only)"));
        }
    }
    // ---- field 4: captured
    check_captured(&pos, fields[3])?;
    // ---- field 5: locked
    let l = fields[4];
    if l != "-" {
        if pos.moved == 0 {
            return Err(ferr(5, "must be `-` while field 3 (moved) is `-`"));
        }
        let mut last: Option<String> = None;
        let s = pos.side as usize;
        for name in l.split(',') {
            let at = parse_square(name).ok_or_else(|| ferr(5, format!("`{name}` is not a square")))?;
            let b = BASES[s]
                .iter()
                .position(|&x| x == at)
                .ok_or_else(|| ferr(5, format!("{name} is not an own Base of the side to move")))?;
            if pos.piece_at(at).is_none_or(|p| side_of_piece(p) != s) {
                return Err(ferr(5, format!("{name} holds no piece of the side to move")));
            }
            if pos.locked >> b & 1 != 0 {
                return Err(ferr(5, format!("{name} is named twice")));
            }
            if last.as_deref().is_some_and(|x| x >= name) {
                return Err(ferr(5, format!("`{l}` is not in increasing order of square name")));
            }
            last = Some(name.to_string());
            pos.locked |= 1 << b;
        }
    }
    pos.result = pos.compute_result();
    pos.key = pos.compute_key();
    Ok(pos)
}

/// The canonical position string.
pub fn write_position(p: &Quattuor) -> String {
    let mut out = String::with_capacity(160);
    for y in (0..15).rev() {
        let mut run = 0;
        for f in 0..width(y) {
            match p.piece_at(sq(f, y)) {
                None => run += 1,
                Some(pc) => {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out += &piece_code(pc);
                }
            }
        }
        if run > 0 {
            out += &run.to_string();
        }
        if y > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(if p.side == 0 { 'r' } else { 'b' });
    out.push(' ');
    match (0..4).find(|&s| p.moved >> s & 1 != 0) {
        Some(s) => out.push(SUITS[s]),
        None => out.push('-'),
    }
    out.push(' ');
    if p.captured == 0 {
        out.push('-');
    } else {
        for pc in 0..32 {
            if p.captured >> pc & 1 != 0 {
                out += &piece_code(pc);
            }
        }
    }
    out.push(' ');
    if p.locked == 0 {
        out.push('-');
    } else {
        let names: Vec<String> =
            (0..2).filter(|&b| p.locked >> b & 1 != 0).map(|b| square_name(BASES[p.side as usize][b])).collect();
        out += &names.join(",");
    }
    out += &format!(" {}", p.turn);
    out
}

/// A picture of the board in Red's view, as in §4.4.1.
pub fn render(p: &Quattuor) -> String {
    let mut out = String::new();
    for y in (0..15).rev() {
        out += &format!("{:>2} ", y + 1);
        if y % 2 == 1 {
            out += "  ";
        }
        for f in 0..width(y) {
            let s = sq(f, y);
            let cell = match p.piece_at(s) {
                Some(pc) => piece_code(pc),
                None if BASES_BB[0].has(s) || BASES_BB[1].has(s) => "[]".into(),
                None if (6..9).contains(&y) => " :".into(),
                None => " .".into(),
            };
            out += &format!(" {cell} ");
        }
        out.push('\n');
    }
    out += "    ";
    for f in 0..17 {
        out += &format!(" {}  ", (b'a' + f as u8) as char);
    }
    out.push('\n');
    out
}

/// Writes an action token (§8.1).
pub fn write_action(p: &Quattuor, a: Action, out: &mut String) {
    if a.is_pass() {
        out.push_str("0000");
        return;
    }
    push_square(a.from(), out);
    push_square(a.to(), out);
    if a.retreat() {
        push_square(a.from(), out);
    }
    // The mover's side owns the rescue Bases: the side to move before the
    // action (this is only called on the position before the action).
    let s = p.side as usize;
    for b in 0..2 {
        if let Some(r) = a.rescue(b) {
            out.push('/');
            out.push_str(&piece_code(r));
            out.push('@');
            push_square(BASES[s][b], out);
        }
    }
}

fn malformed(m: impl Into<String>) -> TokenError {
    TokenError::Malformed(m.into())
}
fn illegal(m: impl Into<String>) -> TokenError {
    TokenError::Illegal(m.into())
}

/// Parses an action token in `p` (canonical form only, §8.4).
pub fn parse_action(p: &Quattuor, t: &str) -> Result<Action, TokenError> {
    if t == "0000" {
        return if p.result != super::result::NONE { Err(illegal("the game is over")) } else { Ok(Action::PASS) };
    }
    let b = t.as_bytes();
    let grammar = "expected <from><to>[<from>]{/<piece>@<base>}, e.g. `f5g7`, `e5f7e5`, `k11k12/dK@f4`";
    let l1 = square_len(b, 0).ok_or_else(|| malformed(grammar))?;
    let l2 = square_len(b, l1).ok_or_else(|| malformed(grammar))?;
    let (ta, tb) = (&t[..l1], &t[l1..l1 + l2]);
    let from = parse_square(ta).ok_or_else(|| malformed(format!("`{ta}` is not a square")))?;
    let to = parse_square(tb).ok_or_else(|| malformed(format!("`{tb}` is not a square")))?;
    if from == to {
        return Err(illegal(format!("{ta}{tb}: a 0-step move is not an action")));
    }
    let mut i = l1 + l2;
    let mut retreat = false;
    if let Some(l3) = square_len(b, i) {
        let tc = &t[i..i + l3];
        let back = parse_square(tc).ok_or_else(|| malformed(format!("`{tc}` is not a square")))?;
        if back != from {
            return Err(malformed(format!("a retreat must return to the start cell {ta}, not {tc}")));
        }
        retreat = true;
        i += l3;
    }
    let mut rescues: Vec<(Piece, Sq, String)> = Vec::new();
    let rest = &t[i..];
    if !rest.is_empty() {
        if !rest.starts_with('/') {
            return Err(malformed(format!("unexpected `{rest}`; {grammar}")));
        }
        for part in rest[1..].split('/') {
            let (pc, base) = part.split_once('@').ok_or_else(|| malformed(format!("rescue `{part}` is not <piece>@<base>")))?;
            let r = parse_piece(pc).ok_or_else(|| malformed(format!("`{pc}` is not a piece code")))?;
            let at = parse_square(base).ok_or_else(|| malformed(format!("`{base}` is not a square")))?;
            rescues.push((r, at, base.to_string()));
        }
    }
    if rescues.len() > 2 {
        return Err(illegal("at most 2 rescues"));
    }
    if retreat && !rescues.is_empty() {
        return Err(illegal("a retreat cannot be combined with rescues"));
    }
    if rescues.len() == 2 && rescues[0].2 >= rescues[1].2 {
        return Err(malformed("two rescues must be in increasing order of the Base's square name"));
    }
    if p.result != super::result::NONE {
        return Err(illegal("the game is over"));
    }
    let s = p.side as usize;
    let mut a = Action::new(from, to);
    if retreat {
        a = a.with_retreat();
    }
    for (r, at, name) in &rescues {
        let bi = BASES[s]
            .iter()
            .position(|x| x == at)
            .ok_or_else(|| illegal(format!("rescue onto {name}, which is not an own Base of the side to move")))?;
        a = a.with_rescue(bi, *r);
    }
    let mut legal = ArrayVec::<Action, MAX_ACTIONS>::new();
    p.generate(&mut legal);
    if legal.contains(&a) {
        return Ok(a);
    }
    Err(illegal(diagnose(p, from, to, retreat, &rescues)))
}

/// Why piece `pc` of the side to move, on `at`, cannot act at all now
/// (§6.1.1): its suit already acted this turn, it is frozen, or it is
/// locked; `None` if it may act (or belongs to the other side, or the game
/// is over). Shared by the illegal-action message and the board's cues.
pub(crate) fn idle_reason(p: &Quattuor, pc: Piece, at: Sq) -> Option<String> {
    if side_of_piece(pc) != p.side as usize || p.result != super::result::NONE {
        return None;
    }
    let (code, fa) = (piece_code(pc), square_name(at));
    let suit = suit_of(pc);
    if p.moved >> suit & 1 != 0 {
        return Some(format!(
            "the suit of {code} has already made an action this turn (a second action must use the other suit)"
        ));
    }
    if value_of(pc) != ACE && p.captured >> (suit * 8 + KING) & 1 != 0 {
        return Some(format!("{code} is frozen: the King of its suit is captured"));
    }
    if !p.can_act(pc) {
        return Some(format!("{code} on {fa} is locked: it was rescued this turn"));
    }
    None
}

/// Why a well-formed action is not legal.
fn diagnose(p: &Quattuor, from: Sq, to: Sq, retreat: bool, rescues: &[(Piece, Sq, String)]) -> String {
    let (fa, ta) = (square_name(from), square_name(to));
    let s = p.side as usize;
    let Some(pc) = p.piece_at(from) else {
        return format!("no piece on {fa}");
    };
    let code = piece_code(pc);
    if side_of_piece(pc) != s {
        return format!("{code} on {fa} belongs to the opponent");
    }
    if let Some(why) = idle_reason(p, pc, from) {
        return why;
    }
    let mut legal = ArrayVec::<Action, MAX_ACTIONS>::new();
    p.generate(&mut legal);
    let moves: Vec<Action> = legal.iter().copied().filter(|a| !a.is_pass() && a.from() == from && a.to() == to).collect();
    if moves.is_empty() {
        return if from == to {
            "a 0-step move is not an action".into()
        } else {
            match p.piece_at(to) {
                Some(q) if side_of_piece(q) == s => format!("{ta} holds an own piece"),
                Some(q) if !super::CAPTURES[value_of(pc)] >> value_of(q) & 1 != 0 => {
                    format!("{code} cannot capture {}", piece_code(q))
                }
                _ => format!("{code} cannot reach {ta}"),
            }
        };
    }
    if retreat {
        return if value_of(pc) != ACE {
            format!("only an Ace can retreat; {code} is not one")
        } else {
            format!("{fa}{ta} is not a capture: an Ace retreats only after capturing")
        };
    }
    if !rescues.is_empty() {
        let special = BASES_BB[1 - s].has(to) || (value_of(pc) <= JACK && GOAL[s].has(to));
        if !special {
            return format!("no rescue after {fa}{ta}: only a landing on an enemy Base or (7 to Jack) the goal rank allows one");
        }
        if BASES_BB[1 - s].has(to) && rescues.len() > 1 {
            return "a landing on an enemy Base allows at most 1 rescue".into();
        }
        for (r, at, name) in rescues {
            if side_of_piece(*r) != s {
                return format!("{} is not a piece of the side to move", piece_code(*r));
            }
            if *r != pc && p.captured >> r & 1 == 0 {
                return format!("{} is not captured", piece_code(*r));
            }
            if p.piece_at(*at).is_some() && *at != from {
                return format!("Base {name} is occupied");
            }
        }
        if rescues.len() == 2 && rescues[0].0 == rescues[1].0 {
            return "two rescues must be two different pieces".into();
        }
    }
    "not a legal action".into()
}

/// Parses a set-up token of `side` (§4.2).
pub fn parse_setup(side: usize, t: &str) -> Result<Vec<(Piece, Sq)>, String> {
    let entries: Vec<&str> = t.split(',').collect();
    if entries.len() != 16 {
        return Err(format!("expected 16 entries <piece>@<square> joined by `,`, found {}", entries.len()));
    }
    let mut used = Bb256::EMPTY;
    let mut out = Vec::with_capacity(16);
    for (i, e) in entries.iter().enumerate() {
        let expect = side * 16 + i;
        let (pc, at) = e.split_once('@').ok_or_else(|| format!("entry {} `{e}` is not <piece>@<square>", i + 1))?;
        let p = parse_piece(pc).ok_or_else(|| format!("entry {} `{e}`: `{pc}` is not a piece code", i + 1))?;
        if p != expect {
            return Err(format!(
                "entry {} `{e}`: expected {} (the {} side's 16 pieces in the canonical order)",
                i + 1,
                piece_code(expect),
                ["red", "black"][side]
            ));
        }
        let s = parse_square(at).ok_or_else(|| format!("entry {} `{e}`: `{at}` is not a square", i + 1))?;
        if !TERRITORY[side].has(s) {
            return Err(format!(
                "entry {} `{e}`: {at} is outside the {} territory (ranks {})",
                i + 1,
                ["red", "black"][side],
                ["1-6", "10-15"][side]
            ));
        }
        if used.has(s) {
            return Err(format!("entry {} `{e}`: square {at} is used twice", i + 1));
        }
        used.set(s);
        out.push((p, s));
    }
    Ok(out)
}

/// The position after both set-ups (§4.3.2).
pub fn from_setup(tokens: &[&str]) -> Result<Quattuor, PositionError> {
    if tokens.len() != 2 {
        return Err(PositionError::field("setup", format!("expected 2 tokens (red, black), found {}", tokens.len())));
    }
    let mut pos = Quattuor::empty();
    for (side, t) in tokens.iter().enumerate() {
        let name = ["red", "black"][side];
        let entries = parse_setup(side, t).map_err(|e| PositionError::field(format!("setup token {name}"), e.to_string()))?;
        for (p, s) in entries {
            pos.put(p, s);
        }
    }
    pos.result = pos.compute_result();
    pos.key = pos.compute_key();
    Ok(pos)
}

/// The set-up token of `side` in a position (pieces not on the board are
/// left out, so it is only a full token right after a set-up).
pub fn setup_token(p: &Quattuor, side: usize) -> String {
    let mut parts = Vec::new();
    for pc in side * 16..side * 16 + 16 {
        if let Some(s) = p.square_of(pc) {
            parts.push(format!("{}@{}", piece_code(pc), square_name(s)));
        }
    }
    parts.join(",")
}

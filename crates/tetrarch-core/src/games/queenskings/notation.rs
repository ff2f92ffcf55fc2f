//! Position strings (§7) and turn tokens (§8): parse, print, render.

use super::board::*;
use super::moves::{Move, MoveKind, MoveList};
use super::{Mode, Options, QueensKings, MAN};
use crate::game::{PositionError, TokenError};
use crate::ranks::{first_char, read_ranks};

/// §7.5: `queenskings`, `queenskings-teams`.
pub const START_17: &str = "2nm1nm1nm1nm1nm1nm1nm2/3nm1nm1nm1nm1nm1nm3/wm3nm1nm1nm1nm1nm3em/1wm13em1/wm1wm11em1em/1wm13em1/wm1wm11em1em/1wm13em1/wm1wm11em1em/1wm13em1/wm1wm11em1em/1wm13em1/wm1wm11em1em/1wm13em1/wm3sm1sm1sm1sm1sm3em/3sm1sm1sm1sm1sm1sm3/2sm1sm1sm1sm1sm1sm1sm2 s swne 0 1";
/// §7.5: `queenskings-duel`.
pub const START_17_DUEL: &str = "2nm1nm1nm1nm1nm1nm1nm2/3nm1nm1nm1nm1nm1nm3/4nm1nm1nm1nm1nm4/17/17/17/17/17/17/17/17/17/17/17/4sm1sm1sm1sm1sm4/3sm1sm1sm1sm1sm1sm3/2sm1sm1sm1sm1sm1sm1sm2 s sn 0 1";
/// §7.5: `queenskings9`, `queenskings9-teams`.
pub const START_13: &str = "2nm1nm1nm1nm1nm2/3nm1nm1nm1nm3/wm11em/1wm9em1/wm11em/1wm9em1/wm11em/1wm9em1/wm11em/1wm9em1/wm11em/3sm1sm1sm1sm3/2sm1sm1sm1sm1sm2 s swne 0 1";
/// §7.5: `queenskings9-duel`.
pub const START_13_DUEL: &str =
    "2nm1nm1nm1nm1nm2/3nm1nm1nm1nm3/13/13/13/13/13/13/13/13/13/3sm1sm1sm1sm3/2sm1sm1sm1sm1sm2 s sn 0 1";

/// The start position string of the variant `opts` describes.
pub fn start_string(opts: &Options) -> &'static str {
    match (opts.size == 13, opts.mode == Mode::Duel) {
        (false, false) => START_17,
        (false, true) => START_17_DUEL,
        (true, false) => START_13,
        (true, true) => START_13_DUEL,
    }
}

/// Seat letters by colour.
pub const SEAT_LETTERS: [char; 4] = ['s', 'w', 'n', 'e'];
/// Type letters by type.
pub const TYPE_LETTERS: [char; 3] = ['m', 'k', 'q'];

fn variant_name(opts: &Options) -> String {
    let mut v = String::from(if opts.size == 13 { "queenskings9" } else { "queenskings" });
    match opts.mode {
        Mode::FreeForAll => {}
        Mode::Teams => v += "-teams",
        Mode::Duel => v += "-duel",
    }
    v
}

fn seat_letters(opts: &Options) -> &'static str {
    if opts.mode == Mode::Duel {
        "s n"
    } else {
        "s w n e"
    }
}

fn parse_number(field: &str, what: &str) -> Result<u32, PositionError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::field(what, format!("`{field}` is not a decimal number without sign")));
    }
    if field.len() > 1 && field.starts_with('0') {
        return Err(PositionError::field(what, format!("`{field}` has a leading zero")));
    }
    // Capped far below u32::MAX, as every game's counters are, so that
    // playing on can never overflow them.
    field
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= 1_000_000_000)
        .ok_or_else(|| PositionError::field(what, format!("`{field}` is too large (at most 1000000000)")))
}

/// Field 1 (§7): the pieces, placed on `pos`; the number of pieces of
/// each colour.
fn read_board(pos: &mut QueensKings, field: &str) -> Result<[u32; 4], PositionError> {
    let opts = pos.rules;
    let g = pos.geo;
    let playing = opts.colours();
    let mut counts = [0u32; 4];
    let piece = |t: &str| {
        let c = first_char(t);
        let Some(colour) = SEAT_LETTERS.iter().position(|&x| x == c) else {
            return Err(if TYPE_LETTERS.contains(&c) {
                format!("type letter `{c}` without a seat letter before it")
            } else {
                format!("`{c}` is not a seat letter, type letter, digit or `/`")
            });
        };
        let ty = match t.as_bytes().get(1) {
            Some(b'm') => MAN,
            Some(b'k') => super::KING,
            Some(b'q') => super::QUEEN,
            _ => return Err(format!("seat letter `{c}` is not followed by m, k or q")),
        };
        if playing >> colour & 1 == 0 {
            return Err(format!("seat `{c}` does not play in {}", variant_name(&opts)));
        }
        Ok(((colour, ty), 2))
    };
    let put = |f: usize, r: usize, (colour, ty): (usize, u8)| {
        let name = format!("{}{}", (b'a' + f as u8) as char, r + 1);
        if (f + r) & 1 != 0 {
            return Err(format!("{name}: a piece on an unplayable (light) square"));
        }
        let s = sq(f, r);
        if ty == MAN && s == g.centre {
            return Err(format!("{name}: a man on the centre (it would be a King)"));
        }
        if ty == MAN && g.qedge[colour].has(s) {
            return Err(format!("{name}: a man of `{}` on its own Queen edge (it would be a Queen)", SEAT_LETTERS[colour]));
        }
        pos.put(colour, ty, s);
        counts[colour] += 1;
        Ok(())
    };
    read_ranks(field, &vec![g.n; g.n], piece, put).map_err(|e| PositionError::field("board", e.to_string()))?;
    Ok(counts)
}

/// Parses a position string (§7) under `opts`, with the checks of §7.6.
pub fn parse_position(s: &str, opts: Options) -> Result<QueensKings, PositionError> {
    let fields: Vec<&str> = s.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() != 5 {
        return Err(PositionError::field(
            "position",
            format!(
                "expected 5 fields (board, seat to move, seats in the game, draw counter, turn number), found {}",
                fields.len()
            ),
        ));
    }
    let mut pos = QueensKings::empty(opts);
    let playing = opts.colours();

    // -- board
    let counts = read_board(&mut pos, fields[0])?;
    let most = opts.start_count();
    for (c, &k) in counts.iter().enumerate() {
        if k > most {
            return Err(PositionError::field(
                "board",
                format!("seat `{}` has {k} pieces, more than the {most} it starts with", SEAT_LETTERS[c]),
            ));
        }
    }

    // -- seat to move
    let side = fields[1];
    let to_move = match side.as_bytes() {
        [c] => SEAT_LETTERS.iter().position(|&x| x == *c as char).filter(|&c| playing >> c & 1 != 0),
        _ => None,
    }
    .ok_or_else(|| PositionError::field("seat to move", format!("`{side}` is not one of {}", seat_letters(&opts))))?;

    // -- seats in the game
    let field = fields[2];
    let mut in_game = 0u8;
    let mut last: Option<usize> = None;
    for c in field.chars() {
        let colour =
            SEAT_LETTERS.iter().position(|&x| x == c).filter(|&c| playing >> c & 1 != 0).ok_or_else(|| {
                PositionError::field("seats in the game", format!("`{c}` is not one of {}", seat_letters(&opts)))
            })?;
        if in_game >> colour & 1 != 0 {
            return Err(PositionError::field("seats in the game", format!("`{c}` is repeated")));
        }
        if last.is_some_and(|l| colour < l) {
            return Err(PositionError::field(
                "seats in the game",
                format!("`{field}` is not in turn order ({})", seat_letters(&opts)),
            ));
        }
        last = Some(colour);
        in_game |= 1 << colour;
    }
    if in_game == 0 {
        return Err(PositionError::field("seats in the game", "empty"));
    }
    if in_game >> to_move & 1 == 0 {
        return Err(PositionError::field("seat to move", format!("`{side}` is not in the game (`{field}`)")));
    }

    // -- counters
    let counter = parse_number(fields[3], "draw counter")?;
    let turn = parse_number(fields[4], "turn number")?;
    if turn == 0 {
        return Err(PositionError::field("turn number", "must be at least 1"));
    }

    if opts.mode == Mode::FreeForAll && !opts.keep_eliminated {
        for (c, bb) in pos.st.by_colour.iter().enumerate() {
            if in_game >> c & 1 == 0 && bb.any() {
                return Err(PositionError::field(
                    "board",
                    format!("seat `{}` is out of the game but has pieces (QK_EliminatedPieces = remove)", SEAT_LETTERS[c]),
                ));
            }
        }
    }

    pos.st.to_move = to_move as u8;
    pos.st.in_game = in_game;
    pos.st.counter = counter;
    pos.st.turn = turn;
    pos.st.key = pos.compute_key();
    if !pos.one_side(in_game) && !pos.has_any_move(to_move) {
        return Err(PositionError::field("seat to move", format!("`{side}` has no legal move (it would already be out)")));
    }
    Ok(pos)
}

/// The canonical position string.
pub fn write_position(p: &QueensKings) -> String {
    let n = p.geo.n;
    let mut out = String::with_capacity(200);
    for r in (0..n).rev() {
        let mut run = 0;
        for f in 0..n {
            let piece = if (f + r) % 2 == 0 { p.piece_at(sq(f, r)) } else { None };
            match piece {
                None => run += 1,
                Some((c, ty)) => {
                    if run > 0 {
                        out += &run.to_string();
                        run = 0;
                    }
                    out.push(SEAT_LETTERS[c]);
                    out.push(TYPE_LETTERS[ty as usize]);
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
    out.push(' ');
    out.push(SEAT_LETTERS[p.st.to_move as usize]);
    out.push(' ');
    for (c, &l) in SEAT_LETTERS.iter().enumerate() {
        if p.st.in_game >> c & 1 != 0 {
            out.push(l);
        }
    }
    out += &format!(" {} {}", p.st.counter, p.st.turn);
    out
}

/// A picture of the board, top rank first: `.` empty playable square,
/// blank unplayable cell, `*` the empty centre, pieces as in the string.
pub fn render(p: &QueensKings) -> String {
    let n = p.geo.n;
    let mut out = String::new();
    for r in (0..n).rev() {
        out += &format!("{:>3} ", r + 1);
        for f in 0..n {
            if (f + r) % 2 != 0 {
                out += "   ";
            } else if let Some((c, ty)) = p.piece_at(sq(f, r)) {
                out.push(' ');
                out.push(SEAT_LETTERS[c]);
                out.push(TYPE_LETTERS[ty as usize]);
            } else if sq(f, r) == p.geo.centre {
                out += "  *";
            } else {
                out += "  .";
            }
        }
        out.push('\n');
    }
    out += "    ";
    for f in 0..n {
        out += &format!("  {}", (b'a' + f as u8) as char);
    }
    out.push('\n');
    out
}

/// Writes a move's token (§8.1).
pub fn write_move(m: Move, out: &mut String) {
    let sep = m.kind() == MoveKind::Capture;
    for (i, s) in m.squares().enumerate() {
        if i > 0 && sep {
            out.push('x');
        }
        write_square(s, out);
    }
}

/// Splits concatenated square names (`c3e5c7`): each a letter followed by
/// digits.
fn split_squares(t: &str) -> Option<Vec<&str>> {
    let b = t.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            return None;
        }
        let mut j = i + 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j == i + 1 {
            return None;
        }
        out.push(&t[i..j]);
        i = j;
    }
    Some(out)
}

/// Parses a turn token (§8) in `p`: only canonical tokens of legal moves.
pub fn parse_move(p: &QueensKings, t: &str) -> Result<Move, TokenError> {
    if t == "0000" {
        return Err(TokenError::Illegal("`0000` is never legal in this game (§6.2)".into()));
    }
    let capture = t.contains('x');
    let names: Vec<&str> = if capture {
        let parts: Vec<&str> = t.split('x').collect();
        if parts.iter().any(|part| !matches!(split_squares(part), Some(v) if v.len() == 1)) {
            return Err(TokenError::Malformed("a capture is squares joined by `x`, e.g. `c5xe7xg9`".into()));
        }
        parts
    } else {
        split_squares(t).ok_or_else(|| {
            TokenError::Malformed("expected squares without separators (`e3f4`, `c3e5c7`) or joined by `x` (`c5xe7`)".into())
        })?
    };
    if names.len() < 2 {
        return Err(TokenError::Malformed("a turn names its start square and at least one more".into()));
    }
    if names.len() > super::MAX_PATH {
        return Err(TokenError::Illegal("the path is longer than any legal move".into()));
    }
    let g = p.geo;
    let mut path = Vec::with_capacity(names.len());
    for name in &names {
        let (f, r) = g
            .parse_cell(name)
            .ok_or_else(|| TokenError::Malformed(format!("`{name}` is not a square of the {0}×{0} board", g.n)))?;
        if (f + r) % 2 != 0 {
            return Err(TokenError::Malformed(format!("`{name}` is not a playable (dark) square")));
        }
        path.push(sq(f, r));
    }
    let mut legal = MoveList::default();
    crate::game::Rules::legal_actions(p, &mut legal);
    if legal.is_empty() {
        return Err(TokenError::Illegal("the game is over".into()));
    }
    let same =
        |m: &Move| (m.kind() == MoveKind::Capture) == capture && m.len() == path.len() && m.squares().eq(path.iter().copied());
    if let Some(m) = legal.iter().find(|m| same(m)) {
        return Ok(*m);
    }
    let captures = legal[0].kind() == MoveKind::Capture;
    let why = if captures && !capture {
        "a capture is compulsory".to_string()
    } else if !captures && capture {
        "there is no capture in this position".to_string()
    } else if capture && legal.iter().any(|m| m.len() > path.len() && m.squares().take(path.len()).eq(path.iter().copied())) {
        "the capture is not complete: the piece must jump on".to_string()
    } else {
        format!("{t} is not a legal move")
    };
    Err(TokenError::Illegal(why))
}

/// A move prints as its token (tests, assertion messages).
impl core::fmt::Debug for super::moves::Move {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut s = String::new();
        write_move(*self, &mut s);
        f.write_str(&s)
    }
}

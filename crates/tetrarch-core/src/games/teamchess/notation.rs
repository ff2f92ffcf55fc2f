//! `teamchess` position strings (§7), FEN4 (§8) and move tokens (§10).

use super::moves::Move;
use super::{castle, Options, TeamChess, MAX_ACTIONS};
use crate::game::{PositionError, Rules, TokenError};
use crate::games::cross_board::board::*;
use crate::games::cross_board::men::{code, render as render_men, Men};
use crate::games::cross_board::notation::read_board;
use crate::games::cross_board::piece::*;
use arrayvec::ArrayVec;

/// The start position (§9).
pub const START: &str = "yRyNyByKyQyByNyR/yPyPyPyPyPyPyPyP/8/bRbP10gPgR/bNbP10gPgN/bBbP10gPgB/bQbP10gPgK/bKbP10gPgQ/bBbP10gPgB/bNbP10gPgN/bRbP10gPgR/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR r rKQbKQyKQgKQ - 0 1";
/// The start position as FEN4 (§9).
pub const START_FEN4: &str = "R-0,0,0,0-1,1,1,1-1,1,1,1-0,0,0,0-0-x,x,x,yR,yN,yB,yK,yQ,yB,yN,yR,x,x,x/x,x,x,yP,yP,yP,yP,yP,yP,yP,yP,x,x,x/x,x,x,8,x,x,x/bR,bP,10,gP,gR/bN,bP,10,gP,gN/bB,bP,10,gP,gB/bQ,bP,10,gP,gK/bK,bP,10,gP,gQ/bB,bP,10,gP,gB/bN,bP,10,gP,gN/bR,bP,10,gP,gR/x,x,x,8,x,x,x/x,x,x,rP,rP,rP,rP,rP,rP,rP,rP,x,x,x/x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x";

const COLOURS: [char; 4] = ['r', 'b', 'y', 'g'];
const FEN4_SIDES: [char; 4] = ['R', 'B', 'Y', 'G'];

fn colour_seat(c: char) -> Option<usize> {
    COLOURS.iter().position(|&x| x == c)
}

fn piece_type(c: char) -> Option<usize> {
    Some(match c {
        'P' => PAWN,
        'N' => KNIGHT,
        'B' => BISHOP,
        'R' => ROOK,
        'Q' => QUEEN,
        'K' => KING,
        _ => return None,
    })
}

fn parse_number(field: &str, what: &str) -> Result<u32, PositionError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::field(what, format!("`{field}` is not a decimal number")));
    }
    field
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= 1_000_000_000)
        .ok_or_else(|| PositionError::field(what, format!("`{field}` is too large (at most 1000000000)")))
}

/// Whether a pawn of `seat` may stand on `s` (§7.3): not on its own back
/// line, not on or beyond its promotion line.
fn pawn_square_ok(seat: usize, s: Sq) -> bool {
    let (x, y) = (file(s), rank(s));
    match seat {
        0 => (1..=9).contains(&y),
        1 => (1..=9).contains(&x),
        2 => (4..=12).contains(&y),
        _ => (4..=12).contains(&x),
    }
}

/// The colour whose double step skips `s`, if any (§7.2).
fn ep_colour(s: Sq) -> Option<usize> {
    (0..4).find(|&c| (PAWN_LINE[c].shift(DIR_SHIFT[c]) & EXISTS).has(s))
}

/// Parses either our position string or, detected by its shape, FEN4.
pub fn parse_any(s: &str, rules: Options) -> Result<TeamChess, PositionError> {
    let t = s.trim_matches([' ', '\t']);
    let b = t.as_bytes();
    if b.len() >= 2 && b"RBYG".contains(&b[0]) && b[1] == b'-' {
        parse_fen4(t, rules)
    } else {
        parse_position(s, rules)
    }
}

/// The checks of §7.3 on the men and the side to move, then the key.
fn finish(mut p: TeamChess, king_count: [u32; 4]) -> Result<TeamChess, PositionError> {
    for (seat, &n) in king_count.iter().enumerate() {
        if n > 1 {
            return Err(PositionError::field("board", format!("colour `{}` has {n} Kings", COLOURS[seat])));
        }
    }
    if king_count.iter().filter(|&&n| n == 0).count() > 1 {
        return Err(PositionError::field("board", "more than one colour has no King"));
    }
    if king_count.iter().all(|&n| n == 1) {
        let last = (p.side as usize + 3) & 3;
        if p.seat_in_check(last) {
            return Err(PositionError::field("board", format!("the King of `{}`, who moved last, is attacked", COLOURS[last])));
        }
    }
    p.key = p.compute_key();
    Ok(p)
}

fn put_checked(men: &mut Men, seat: usize, ty: usize, s: Sq, kings: &mut [u32; 4]) -> Result<(), String> {
    if ty == PAWN && !pawn_square_ok(seat, s) {
        return Err(format!(
            "{}: a pawn of `{}` on its back line or on or beyond its promotion line",
            square_name(s),
            COLOURS[seat]
        ));
    }
    if ty == KING {
        kings[seat] += 1;
    }
    men.put(code(seat, ty), s);
    Ok(())
}

/// Parses `<board> <side> <castling> <ep> <clock> <fullmove>`.
pub fn parse_position(s: &str, rules: Options) -> Result<TeamChess, PositionError> {
    let fields: Vec<&str> = s.split([' ', '\t']).filter(|f| !f.is_empty()).collect();
    if fields.len() != 6 {
        return Err(PositionError::field(
            "position",
            format!("expected 6 fields (board, side, castling, en passant, clock, fullmove), found {}", fields.len()),
        ));
    }
    let mut men = Men::default();
    let mut kings = [0u32; 4];
    read_board(fields[0], colour_seat, piece_type, |seat, ty, s| put_checked(&mut men, seat, ty, s, &mut kings))
        .map_err(|e| PositionError::field("board", e.to_string()))?;
    let side = match fields[1].chars().collect::<Vec<_>>().as_slice() {
        [c] => colour_seat(*c),
        _ => None,
    }
    .ok_or_else(|| PositionError::field("side", format!("`{}` is not one of r b y g", fields[1])))?;
    let mut p = TeamChess { men, side: side as u8, castling: 0, ep: [0; 4], halfmove: 0, fullmove: 1, key: 0, rules };
    // Castling: colour letters in order, each followed by K, Q or KQ.
    let cf = fields[2];
    if cf != "-" {
        let chars: Vec<char> = cf.chars().collect();
        let mut last: Option<usize> = None;
        let mut j = 0;
        while j < chars.len() {
            let seat = colour_seat(chars[j])
                .ok_or_else(|| PositionError::field("castling", format!("`{cf}`: unknown colour letter `{}`", chars[j])))?;
            if last.is_some_and(|l| seat <= l) {
                return Err(PositionError::field(
                    "castling",
                    format!("`{cf}` has repeated or out-of-order letters (order r b y g)"),
                ));
            }
            last = Some(seat);
            j += 1;
            let mut any = false;
            for (side_bit, letter) in [(0, 'K'), (1, 'Q')] {
                if chars.get(j) == Some(&letter) {
                    p.castling |= 1 << (2 * seat + side_bit);
                    j += 1;
                    any = true;
                }
            }
            if !any {
                return Err(PositionError::field("castling", format!("`{cf}`: colour `{}` without K or Q", COLOURS[seat])));
            }
        }
        for bit in 0..8 {
            if p.castling >> bit & 1 != 0 {
                let (seat, side_) = (bit / 2, bit % 2);
                let t = &castle::TABLE[seat][side_];
                if p.men.board[t.king_from] != code(seat, KING) || p.men.board[t.rook_from] != code(seat, ROOK) {
                    return Err(PositionError::field(
                        "castling",
                        format!(
                            "`{}{}`: the King or Rook is not on its home square",
                            COLOURS[seat],
                            if side_ == 0 { 'K' } else { 'Q' }
                        ),
                    ));
                }
            }
        }
    }
    // En passant: skipped squares in seat order of their colours.
    let ef = fields[3];
    if ef != "-" {
        let mut last: Option<usize> = None;
        for name in ef.split(',') {
            let s = parse_square(name).ok_or_else(|| PositionError::field("en passant", format!("`{name}` is not a square")))?;
            let c = ep_colour(s).ok_or_else(|| PositionError::field("en passant", format!("no double step skips {name}")))?;
            if last.is_some_and(|l| c <= l) {
                return Err(PositionError::field("en passant", format!("`{ef}`: entries out of order (seat order r b y g)")));
            }
            last = Some(c);
            if c == side {
                return Err(PositionError::field("en passant", format!("{name} is an entry of the colour to move")));
            }
            let landing = (s as i32 + DIR_SHIFT[c]) as Sq;
            if p.men.board[landing] != code(c, PAWN) {
                return Err(PositionError::field(
                    "en passant",
                    format!("{name}: no `{}` pawn on {}", COLOURS[c], square_name(landing)),
                ));
            }
            p.ep[c] = s as u8;
        }
    }
    p.halfmove = parse_number(fields[4], "clock")?;
    p.fullmove = parse_number(fields[5], "fullmove")?;
    if p.fullmove == 0 {
        return Err(PositionError::field("fullmove", "must be at least 1"));
    }
    finish(p, kings)
}

/// Parses chess.com FEN4 (§8).
pub fn parse_fen4(s: &str, rules: Options) -> Result<TeamChess, PositionError> {
    let fields: Vec<&str> = s.split('-').collect();
    if fields.len() != 7 && fields.len() != 8 {
        return Err(PositionError::field("FEN4", format!("expected 7 or 8 fields separated by `-`, found {}", fields.len())));
    }
    let extras = if fields.len() == 8 { Some(fields[6]) } else { None };
    for (i, f) in fields.iter().enumerate() {
        if (extras.is_none() || i != 6) && f.contains([' ', '\t', '\n', '\r']) {
            return Err(PositionError::field("FEN4", format!("field {} `{f}`: whitespace is allowed only inside {{…}}", i + 1)));
        }
    }
    let side = match fields[0] {
        "R" => 0,
        "B" => 1,
        "Y" => 2,
        "G" => 3,
        f => return Err(PositionError::field("FEN4", format!("side `{f}` is not one of R B Y G"))),
    };
    let bits = |f: &str, what: &str| -> Result<[bool; 4], PositionError> {
        let v: Vec<&str> = f.split(',').collect();
        if v.len() != 4 || v.iter().any(|b| *b != "0" && *b != "1") {
            return Err(PositionError::field("FEN4", format!("{what} `{f}` is not four comma-separated 0/1")));
        }
        Ok([v[0] == "1", v[1] == "1", v[2] == "1", v[3] == "1"])
    };
    bits(fields[1], "eliminated")?;
    let kside = bits(fields[2], "King-side castling")?;
    let qside = bits(fields[3], "Queen-side castling")?;
    let points: Vec<&str> = fields[4].split(',').collect();
    if points.len() != 4 || points.iter().any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit())) {
        return Err(PositionError::field("FEN4", format!("points `{}` are not four comma-separated numbers", fields[4])));
    }
    let clock = parse_number(fields[5], "FEN4: clock")?;
    let placement = fields[fields.len() - 1];
    let mut men = Men::default();
    let mut kings = [0u32; 4];
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 14 {
        return Err(PositionError::field("FEN4", format!("placement: expected 14 ranks, found {}", ranks.len())));
    }
    for (i, text) in ranks.iter().enumerate() {
        let y = 13 - i;
        let mut x = 0usize;
        for cell in text.split(',') {
            let rank_no = y + 1;
            if x >= 14 {
                return Err(PositionError::field("FEN4", format!("rank {rank_no} covers more than 14 columns")));
            }
            if cell == "x" {
                if exists_xy(x as i32, y as i32) {
                    return Err(PositionError::field(
                        "FEN4",
                        format!("rank {rank_no}: `x` on the existing square {}", square_name(sq(x, y))),
                    ));
                }
                x += 1;
            } else if !cell.is_empty() && cell.bytes().all(|b| b.is_ascii_digit()) {
                let n: usize = cell.parse().unwrap_or(usize::MAX);
                if n == 0 || cell.starts_with('0') || n > 14 - x {
                    return Err(PositionError::field("FEN4", format!("rank {rank_no}: bad count `{cell}`")));
                }
                x += n;
            } else {
                let cs: Vec<char> = cell.chars().collect();
                let (seat, ty) = match cs.as_slice() {
                    [c, p] => (colour_seat(*c), piece_type(*p)),
                    _ => (None, None),
                };
                let (Some(seat), Some(ty)) = (seat, ty) else {
                    return Err(PositionError::field("FEN4", format!("rank {rank_no}: unknown cell `{cell}`")));
                };
                if !exists_xy(x as i32, y as i32) {
                    return Err(PositionError::field(
                        "FEN4",
                        format!("rank {rank_no}: a piece on a missing cell (column {})", x + 1),
                    ));
                }
                put_checked(&mut men, seat, ty, sq(x, y), &mut kings).map_err(|e| PositionError::field("board", e))?;
                x += 1;
            }
        }
        if x != 14 {
            return Err(PositionError::field("FEN4", format!("rank {} covers {x} columns, expected 14", y + 1)));
        }
    }
    let mut p = TeamChess { men, side: side as u8, castling: 0, ep: [0; 4], halfmove: clock, fullmove: 1, key: 0, rules };
    for seat in 0..4 {
        for (side_bit, on) in [(0, kside[seat]), (1, qside[seat])] {
            let t = &castle::TABLE[seat][side_bit];
            if on && p.men.board[t.king_from] == code(seat, KING) && p.men.board[t.rook_from] == code(seat, ROOK) {
                p.castling |= 1 << (2 * seat + side_bit);
            }
        }
    }
    if let Some(ex) = extras {
        for (c, entry) in parse_extras(ex)?.into_iter().enumerate() {
            let Some((sk, landing)) = entry else { continue };
            if c == side || p.men.board[landing] != code(c, PAWN) {
                continue; // dropped without error (§8.4)
            }
            let fits = (PAWN_LINE[c].shift(DIR_SHIFT[c]) & EXISTS).has(sk) && landing as i32 == sk as i32 + DIR_SHIFT[c];
            if !fits {
                return Err(PositionError::field(
                    "FEN4",
                    format!("en passant entry {}:{} does not fit colour `{}`", square_name(sk), square_name(landing), COLOURS[c]),
                ));
            }
            p.ep[c] = sk as u8;
        }
    }
    finish(p, kings)
}

/// `{'enPassant':(e,e,e,e)}` with whitespace allowed and `"` for `'`.
fn parse_extras(ex: &str) -> Result<[Option<(Sq, Sq)>; 4], PositionError> {
    let bad = || PositionError::field("FEN4", format!("extras `{ex}`: expected {{'enPassant':('','c4:d4','','')}}"));
    let t: String = ex.chars().filter(|c| !c.is_whitespace()).map(|c| if c == '"' { '\'' } else { c }).collect();
    let inner = t.strip_prefix("{'enPassant':(").and_then(|r| r.strip_suffix(")}")).ok_or_else(bad)?;
    let entries: Vec<&str> = inner.split(',').collect();
    if entries.len() != 4 {
        return Err(bad());
    }
    let mut out = [None; 4];
    for (i, e) in entries.iter().enumerate() {
        let body = e.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).ok_or_else(bad)?;
        if body.is_empty() {
            continue;
        }
        let (a, b) = body.split_once(':').ok_or_else(bad)?;
        let (Some(a), Some(b)) = (parse_square(a), parse_square(b)) else {
            return Err(PositionError::field("FEN4", format!("en passant entry `{body}` names a square that does not exist")));
        };
        out[i] = Some((a, b));
    }
    Ok(out)
}

/// The canonical position string.
pub fn write_position(p: &TeamChess) -> String {
    let mut out = String::with_capacity(180);
    crate::games::cross_board::men::write_board_field(&p.men, COLOURS, &mut out);
    out.push(' ');
    out.push(COLOURS[p.side as usize]);
    out.push(' ');
    if p.castling == 0 {
        out.push('-');
    }
    for seat in 0..4 {
        if p.castling >> (2 * seat) & 3 != 0 {
            out.push(COLOURS[seat]);
            if p.castling >> (2 * seat) & 1 != 0 {
                out.push('K');
            }
            if p.castling >> (2 * seat + 1) & 1 != 0 {
                out.push('Q');
            }
        }
    }
    out.push(' ');
    let eps: Vec<String> = (0..4).filter(|&c| p.ep[c] != 0).map(|c| square_name(p.ep[c] as Sq)).collect();
    out += &if eps.is_empty() { "-".to_string() } else { eps.join(",") };
    out += &format!(" {} {}", p.halfmove, p.fullmove);
    out
}

/// The position as FEN4 (§8.5).
pub fn to_fen4(p: &TeamChess) -> String {
    let bits = |side: usize| -> String {
        (0..4).map(|s| if p.castling >> (2 * s + side) & 1 != 0 { "1" } else { "0" }).collect::<Vec<_>>().join(",")
    };
    let mut out = format!("{}-0,0,0,0-{}-{}-0,0,0,0-{}-", FEN4_SIDES[p.side as usize], bits(0), bits(1), p.halfmove);
    if p.ep.iter().any(|&e| e != 0) {
        let entries: Vec<String> = (0..4)
            .map(|c| match p.ep[c] {
                0 => "''".to_string(),
                sk => format!("'{}:{}'", square_name(sk as Sq), square_name((sk as i32 + DIR_SHIFT[c]) as Sq)),
            })
            .collect();
        out += &format!("{{'enPassant':({})}}-", entries.join(","));
    }
    let mut ranks = Vec::with_capacity(14);
    for y in (0..14).rev() {
        let mut cells: Vec<String> = Vec::new();
        let mut run = 0;
        for x in 0..14 {
            let s = sq(x, y);
            let piece = if exists(s) { p.men.piece_at(s) } else { None };
            if exists(s) && piece.is_none() {
                run += 1;
                continue;
            }
            if run > 0 {
                cells.push(run.to_string());
                run = 0;
            }
            cells.push(match piece {
                Some((seat, ty)) => format!("{}{}", COLOURS[seat], LETTERS[ty]),
                None => "x".to_string(),
            });
        }
        if run > 0 {
            cells.push(run.to_string());
        }
        ranks.push(cells.join(","));
    }
    out += &ranks.join("/");
    out
}

/// A picture of the board.
pub fn render(p: &TeamChess) -> String {
    render_men(&p.men, COLOURS)
}

/// Writes a move token (§10): `e2e4`, `e10e11n`, `h1j1`, `d3c4`.
pub fn write_move(m: Move, out: &mut String) {
    out.push_str(&square_name(m.from()));
    out.push_str(&square_name(m.to()));
    if let Some(t) = m.promotion() {
        out.push(LETTERS[t].to_ascii_lowercase());
    }
}

/// A move in the 4pchess dialect: `h2-h4`, `e10-e11=Q`.
pub fn fen4_move(m: Move) -> String {
    let mut s = format!("{}-{}", square_name(m.from()), square_name(m.to()));
    if let Some(t) = m.promotion() {
        s.push('=');
        s.push(LETTERS[t]);
    }
    s
}

/// Parses a move token: `<from><to>[n|b|r|q]`, and the 4pchess forms with
/// `-` between the squares and `=N`/`=B`/`=R`/`=Q` (either case).
pub fn parse_move(p: &TeamChess, t: &str) -> Result<Move, TokenError> {
    let malformed = || TokenError::Malformed("expected <from><to>[n|b|r|q], e.g. `e2e4`, or `h2-h4`, `e10-e11=Q`".into());
    if !t.is_ascii() {
        return Err(malformed());
    }
    let b = t.as_bytes();
    let square_end = |i: usize| -> Option<usize> {
        if i >= b.len() || !b[i].is_ascii_lowercase() {
            return None;
        }
        let mut j = i + 1;
        while j < b.len() && j < i + 3 && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > i + 1).then_some(j)
    };
    let e1 = square_end(0).ok_or_else(malformed)?;
    let mut s2 = e1;
    if b.get(e1) == Some(&b'-') {
        s2 += 1;
    }
    let e2 = square_end(s2).ok_or_else(malformed)?;
    let (a, c) = (&t[..e1], &t[s2..e2]);
    let from = parse_square(a).ok_or_else(|| TokenError::Malformed(format!("`{a}` is not a square")))?;
    let to = parse_square(c).ok_or_else(|| TokenError::Malformed(format!("`{c}` is not a square")))?;
    let promo = match &t[e2..] {
        "" => None,
        "n" | "=N" | "=n" => Some(KNIGHT),
        "b" | "=B" | "=b" => Some(BISHOP),
        "r" | "=R" | "=r" => Some(ROOK),
        "q" | "=Q" | "=q" => Some(QUEEN),
        x => return Err(TokenError::Malformed(format!("unknown suffix `{x}` (n b r q, or =N =B =R =Q)"))),
    };
    let mut legal = ArrayVec::<Move, MAX_ACTIONS>::new();

    p.legal_actions(&mut legal);
    if legal.is_empty() {
        return Err(TokenError::Illegal("the game is over".into()));
    }
    let name = format!("{a}{c}");
    let candidates: Vec<Move> = legal.iter().copied().filter(|m| m.from() == from && m.to() == to).collect();
    if candidates.is_empty() {
        return Err(TokenError::Illegal(format!("{name} is not a legal move")));
    }
    match promo {
        None if candidates[0].promotion().is_some() => {
            Err(TokenError::Illegal(format!("{name} is a promotion: add n, b, r or q")))
        }
        None => Ok(candidates[0]),
        Some(t) => candidates
            .into_iter()
            .find(|m| m.promotion() == Some(t))
            .ok_or_else(|| TokenError::Illegal(format!("{name} is not a promotion"))),
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

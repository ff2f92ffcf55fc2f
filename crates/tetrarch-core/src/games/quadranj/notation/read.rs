//! Reading and checking a position string (§7.11).

use super::decimal;
use crate::bitboard::Bb128;
use crate::game::PositionError;
use crate::games::quadranj::board::{Geo, Sq};
use crate::games::quadranj::cell::{self, T_GUARD, T_PILOT, T_ROYAL, WALL};
use crate::games::quadranj::{Burglar, Options, Quadranj};
use crate::ranks::{first_char, read_ranks};

const FIELDS: [&str; 9] = [
    "board",
    "seat to move",
    "action index",
    "moved marks",
    "seats in the game",
    "tallies",
    "burglars",
    "quiet counter",
    "turn number",
];

fn ferr(field: usize, msg: impl AsRef<str>) -> PositionError {
    PositionError::field(format!("field {field} ({})", FIELDS[field - 1]), msg.as_ref())
}

/// A tally in half units: `n` or `n.5`.
fn parse_tally(t: &str) -> Option<u32> {
    match t.strip_suffix(".5") {
        Some(w) => decimal(w).map(|v| 2 * v + 1),
        None => decimal(t).map(|v| 2 * v),
    }
}

/// One unit of field 1 at the start of `t` (`X`, `rK`, `b3B`, …) as its
/// cell code, and the bytes it takes.
fn read_unit(t: &str, letters: &[u8]) -> Result<(u8, usize), String> {
    let b = t.as_bytes();
    let c = b[0];
    if c == b'X' {
        return Ok((WALL, 1));
    }
    let Some(seat) = letters.iter().position(|&l| l == c) else {
        return Err(format!(
            "character `{}` is not a seat letter ({}), K, G, P, B, X, a digit or `/`",
            first_char(t),
            letters.iter().map(|&l| l as char).collect::<String>()
        ));
    };
    let Some(&u) = b.get(1) else {
        return Err(format!("seat letter `{}` without a unit", c as char));
    };
    let digits = b[1..].iter().take_while(|d| d.is_ascii_digit()).count();
    if digits == 0 {
        let code = match u {
            b'K' => cell::unit(seat, T_ROYAL),
            b'G' => cell::unit(seat, T_GUARD),
            b'P' => cell::unit(seat, T_PILOT),
            b'B' => cell::column(seat, 1),
            _ => return Err(format!("`{}{}` is not a unit (K, G, P, B after a seat letter)", c as char, u as char)),
        };
        return Ok((code, 2));
    }
    let run = &t[1..1 + digits];
    let h: usize = run.parse().unwrap_or(usize::MAX);
    if run.starts_with('0') || h < 2 {
        return Err(format!("height `{run}` must be 2 or more without leading zeros"));
    }
    match b.get(1 + digits) {
        Some(b'B') => {}
        Some(&u) if matches!(u, b'K' | b'G' | b'P' | b'X') => {
            return Err(format!("a height is given to `{}` (only `B` has one)", u as char))
        }
        _ => return Err(format!("height `{run}` not followed by `B`")),
    }
    if h > cell::MAX_HEIGHT {
        return Err(format!("a column of height {h} has more pilots than a seat has"));
    }
    Ok((cell::column(seat, h), 2 + digits))
}

/// Field 1's syntax: the cell code of every square.
fn read_board(field: &str, g: &Geo, letters: &[u8]) -> Result<[u8; 100], PositionError> {
    let mut cells = [0u8; 100];
    read_ranks(
        field,
        &vec![g.n; g.n],
        |t| read_unit(t, letters),
        |file, r, code| {
            cells[g.sq(file, r)] = code;
            Ok(())
        },
    )
    .map_err(|e| ferr(1, e.to_string()))?;
    Ok(cells)
}

/// A seat's name in messages.
fn seat_name(seats: usize, s: usize) -> &'static str {
    if seats == 2 {
        ["Red", "Blue"][s]
    } else {
        ["Green", "Blue", "Yellow", "Red"][s]
    }
}

/// Field 5: the seats in the game, as a set of bits.
fn read_in_game(sig: &str, letters: &[u8]) -> Result<u8, PositionError> {
    let mut in_game = 0u8;
    let mut last: i32 = -1;
    if sig.is_empty() {
        return Err(ferr(5, "empty"));
    }
    for c in sig.bytes() {
        let Some(s) = letters.iter().position(|&l| l == c) else {
            return Err(ferr(5, format!("`{}` is not a seat of the variant", c as char)));
        };
        if in_game >> s & 1 != 0 {
            return Err(ferr(5, format!("`{}` is repeated", c as char)));
        }
        if (s as i32) < last {
            return Err(ferr(5, "not in seat order"));
        }
        last = s as i32;
        in_game |= 1 << s;
    }
    if letters.len() == 2 && sig != "rb" {
        return Err(ferr(5, "must be `rb` in quadranj"));
    }
    Ok(in_game)
}

/// Field 7: every seat's burglar (§7.8), checked against the board.
fn read_burglars(field: &str, g: &Geo, cells: &[u8; 100], in_game: u8) -> Result<[Burglar; 4], PositionError> {
    let seats = g.seats;
    let bs: Vec<&str> = field.split('/').collect();
    if bs.len() != seats {
        return Err(ferr(7, format!("expected {seats} entries, found {}", bs.len())));
    }
    let mut burglar = [Burglar::None; 4];
    for (s, t) in bs.iter().enumerate() {
        burglar[s] = match *t {
            "-" => Burglar::None,
            "?" => Burglar::Unknown,
            "-!" | "?!" => return Err(ferr(7, format!("`{t}`: `!` only follows a square"))),
            _ => {
                let (body, revealed) = match t.strip_suffix('!') {
                    Some(b) => (b, true),
                    None => (*t, false),
                };
                let (sq_t, lev) = match body.split_once(':') {
                    Some((a, l)) => {
                        let lv = decimal(l).filter(|v| (1..=255).contains(v));
                        match lv {
                            Some(v) => (a, v as u8),
                            None => return Err(ferr(7, format!("`{t}`: `{l}` is not a level (1, 2, …)"))),
                        }
                    }
                    None => (body, 0),
                };
                let q = g.parse_sq(sq_t).ok_or_else(|| ferr(7, format!("`{t}`: `{sq_t}` is not a square")))?;
                let c = cells[q];
                let ok = cell::is_unit(c)
                    && cell::owner(c) == s
                    && if lev == 0 { cell::kind(c) == T_PILOT } else { cell::height(c) >= lev as usize };
                if !ok {
                    return Err(ferr(
                        7,
                        if lev == 0 {
                            format!("`{t}`: {sq_t} holds no lone pilot of {}", seat_name(seats, s))
                        } else {
                            format!("`{t}`: {sq_t} holds no column of {} at least {lev} high", seat_name(seats, s))
                        },
                    ));
                }
                Burglar::Known { sq: q as u8, level: lev, revealed }
            }
        };
        if in_game >> s & 1 == 0 && burglar[s] != Burglar::None {
            return Err(ferr(7, format!("{} is out of the game: its entry must be `-`", seat_name(seats, s))));
        }
    }
    Ok(burglar)
}

/// Field 1 against the others: units per seat (§7.11 item 3), Keeps
/// (item 4), blockers.
fn check_units(g: &Geo, cells: &[u8; 100], in_game: u8, burglar: &[Burglar; 4]) -> Result<(), PositionError> {
    let seats = g.seats;
    let max_pilots = if seats == 2 { 8 } else { 6 };
    let mut royals = [0; 4];
    let mut guards = [0; 4];
    let mut pilots = [0usize; 4];
    let mut blockers = 0usize;
    let mut active = Bb128::EMPTY;
    for s in 0..seats {
        if in_game >> s & 1 != 0 {
            active |= g.keep[s];
        }
    }
    for q in g.all {
        let c = cells[q];
        if c == 0 {
            continue;
        }
        let nm = g.name(q);
        if c == WALL {
            blockers += 1;
            if active.has(q) {
                return Err(ferr(1, format!("an empty blocker on {nm} stands in an active Keep")));
            }
            continue;
        }
        let s = cell::owner(c);
        if in_game >> s & 1 == 0 {
            return Err(ferr(1, format!("{} is out of the game but has a unit on {nm}", seat_name(seats, s))));
        }
        let keep_of = (0..seats).find(|&k| in_game >> k & 1 != 0 && g.keep[k].has(q));
        match cell::kind(c) {
            T_ROYAL => royals[s] += 1,
            T_GUARD => {
                guards[s] += 1;
                if let Some(k) = keep_of {
                    if k != s {
                        return Err(ferr(
                            1,
                            format!("a guard of {} on {nm} stands in {}'s active Keep", seat_name(seats, s), seat_name(seats, k)),
                        ));
                    }
                }
            }
            T_PILOT => {
                pilots[s] += 1;
                if let Some(k) = keep_of {
                    let ok = k == s && burglar[s] == Burglar::Known { sq: q as u8, level: 0, revealed: true };
                    if !ok {
                        return Err(ferr(
                            1,
                            format!(
                                "a lone pilot of {} on {nm} stands in {}'s active Keep and is not that seat's revealed burglar (`{nm}!`)",
                                seat_name(seats, s),
                                seat_name(seats, k)
                            ),
                        ));
                    }
                }
            }
            _ => {
                let h = cell::height(c);
                pilots[s] += h;
                blockers += h;
                if keep_of.is_some() {
                    return Err(ferr(1, format!("a column on {nm} stands in an active Keep")));
                }
            }
        }
    }
    for s in 0..seats {
        if in_game >> s & 1 != 0 && royals[s] != 1 {
            return Err(ferr(1, format!("{} has {} royals, expected exactly one", seat_name(seats, s), royals[s])));
        }
        if guards[s] > 3 {
            return Err(ferr(1, format!("{} has {} guards (at most 3)", seat_name(seats, s), guards[s])));
        }
        if pilots[s] > max_pilots {
            return Err(ferr(1, format!("{} has {} pilots (at most {max_pilots})", seat_name(seats, s), pilots[s])));
        }
    }
    let max_blockers = if seats == 2 { 16 } else { 24 };
    if blockers > max_blockers {
        return Err(ferr(1, format!("{blockers} blockers (at most {max_blockers})")));
    }
    Ok(())
}

/// Field 4: the moved marks (squares, in order; `-` at action index 0).
fn read_marks(field: &str, index: u8, g: &Geo, cells: &[u8; 100], to_move: usize) -> Result<Bb128, PositionError> {
    let mut marks = Bb128::EMPTY;
    if index == 0 {
        if field != "-" {
            return Err(ferr(4, "must be `-` at action index 0"));
        }
    } else {
        if field == "-" {
            return Err(ferr(4, "must list the marked squares at action index 1"));
        }
        let mut prev: Option<Sq> = None;
        for t in field.split(',') {
            let q = g.parse_sq(t).ok_or_else(|| ferr(4, format!("`{t}` is not a square")))?;
            if marks.has(q) {
                return Err(ferr(4, format!("{t} is repeated")));
            }
            if prev.is_some_and(|pq| pq > q) {
                return Err(ferr(4, format!("{t} is out of square order")));
            }
            let c = cells[q];
            if !(c == WALL || (cell::is_unit(c) && cell::owner(c) == to_move)) {
                return Err(ferr(4, format!("{t} holds neither a unit of the seat to move nor an empty blocker")));
            }
            marks.set(q);
            prev = Some(q);
        }
    }
    Ok(marks)
}

/// Parses and validates a position string (§7.11).
pub fn parse_position(s: &str, opts: &Options) -> Result<Quadranj, PositionError> {
    let f: Vec<&str> = s.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    if f.len() != 9 {
        return Err(PositionError::field("position", format!("expected 9 fields, found {}", f.len())));
    }
    let mut p = Quadranj::empty(opts);
    let g = p.geo;
    let seats = g.seats;
    let letters = &g.letters[..seats];

    // Field 1: the board's syntax.
    let cells = read_board(f[0], g, letters)?;

    // Field 5: seats in the game.
    let in_game = read_in_game(f[4], letters)?;
    p.st.in_game = in_game;

    // Field 2: seat to move; field 3: action index.
    let tm = f[1].as_bytes();
    let to_move = match (tm.len(), tm.first().and_then(|&c| letters.iter().position(|&l| l == c))) {
        (1, Some(s)) => s,
        _ => return Err(ferr(2, format!("`{}` is not a seat of the variant", f[1]))),
    };
    if in_game >> to_move & 1 == 0 {
        return Err(ferr(2, format!("{} is out of the game", seat_name(seats, to_move))));
    }
    let index = match f[2] {
        "0" => 0u8,
        "1" => 1,
        t => return Err(ferr(3, format!("`{t}` is not 0 or 1"))),
    };

    // Field 6: tallies.
    let ts: Vec<&str> = f[5].split('/').collect();
    if ts.len() != seats {
        return Err(ferr(6, format!("expected {seats} entries, found {}", ts.len())));
    }
    for (s, t) in ts.iter().enumerate() {
        p.st.tally[s] = parse_tally(t).ok_or_else(|| ferr(6, format!("`{t}` is not a tally (`2`, `2.5`)")))?;
    }

    // Fields 8, 9: counters.
    let quiet =
        decimal(f[7]).ok_or_else(|| ferr(8, format!("`{}` is not a decimal number without sign or leading zeros", f[7])))?;
    let limit = 50 * in_game.count_ones() + 1;
    if quiet > limit {
        return Err(ferr(8, format!("{quiet} is above {limit}")));
    }
    let turn = decimal(f[8]).ok_or_else(|| {
        ferr(9, format!("`{}` is not a decimal number without sign or leading zeros, at most 1000000000", f[8]))
    })?;
    if turn == 0 {
        return Err(ferr(9, "the turn number starts at 1"));
    }

    // Field 7: burglars.
    let burglar = read_burglars(f[6], g, &cells, in_game)?;

    // Field 1 against the others.
    check_units(g, &cells, in_game, &burglar)?;

    // Field 4: moved marks.
    let marks = read_marks(f[3], index, g, &cells, to_move)?;

    for q in g.all {
        if cells[q] != 0 {
            p.set(q, cells[q]);
        }
    }
    p.st.burglar = burglar;
    p.st.marks = marks;
    p.st.index = index;
    p.st.quiet = quiet;
    p.st.turn = turn;
    p.st.key ^= crate::games::quadranj::keys::side(p.st.to_move as usize) ^ crate::games::quadranj::keys::side(to_move);
    p.st.to_move = to_move as u8;

    // Item 10: two seats on their homes.
    let on_home = (0..seats)
        .filter(|&s| {
            in_game >> s & 1 != 0 && {
                let h = g.home[s];
                p.st.royal[s] == h
                    || (p.st.cell[h as Sq] == cell::unit(s, T_PILOT)
                        && matches!(p.st.burglar[s], Burglar::Known { sq, level: 0, .. } if sq == h))
            }
        })
        .count();
    if on_home >= 2 {
        return Err(ferr(1, "two seats stand on their homes"));
    }
    p.compute_static_result();
    if seats == 4 && p.st.res == 0 && !p.has_any_action() {
        return Err(ferr(2, format!("{} is to move and has no legal action", seat_name(seats, to_move))));
    }
    Ok(p)
}

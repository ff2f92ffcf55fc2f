//! PGN4 game records for `teamchess`, as chess.com writes them: tag pairs
//! (`Variant`, `RuleVariants`, `StartFen4`, the four seats' names, `Result`,
//! `Termination`) and movetext of numbered rounds, one move per seat
//! separated by `..`, in long algebraic notation (`Nj1-i3`, `Bf1xQk5`,
//! `O-O`, `e10-e11=Q`, with `+`/`#` marks).
//!
//! Reading accepts that movetext and the 4pchess forms (`h2-h4`, `=Q`),
//! ignores comments `{…}`, move numbers, check marks and results, and
//! returns the turns as our tokens; every move is checked by the rules.

use super::notation::to_fen4;
use super::{Move, Options, TeamChess, START_FEN4};
use crate::game::{GameResult, Notation, Outcome, PositionError, Rules};
use crate::games::cross_board::board::square_name;
use crate::games::cross_board::piece::*;
use crate::turns::{legal_turns, parse_turn};

/// Seat names for the tags, in seat order (Red, Blue, Yellow, Green).
pub type Names = [String; 4];

const TAG_NAMES: [&str; 4] = ["Red", "Blue", "Yellow", "Green"];

/// The `Result` tag for an outcome: `1-0` when Red and Yellow won, `0-1`
/// when Blue and Green won, `1/2-1/2` for a draw, `*` while the game goes on.
pub fn result_tag(o: Option<&Outcome>) -> &'static str {
    match o.map(|o| o.result) {
        Some(GameResult::Win(w)) if w.has(0) => "1-0",
        Some(GameResult::Win(_)) => "0-1",
        Some(GameResult::Draw(_)) => "1/2-1/2",
        None => "*",
    }
}

fn termination(p: &TeamChess, o: Option<&Outcome>) -> String {
    let Some(o) = o else { return "Game in progress".into() };
    match (o.result, o.reason) {
        (GameResult::Win(w), reason) => {
            let winners = if w.has(0) { "Red & Yellow" } else { "Blue & Green" };
            let loser = TAG_NAMES[p.to_move()];
            match reason {
                "checkmate" => format!("{winners} won. {loser} checkmated."),
                "kingcapture" => format!("{winners} won. King captured."),
                r => format!("{winners} won. {r}."),
            }
        }
        (GameResult::Draw(_), r) => format!("Game drawn by {r}."),
    }
}

/// One move in long algebraic notation, played from `p` (before the move).
pub fn long_algebraic(p: &TeamChess, m: Move) -> String {
    if m.is_castle() {
        // King side (table side 0) is the short castling.
        let short = super::castle::TABLE[p.to_move()][0].king_to == m.to();
        return if short { "O-O".into() } else { "O-O-O".into() };
    }
    let (_, ty) = p.piece_at(m.from()).unwrap_or((0, PAWN));
    let mut s = String::new();
    if ty != PAWN {
        s.push(LETTERS[ty]);
    }
    s += &square_name(m.from());
    match p.piece_at(m.to()) {
        Some((_, victim)) => {
            s.push('x');
            if victim != PAWN {
                s.push(LETTERS[victim]);
            }
        }
        None if m.is_ep() => s.push('x'),
        None => s.push('-'),
    }
    s += &square_name(m.to());
    if let Some(t) = m.promotion() {
        s.push('=');
        s.push(LETTERS[t]);
    }
    let mut q = p.clone();
    q.make(m);
    if q.outcome().is_some_and(|o| o.reason == "checkmate") {
        s.push('#');
    } else if (0..4).any(|seat| seat & 1 != p.to_move() & 1 && q.seat_in_check(seat)) {
        s.push('+');
    }
    s
}

/// Writes a game: `start`, then `turns` (tokens, each legal), with `names`.
pub fn write(start: &TeamChess, turns: &[String], names: &Names) -> Result<String, PositionError> {
    let mut p = start.clone();
    let mut moves = Vec::with_capacity(turns.len());
    for (i, t) in turns.iter().enumerate() {
        let acts = parse_turn(&p, t).map_err(|e| PositionError::field(format!("turn {} `{t}`", i + 1), e.to_string()))?;
        moves.push((p.to_move(), long_algebraic(&p, acts[0])));
        p.make(acts[0]);
    }
    let outcome = p.outcome();
    let mut out = String::new();
    out += "[Variant \"Teams\"]\n[RuleVariants \"EnPassant\"]\n";
    out += &format!("[StartFen4 \"{}\"]\n", to_fen4(start));
    for (i, tag) in TAG_NAMES.iter().enumerate() {
        out += &format!("[{tag} \"{}\"]\n", names[i]);
    }
    out += &format!("[Result \"{}\"]\n", result_tag(outcome.as_ref()));
    out += &format!("[Termination \"{}\"]\n\n", termination(&p, outcome.as_ref()));
    // One line per round: the moves of the four seats joined by ` .. `. A
    // round starts with Red; a game from a position with another seat to
    // move has a short first round.
    let mut round: Vec<&str> = Vec::new();
    let mut number = 1;
    for (seat, mv) in &moves {
        if *seat == 0 && !round.is_empty() {
            out += &format!("{number}. {}\n", round.join(" .. "));
            number += 1;
            round.clear();
        }
        round.push(mv);
    }
    if !round.is_empty() {
        out += &format!("{number}. {}\n", round.join(" .. "));
    }
    Ok(out)
}

/// A game read from PGN4: the start position and the turns as tokens.
#[derive(Clone, Debug)]
pub struct Record {
    /// The start position (`StartFen4`, or the standard start).
    pub start: TeamChess,
    /// The turns, canonical tokens.
    pub turns: Vec<String>,
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
}

/// Reads a PGN4 text.
pub fn read(text: &str, opts: &Options) -> Result<Record, PositionError> {
    let mut tags = Vec::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(inner) = l.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let (name, rest) = inner.split_once(' ').ok_or_else(|| PositionError::field("PGN4", format!("bad tag `{l}`")))?;
            let value = rest.trim().strip_prefix('"').and_then(|r| r.strip_suffix('"'));
            let value = value.ok_or_else(|| PositionError::field("PGN4", format!("tag `{name}` has no quoted value")))?;
            tags.push((name.to_string(), value.to_string()));
        } else {
            movetext += l;
            movetext.push(' ');
        }
    }
    let start_fen = tags.iter().find(|t| t.0 == "StartFen4").map(|t| t.1.as_str()).unwrap_or(START_FEN4);
    let start =
        TeamChess::from_position_string(start_fen, opts).map_err(|e| PositionError::field("PGN4: StartFen4", e.to_string()))?;
    // Strip comments.
    let mut clean = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            _ if depth == 0 => clean.push(c),
            _ => {}
        }
    }
    let mut p = start.clone();
    let mut turns = Vec::new();
    for word in clean.split_whitespace() {
        if word == ".."
            || word == "*"
            || word.ends_with('.') && word[..word.len() - 1].bytes().all(|b| b.is_ascii_digit())
            || ["1-0", "0-1", "1/2-1/2"].contains(&word)
        {
            continue;
        }
        if ["T", "R", "S", "#"].contains(&word) {
            continue; // timeout, resignation, stalemate, mate marks of chess.com
        }
        let tok = read_move(&p, word)
            .map_err(|e| PositionError::field(format!("PGN4: move {} `{word}`", turns.len() + 1), e.to_string()))?;
        let acts = parse_turn(&p, &tok)
            .map_err(|e| PositionError::field(format!("PGN4: move {} `{word}`", turns.len() + 1), e.to_string()))?;
        p.make(acts[0]);
        turns.push(tok);
    }
    Ok(Record { start, turns, tags })
}

/// Turns one PGN4 move into our token in position `p`.
fn read_move(p: &TeamChess, word: &str) -> Result<String, String> {
    let w = word.trim_end_matches(['+', '#']);
    let legal = legal_turns(p);
    if w == "O-O" || w == "O-O-O" {
        let side = if w == "O-O" { 0 } else { 1 };
        let t = &super::castle::TABLE[p.to_move()][side];
        let tok = format!("{}{}", square_name(t.king_from), square_name(t.king_to));
        return legal.iter().any(|l| l.0 == tok).then_some(tok).ok_or_else(|| "castling is not legal".into());
    }
    // [Piece] from ('-' | 'x' [Piece]) to ['=' Piece]
    let b: Vec<char> = w.chars().collect();
    let mut i = 0;
    if b.first().is_some_and(|c| "KQRBN".contains(*c)) {
        i += 1;
    }
    let sq_end = |mut j: usize| -> Option<usize> {
        if j >= b.len() || !b[j].is_ascii_lowercase() {
            return None;
        }
        j += 1;
        let start = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > start).then_some(j)
    };
    let f_end = sq_end(i).ok_or("no origin square")?;
    let from: String = b[i..f_end].iter().collect();
    let mut j = f_end;
    match b.get(j) {
        Some('-') => j += 1,
        Some('x') => {
            j += 1;
            if b.get(j).is_some_and(|c| "KQRBN".contains(*c)) {
                j += 1;
            }
        }
        _ => {}
    }
    let t_end = sq_end(j).ok_or("no destination square")?;
    let to: String = b[j..t_end].iter().collect();
    let promo = match b[t_end..].iter().collect::<String>().as_str() {
        "" => "",
        "=Q" | "=q" => "q",
        "=R" | "=r" => "r",
        "=B" | "=b" => "b",
        "=N" | "=n" => "n",
        x => return Err(format!("unknown suffix `{x}`")),
    };
    let tok = format!("{from}{to}{promo}");
    legal.iter().any(|l| l.0 == tok).then_some(tok.clone()).ok_or_else(|| format!("`{tok}` is not legal"))
}

//! The position as a picture for front ends ([`crate::view`]): hexagonal
//! cells in rows 17 and 16 wide, the captured pieces of each side as
//! reserves; in the middle of a turn the pieces that cannot act again this
//! turn (their suit acted, or they were rescued) are marked as having acted.

use super::board::{exists, file, parse_square, rank, width, BASES, SLOTS};
use super::{notation, piece_code, side_of_piece, suit_of, value_of, Action, Piece, Quattuor};
use crate::game::{action_string, Notation};
use crate::view::{token_cells, BoardView, CellView, PieceView, ReserveView, SeatView, Shape};

/// Suit symbols in the order `d h c s`.
const SUIT_SYMBOLS: [&str; 4] = ["♦", "♥", "♣", "♠"];
/// Value texts in the order `7 8 9 T J Q K A`.
const VALUE_TEXTS: [&str; 8] = ["7", "8", "9", "10", "J", "Q", "K", "A"];
/// Row pitch of a hex board whose cells are 1 wide.
const ROW: f32 = 0.866_025_4;

fn piece(p: Piece) -> PieceView {
    PieceView::new(format!("{}{}", VALUE_TEXTS[value_of(p)], SUIT_SYMBOLS[suit_of(p)]), piece_code(p), Some(side_of_piece(p)))
}

/// Why a piece on the board has acted this turn, from the turn's state
/// (§5.2, §6.4.5): its suit made an action (the moved piece and every other
/// piece of that suit), or it was rescued this turn (locked).
fn acted(p: &Quattuor, q: Piece, s: usize) -> Option<String> {
    let suit = suit_of(q);
    if side_of_piece(q) != p.side() {
        return None;
    }
    if p.moved >> suit & 1 != 0 {
        return Some(format!("{} acted this turn: one action per suit", SUIT_SYMBOLS[suit]));
    }
    let b = BASES[p.side()].iter().position(|&x| x == s)?;
    (p.locked >> b & 1 != 0).then(|| "rescued this turn: locked until the turn ends".to_string())
}

/// The board, the captured pieces and the state of the turn.
pub fn board_view(p: &Quattuor) -> BoardView {
    let mut cells = Vec::with_capacity(248);
    for s in 0..SLOTS {
        if !exists(s) {
            continue;
        }
        let (f, y) = (file(s), rank(s));
        let class = if BASES[0].contains(&s) || BASES[1].contains(&s) {
            "base"
        } else if y == 0 || y == 14 {
            "goal"
        } else if y < 6 {
            "home1"
        } else if y >= 9 {
            "home2"
        } else {
            "neutral"
        };
        cells.push(CellView {
            name: format!("{}{}", (b'a' + f as u8) as char, y + 1),
            x: f as f32 + if width(y) == 17 { 0.5 } else { 1.0 },
            y: y as f32 * ROW + 0.5,
            shape: Shape::Hex,
            class,
            playable: true,
            pieces: p.piece_at(s).map(|q| vec![PieceView { acted: acted(p, q, s), ..piece(q) }]).unwrap_or_default(),
            marks: vec![],
        });
    }
    let captured = p.captured_mask();
    let reserves = (0..2)
        .map(|side| ReserveView {
            seat: Some(side),
            label: "captured",
            pieces: (16 * side..16 * side + 16).filter(|&q| captured >> q & 1 != 0).map(piece).collect(),
        })
        .collect();
    let mut notes = vec![format!("turn {}", p.turn())];
    let moved: Vec<&str> = (0..4).filter(|&s| p.moved >> s & 1 != 0).map(|s| SUIT_SYMBOLS[s]).collect();
    if !moved.is_empty() {
        notes.push(format!("moved this turn: {}", moved.join(" ")));
    }
    let side = p.side();
    let locked: Vec<String> = (0..2)
        .filter(|&b| p.locked >> b & 1 != 0)
        .map(|b| {
            let s = BASES[side][b];
            format!("{}{}", (b'a' + file(s) as u8) as char, rank(s) + 1)
        })
        .collect();
    if !locked.is_empty() {
        notes.push(format!("locked Bases: {}", locked.join(" ")));
    }
    BoardView {
        width: 17.0,
        height: 14.0 * ROW + 1.0,
        cells,
        seats: vec![
            SeatView { name: p.seat_name(0), colour: "#c62828", active: true },
            SeatView { name: p.seat_name(1), colour: "#212121", active: true },
        ],
        reserves,
        notes,
    }
}

/// The cells of an action: its squares before any rescue (`k11k12/dK@f4`
/// → `k11 k12`; a retreat `e5f7e5` → `e5 f7 e5`).
pub fn action_cells(p: &Quattuor, a: Action) -> Vec<String> {
    let t = action_string(p, a);
    token_cells(t.split('/').next().unwrap_or(""))
}

/// Why the piece on `cell` cannot act now (a piece of the side to move
/// whose suit acted, frozen or locked: §6.1.1), as the illegal-action
/// message says it.
pub fn idle_reason(p: &Quattuor, cell: &str) -> Option<String> {
    let s = parse_square(cell)?;
    notation::idle_reason(p, p.piece_at(s)?, s)
}

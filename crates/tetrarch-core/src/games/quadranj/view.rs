//! The position as a picture for front ends ([`crate::view`]): a piloted
//! column of height h is a stack of h layers, an empty blocker a neutral
//! piece; Keep squares have their own colour class. Cues from the
//! position's state: what stands on a marked square (§4.2) has acted this
//! turn, and every unit a seat's units enclose now (§6.2, the rules' own
//! `custodian_targets`) carries a pending-capture mark saying on which
//! seat's turn end it falls.

use super::{cell, Burglar, Quadranj};
use crate::game::Notation;
use crate::view::{BoardView, CellView, Mark, MarkKind, PieceView, SeatView, Shape};

fn colour(p: &Quadranj, seat: usize) -> &'static str {
    if p.geo.seats == 2 {
        ["#d32f2f", "#1e63c6"][seat & 1]
    } else {
        ["#2e9d4a", "#1e63c6", "#f2c200", "#d32f2f"][seat & 3]
    }
}

fn name(n: usize, s: usize) -> String {
    crate::ranks::square_name(s % n, s / n)
}

/// What the moved mark on a square means for what stands there (§4.2).
fn acted_text(c: u8) -> &'static str {
    if c == cell::WALL {
        "moved this turn: a pilot may climb in, but not drive it this turn"
    } else {
        "moved this turn: it cannot act again this turn"
    }
}

/// The pending captures of the position (§6.2): for every seat in the game,
/// the units its units enclose now, which it captures at the end of its
/// turn (this one if it is to move, else its next) if they are still
/// enclosed then. None once the game is over.
fn pending_captures(p: &Quadranj) -> Vec<(usize, Mark)> {
    let mut out = Vec::new();
    if p.st.res != 0 {
        return out;
    }
    let me = p.st.to_move as usize;
    for k in (0..p.geo.seats).filter(|&k| p.in_game(k)) {
        let who = p.seat_name(k);
        let when = if k == me { format!("this turn ({who}'s)") } else { format!("{who}'s next turn") };
        for s in p.custodian_targets(k) {
            let text = format!("pending capture: {who} captures it at the end of {when}, if it is still enclosed then");
            out.push((s, Mark { kind: MarkKind::PendingCapture, seat: Some(k), text }));
        }
    }
    out
}

/// Why what stands on `cell` cannot act now, where the position says it:
/// a unit of the seat to move on a marked square (§4.2), or an empty
/// blocker (§5.5, §5.6: only a pilot that climbs in drives it).
pub fn idle_reason(p: &Quadranj, cell_name: &str) -> Option<String> {
    if p.st.res != 0 {
        return None;
    }
    let s = p.geo.parse_sq(cell_name)?;
    let c = p.st.cell[s];
    let marked = p.st.marks.has(s);
    if c == cell::WALL {
        return Some(if marked {
            acted_text(c).to_string()
        } else {
            "an empty blocker does not move by itself: a pilot that climbs in can drive it".to_string()
        });
    }
    let mine = cell::is_unit(c) && cell::owner(c) == p.st.to_move as usize;
    (mine && marked).then(|| format!("{} (each piece or stack acts once a turn)", acted_text(c)))
}

/// The board, with the revealed burglars and the squares moved this turn
/// as notes, the moved pieces marked as having acted and the pending
/// captures as cell marks.
pub fn board_view(p: &Quadranj) -> BoardView {
    let n = p.geo.n;
    let mut cells = Vec::with_capacity(n * n);
    let pending = pending_captures(p);
    for s in 0..n * n {
        let (f, r) = (s % n, s / n);
        let c = p.st.cell[s];
        let pieces = if c == cell::EMPTY {
            vec![]
        } else if c == cell::WALL {
            vec![PieceView::new("▪", "blocker", None)]
        } else {
            let seat = cell::owner(c);
            match cell::kind(c) {
                cell::T_ROYAL => vec![PieceView::new("♚", "royal", Some(seat))],
                cell::T_GUARD => vec![PieceView::new("G", "guard", Some(seat))],
                cell::T_PILOT => vec![PieceView::new("P", "pilot", Some(seat))],
                _ => {
                    let h = cell::height(c);
                    (0..h).map(|_| PieceView::new("B", "piloted blocker", Some(seat))).collect()
                }
            }
        };
        let pieces = if p.st.marks.has(s) {
            pieces.into_iter().map(|v| PieceView { acted: Some(acted_text(c).to_string()), ..v }).collect()
        } else {
            pieces
        };
        let marks = pending.iter().filter(|m| m.0 == s).map(|m| m.1.clone()).collect();
        let keep = (0..p.geo.seats).any(|k| p.geo.keep[k].has(s));
        cells.push(CellView {
            name: name(n, s),
            x: f as f32 + 0.5,
            y: r as f32 + 0.5,
            shape: Shape::Square,
            class: if keep {
                "keep"
            } else if (f + r) % 2 == 0 {
                "dark"
            } else {
                "light"
            },
            playable: true,
            pieces,
            marks,
        });
    }
    let seats = (0..p.geo.seats)
        .map(|k| SeatView { name: p.seat_name(k), colour: colour(p, k), active: p.st.in_game >> k & 1 != 0 })
        .collect();
    let mut notes = vec![format!("turn {}", p.st.turn)];
    for k in 0..p.geo.seats {
        if let Burglar::Known { sq, level, revealed: true } = p.st.burglar[k] {
            notes.push(format!("{} burglar revealed: {}:{level}", p.seat_name(k), name(n, sq as usize)));
        }
    }
    let moved: Vec<String> = (0..n * n).filter(|&s| p.st.marks.has(s)).map(|s| name(n, s)).collect();
    if !moved.is_empty() {
        notes.push(format!("moved this turn: {}", moved.join(" ")));
    }
    BoardView { width: n as f32, height: n as f32, cells, seats, reserves: vec![], notes }
}

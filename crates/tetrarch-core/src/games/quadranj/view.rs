//! The position as a picture for front ends ([`crate::view`]): a piloted
//! column of height h is a stack of h layers, an empty blocker a neutral
//! piece; Keep squares have their own colour class.

use super::{cell, Burglar, Quadranj};
use crate::game::Notation;
use crate::view::{BoardView, CellView, PieceView, SeatView, Shape};

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

/// The board, with the revealed burglars and the squares moved this turn
/// as notes.
pub fn board_view(p: &Quadranj) -> BoardView {
    let n = p.geo.n;
    let mut cells = Vec::with_capacity(n * n);
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

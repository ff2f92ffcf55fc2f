//! The canonical position string (§7) and the text board of `d`.

use crate::games::quadranj::board::Sq;
use crate::games::quadranj::cell::{self, T_GUARD, T_PILOT, T_ROYAL, WALL};
use crate::games::quadranj::{Burglar, Quadranj};

fn write_tally(v: u32, out: &mut String) {
    out.push_str(&(v / 2).to_string());
    if v % 2 == 1 {
        out.push_str(".5");
    }
}

impl Quadranj {
    /// The text of the unit on a square (`rK`, `b2B`, `X`), empty if none.
    pub(crate) fn unit_text(&self, s: Sq) -> String {
        let c = self.st.cell[s];
        if c == 0 {
            return String::new();
        }
        if c == WALL {
            return "X".into();
        }
        let mut o = String::new();
        o.push(self.geo.letters[cell::owner(c)] as char);
        match cell::kind(c) {
            T_ROYAL => o.push('K'),
            T_GUARD => o.push('G'),
            T_PILOT => o.push('P'),
            _ => {
                let h = cell::height(c);
                if h >= 2 {
                    o.push_str(&h.to_string());
                }
                o.push('B');
            }
        }
        o
    }
}

/// The canonical position string.
pub fn write_position(p: &Quadranj) -> String {
    let g = p.geo;
    let n = g.n;
    let st = &p.st;
    let mut o = String::with_capacity(96);
    for r in (0..n).rev() {
        let mut run = 0;
        for f in 0..n {
            let s = g.sq(f, r);
            if st.cell[s] == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                o.push_str(&run.to_string());
                run = 0;
            }
            o.push_str(&p.unit_text(s));
        }
        if run > 0 {
            o.push_str(&run.to_string());
        }
        if r > 0 {
            o.push('/');
        }
    }
    o.push(' ');
    o.push(g.letters[st.to_move as usize] as char);
    o.push(' ');
    o.push((b'0' + st.index) as char);
    o.push(' ');
    if st.index == 0 {
        o.push('-');
    } else {
        let v: Vec<String> = st.marks.into_iter().map(|s| g.name(s)).collect();
        o.push_str(&v.join(","));
    }
    o.push(' ');
    for s in 0..g.seats {
        if p.in_game(s) {
            o.push(g.letters[s] as char);
        }
    }
    o.push(' ');
    for s in 0..g.seats {
        if s > 0 {
            o.push('/');
        }
        write_tally(st.tally[s], &mut o);
    }
    o.push(' ');
    for s in 0..g.seats {
        if s > 0 {
            o.push('/');
        }
        match st.burglar[s] {
            Burglar::None => o.push('-'),
            Burglar::Unknown => o.push('?'),
            Burglar::Known { sq, level, revealed } => {
                g.write_name(sq as Sq, &mut o);
                if level > 0 {
                    o.push(':');
                    o.push_str(&level.to_string());
                }
                if revealed {
                    o.push('!');
                }
            }
        }
    }
    o.push_str(&format!(" {} {}", st.quiet, st.turn));
    o
}

/// The board as text for `d`: `+` marks an empty square of an active Keep,
/// `*` follows a marked unit.
pub fn render(p: &Quadranj) -> String {
    let g = p.geo;
    let active = p.active_keeps();
    let mut o = String::new();
    for r in (0..g.n).rev() {
        o.push_str(&format!("{:>2} ", r + 1));
        for f in 0..g.n {
            let s = g.sq(f, r);
            let mut t = p.unit_text(s);
            if t.is_empty() {
                t = if active.has(s) { "+".into() } else { ".".into() };
            }
            if p.st.marks.has(s) {
                t.push('*');
            }
            o.push_str(&format!("{t:<5}"));
        }
        o.push('\n');
    }
    o.push_str("   ");
    for f in 0..g.n {
        o.push_str(&format!("{:<5}", (b'a' + f as u8) as char));
    }
    o.push('\n');
    o
}

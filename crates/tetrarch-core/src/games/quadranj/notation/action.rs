//! Action tokens (§8): the canonical token of an action, and reading one
//! back.

use super::decimal;
use crate::game::{Rules, TokenError};
use crate::games::quadranj::board::Sq;
use crate::games::quadranj::cell::{self, T_PILOT};
use crate::games::quadranj::moves::{kind, Action};
use crate::games::quadranj::Quadranj;

/// Appends a landing: the square, with `x` if an enemy lone pilot stands
/// there (before the action).
fn landing(p: &Quadranj, s: Sq, out: &mut String) {
    let c = p.st.cell[s];
    if cell::is_unit(c) && cell::kind(c) == T_PILOT && cell::owner(c) != p.st.to_move as usize {
        out.push('x');
    }
    p.geo.write_name(s, out);
}

/// The canonical token of an action (§8.1).
pub fn write_action(p: &Quadranj, a: Action, out: &mut String) {
    let g = p.geo;
    let (sa, sb) = (a.a as Sq, a.b as Sq);
    match a.kind {
        kind::MOVE => {
            g.write_name(sa, out);
            landing(p, sb, out);
        }
        kind::CLIMB_OUT => {
            g.write_name(sa, out);
            out.push('^');
            landing(p, sb, out);
        }
        kind::SWAP => {
            g.write_name(sa, out);
            out.push('~');
            g.write_name(sb, out);
        }
        kind::CHARGE => {
            g.write_name(sa, out);
            out.push('@');
            g.write_name(sb, out);
        }
        kind::CLIMB_IN => {
            g.write_name(sa, out);
            out.push(':');
            g.write_name(sb, out);
            match a.c {
                kind::DRIVE_STEP => landing(p, a.x as Sq, out),
                kind::DRIVE_STACK => {
                    out.push('+');
                    g.write_name(a.x as Sq, out);
                }
                _ => {}
            }
        }
        kind::STACK => {
            for s in a.contributors() {
                g.write_name(s, out);
            }
            out.push('+');
            g.write_name(sa, out);
        }
        kind::UNSTACK => {
            g.write_name(sa, out);
            let mut sqs = [sa; 10];
            let mut cur = sa;
            for (j, (d, k)) in a.links().enumerate() {
                cur = g.step[cur][d] as Sq;
                sqs[j + 1] = cur;
                out.push('/');
                out.push_str(&k.to_string());
                landing(p, cur, out);
            }
            if a.c != 0 {
                let xi = sqs[(a.c & 15) as usize];
                let dest = g.step[xi][((a.c >> 4) - 1) as usize] as Sq;
                out.push('.');
                g.write_name(xi, out);
                out.push('^');
                landing(p, dest, out);
            }
        }
        _ => out.push_str("????"),
    }
}

fn malformed(m: impl Into<String>) -> TokenError {
    TokenError::Malformed(m.into())
}

struct Lexer<'a> {
    b: &'a [u8],
    i: usize,
    p: &'a Quadranj,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn is_file(&self) -> bool {
        self.peek().is_some_and(|c| (b'a'..b'a' + self.p.geo.n as u8).contains(&c))
    }
    fn square(&mut self) -> Result<Sq, TokenError> {
        let st = self.i;
        if !self.is_file() {
            return Err(malformed(format!("expected a square at position {}", st + 1)));
        }
        self.i += 1;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let t = std::str::from_utf8(&self.b[st..self.i]).unwrap_or("");
        self.p.geo.parse_sq(t).ok_or_else(|| malformed(format!("`{t}` is not a square")))
    }
    fn landing(&mut self) -> Result<Sq, TokenError> {
        self.eat(b'x');
        self.square()
    }
    fn count(&mut self) -> Result<usize, TokenError> {
        let st = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let t = std::str::from_utf8(&self.b[st..self.i]).unwrap_or("");
        decimal(t).filter(|v| (1..16).contains(v)).map(|v| v as usize).ok_or_else(|| malformed(format!("`{t}` is not a count")))
    }
    fn end(&self) -> Result<(), TokenError> {
        match self.peek() {
            None => Ok(()),
            Some(c) => Err(malformed(format!("unexpected `{}` at position {}", c as char, self.i + 1))),
        }
    }
}

/// Builds the action a token describes (grammar only, not legality).
fn read_action(p: &Quadranj, t: &str) -> Result<Action, TokenError> {
    let g = p.geo;
    let mut lx = Lexer { b: t.as_bytes(), i: 0, p };
    let s0 = lx.square()?;
    let not_adj = |a: Sq, b: Sq| TokenError::Illegal(format!("{} is not next to {}", g.name(b), g.name(a)));
    let a = match lx.peek() {
        None => return Err(malformed("incomplete action")),
        Some(b'^') => {
            lx.i += 1;
            let d = lx.landing()?;
            lx.end()?;
            Action::simple(kind::CLIMB_OUT, s0, d)
        }
        Some(b'~') => {
            lx.i += 1;
            let d = lx.square()?;
            lx.end()?;
            Action::simple(kind::SWAP, s0, d)
        }
        Some(b'@') => {
            lx.i += 1;
            let d = lx.square()?;
            lx.end()?;
            Action::simple(kind::CHARGE, s0, d)
        }
        Some(b':') => {
            lx.i += 1;
            let e = lx.square()?;
            let mut a = Action::simple(kind::CLIMB_IN, s0, e);
            if lx.eat(b'+') {
                a.c = kind::DRIVE_STACK;
                a.x = lx.square()? as u32;
            } else if lx.peek().is_some() {
                a.c = kind::DRIVE_STEP;
                a.x = lx.landing()? as u32;
            }
            lx.end()?;
            a
        }
        Some(b'/') => {
            let mut cur = s0;
            let mut sqs = vec![s0];
            let mut y = 0u64;
            let mut nl = 0;
            while lx.eat(b'/') {
                let k = lx.count()?;
                let d = lx.landing()?;
                let dir = g.dir_to(cur, d).ok_or_else(|| not_adj(cur, d))?;
                if nl >= 8 {
                    return Err(TokenError::Illegal("too many links".into()));
                }
                y |= ((dir as u64) << 4 | k as u64) << (8 * nl);
                nl += 1;
                cur = d;
                sqs.push(d);
            }
            let mut a = Action { kind: kind::UNSTACK, a: s0 as u8, b: nl as u8, c: 0, x: 0, y };
            if lx.eat(b'.') {
                let xi = lx.square()?;
                if !lx.eat(b'^') {
                    return Err(malformed("expected `^` after the exit square"));
                }
                let d = lx.landing()?;
                lx.end()?;
                let i = sqs[1..]
                    .iter()
                    .position(|&q| q == xi)
                    .ok_or_else(|| TokenError::Illegal(format!("{} is not a square of the chain", g.name(xi))))?;
                let dir = g.dir_to(xi, d).ok_or_else(|| not_adj(xi, d))?;
                a.c = (i as u8 + 1) | ((dir as u8 + 1) << 4);
            } else {
                lx.end()?;
            }
            a
        }
        Some(b'x') => {
            let d = lx.landing()?;
            lx.end()?;
            Action::simple(kind::MOVE, s0, d)
        }
        Some(b'+') => {
            lx.i += 1;
            let l = lx.square()?;
            lx.end()?;
            Action { kind: kind::STACK, a: l as u8, b: 0, c: 1, x: 0, y: s0 as u64 + 1 }
        }
        Some(_) if lx.is_file() => {
            let mut list = vec![s0];
            while lx.is_file() {
                list.push(lx.square()?);
            }
            if lx.peek().is_none() && list.len() == 2 {
                Action::simple(kind::MOVE, s0, list[1])
            } else if lx.eat(b'+') {
                let l = lx.square()?;
                lx.end()?;
                if list.len() > 8 {
                    return Err(TokenError::Illegal("too many contributors".into()));
                }
                list.sort_unstable();
                let mut y = 0u64;
                for (i, &s) in list.iter().enumerate() {
                    y |= (s as u64 + 1) << (8 * i);
                }
                Action { kind: kind::STACK, a: l as u8, b: 0, c: list.len() as u8, x: 0, y }
            } else {
                return Err(malformed("expected `+` and a landing column after the contributors"));
            }
        }
        Some(c) => return Err(malformed(format!("unexpected `{}` after the first square", c as char))),
    };
    Ok(a)
}

/// Parses a canonical action token and checks it is legal here.
pub fn parse_action(p: &Quadranj, t: &str) -> Result<Action, TokenError> {
    if t == "0000" {
        return Err(TokenError::Illegal("`0000` is never legal in Quadranj".into()));
    }
    let a = read_action(p, t)?;
    if p.st.res != 0 {
        return Err(TokenError::Illegal("the game is over".into()));
    }
    if !p.is_legal(a) {
        return Err(TokenError::Illegal(format!("`{t}` is not a legal action here")));
    }
    let mut canon = String::new();
    write_action(p, a, &mut canon);
    if canon != t {
        return Err(TokenError::Illegal(format!("not canonical: the action is written `{canon}`")));
    }
    Ok(a)
}

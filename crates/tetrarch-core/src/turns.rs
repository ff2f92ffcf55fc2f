//! Turns built from actions, generically: turn tokens (parse and print), the
//! legal turns of a position, and perft at turn and at action level.
//!
//! A turn is the actions one seat plays before the next seat is to move
//! ([`crate::game`]). Its token joins the actions' tokens with `,`; a turn
//! that stopped early by the game's end-turn action (`0000` after a first
//! action) is written without that trailing `0000`.

use core::sync::atomic::{AtomicBool, Ordering};

use crate::game::{action_string, turn_done, Game, TokenError};

/// The token of the turn made of `actions`, played from `g`.
pub fn turn_string<G: Game>(g: &G, actions: &[G::Action]) -> String {
    let mut pos = g.clone();
    let mut out = String::new();
    for (i, &a) in actions.iter().enumerate() {
        if i > 0 && pos.is_pass(a) {
            break; // the implied end of a turn that stopped early
        }
        if i > 0 {
            out.push(',');
        }
        pos.write_action(a, &mut out);
        pos.make(a);
    }
    out
}

/// Splits a flat line of actions (a principal variation) into turn tokens.
/// A trailing incomplete turn is written as far as it goes.
pub fn line_to_turns<G: Game>(g: &G, actions: &[G::Action]) -> Vec<String> {
    let mut pos = g.clone();
    let mut turns = Vec::new();
    let mut start = 0;
    let mut snapshot = pos.clone();
    for (i, &a) in actions.iter().enumerate() {
        pos.make(a);
        if turn_done(&pos) {
            turns.push(turn_string(&snapshot, &actions[start..=i]));
            start = i + 1;
            snapshot = pos.clone();
        }
    }
    if start < actions.len() {
        turns.push(turn_string(&snapshot, &actions[start..]));
    }
    turns
}

/// Parses a turn token in `g` into the actions it plays (the implied end of
/// turn included), checking each against the rules.
pub fn parse_turn<G: Game>(g: &G, token: &str) -> Result<Vec<G::Action>, TokenError> {
    if token.is_empty() {
        return Err(TokenError::Malformed("empty turn".into()));
    }
    let parts: Vec<&str> = token.split(',').collect();
    if parts.len() > 1 && parts.iter().any(|p| *p == "0000") {
        return Err(TokenError::Malformed("`0000` inside a turn with actions".into()));
    }
    let mut pos = g.clone();
    if pos.outcome().is_some() {
        return Err(TokenError::Illegal("the game is over".into()));
    }
    let mut actions = Vec::with_capacity(parts.len() + 1);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 && turn_done(&pos) {
            return Err(TokenError::Illegal(format!(
                "the turn is over before action {} `{}`",
                i + 1,
                part
            )));
        }
        let a = pos.parse_action(part).map_err(|e| match e {
            TokenError::Malformed(m) if parts.len() > 1 => {
                TokenError::Malformed(format!("action {} `{}`: {}", i + 1, part, m))
            }
            TokenError::Illegal(m) if parts.len() > 1 => {
                TokenError::Illegal(format!("action {} `{}`: {}", i + 1, part, m))
            }
            e => e,
        })?;
        pos.make(a);
        actions.push(a);
    }
    if !turn_done(&pos) {
        match pos.end_turn_action() {
            Some(end) => actions.push(end),
            None => return Err(TokenError::Illegal("the turn is not complete".into())),
        }
    }
    Ok(actions)
}

/// Plays a whole turn (as returned by [`parse_turn`]).
pub fn play_turn<G: Game>(g: &mut G, actions: &[G::Action]) {
    for &a in actions {
        g.make(a);
    }
}

/// Every legal turn of `g` as (token, actions), sorted by token bytes.
pub fn legal_turns<G: Game>(g: &G) -> Vec<(String, Vec<G::Action>)> {
    fn walk<G: Game>(pos: &mut G, root: &G, path: &mut Vec<G::Action>, out: &mut Vec<(String, Vec<G::Action>)>) {
        let mut list = G::Actions::default();
        pos.legal_actions(&mut list);
        for &a in list.iter() {
            if !path.is_empty() && pos.is_pass(a) {
                // Ending the turn after a first action: the token without `0000`.
                out.push((turn_string(root, path), {
                    let mut p = path.clone();
                    p.push(a);
                    p
                }));
                continue;
            }
            let u = pos.make(a);
            path.push(a);
            if turn_done(pos) {
                out.push((turn_string(root, path), path.clone()));
            } else {
                walk(pos, root, path, out);
            }
            path.pop();
            pos.unmake(a, u);
        }
    }
    let mut out = Vec::new();
    let mut pos = g.clone();
    walk(&mut pos, g, &mut Vec::new(), &mut out);
    out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    out
}

fn perft_rec<G: Game>(g: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    let mut n = 0;
    for &a in list.iter() {
        let u = g.make(a);
        n += if turn_done(g) {
            if depth == 1 {
                1
            } else {
                perft_rec(g, depth - 1)
            }
        } else {
            perft_rec(g, depth) // the rest of the same turn
        };
        g.unmake(a, u);
    }
    n
}

fn perft_actions_rec<G: Game>(g: &mut G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    if depth == 1 {
        // Every leaf is still made and taken back: the figure counts real work.
        let mut n = 0;
        for &a in list.iter() {
            let u = g.make(a);
            n += 1;
            g.unmake(a, u);
        }
        return n;
    }
    let mut n = 0;
    for &a in list.iter() {
        let u = g.make(a);
        n += perft_actions_rec(g, depth - 1);
        g.unmake(a, u);
    }
    n
}

fn perft_bulk_rec<G: Game>(g: &mut G, depth: u32) -> u64 {
    if !G::ONE_ACTION_PER_TURN {
        return perft_rec(g, depth);
    }
    if depth == 0 {
        return 1;
    }
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &a in list.iter() {
        let u = g.make(a);
        n += perft_bulk_rec(g, depth - 1);
        g.unmake(a, u);
    }
    n
}

fn perft_until_rec<G: Game>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    let mut n = 0;
    for &a in list.iter() {
        let u = g.make(a);
        let r = if turn_done(g) {
            if depth == 1 {
                Some(1)
            } else {
                perft_until_rec(g, depth - 1, stop)
            }
        } else {
            perft_until_rec(g, depth, stop)
        };
        g.unmake(a, u);
        n += r?;
    }
    Some(n)
}

fn perft_actions_until_rec<G: Game>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 1 {
        return Some(perft_actions_rec(g, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    let mut n = 0;
    for &a in list.iter() {
        let u = g.make(a);
        let r = perft_actions_until_rec(g, depth - 1, stop);
        g.unmake(a, u);
        n += r?;
    }
    Some(n)
}

/// Runs `f` on `g` with the game's history rules off (perft counts no
/// repetition rule), then restores the setting.
fn without_history<G: Game, R>(g: &mut G, f: impl FnOnce(&mut G) -> R) -> R {
    let was = g.set_history_rules(false);
    let r = f(g);
    g.set_history_rules(was);
    r
}

/// Perft counting turns (the protocol's `go perft N`).
pub fn perft<G: Game>(g: &mut G, depth: u32) -> u64 {
    without_history(g, |g| perft_rec(g, depth))
}

/// Perft counting paths of single actions (`go perft N actions`).
pub fn perft_actions<G: Game>(g: &mut G, depth: u32) -> u64 {
    without_history(g, |g| perft_actions_rec(g, depth))
}

/// Perft at turn level that counts the last level in bulk (the length of the
/// action list, without making the leaves). Only for games whose every action
/// is a whole turn ([`Game::ONE_ACTION_PER_TURN`]); otherwise it is [`perft`].
pub fn perft_bulk<G: Game>(g: &mut G, depth: u32) -> u64 {
    without_history(g, |g| perft_bulk_rec(g, depth))
}

/// [`perft`] that gives up (`None`) as soon as `stop` is set; the flag is
/// read at every inner node, never at the leaves.
pub fn perft_until<G: Game>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    without_history(g, |g| perft_until_rec(g, depth, stop))
}

/// [`perft_actions`] that gives up (`None`) as soon as `stop` is set.
pub fn perft_actions_until<G: Game>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    without_history(g, |g| perft_actions_until_rec(g, depth, stop))
}

/// [`divide`] that gives up (`None`) as soon as `stop` is set.
pub fn divide_until<G: Game>(g: &G, depth: u32, actions_level: bool, stop: &AtomicBool) -> Option<Vec<(String, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut root = g.clone();
    root.set_history_rules(false);
    let g = &root;
    if actions_level {
        let mut list = G::Actions::default();
        g.legal_actions(&mut list);
        let mut out = Vec::with_capacity(list.len());
        for &a in list.iter() {
            let mut p = g.clone();
            let tok = action_string(&p, a);
            p.make(a);
            out.push((tok, perft_actions_until(&mut p, depth - 1, stop)?));
        }
        out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        return Some(out);
    }
    let mut out = Vec::new();
    for (tok, acts) in legal_turns(g) {
        let mut p = g.clone();
        play_turn(&mut p, &acts);
        out.push((tok, perft_until(&mut p, depth - 1, stop)?));
    }
    Some(out)
}

/// Divide: the count below every legal turn of the root, sorted by token.
pub fn divide<G: Game>(g: &G, depth: u32, actions_level: bool) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut root = g.clone();
    root.set_history_rules(false);
    let g = &root;
    if actions_level {
        let mut list = G::Actions::default();
        g.legal_actions(&mut list);
        let mut out: Vec<(String, u64)> = list
            .iter()
            .map(|&a| {
                let mut p = g.clone();
                let tok = action_string(&p, a);
                p.make(a);
                (tok, perft_actions(&mut p, depth - 1))
            })
            .collect();
        out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        return out;
    }
    legal_turns(g)
        .into_iter()
        .map(|(tok, acts)| {
            let mut p = g.clone();
            play_turn(&mut p, &acts);
            (tok, perft(&mut p, depth - 1))
        })
        .collect()
}


#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fourchess::{FourChess, Options};

    #[test]
    fn stoppable_perft_agrees_and_stops() {
        let mut p = FourChess::startpos(&Options::default());
        let go = AtomicBool::new(false);
        assert_eq!(perft_until(&mut p, 3, &go), Some(perft(&mut p, 3)));
        assert_eq!(perft_actions_until(&mut p, 3, &go), Some(perft_actions(&mut p, 3)));
        assert_eq!(divide_until(&p, 2, false, &go), Some(divide(&p, 2, false)));
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&mut p, 3, &stop), None);
        assert_eq!(divide_until(&p, 3, true, &stop), None);
    }
}

//! Turns built from actions, generically: turn tokens (parse and print), the
//! legal turns of a position, and perft at turn and at action level.
//!
//! A turn is the actions one seat plays before the next seat is to move
//! ([`crate::game`]). Its token joins the actions' tokens with `,`; a turn
//! that stopped early by the game's end-turn action (`0000` after a first
//! action) is written without that trailing `0000`.

use core::sync::atomic::{AtomicBool, Ordering};

use crate::game::{action_string, turn_done, ActionList, Notation, Rules, SearchHints, TokenError};

/// The token of the turn made of `actions`, played from `g`.
pub fn turn_string<G: Notation>(g: &G, actions: &[G::Action]) -> String {
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
pub fn line_to_turns<G: Notation>(g: &G, actions: &[G::Action]) -> Vec<String> {
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
pub fn parse_turn<G: Notation>(g: &G, token: &str) -> Result<Vec<G::Action>, TokenError> {
    if token.is_empty() {
        return Err(TokenError::Malformed("empty turn".into()));
    }
    let parts: Vec<&str> = token.split(',').collect();
    if parts.len() > 1 && parts.contains(&"0000") {
        return Err(TokenError::Malformed("`0000` inside a turn with actions".into()));
    }
    let mut pos = g.clone();
    if pos.outcome().is_some() {
        return Err(TokenError::Illegal("the game is over".into()));
    }
    let mut actions = Vec::with_capacity(parts.len() + 1);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 && turn_done(&pos) {
            return Err(TokenError::Illegal(format!("the turn is over before action {} `{}`", i + 1, part)));
        }
        let a = pos.parse_action(part).map_err(|e| match e {
            TokenError::Malformed(m) if parts.len() > 1 => TokenError::Malformed(format!("action {} `{}`: {}", i + 1, part, m)),
            TokenError::Illegal(m) if parts.len() > 1 => TokenError::Illegal(format!("action {} `{}`: {}", i + 1, part, m)),
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
pub fn play_turn<G: Rules>(g: &mut G, actions: &[G::Action]) {
    for &a in actions {
        g.make(a);
    }
}

/// The most turns that `moves`, `d` and divide list or count one by one. A
/// Quadranj position with a tall stack has tens of millions of legal turns
/// (a 7-high column: 80,793,175); listing them would take gigabytes.
pub const TURN_LIST_LIMIT: usize = 1_000_000;

/// Calls `f` with the actions of every legal turn of `g` (in generation
/// order) until it returns `false`; returns `false` if it was stopped.
fn for_each_turn<G: Rules>(g: &G, mut f: impl FnMut(&[G::Action]) -> bool) -> bool {
    fn walk<G: Rules>(pos: &mut G, path: &mut Vec<G::Action>, f: &mut impl FnMut(&[G::Action]) -> bool) -> bool {
        let mut list = G::Actions::default();
        pos.legal_actions(&mut list);
        for &a in list.iter() {
            path.push(a);
            let go_on = if path.len() > 1 && pos.is_pass(a) {
                // Ending the turn after a first action (its token drops `0000`).
                f(path)
            } else {
                let u = pos.make(a);
                let r = if turn_done(pos) { f(path) } else { walk(pos, path, f) };
                pos.unmake(a, u);
                r
            };
            path.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
    let mut pos = g.clone();
    walk(&mut pos, &mut Vec::new(), &mut f)
}

/// One legal turn of `g` built action by action from the search's lists
/// (`search_actions`, never the millions of actions some positions have):
/// `pick(n)` chooses the index of the next action among `n`. `None` if the
/// seat to move has no action. The pass that ends a turn after its first
/// action is kept at the end, as in [`legal_turns`].
pub fn turn_by_actions<G: SearchHints>(g: &G, mut pick: impl FnMut(usize) -> usize) -> Option<Vec<G::Action>> {
    let mut pos = g.clone();
    let mut list = G::Actions::default();
    let mut turn = Vec::new();
    loop {
        list.clear();
        pos.search_actions(&mut list);
        if list.is_empty() {
            // A turn is never left unfinished with actions played.
            return None;
        }
        let a = list[pick(list.len()) % list.len()];
        turn.push(a);
        if turn.len() > 1 && pos.is_pass(a) {
            return Some(turn);
        }
        pos.make(a);
        if turn_done(&pos) {
            return Some(turn);
        }
    }
}

/// A legal turn of `g` drawn uniformly among all its legal turns (the
/// random player, `tetrarch --random`; docs/levels.md): `draw(n)` returns a
/// number below `n`. Where `g` has more than [`TURN_LIST_LIMIT`] legal
/// turns (tall Quadranj stacks), counting them all would take seconds, so
/// the turn is built action by action instead ([`turn_by_actions`]: each
/// action uniform among the search's actions), which no longer weighs
/// every turn alike. `None` if the seat to move has no legal turn.
pub fn random_turn<G: SearchHints>(g: &G, mut draw: impl FnMut(u64) -> u64) -> Option<Vec<G::Action>> {
    let Some(n) = count_turns_up_to(g, TURN_LIST_LIMIT as u64) else {
        return turn_by_actions(g, |k| draw(k as u64) as usize);
    };
    if n == 0 {
        return None;
    }
    let target = draw(n).min(n - 1);
    let mut seen = 0u64;
    let mut out = None;
    for_each_turn(g, |acts| {
        if seen == target {
            out = Some(acts.to_vec());
            return false;
        }
        seen += 1;
        true
    });
    out
}

/// Every legal turn of `g` as (token, actions), sorted by token bytes.
pub fn legal_turns<G: Notation>(g: &G) -> Vec<(String, Vec<G::Action>)> {
    legal_turns_up_to(g, usize::MAX).unwrap_or_default()
}

/// [`legal_turns`], or `None` as soon as `g` is found to have more than
/// `limit` legal turns (counted first, so no turn is written out then).
pub fn legal_turns_up_to<G: Notation>(g: &G, limit: usize) -> Option<Vec<(String, Vec<G::Action>)>> {
    if limit != usize::MAX {
        count_turns_up_to(g, limit as u64)?;
    }
    let mut out = Vec::new();
    let complete = for_each_turn(g, |acts| {
        out.push((turn_string(g, acts), acts.to_vec()));
        out.len() <= limit
    });
    if !complete || out.len() > limit {
        return None;
    }
    out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Some(out)
}

/// The number of legal turns of `g`, or `None` as soon as it is found to be
/// more than `limit`. Nothing is listed, so this is cheap for any `limit`.
pub fn count_turns_up_to<G: Rules>(g: &G, limit: u64) -> Option<u64> {
    let mut n = 0u64;
    let complete = for_each_turn(g, |_| {
        n += 1;
        n <= limit
    });
    complete.then_some(n)
}

fn perft_rec<G: Rules>(g: &mut G, depth: u32) -> u64 {
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

fn perft_actions_rec<G: Rules>(g: &mut G, depth: u32) -> u64 {
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

fn perft_bulk_rec<G: Rules>(g: &mut G, depth: u32) -> u64 {
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

fn perft_until_rec<G: Rules>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
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

fn perft_actions_until_rec<G: Rules>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
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
fn without_history<G: Rules, R>(g: &mut G, f: impl FnOnce(&mut G) -> R) -> R {
    let was = g.set_history_rules(false);
    let r = f(g);
    g.set_history_rules(was);
    r
}

/// Perft counting turns (the protocol's `go perft N`).
pub fn perft<G: Rules>(g: &mut G, depth: u32) -> u64 {
    without_history(g, |g| perft_rec(g, depth))
}

/// Perft counting paths of single actions (`go perft N actions`).
pub fn perft_actions<G: Rules>(g: &mut G, depth: u32) -> u64 {
    without_history(g, |g| perft_actions_rec(g, depth))
}

/// Perft at turn level that counts the last level in bulk (the length of the
/// action list, without making the leaves). Only for games whose every action
/// is a whole turn ([`crate::game::Rules::ONE_ACTION_PER_TURN`]); otherwise it is [`perft`].
pub fn perft_bulk<G: Rules>(g: &mut G, depth: u32) -> u64 {
    without_history(g, |g| perft_bulk_rec(g, depth))
}

/// [`perft`] that gives up (`None`) as soon as `stop` is set; the flag is
/// read at every inner node, never at the leaves.
pub fn perft_until<G: Rules>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    without_history(g, |g| perft_until_rec(g, depth, stop))
}

/// [`perft_actions`] that gives up (`None`) as soon as `stop` is set.
pub fn perft_actions_until<G: Rules>(g: &mut G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    without_history(g, |g| perft_actions_until_rec(g, depth, stop))
}

/// Why a divide gave no table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivideError {
    /// The stop flag was set.
    Stopped,
    /// The root has more than [`TURN_LIST_LIMIT`] legal turns: a table of
    /// them would take gigabytes (count them with perft, or divide by actions).
    TooManyTurns,
}

impl core::fmt::Display for DivideError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DivideError::Stopped => f.write_str("stopped"),
            DivideError::TooManyTurns => write!(
                f,
                "the position has more than {TURN_LIST_LIMIT} legal turns, too many to list one by one \
                 (perft by actions divides by first action)"
            ),
        }
    }
}

/// [`divide`] that gives up as soon as `stop` is set.
pub fn divide_until<G: Notation>(
    g: &G,
    depth: u32,
    actions_level: bool,
    stop: &AtomicBool,
) -> Result<Vec<(String, u64)>, DivideError> {
    if depth == 0 {
        return Ok(Vec::new());
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
            out.push((tok, perft_actions_until(&mut p, depth - 1, stop).ok_or(DivideError::Stopped)?));
        }
        out.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        return Ok(out);
    }
    let mut out = Vec::new();
    for (tok, acts) in legal_turns_up_to(g, TURN_LIST_LIMIT).ok_or(DivideError::TooManyTurns)? {
        let mut p = g.clone();
        play_turn(&mut p, &acts);
        out.push((tok, perft_until(&mut p, depth - 1, stop).ok_or(DivideError::Stopped)?));
    }
    Ok(out)
}

/// Divide: the count below every legal turn of the root, sorted by token.
pub fn divide<G: Notation>(g: &G, depth: u32, actions_level: bool) -> Result<Vec<(String, u64)>, DivideError> {
    if depth == 0 {
        return Ok(Vec::new());
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
        return Ok(out);
    }
    Ok(legal_turns_up_to(g, TURN_LIST_LIMIT)
        .ok_or(DivideError::TooManyTurns)?
        .into_iter()
        .map(|(tok, acts)| {
            let mut p = g.clone();
            play_turn(&mut p, &acts);
            (tok, perft(&mut p, depth - 1))
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Notation, Rules, SearchHints};
    use crate::games::fourchess::{FourChess, Options};

    #[test]
    fn stoppable_perft_agrees_and_stops() {
        let mut p = FourChess::startpos(&Options::default());
        let go = AtomicBool::new(false);
        assert_eq!(perft_until(&mut p, 3, &go), Some(perft(&mut p, 3)));
        assert_eq!(perft_actions_until(&mut p, 3, &go), Some(perft_actions(&mut p, 3)));
        assert_eq!(divide_until(&p, 2, false, &go), divide(&p, 2, false));
        assert!(divide(&p, 2, false).is_ok());
        let stop = AtomicBool::new(true);
        assert_eq!(perft_until(&mut p, 3, &stop), None);
        assert_eq!(divide_until(&p, 3, true, &stop), Err(DivideError::Stopped));
    }

    /// Counting and listing turns agree with perft, and stop at a limit
    /// without listing the rest: a Quadranj 5-high column has 1,671,630
    /// turns (perft 1), more than `TURN_LIST_LIMIT`.
    #[test]
    fn bounded_turn_lists() {
        use crate::games::quadranj::Quadranj;
        let p = FourChess::startpos(&Options::default());
        let all = legal_turns(&p);
        assert_eq!(all.len(), 12);
        assert_eq!(count_turns_up_to(&p, 12), Some(12));
        assert_eq!(count_turns_up_to(&p, 11), None);
        assert_eq!(legal_turns_up_to(&p, 12).as_deref(), Some(&all[..]));
        assert_eq!(legal_turns_up_to(&p, 11), None);

        let opts = Quadranj::default_options("quadranj");
        // Two actions a turn, and `0000` ending it early, counted like perft.
        let q = Quadranj::from_position_string("bK7/8/8/8/3r3B4/8/8/7rK r 0 - rb 0/0 ?/? 0 1", &opts).unwrap();
        let n = perft(&mut q.clone(), 1);
        assert_eq!(count_turns_up_to(&q, u64::MAX), Some(n));
        assert_eq!(legal_turns(&q).len() as u64, n);
        assert_eq!(count_turns_up_to(&q, n - 1), None);
        let tall = Quadranj::from_position_string("bK7/8/8/8/3r5B4/8/8/7rK r 0 - rb 0/0 ?/? 0 1", &opts).unwrap();
        assert_eq!(count_turns_up_to(&tall, TURN_LIST_LIMIT as u64), None);
        assert!(legal_turns_up_to(&tall, TURN_LIST_LIMIT).is_none());
        assert_eq!(divide(&tall, 1, false), Err(DivideError::TooManyTurns));
        assert_eq!(divide(&tall, 1, true).map(|d| d.iter().map(|r| r.1).sum::<u64>()), Ok(perft_actions(&mut tall.clone(), 1)));
    }

    /// `turn_by_actions` builds whole legal turns: one action in chess,
    /// two in Quattuor Reges (with its early end), and the first legal
    /// action each time with `pick` = 0.
    #[test]
    fn turns_built_action_by_action_are_legal() {
        use crate::games::{quattuor::Quattuor, teamchess::TeamChess};
        fn check<G: crate::game::Game>(g: &G) {
            let legal: Vec<String> = legal_turns(g).into_iter().map(|(t, _)| t).collect();
            let mut seed = 12345u64;
            for _ in 0..50 {
                let t = turn_by_actions(g, |n| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (seed >> 33) as usize % n
                })
                .unwrap();
                assert!(legal.contains(&turn_string(g, &t)), "{}", turn_string(g, &t));
            }
        }
        let q = Quattuor::startpos(&Quattuor::default_options("quattuor"));
        check(&q);
        let t = TeamChess::startpos(&TeamChess::default_options("teamchess"));
        check(&t);
        let mut first = <TeamChess as Rules>::Actions::default();
        t.search_actions(&mut first);
        assert_eq!(turn_by_actions(&t, |_| 0), Some(vec![first[0]]));
    }

    /// The random player draws every legal turn alike: in the quattuor
    /// start (two actions a turn) each of its turns comes up, about equally
    /// often, and only legal turns come up.
    #[test]
    fn random_turns_are_uniform_over_legal_turns() {
        use crate::games::quattuor::Quattuor;
        let q = Quattuor::startpos(&Quattuor::default_options("quattuor"));
        let legal: Vec<String> = legal_turns(&q).into_iter().map(|(t, _)| t).collect();
        let n = legal.len();
        assert!(n > 10, "{n}");
        let mut counts = std::collections::HashMap::new();
        let mut seed = 99u64;
        let draws = 100 * n;
        for _ in 0..draws {
            let t = random_turn(&q, |k| {
                seed = crate::zobrist::splitmix64(seed);
                seed % k
            })
            .unwrap();
            *counts.entry(turn_string(&q, &t)).or_insert(0usize) += 1;
        }
        assert_eq!(counts.len(), n, "every legal turn comes up");
        assert!(counts.keys().all(|t| legal.contains(t)));
        // 100 expected each: a binomial's 6 sigma is 60.
        assert!(counts.values().all(|&c| (40..=160).contains(&c)), "{counts:?}");
        // Past the list limit it still plays a legal turn.
        let opts = crate::games::quadranj::Quadranj::default_options("quadranj");
        let tall = crate::games::quadranj::Quadranj::from_position_string("bK7/8/8/8/3r5B4/8/8/7rK r 0 - rb 0/0 ?/? 0 1", &opts)
            .unwrap();
        let t = random_turn(&tall, |k| k / 2).unwrap();
        assert!(parse_turn(&tall, &turn_string(&tall, &t)).is_ok());
    }
}

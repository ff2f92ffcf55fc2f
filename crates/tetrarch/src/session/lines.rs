//! The engine's report lines: `info` during a search and `bestmove` after
//! it, with turns in the game's dialect where an option selects one.

use crate::GameInfo;
use tetrarch_core::game::turn_done;
use tetrarch_core::turns::{line_to_turns, play_turn, turn_by_actions, turn_string};
use tetrarch_search::{Info, Score, SearchResult};

use super::{game_over, is_legal_turn};
use crate::out::{score_text, Out, SearchReport};

/// The token of a turn: the game's dialect when an option selects one
/// ([`GameInfo::dialect_turn`]), else the canonical token.
pub(crate) fn turn_token<G: GameInfo>(g: &G, opts: &G::Options, actions: &[G::Action]) -> String {
    g.dialect_turn(opts, actions).unwrap_or_else(|| turn_string(g, actions))
}

/// A line of actions from `root` as turn tokens: [`line_to_turns`], each
/// turn in the game's dialect where one is selected.
pub(crate) fn line_tokens<G: GameInfo>(root: &G, opts: &G::Options, actions: &[G::Action]) -> Vec<String> {
    if root.dialect_turn(opts, &actions[..actions.len().min(1)]).is_none() {
        return line_to_turns(root, actions);
    }
    let mut pos = root.clone();
    let mut snapshot = pos.clone();
    let mut start = 0;
    let mut v = Vec::new();
    for (i, &a) in actions.iter().enumerate() {
        pos.make(a);
        if turn_done(&pos) {
            v.push(turn_token(&snapshot, opts, &actions[start..=i]));
            start = i + 1;
            snapshot = pos.clone();
        }
    }
    if start < actions.len() {
        v.push(turn_token(&snapshot, opts, &actions[start..]));
    }
    v
}

/// A score from the side to move, as the game's dialect reports it
/// ([`GameInfo::dialect_score_seat`]: 4pchess's tools read Red/Yellow's side).
fn dialect_score<G: GameInfo>(root: &G, opts: &G::Options, s: Score) -> Score {
    match root.dialect_score_seat(opts) {
        Some(seat) if root.side_of(seat) != root.side_of(root.to_move()) => match s {
            Score::Cp(x) => Score::Cp(-x),
            Score::Mate(n) => Score::Mate(-n),
        },
        _ => s,
    }
}

/// One search report, typed ([`SearchReport`]: the scores as the dialect
/// reports them, the line as turn tokens).
pub(crate) fn search_report<G: GameInfo>(root: &G, opts: &G::Options, info: &Info<G::Action>) -> SearchReport {
    SearchReport {
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        score: dialect_score(root, opts, info.score),
        nodes: info.nodes,
        nps: ((info.nodes as u128 * 1_000_000) / info.time.as_micros().max(1)) as u64,
        hashfull: info.hashfull,
        time_ms: info.time.as_millis() as u64,
        pv: if info.pv.is_empty() { Vec::new() } else { line_tokens(root, opts, &info.pv) },
    }
}

/// The `info` line of a search report.
pub(crate) fn info_line(r: &SearchReport) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        r.depth,
        r.seldepth,
        r.multipv,
        score_text(r.score),
        r.nodes,
        r.nps,
        r.hashfull,
        r.time_ms
    );
    if !r.pv.is_empty() {
        s.push_str(" pv");
        for t in &r.pv {
            s.push(' ');
            s.push_str(t);
        }
    }
    s
}

/// A search's answer: its turn (`None`: `(none)`, the game is over) and
/// the expected reply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct BestMove {
    pub(crate) turn: Option<String>,
    pub(crate) ponder: Option<String>,
}

impl BestMove {
    /// The `bestmove` line.
    pub(crate) fn line(&self) -> String {
        match (&self.turn, &self.ponder) {
            (None, _) => "bestmove (none)".into(),
            (Some(t), None) => format!("bestmove {t}"),
            (Some(t), Some(p)) => format!("bestmove {t} ponder {p}"),
        }
    }
}

/// The answer for a search result on `root` (a legal turn even when the
/// search returned none: the first legal turn then), with the `ponder`
/// turn if the search has one and `with_ponder` allows it.
pub(crate) fn best_move<G: GameInfo>(
    root: &G,
    opts: &G::Options,
    history: &[u64],
    res: Option<&SearchResult<G::Action>>,
    with_ponder: bool,
    out: &Out,
) -> BestMove {
    if game_over(root, history) {
        return BestMove::default();
    }
    let best = res.map(|r| r.best.as_slice()).unwrap_or(&[]);
    if is_legal_turn(root, best) {
        let tok = turn_token(root, opts, best);
        let mut after = root.clone();
        play_turn(&mut after, best);
        let ponder = res
            .and_then(|r| r.ponder.as_ref())
            .filter(|p| with_ponder && after.outcome().is_none() && is_legal_turn(&after, p))
            .map(|p| turn_token(&after, opts, p));
        return BestMove { turn: Some(tok), ponder };
    }
    if !best.is_empty() {
        out.error("the search returned an illegal turn; playing the first legal turn");
    }
    BestMove { turn: turn_by_actions(root, |_| 0).map(|acts| turn_token(root, opts, &acts)), ponder: None }
}

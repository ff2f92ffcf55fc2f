//! The work behind the `perft` and `bench` sub-commands and the `bench`
//! protocol command: generic over [`Game`], reached through
//! [`crate::with_variant`].

use std::time::{Duration, Instant};

use tetrarch_core::game::Game;
use tetrarch_core::handle::{AnyGame, Variant};
use tetrarch_core::turns::{
    divide, legal_turns_up_to, parse_turn, perft, perft_actions, perft_bulk, play_turn, DivideError, TURN_LIST_LIMIT,
};
use tetrarch_search::Searcher;

pub use crate::error::PerftBenchError;
use crate::out::Out;
use crate::session::{bench_search, best_move};
use crate::{variants, with_variant, GameInfo, GameVisitor};

/// Arguments of `tetrarch perft`.
#[derive(Clone, Debug, Default)]
pub struct PerftArgs {
    /// The variant.
    pub variant: String,
    /// Depth in turns (in actions with `actions`).
    pub depth: u32,
    /// A position string instead of the start position.
    pub fen: Option<String>,
    /// Turns to play first.
    pub moves: Vec<String>,
    /// Print the count below every root turn.
    pub divide: bool,
    /// Count paths of single actions.
    pub actions: bool,
    /// Count the last level without making it (one-action-per-turn games).
    pub bulk: bool,
}

struct PerftVisitor<'a> {
    args: &'a PerftArgs,
    out: &'a Out,
}

impl GameVisitor for PerftVisitor<'_> {
    type Output = Result<(), PerftBenchError>;

    fn visit<G: Game>(self, variant: &'static str) -> Result<(), PerftBenchError> {
        let a = self.args;
        if a.bulk && a.actions {
            return Err(PerftBenchError::BulkWithActions);
        }
        let opts = G::default_options(variant);
        let mut pos = match &a.fen {
            Some(s) => G::from_position_string(s, &opts).map_err(PerftBenchError::InvalidPosition)?,
            None => G::startpos(&opts),
        };
        for (i, tok) in a.moves.iter().enumerate() {
            let acts =
                parse_turn(&pos, tok).map_err(|source| PerftBenchError::Turn { turn: i + 1, token: tok.clone(), source })?;
            play_turn(&mut pos, &acts);
        }
        let t = Instant::now();
        let rows = if a.divide && a.depth > 0 {
            let rows = if a.bulk {
                legal_turns_up_to(&pos, TURN_LIST_LIMIT).ok_or(DivideError::TooManyTurns).map(|turns| {
                    turns
                        .into_iter()
                        .map(|(tok, acts)| {
                            let mut p = pos.clone();
                            play_turn(&mut p, &acts);
                            (tok, perft_bulk(&mut p, a.depth - 1))
                        })
                        .collect()
                })
            } else {
                divide(&pos, a.depth, a.actions)
            };
            match rows {
                Ok(rows) => Some(rows),
                Err(e) => {
                    // Too many turns to list: the total only.
                    self.out.line(format!("{e}; counting the total only"));
                    None
                }
            }
        } else {
            None
        };
        let total = if let Some(rows) = rows {
            let total = rows.iter().map(|(_, n)| n).sum();
            let mut lines: Vec<String> = rows.into_iter().map(|(t, n)| format!("{t}: {n}")).collect();
            lines.push(String::new());
            self.out.lines(lines);
            total
        } else if a.actions {
            perft_actions(&mut pos, a.depth)
        } else if a.bulk {
            perft_bulk(&mut pos, a.depth)
        } else {
            perft(&mut pos, a.depth)
        };
        let el = t.elapsed();
        self.out.lines([
            format!("Nodes searched: {total}"),
            format!("Time: {} ms", el.as_millis()),
            format!("Nodes/second: {}", per_second(total, el)),
        ]);
        Ok(())
    }
}

fn per_second(n: u64, d: Duration) -> u128 {
    n as u128 * 1_000_000 / d.as_micros().max(1)
}

/// `tetrarch perft …`.
pub fn perft_cli(args: &PerftArgs, out: &Out) -> Result<(), PerftBenchError> {
    with_variant(&args.variant, PerftVisitor { args, out }).ok_or_else(|| PerftBenchError::unknown_variant(&args.variant))?
}

struct BenchVisitor<'a> {
    depth: Option<u32>,
    params: &'a [(&'static str, i32)],
    out: &'a Out,
    nodes: &'a mut u64,
    time: &'a mut Duration,
    count: &'a mut usize,
}

impl GameVisitor for BenchVisitor<'_> {
    type Output = ();

    fn visit<G: GameInfo>(self, variant: &'static str) {
        let depth = self.depth.unwrap_or_else(|| G::bench_depth(variant));
        let opts = G::default_options(variant);
        let mut searcher = Searcher::<G>::new(16);
        searcher.set_params(crate::options::search_params_for::<G>(self.params));
        let list = std::iter::once("startpos").chain(G::bench_positions(variant).iter().copied());
        for (i, s) in list.enumerate() {
            *self.count += 1;
            let name = if i == 0 { "startpos".to_string() } else { format!("#{i}") };
            let pos = if i == 0 {
                G::startpos(&opts)
            } else {
                match G::from_position_string(s, &opts) {
                    Ok(p) => p,
                    Err(e) => {
                        self.out.error(format!("bench: {variant} {name}: {e}"));
                        continue;
                    }
                }
            };
            match bench_search(&mut searcher, &pos, depth, G::default_strategy(variant)) {
                Ok((r, el)) => {
                    *self.nodes += r.nodes;
                    *self.time += el;
                    let best = best_move(&pos, &opts, &[], Some(&r), true, self.out).line();
                    let score = crate::out::score_text(r.score);
                    self.out.line(format!(
                        "bench {variant} {name}: depth {} nodes {} time {} ms score {score} {best}",
                        r.depth,
                        r.nodes,
                        el.as_millis()
                    ));
                }
                Err(e) => self.out.error(format!("bench: {variant} {name}: search failed: {e}")),
            }
        }
    }
}

/// Searches every built-in position of every variant (or of `only`) to
/// `depth` (default: each game's [`GameInfo::bench_depth`]), one thread, a freshly
/// cleared 16 MiB table per position; prints a line per position, then
/// `<nodes> nodes <nps> nps`. Returns the node count. `params` set search
/// parameters over each game's defaults (none: the signature's defaults;
/// see [`crate::options::search_params_for`]).
pub fn bench(depth: Option<u32>, only: Option<&str>, params: &[(&'static str, i32)], out: &Out) -> Result<u64, PerftBenchError> {
    if let Some(v) = only {
        if !variants().contains(&v) {
            return Err(PerftBenchError::unknown_variant(v));
        }
    }
    let (mut nodes, mut time, mut count) = (0u64, Duration::ZERO, 0usize);
    for v in variants().into_iter().filter(|v| only.is_none() || only == Some(*v)) {
        with_variant(v, BenchVisitor { depth, params, out, nodes: &mut nodes, time: &mut time, count: &mut count });
    }
    out.line(format!("Positions: {count}, total time: {} ms", time.as_millis()));
    out.line(format!("{nodes} nodes {} nps", per_second(nodes, time)));
    Ok(nodes)
}

/// `tetrarch record <variant> <file>`: reads a game record (PGN4 for
/// `teamchess`) and prints the `position` command that replays it.
pub fn record_cli(variant: &str, path: &str, out: &Out) -> Result<(), PerftBenchError> {
    let text = std::fs::read_to_string(path).map_err(|source| PerftBenchError::Read { path: path.into(), source })?;
    let v = Variant::from_name(variant).ok_or_else(|| PerftBenchError::unknown_variant(variant))?;
    let (start, turns) = AnyGame::startpos(v)
        .read_record(&text)
        .ok_or(PerftBenchError::NoRecordFormat { variant: v.name() })?
        .map_err(PerftBenchError::Record)?;
    let mut line = format!("position fen {start}");
    if !turns.is_empty() {
        line += " moves ";
        line += &turns.join(" ");
    }
    out.line(line);
    Ok(())
}

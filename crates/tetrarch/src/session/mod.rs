//! One game's protocol state and its commands, generic over the game
//! ([`GameInfo`]: a [`Game`](tetrarch_core::game::Game) with the engine's
//! facts).
//!
//! A [`Session`] owns the game since the last `position` command as the
//! core's typed [`Played`] (the options, the start, the turns, the current
//! position, the keys of the turn-start positions for the rules that depend
//! on history) and the [`Searcher`]. The [`crate::Engine`] picks the
//! session of the current variant once per line and calls it through
//! [`SessionOps`].
//!
//! Here: the session's state, parsing `position` and checking `go`'s
//! arguments. `ops.rs` has the commands ([`SessionOps`] for [`Session`]),
//! `jobs.rs` the threads `go` starts and the search of `bench`, `lines.rs`
//! the `info` and `bestmove` lines they print.

use crate::GameInfo;
use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use tetrarch_core::eval::Weights;
use tetrarch_core::game::{turn_done, OptionSpec, Outcome};
use tetrarch_core::handle::{GameOps, Played};
use tetrarch_core::turns::parse_turn;
use tetrarch_search::{AllocError, Searcher};

use crate::error::CommandError;
use crate::go::GoError;
use crate::job::Job;
use crate::options::{check_value, OptionError, Settings};
use crate::out::Out;

mod jobs;
mod lines;
mod ops;

pub(crate) use jobs::bench_search;
pub(crate) use lines::best_move;

/// The commands of one game, object-safe so that the engine dispatches once
/// per line.
pub trait SessionOps: Send {
    /// The variant this session plays.
    fn variant(&self) -> &'static str;
    /// Whether the variant is a free-for-all of more than two seats.
    fn free_for_all(&self) -> bool;
    /// Whether the game has a choice before play (`go setup`).
    fn has_setup(&self) -> bool;
    /// The game's own options.
    fn option_specs(&self) -> &[OptionSpec];
    /// Sets game option number `index` of [`SessionOps::option_specs`].
    fn set_game_option(&mut self, index: usize, value: Option<&str>) -> Result<(), OptionError>;
    /// The error [`SessionOps::set_game_option`] would give, changing nothing.
    fn check_game_option(&self, index: usize, value: Option<&str>) -> Result<(), OptionError>;
    /// The error [`SessionOps::position`] or [`SessionOps::go`] would give
    /// for `cmd` (`position` or `go`) with `args`, changing nothing, so that
    /// a bad line leaves a running search alone.
    fn check(&self, cmd: &str, args: &[&str]) -> Result<(), CommandError>;
    /// `setoption name Hash`.
    fn resize_hash(&mut self, mb: usize) -> Result<(), AllocError>;
    /// `setoption name Clear Hash`.
    fn clear_hash(&mut self);
    /// `ucinewgame`.
    fn new_game(&mut self);
    /// `setoption name SetupSeed`: the `go setup` proposals count again
    /// from the first (nothing else changes).
    fn restart_setups(&mut self);
    /// `position …` (the words after `position`).
    fn position(&mut self, args: &[&str]) -> Result<(), CommandError>;
    /// `record`: the game since the last `position` command in the game's
    /// record format (PGN4 for `teamchess`).
    fn record(&self, out: &Out) -> Result<(), CommandError>;
    /// `go …` (the words after `go`): starts a job, or answers at once
    /// (`go setup`).
    fn go(&mut self, args: &[&str], settings: &Settings, out: &Out) -> Result<Option<Job>, CommandError>;
    /// `d`.
    fn display(&self, out: &Out);
    /// `moves` (an error past
    /// [`TURN_LIST_LIMIT`](tetrarch_core::turns::TURN_LIST_LIMIT) turns).
    fn moves(&self, out: &Out) -> Result<(), CommandError>;
    /// `query …` (the answers depend on the handshake and `TurnCap`).
    fn query(&self, args: &[&str], settings: &Settings, out: &Out) -> Result<(), CommandError>;
    /// `eval`.
    fn eval(&self, out: &Out);
    /// `setoption name EvalFile`: reads a weights file for this variant
    /// (`None` or an empty path: the compiled-in weights); with `apply`
    /// false only checks it. A bad file is an error and changes nothing.
    fn eval_file(&mut self, path: Option<&str>, apply: bool) -> Result<(), OptionError>;
    /// The current position string.
    fn position_string(&self) -> String;
}

/// The reason word of a draw by `TurnCap`.
pub const TURN_CAP_REASON: &str = "turncap";

/// `query result` after a `ugi` handshake in a 2-seat game: UGI's one word
/// (`p1win`, `p2win`, `draw`, `none`); the reason is `query reason`'s.
pub(crate) fn ugi_result(o: Option<&Outcome>) -> &'static str {
    match o.map(|o| o.result) {
        None => "none",
        Some(tetrarch_core::game::GameResult::Draw(_)) => "draw",
        Some(tetrarch_core::game::GameResult::Win(w)) if w.has(0) => "p1win",
        Some(tetrarch_core::game::GameResult::Win(_)) => "p2win",
    }
}

/// The protocol state of one game.
pub struct Session<G: GameInfo> {
    variant: &'static str,
    specs: Vec<OptionSpec>,
    ffa: bool,
    /// The game since the last `position` command (the core's typed game:
    /// its rule options, the position that command set up, the turns
    /// played and the history keys).
    game: Played<G>,
    /// The words of that command before `moves` (`startpos`, `fen …`,
    /// `setup …`), while `game` is still what they and its turns give: a
    /// `position` command that repeats them and the turns and adds turns
    /// (a match sends the whole game every turn) plays only the new turns.
    head: Option<Vec<String>>,
    searcher: Arc<Mutex<Searcher<G>>>,
    hash_mb: usize,
    /// `go setup` calls so far (varies the proposals).
    setup_count: u64,
    /// Evaluation weights from `EvalFile` (`None`: compiled-in).
    weights: Option<Arc<Weights>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A panic caught in a search or in a game's code, by its text.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Panicked(pub String);

/// The text of a panic payload.
pub(crate) fn panic_text(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".into()
    }
}

/// Whether a variant is a free-for-all: more than two seats, each its own side.
pub(crate) fn is_free_for_all<G: GameInfo>(g: &G) -> bool {
    let n = g.seats();
    n > 2 && (0..n).all(|a| (0..a).all(|b| g.side_of(a) != g.side_of(b)))
}

/// Whether `actions` is a legal, complete turn of `g` (checked action by
/// action against the legal lists, so a bad line never reaches `make`).
pub(crate) fn is_legal_turn<G: GameInfo>(g: &G, actions: &[G::Action]) -> bool {
    if actions.is_empty() {
        return false;
    }
    let mut pos = g.clone();
    for (i, &a) in actions.iter().enumerate() {
        if (i > 0 && turn_done(&pos)) || !pos.is_legal(a) {
            return false;
        }
        pos.make(a);
    }
    turn_done(&pos)
}

/// Whether the game is over in `g` given its history.
fn game_over<G: GameInfo>(g: &G, history: &[u64]) -> bool {
    if g.outcome().is_some() || g.history_outcome(history).is_some() {
        return true;
    }
    // The search's list is empty exactly when the legal list is, and can be
    // far shorter (SearchHints::search_actions).
    let mut list = G::Actions::default();
    g.search_actions(&mut list);
    list.is_empty()
}

/// Plays `moves` (turns `done + 1`, … of a `position` command) in `game`.
fn play_turns<G: GameInfo>(game: &mut Played<G>, moves: &[&str], done: usize) -> Result<(), CommandError> {
    for (i, tok) in moves.iter().enumerate() {
        let turn = done + i + 1;
        if let Some(outcome) = game.outcome() {
            return Err(CommandError::AfterEnd { turn, token: tok.to_string(), outcome });
        }
        let acts = parse_turn(game.pos(), tok).map_err(|source| CommandError::Turn { turn, token: tok.to_string(), source })?;
        game.play_actions(acts);
    }
    Ok(())
}

impl<G: GameInfo> Session<G> {
    /// A session of `variant` with the game's default options, at the start
    /// position.
    pub fn new(variant: &'static str, settings: &Settings) -> Self {
        let opts = G::default_options(variant);
        let pos = G::startpos(&opts);
        Session {
            variant,
            specs: G::option_specs(variant),
            ffa: is_free_for_all(&pos),
            game: Played::from_position(variant, opts, pos),
            head: None,
            searcher: Arc::new(Mutex::new(Searcher::new(settings.hash_mb))),
            hash_mb: settings.hash_mb,
            setup_count: 0,
            weights: None,
        }
    }

    /// The evaluation weights in force.
    pub fn weights(&self) -> &Weights {
        match &self.weights {
            Some(w) => w,
            None => G::default_weights(self.variant),
        }
    }

    /// The current position.
    pub fn pos(&self) -> &G {
        self.game.pos()
    }

    /// The outcome, by the position's rules or by its history.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// Whether the runner's `TurnCap` (`turn_cap` turns since the
    /// `position` command's start; 0 = off) has been reached.
    pub fn capped(&self, turn_cap: u32) -> bool {
        turn_cap > 0 && self.game.turns().len() >= turn_cap as usize
    }

    /// [`Session::outcome`], else a draw of every seat by `TurnCap`
    /// (reason `turncap`) once it is reached: the rules' ending wins when
    /// the last turn before the cap ended the game.
    pub fn outcome_capped(&self, turn_cap: u32) -> Option<Outcome> {
        self.outcome().or_else(|| {
            self.capped(turn_cap).then(|| {
                let all = (0..self.pos().seats()).fold(tetrarch_core::game::SeatSet::EMPTY, |s, x| s.with(x));
                Outcome::draw(all, TURN_CAP_REASON)
            })
        })
    }

    /// Parses a `position` command into the game it sets up without
    /// touching the session. When it repeats the current one and adds
    /// turns, only those are played (the result is the same).
    fn parse_position(&self, args: &[&str]) -> Result<Played<G>, CommandError> {
        let split = args.iter().position(|w| *w == "moves");
        let (head, moves) = match split {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let k = self.game.turns().len();
        if self.head.as_ref().is_some_and(|h| h.iter().eq(head.iter()))
            && moves.len() >= k
            && moves[..k].iter().eq(self.game.turns().iter())
        {
            let mut game = self.game.clone();
            play_turns(&mut game, &moves[k..], k)?;
            return Ok(game);
        }
        let opts = self.game.options();
        let pos = match head.split_first() {
            None => return Err(CommandError::NoStart),
            Some((&"startpos", rest)) => {
                if let Some(w) = rest.first() {
                    return Err(CommandError::AfterStartpos(w.to_string()));
                }
                G::startpos(opts)
            }
            Some((&"fen", rest)) => {
                if rest.is_empty() {
                    return Err(CommandError::EmptyFen);
                }
                let s = rest.join(" ");
                catch_unwind(AssertUnwindSafe(|| G::from_position_string(&s, opts)))
                    .map_err(|p| CommandError::PositionParserFailed(panic_text(&*p)))?
                    .map_err(CommandError::InvalidPosition)?
            }
            Some((&"setup", rest)) => {
                if rest.is_empty() {
                    return Err(CommandError::EmptySetup);
                }
                G::from_setup(rest, opts).map_err(CommandError::InvalidSetup)?
            }
            Some((w, _)) => return Err(CommandError::UnknownStart(w.to_string())),
        };
        let mut game = Played::from_position(self.variant, opts.clone(), pos);
        play_turns(&mut game, moves, 0)?;
        Ok(game)
    }

    /// The game option set `index` would give, or the error.
    fn with_game_option(&self, index: usize, value: Option<&str>) -> Result<G::Options, OptionError> {
        let spec = self.specs.get(index).ok_or(OptionError::NoSuchOption)?;
        let v = check_value(spec.name, &spec.kind, value)?;
        let mut opts = self.game.options().clone();
        G::set_option(&mut opts, spec.name, &v).map_err(|source| OptionError::Game { name: spec.name, source })?;
        Ok(opts)
    }

    /// The 0-based seat of `go setup [seat <n>]`.
    fn setup_seat(&self, seat: Option<u32>) -> Result<usize, GoError> {
        if let Some(k) = seat {
            if k as usize > self.pos().seats() {
                return Err(GoError::NoSuchSeat { seat: k, seats: self.pos().seats() });
            }
        }
        Ok(seat.map_or(0, |k| k as usize - 1))
    }

    /// `searchmoves`: each turn as the index of each of its actions in the
    /// search list of the position it is played in (a turn with an action
    /// the search leaves out, a long Quadranj unstacking chain, cannot be
    /// chosen and is dropped).
    fn root_turns(&self, searchmoves: &[String]) -> Result<Vec<Vec<usize>>, GoError> {
        let mut turns = Vec::new();
        for (i, tok) in searchmoves.iter().enumerate() {
            let acts =
                parse_turn(self.pos(), tok).map_err(|source| GoError::Searchmove { index: i + 1, token: tok.clone(), source })?;
            let mut pos = self.pos().clone();
            let mut path = Vec::with_capacity(acts.len());
            for &a in &acts {
                let mut list = G::Actions::default();
                pos.search_actions(&mut list);
                let Some(k) = list.iter().position(|&x| x == a) else { break };
                path.push(k);
                pos.make(a);
            }
            if path.len() == acts.len() {
                turns.push(path);
            }
        }
        Ok(turns)
    }
}

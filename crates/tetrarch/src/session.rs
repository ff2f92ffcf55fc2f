//! One game's protocol state and its commands, generic over [`Game`].
//!
//! A [`Session`] owns the options, the current position, the keys of the
//! turn-start positions since the last `position` command (for the rules that
//! depend on history) and the [`Searcher`]. The [`crate::Engine`] picks the
//! session of the current variant once per line and calls it through
//! [`SessionOps`].

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tetrarch_core::eval::Weights;
use tetrarch_core::game::{turn_done, Game, OptionSpec, Outcome};
use tetrarch_core::turns::{
    count_turns_up_to, divide_until, legal_turns_up_to, line_to_turns, parse_turn, perft_until, play_turn, turn_by_actions,
    turn_string, DivideError, TURN_LIST_LIMIT,
};
use tetrarch_search::{AllocError, Clock, Config, Info, Limits, Score, SearchParams, SearchResult, Searcher, Strategy};

use crate::error::CommandError;
use crate::go::{parse_go, GoCommand, GoError, GoSearch};
use crate::job::{Flags, Job, JobKind, SpawnError};
use crate::options::{check_value, OptionError, Settings};
use crate::out::Out;

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
    /// `moves` (an error past [`TURN_LIST_LIMIT`] turns).
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
pub struct Session<G: Game> {
    variant: &'static str,
    opts: G::Options,
    specs: Vec<OptionSpec>,
    ffa: bool,
    /// The current position.
    pos: G,
    /// Keys of the turn-start positions before `pos` since the last
    /// `position` command, oldest first.
    history: Vec<u64>,
    /// The turn tokens played since the last `position` command.
    turns: Vec<String>,
    /// The position that command set up (for `record`).
    start: G,
    /// The words of that command before `moves` (`startpos`, `fen …`,
    /// `setup …`), while `pos` is still what they and `turns` give: a
    /// `position` command that repeats them and `turns` and adds turns
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
pub(crate) fn is_free_for_all<G: Game>(g: &G) -> bool {
    let n = g.seats();
    n > 2 && (0..n).all(|a| (0..a).all(|b| g.side_of(a) != g.side_of(b)))
}

/// Whether `actions` is a legal, complete turn of `g` (checked action by
/// action against the legal lists, so a bad line never reaches `make`).
pub(crate) fn is_legal_turn<G: Game>(g: &G, actions: &[G::Action]) -> bool {
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
fn game_over<G: Game>(g: &G, history: &[u64]) -> bool {
    if g.outcome().is_some() || g.history_outcome(history).is_some() {
        return true;
    }
    // The search's list is empty exactly when the legal list is, and can be
    // far shorter (SearchHints::search_actions).
    let mut list = G::Actions::default();
    g.search_actions(&mut list);
    list.is_empty()
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(x) => format!("cp {x}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The token of a turn: the game's dialect when an option selects one
/// ([`Presentation::dialect_turn`]), else the canonical token.
pub(crate) fn turn_token<G: Game>(g: &G, opts: &G::Options, actions: &[G::Action]) -> String {
    g.dialect_turn(opts, actions).unwrap_or_else(|| turn_string(g, actions))
}

/// A line of actions from `root` as turn tokens: [`line_to_turns`], each
/// turn in the game's dialect where one is selected.
pub(crate) fn line_tokens<G: Game>(root: &G, opts: &G::Options, actions: &[G::Action]) -> Vec<String> {
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
/// ([`Presentation::dialect_score_seat`]: 4pchess's tools read Red/Yellow's side).
fn dialect_score<G: Game>(root: &G, opts: &G::Options, s: Score) -> Score {
    match root.dialect_score_seat(opts) {
        Some(seat) if root.side_of(seat) != root.side_of(root.to_move()) => match s {
            Score::Cp(x) => Score::Cp(-x),
            Score::Mate(n) => Score::Mate(-n),
        },
        _ => s,
    }
}

/// The `info` line of one search report.
pub(crate) fn info_line<G: Game>(root: &G, opts: &G::Options, info: &Info<G::Action>) -> String {
    let ms = info.time.as_millis();
    let nps = (info.nodes as u128 * 1_000_000) / info.time.as_micros().max(1);
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(dialect_score(root, opts, info.score)),
        info.nodes,
        nps,
        info.hashfull,
        ms
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for t in line_tokens(root, opts, &info.pv) {
            s.push(' ');
            s.push_str(&t);
        }
    }
    s
}

/// The `bestmove` line for a search result on `root` (a legal turn even when
/// the search returned none: the first legal turn then), with the `ponder`
/// turn if the search has one and `with_ponder` allows it.
pub(crate) fn bestmove_line<G: Game>(
    root: &G,
    opts: &G::Options,
    history: &[u64],
    res: Option<&SearchResult<G::Action>>,
    with_ponder: bool,
    out: &Out,
) -> String {
    if game_over(root, history) {
        return "bestmove (none)".into();
    }
    let best = res.map(|r| r.best.as_slice()).unwrap_or(&[]);
    if is_legal_turn(root, best) {
        let tok = turn_token(root, opts, best);
        let mut after = root.clone();
        play_turn(&mut after, best);
        if let Some(p) = res.and_then(|r| r.ponder.as_ref()).filter(|_| with_ponder) {
            if after.outcome().is_none() && is_legal_turn(&after, p) {
                return format!("bestmove {tok} ponder {}", turn_token(&after, opts, p));
            }
        }
        return format!("bestmove {tok}");
    }
    if !best.is_empty() {
        out.error("the search returned an illegal turn; playing the first legal turn");
    }
    match turn_by_actions(root, |_| 0) {
        Some(acts) => format!("bestmove {}", turn_token(root, opts, &acts)),
        None => "bestmove (none)".into(),
    }
}

impl<G: Game> Session<G> {
    /// A session of `variant` with the game's default options, at the start
    /// position.
    pub fn new(variant: &'static str, settings: &Settings) -> Self {
        let opts = G::default_options(variant);
        let pos = G::startpos(&opts);
        Session {
            variant,
            specs: G::option_specs(variant),
            ffa: is_free_for_all(&pos),
            opts,
            start: pos.clone(),
            pos,
            history: Vec::new(),
            turns: Vec::new(),
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
        &self.pos
    }

    /// The outcome, by the position's rules or by its history.
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| self.pos.history_outcome(&self.history))
    }

    /// Whether the runner's `TurnCap` (`turn_cap` turns since the
    /// `position` command's start; 0 = off) has been reached.
    pub fn capped(&self, turn_cap: u32) -> bool {
        turn_cap > 0 && self.turns.len() >= turn_cap as usize
    }

    /// [`Session::outcome`], else a draw of every seat by `TurnCap`
    /// (reason `turncap`) once it is reached: the rules' ending wins when
    /// the last turn before the cap ended the game.
    pub fn outcome_capped(&self, turn_cap: u32) -> Option<Outcome> {
        self.outcome().or_else(|| {
            self.capped(turn_cap).then(|| {
                let all = (0..self.pos.seats()).fold(tetrarch_core::game::SeatSet::EMPTY, |s, x| s.with(x));
                Outcome::draw(all, TURN_CAP_REASON)
            })
        })
    }

    /// Parses a `position` command into (start, position, history, turns)
    /// without touching the session. When it repeats the current one and
    /// adds turns, only those are played (the result is the same).
    fn parse_position(&self, args: &[&str]) -> Result<(G, G, Vec<u64>, Vec<String>), CommandError> {
        let split = args.iter().position(|w| *w == "moves");
        let (head, moves) = match split {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let k = self.turns.len();
        if self.head.as_ref().is_some_and(|h| h.iter().eq(head.iter()))
            && moves.len() >= k
            && moves[..k].iter().eq(self.turns.iter())
        {
            let mut turns = self.turns.clone();
            let (pos, history) = self.play_turns(self.pos.clone(), self.history.clone(), &moves[k..], k, &mut turns)?;
            return Ok((self.start.clone(), pos, history, turns));
        }
        let pos = match head.split_first() {
            None => return Err(CommandError::NoStart),
            Some((&"startpos", rest)) => {
                if let Some(w) = rest.first() {
                    return Err(CommandError::AfterStartpos(w.to_string()));
                }
                G::startpos(&self.opts)
            }
            Some((&"fen", rest)) => {
                if rest.is_empty() {
                    return Err(CommandError::EmptyFen);
                }
                let s = rest.join(" ");
                catch_unwind(AssertUnwindSafe(|| G::from_position_string(&s, &self.opts)))
                    .map_err(|p| CommandError::PositionParserFailed(panic_text(&*p)))?
                    .map_err(CommandError::InvalidPosition)?
            }
            Some((&"setup", rest)) => {
                if rest.is_empty() {
                    return Err(CommandError::EmptySetup);
                }
                G::from_setup(rest, &self.opts).map_err(CommandError::InvalidSetup)?
            }
            Some((w, _)) => return Err(CommandError::UnknownStart(w.to_string())),
        };
        let start = pos.clone();
        let mut turns = Vec::with_capacity(moves.len());
        let (pos, history) = self.play_turns(pos, Vec::new(), moves, 0, &mut turns)?;
        Ok((start, pos, history, turns))
    }

    /// Plays `moves` (turns `done + 1`, … of the command) on `pos`.
    fn play_turns(
        &self,
        mut pos: G,
        mut history: Vec<u64>,
        moves: &[&str],
        done: usize,
        turns: &mut Vec<String>,
    ) -> Result<(G, Vec<u64>), CommandError> {
        for (i, tok) in moves.iter().enumerate() {
            let turn = done + i + 1;
            if let Some(outcome) = pos.outcome().or_else(|| pos.history_outcome(&history)) {
                return Err(CommandError::AfterEnd { turn, token: tok.to_string(), outcome });
            }
            let acts = parse_turn(&pos, tok).map_err(|source| CommandError::Turn { turn, token: tok.to_string(), source })?;
            if pos.at_turn_start() {
                history.push(pos.key());
            }
            play_turn(&mut pos, &acts);
            turns.push(tok.to_string());
        }
        Ok((pos, history))
    }

    fn limits(&self, g: &GoSearch, settings: &Settings) -> Limits {
        let seat = self.pos.to_move();
        let (time, inc) = g.clock_of(seat);
        Limits {
            depth: g.depth,
            nodes: g.nodes,
            movetime: g.movetime.map(Duration::from_millis),
            infinite: g.infinite,
            clock: time.map(|t| Clock { time_ms: t, inc_ms: inc.unwrap_or(0), movestogo: g.movestogo }),
            move_overhead: Duration::from_millis(settings.move_overhead_ms),
            root_turns: Vec::new(),
        }
    }

    /// The game option set `index` would give, or the error.
    fn with_game_option(&self, index: usize, value: Option<&str>) -> Result<G::Options, OptionError> {
        let spec = self.specs.get(index).ok_or(OptionError::NoSuchOption)?;
        let v = check_value(spec.name, &spec.kind, value)?;
        let mut opts = self.opts.clone();
        G::set_option(&mut opts, spec.name, &v).map_err(|source| OptionError::Game { name: spec.name, source })?;
        Ok(opts)
    }

    /// The 0-based seat of `go setup [seat <n>]`.
    fn setup_seat(&self, seat: Option<u32>) -> Result<usize, GoError> {
        if let Some(k) = seat {
            if k as usize > self.pos.seats() {
                return Err(GoError::NoSuchSeat { seat: k, seats: self.pos.seats() });
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
                parse_turn(&self.pos, tok).map_err(|source| GoError::Searchmove { index: i + 1, token: tok.clone(), source })?;
            let mut pos = self.pos.clone();
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

    fn start_search(&mut self, g: GoSearch, settings: &Settings, out: &Out) -> Result<Job, CommandError> {
        let mut limits = self.limits(&g, settings);
        limits.root_turns = self.root_turns(&g.searchmoves)?;
        let config = Config {
            multipv: settings.multipv,
            threads: settings.threads,
            strategy: Strategy::from_name(settings.strategy.unwrap_or(crate::options::default_strategy(self.variant())))
                .unwrap_or_default(),
            weights: self.weights.clone(),
        };
        let params = settings.search_params_for::<G>();
        let flags = Arc::new(Flags::default());
        // A `go` without any limit only ends by `stop`, like `go infinite`
        // (so the end of the input stops it rather than waiting forever).
        let unbounded = limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() && limits.clock.is_none();
        let kind = if g.ponder {
            JobKind::Ponder { then_infinite: g.infinite }
        } else if g.infinite || unbounded {
            JobKind::Infinite
        } else {
            JobKind::Search
        };
        let job = SearchJob {
            root: self.pos.clone(),
            opts: self.opts.clone(),
            history: self.history.clone(),
            capped: self.capped(settings.turn_cap),
            with_ponder: settings.ponder_in_bestmove(),
            limits,
            ponder: g.ponder,
            config,
            params,
            searcher: Arc::clone(&self.searcher),
            hash_mb: self.hash_mb,
            flags: Arc::clone(&flags),
            out: out.clone(),
        };
        Ok(Job::spawn(kind, flags, move || job.run())?)
    }

    fn start_perft(&self, depth: u32, actions: bool, out: &Out) -> Result<Job, SpawnError> {
        let root = self.pos.clone();
        let out = out.clone();
        let flags = Arc::new(Flags::default());
        let stop = Arc::clone(&flags);
        Job::spawn(JobKind::Perft, flags, move || {
            let res = catch_unwind(AssertUnwindSafe(|| {
                if depth == 0 {
                    return Ok((Vec::new(), 1));
                }
                let d = match divide_until(&root, depth, actions, &stop.stop) {
                    Err(DivideError::TooManyTurns) => {
                        // No table, but the total (perft streams any number).
                        out.line(format!("info string perft: {}; counting the total only", DivideError::TooManyTurns));
                        let total = perft_until(&mut root.clone(), depth, &stop.stop).ok_or(DivideError::Stopped)?;
                        return Ok((Vec::new(), total));
                    }
                    d => d?,
                };
                let total = d.iter().map(|(_, n)| n).sum();
                Ok((d, total))
            }));
            match res {
                Ok(Err(DivideError::Stopped)) => out.line("info string perft stopped"),
                Ok(Err(e)) => out.error(format!("perft: {e}")),
                Ok(Ok((lines, total))) => {
                    let mut v: Vec<String> = lines.into_iter().map(|(t, n)| format!("{t}: {n}")).collect();
                    v.push(String::new());
                    v.push(format!("Nodes searched: {total}"));
                    out.lines(v);
                }
                Err(p) => out.error(format!("perft failed: {}", panic_text(&*p))),
            }
        })
    }
}

/// Everything a search thread owns.
struct SearchJob<G: Game> {
    root: G,
    opts: G::Options,
    history: Vec<u64>,
    /// `TurnCap` reached: no search, `bestmove (none)`.
    capped: bool,
    /// Whether `bestmove` may name a `ponder` turn.
    with_ponder: bool,
    limits: Limits,
    ponder: bool,
    config: Config,
    /// The search parameters (the game's, with `Search_…` over them).
    params: SearchParams,
    searcher: Arc<Mutex<Searcher<G>>>,
    hash_mb: usize,
    flags: Arc<Flags>,
    out: Out,
}

impl<G: Game> SearchJob<G> {
    /// One search; a panic in the search is reported and leaves a fresh
    /// searcher behind.
    fn search(&self, limits: &Limits, stop: &AtomicBool) -> Option<SearchResult<G::Action>> {
        let mut s = lock(&self.searcher);
        s.set_params(self.params.clone());
        let mut report = |info: &Info<G::Action>| self.out.line(info_line(&self.root, &self.opts, info));
        let r = catch_unwind(AssertUnwindSafe(|| s.search(&self.root, &self.history, limits, &self.config, stop, &mut report)));
        match r {
            Ok(r) => Some(r),
            Err(p) => {
                self.out.error(format!("search failed: {}", panic_text(&*p)));
                // Free the old table before the new one is made.
                *s = Searcher::new(1);
                let _ = s.try_resize(self.hash_mb, 1);
                None
            }
        }
    }

    fn run(self) {
        let f = &*self.flags;
        let mut result = None;
        let over = self.capped || game_over(&self.root, &self.history);
        if self.ponder {
            if !over {
                let open = Limits { infinite: true, move_overhead: self.limits.move_overhead, ..Limits::default() };
                result = self.search(&open, &f.ponder_stop);
            }
            // A pondering search never answers before `ponderhit` or `stop`.
            f.wait_until(|f| f.stopped() || f.hit());
            if !f.stopped() && !over {
                if let Some(r) = self.search(&self.limits, &f.stop) {
                    result = Some(r);
                }
            }
        } else if !over {
            result = self.search(&self.limits, &f.stop);
        }
        if self.limits.infinite {
            // UCI: an infinite search answers only after `stop`.
            f.wait_until(|f| f.stopped());
        }
        let line = if self.capped {
            "bestmove (none)".to_string()
        } else {
            bestmove_line(&self.root, &self.opts, &self.history, result.as_ref(), self.with_ponder, &self.out)
        };
        self.out.line(line);
    }
}

impl<G: Game> SessionOps for Session<G> {
    fn variant(&self) -> &'static str {
        self.variant
    }

    fn free_for_all(&self) -> bool {
        self.ffa
    }

    fn has_setup(&self) -> bool {
        G::propose_setup(&self.opts, 0, 0).is_some()
    }

    fn option_specs(&self) -> &[OptionSpec] {
        &self.specs
    }

    fn set_game_option(&mut self, index: usize, value: Option<&str>) -> Result<(), OptionError> {
        self.opts = self.with_game_option(index, value)?;
        self.pos.apply_options(&self.opts);
        self.head = None;
        Ok(())
    }

    fn check_game_option(&self, index: usize, value: Option<&str>) -> Result<(), OptionError> {
        self.with_game_option(index, value).map(drop)
    }

    fn check(&self, cmd: &str, args: &[&str]) -> Result<(), CommandError> {
        match cmd {
            "position" => self.parse_position(args).map(drop),
            "go" => match parse_go(args, G::CLOCK_LETTERS)? {
                GoCommand::Search(g) => Ok(self.root_turns(&g.searchmoves).map(drop)?),
                GoCommand::Perft { .. } => Ok(()),
                GoCommand::Setup { seat } => Ok(self.setup_seat(seat).map(drop)?),
            },
            _ => Ok(()),
        }
    }

    fn resize_hash(&mut self, mb: usize) -> Result<(), AllocError> {
        let old = self.hash_mb;
        lock(&self.searcher).try_resize(mb, old)?;
        self.hash_mb = mb;
        Ok(())
    }

    fn clear_hash(&mut self) {
        lock(&self.searcher).clear();
    }

    fn new_game(&mut self) {
        lock(&self.searcher).clear();
        self.pos = G::startpos(&self.opts);
        self.start = self.pos.clone();
        self.history.clear();
        self.turns.clear();
        self.head = None;
        self.setup_count = 0;
    }

    fn restart_setups(&mut self) {
        self.setup_count = 0;
    }

    fn record(&self, out: &Out) -> Result<(), CommandError> {
        match G::write_record(&self.start, &self.turns) {
            None => Err(CommandError::NoRecordFormat { variant: self.variant }),
            Some(Err(e)) => Err(CommandError::Record(e)),
            Some(Ok(text)) => {
                out.lines(text.lines());
                Ok(())
            }
        }
    }

    fn position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        let (start, pos, history, turns) = self.parse_position(args)?;
        self.start = start;
        self.pos = pos;
        self.history = history;
        self.turns = turns;
        self.head = Some(args.iter().take_while(|w| **w != "moves").map(|w| w.to_string()).collect());
        Ok(())
    }

    fn go(&mut self, args: &[&str], settings: &Settings, out: &Out) -> Result<Option<Job>, CommandError> {
        match parse_go(args, G::CLOCK_LETTERS)? {
            GoCommand::Search(g) => self.start_search(g, settings, out).map(Some),
            GoCommand::Perft { depth, actions } => Ok(self.start_perft(depth, actions, out).map(Some)?),
            GoCommand::Setup { seat } => {
                let seat = self.setup_seat(seat)?;
                self.setup_count += 1;
                // SetupSeed makes the n-th proposal after `ucinewgame` (or
                // setting the seed) reproducible; 0 varies with the clock.
                let base = if settings.setup_seed != 0 {
                    settings.setup_seed
                } else {
                    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
                };
                let seed = tetrarch_core::zobrist::splitmix64(base ^ self.setup_count.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                match G::propose_setup(&self.opts, seat, seed) {
                    Some(tok) => {
                        out.line(format!("bestsetup {tok}"));
                        Ok(None)
                    }
                    None => Err(GoError::NoSetup.into()),
                }
            }
        }
    }

    fn display(&self, out: &Out) {
        let mut v: Vec<String> = self.pos.render().lines().map(str::to_owned).collect();
        let seat = self.pos.to_move();
        v.push(format!("Position: {}", self.pos.position_string()));
        for (label, text) in self.pos.alt_notations() {
            v.push(format!("{label}: {text}"));
        }
        v.push(format!("Key: {:016x}", self.pos.key()));
        v.push(format!("To move: p{} ({})", seat + 1, self.pos.seat_name(seat)));
        // The count of `moves` (rules of the position alone, like perft).
        let limit = TURN_LIST_LIMIT as u64;
        match count_turns_up_to(&self.pos, limit) {
            Some(n) => v.push(format!("Legal turns: {n}")),
            None => v.push(format!("Legal turns: more than {limit}")),
        }
        out.lines(v);
    }

    fn moves(&self, out: &Out) -> Result<(), CommandError> {
        let turns = legal_turns_up_to(&self.pos, TURN_LIST_LIMIT).ok_or(CommandError::TooManyTurns)?;
        let mut s = String::from("moves");
        for (t, _) in turns {
            s.push(' ');
            s.push_str(&t);
        }
        out.line(s);
        Ok(())
    }

    fn query(&self, args: &[&str], settings: &Settings, out: &Out) -> Result<(), CommandError> {
        let outcome = || self.outcome_capped(settings.turn_cap);
        match args {
            ["gameover"] => out.line(format!("response {}", outcome().is_some())),
            // After `ugi`, a 2-seat game answers in UGI's one word; 4-seat
            // games keep the full form (UGI has no words for them).
            ["result"] if settings.ugi && self.pos.seats() == 2 => {
                out.line(format!("response {}", ugi_result(outcome().as_ref())))
            }
            ["result"] => match outcome() {
                Some(o) => out.line(format!("response {o}")),
                None => out.line("response none"),
            },
            ["reason"] => out.line(format!("response {}", outcome().map_or("none", |o| o.reason))),
            ["turn"] => out.line(format!("response p{}", self.pos.to_move() + 1)),
            ["p1turn"] => out.line(format!("response {}", self.pos.to_move() == 0)),
            ["board"] => match crate::board_json::board_json(&self.pos, &self.history) {
                Some(json) => out.line(format!("response {json}")),
                None => return Err(CommandError::NoBoard { variant: self.variant }),
            },
            [] => return Err(CommandError::NoQuery),
            [w] => return Err(CommandError::UnknownQuery(w.to_string())),
            [_, w, ..] => return Err(CommandError::Unexpected { cmd: "query".into(), word: w.to_string() }),
        }
        Ok(())
    }

    fn eval(&self, out: &Out) {
        let seat = self.pos.to_move();
        let mut v = vec![format!("Eval for p{} ({}), centipawns for its side:", seat + 1, self.pos.seat_name(seat))];
        let w = self.weights();
        for (name, x) in self.pos.eval_terms(seat, w) {
            v.push(format!("{name}: {x}"));
        }
        v.push(format!("Total: {}", self.pos.evaluate(seat, w)));
        out.lines(v);
    }

    fn eval_file(&mut self, path: Option<&str>, apply: bool) -> Result<(), OptionError> {
        let path = path.map(str::trim).filter(|p| !p.is_empty() && *p != "<empty>");
        let loaded = match path {
            None => None,
            Some(p) => {
                let text = crate::options::read_limited(p, crate::options::EVAL_FILE_LIMIT)
                    .map_err(|source| OptionError::EvalFileRead { path: p.into(), source })?;
                let table = G::default_weights(self.variant).table;
                let w = Weights::from_text(&text, self.variant, table)
                    .map_err(|source| OptionError::EvalFile { path: p.into(), source })?;
                Some(Arc::new(w))
            }
        };
        if apply {
            self.weights = loaded;
        }
        Ok(())
    }

    fn position_string(&self) -> String {
        self.pos.position_string()
    }
}

/// Runs a search to `depth` on `pos` with a fresh table and the variant's
/// default `strategy` (for `bench`); returns the result, the nodes and the
/// time, or the panic.
pub(crate) fn bench_search<G: Game>(
    searcher: &mut Searcher<G>,
    pos: &G,
    depth: u32,
    strategy: &str,
) -> Result<(SearchResult<G::Action>, Duration), Panicked> {
    searcher.clear();
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let config = Config { strategy: Strategy::from_name(strategy).unwrap_or_default(), ..Config::default() };
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let r = catch_unwind(AssertUnwindSafe(|| searcher.search(pos, &[], &limits, &config, &stop, &mut |_| {})))
        .map_err(|p| Panicked(panic_text(&*p)))?;
    Ok((r, t.elapsed()))
}

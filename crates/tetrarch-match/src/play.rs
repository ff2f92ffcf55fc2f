//! One game: the engines of its seats, the clocks, the referee.
//!
//! Every turn an engine sends is checked with the core crate on the current
//! position; the result comes from the rules (`outcome`, `history_outcome`
//! with the keys of the earlier turn-start positions) or from the runner
//! (turn cap, resign/draw by scores, forfeits). A process that misbehaved is
//! killed and started again for its next game.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tetrarch_core::game::{GameResult, Outcome, Seat, TokenError};
use tetrarch_core::turns::{parse_turn, play_turn};

use crate::config::Config;
use crate::dialect::{self, DialectLine};
use crate::engine::{info_score, EngineProc, EngineStartError, HandshakeError, Log, WaitError};
use crate::engine_config::{EngineConfig, Proto};
use crate::games::{format_of, Format, GameInfo};
use crate::openings::Opening;
use crate::record::{Decided, GameRecord};
use crate::tc::Clock;
use crate::text::{cut, printable};

/// How long the handshake and `isready` may take.
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// Everything the games of a match share.
pub struct MatchCtx<G: GameInfo> {
    /// The variant.
    pub variant: &'static str,
    /// The rule options (the referee's and every engine's).
    pub opts: G::Options,
    /// The configuration.
    pub cfg: Arc<Config>,
    /// The `setoption` pairs of every engine (rule options included).
    pub engine_options: Vec<Vec<(String, String)>>,
    /// Turn cap (0: none).
    pub maxturns: u32,
    /// `--log`.
    pub log: Option<Arc<Log>>,
    /// The match fingerprint for the records.
    pub match_id: String,
}

/// One scheduled game.
#[derive(Clone, Debug)]
pub struct Job {
    /// Game number.
    pub game: u64,
    /// Opening number.
    pub opening_index: u64,
    /// Game of its opening.
    pub round: u32,
    /// The opening.
    pub opening: Opening,
    /// Engine index per seat.
    pub seat_engines: Vec<usize>,
}

/// The engine processes one worker owns, by (engine, slot): an engine that
/// plays two seats of a game (a team) has two processes, slots 0 and 1.
#[derive(Default)]
pub struct Slots {
    procs: HashMap<(usize, usize), EngineProc>,
}

impl Slots {
    /// Ends every process.
    pub fn shutdown(&mut self) {
        for (_, mut p) in self.procs.drain() {
            p.shutdown();
        }
    }
}

/// How a game ended, before it becomes a record.
enum End {
    Rules(Outcome),
    /// Draw by the runner (turn cap, score).
    AdjDraw(String),
    /// A side (given by one of its seats) loses by the runner (resign).
    AdjLoss(Seat, String),
    /// A seat loses by misbehaving.
    Forfeit(Seat, String),
}

fn now_secs() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Why a seat's engine is not ready for a game: a forfeit.
#[derive(Debug, thiserror::Error)]
enum PrepareError {
    #[error(transparent)]
    Start(#[from] EngineStartError),
    #[error(transparent)]
    Handshake(#[from] HandshakeError),
}

/// Starts (or reuses) the process of a seat and readies it for a new game.
fn prepare(
    slots: &mut Slots,
    key: (usize, usize),
    ecfg: &EngineConfig,
    variant: &str,
    options: &[(String, String)],
    log: &Option<Arc<Log>>,
) -> Result<(), PrepareError> {
    let reuse = slots.procs.get(&key).is_some_and(|p| !(p.broken || ecfg.restart && p.games > 0));
    if !reuse {
        if let Some(mut old) = slots.procs.remove(&key) {
            old.shutdown();
        }
        let mut p = EngineProc::spawn(ecfg, log.clone())?;
        let r = p.init(variant, options, ecfg.proto == Proto::Tetrarch, HANDSHAKE);
        if let Err(e) = r {
            p.kill();
            return Err(e.into());
        }
        slots.procs.insert(key, p);
    }
    let p = slots.procs.get_mut(&key).expect("just inserted");
    if p.drain().is_err() {
        return Err(HandshakeError::Exited { label: p.label.clone() }.into());
    }
    p.send("ucinewgame");
    match p.sync(HANDSHAKE) {
        Ok(_) => {
            p.games += 1;
            Ok(())
        }
        Err(e) => {
            p.kill();
            Err(e.into())
        }
    }
}

/// The `go` command of a turn.
fn go_command(n: usize, mover: Seat, clocks: &[Clock], ecfg: &EngineConfig) -> String {
    let mut s = String::from("go");
    if clocks.iter().any(|c| c.tc.is_some()) {
        if ecfg.proto == Proto::FourPChess {
            // `rtime btime ytime gtime`, `rinc binc yinc ginc`: seat colours.
            for (i, c) in clocks.iter().enumerate() {
                if c.tc.is_some() {
                    s.push_str(&format!(" {}time {}", dialect::CLOCK_LETTERS[i], c.left_ms));
                }
            }
            for (i, c) in clocks.iter().enumerate() {
                if let Some(tc) = c.tc {
                    s.push_str(&format!(" {}inc {}", dialect::CLOCK_LETTERS[i], tc.inc_ms));
                }
            }
        } else if n == 2 {
            for (i, w) in ["wtime", "btime"].iter().enumerate() {
                if clocks[i].tc.is_some() {
                    s.push_str(&format!(" {w} {}", clocks[i].left_ms));
                }
            }
            for (i, w) in ["winc", "binc"].iter().enumerate() {
                if let Some(tc) = clocks[i].tc {
                    s.push_str(&format!(" {w} {}", tc.inc_ms));
                }
            }
        } else {
            for (i, c) in clocks.iter().enumerate() {
                if c.tc.is_some() {
                    s.push_str(&format!(" p{}time {}", i + 1, c.left_ms));
                }
            }
            for (i, c) in clocks.iter().enumerate() {
                if let Some(tc) = c.tc {
                    s.push_str(&format!(" p{}inc {}", i + 1, tc.inc_ms));
                }
            }
        }
        if let Some(m) = clocks[mover].moves_to_go() {
            s.push_str(&format!(" movestogo {m}"));
        }
    }
    if let Some(st) = ecfg.st_ms {
        s.push_str(&format!(" movetime {st}"));
    }
    if let Some(d) = ecfg.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(nodes) = ecfg.nodes {
        s.push_str(&format!(" nodes {nodes}"));
    }
    s
}

/// The places after a free-for-all win, best first: the winners; then the
/// seats still in the game, sharing one place (a Quadranj royal home, §6.9);
/// then those that went out in the last turn, the one visited last first
/// (Queens & Kings §6.4: the last seat left won); then the seats out
/// before, the later out higher. `mover` is the seat to move at the end.
fn win_places(n: usize, mover: Seat, winners: &[Seat], out_order: &[Seat], in_game: impl Fn(Seat) -> bool) -> Vec<Vec<Seat>> {
    let mut still_in = Vec::new();
    let mut last_out = Vec::new();
    // Every seat, in visiting order from the one after `mover` (the mover
    // itself last: it is no winner when a game ends mid-round).
    for k in 1..=n {
        let s = (mover + k) % n;
        if !winners.contains(&s) && !out_order.contains(&s) {
            if in_game(s) {
                still_in.push(s);
            } else {
                last_out.push(s);
            }
        }
    }
    let mut g = vec![winners.to_vec()];
    if !still_in.is_empty() {
        g.push(still_in);
    }
    g.extend(last_out.into_iter().rev().map(|s| vec![s]));
    g.extend(out_order.iter().rev().map(|&s| vec![s]));
    g
}

/// Free-for-all: after `mover`'s turn, the seats skipped before `next`
/// (the next mover) went out; adds them to `out_order` (the seats in the
/// order they went out), once each.
pub fn note_seats_out(out_order: &mut Vec<usize>, mover: usize, next: usize, n: usize) {
    let mut s = (mover + 1) % n;
    while s != next && s != mover {
        if !out_order.contains(&s) {
            out_order.push(s);
        }
        s = (s + 1) % n;
    }
}

/// The places of a free-for-all game that ended by the rules (`outcome`)
/// or by a drawn adjudication (`None`), best first. After a win: the
/// winners, then the seats still in sharing one place, then those that went
/// out in the last turn (the one visited last first), then those out before,
/// the later out higher. In a draw: the drawing seats first, then the other
/// seats still in, then those out, the later out higher. `out_order`: the seats in the order
/// they went out.
pub fn free_for_all_places(
    n: usize,
    mover: Seat,
    outcome: Option<&Outcome>,
    out_order: &[Seat],
    in_game: impl Fn(Seat) -> bool,
) -> Vec<Vec<Seat>> {
    let still: Vec<Seat> = (0..n).filter(|s| !out_order.contains(s)).collect();
    let mut g = match outcome.map(|o| o.result) {
        Some(GameResult::Win(w)) => return win_places(n, mover, &w.iter().collect::<Vec<_>>(), out_order, in_game),
        Some(GameResult::Draw(d)) => {
            vec![d.iter().collect::<Vec<_>>(), still.iter().copied().filter(|s| !d.has(*s)).collect()]
        }
        None => vec![still],
    };
    g.extend(out_order.iter().rev().map(|&s| vec![s]));
    g
}

/// Places best first (groups of seats sharing a place) → (rank, points) per
/// seat, points `(n - mean position) / (n - 1)`.
pub fn places_to_points(n: usize, groups: &[Vec<Seat>]) -> (Vec<u32>, Vec<f64>) {
    let mut ranks = vec![n as u32; n];
    let mut points = vec![0.0; n];
    let mut pos = 1usize;
    for g in groups.iter().filter(|g| !g.is_empty()) {
        let mean = pos as f64 + (g.len() as f64 - 1.0) / 2.0;
        for &s in g {
            ranks[s] = pos as u32;
            points[s] = (n as f64 - mean) / (n as f64 - 1.0);
        }
        pos += g.len();
    }
    (ranks, points)
}

/// Resign / draw adjudication from the engines' last scores (each from the
/// mover's side). `scores` are (seat, score) of the game's turns.
fn adjudicate<G: GameInfo>(g: &G, cfg: &Config, fmt: Format, scores: &[(Seat, Option<i32>)], total_turns: usize) -> Option<End> {
    let n = g.seats();
    if let Some(r) = cfg.resign {
        let k = r.movecount as usize * n;
        if fmt != Format::FreeForAll && scores.len() >= k && scores[scores.len() - k..].iter().all(|s| s.1.is_some()) {
            let last = &scores[scores.len() - k..];
            for loser_seat in 0..n.min(2) {
                let side = g.side_of(loser_seat);
                let against = last.iter().all(|&(seat, sc)| {
                    let sc = sc.unwrap_or(0);
                    let for_side = if g.side_of(seat) == side { sc } else { -sc };
                    for_side <= -r.score
                });
                if against {
                    return Some(End::AdjLoss(loser_seat, "adjudication: resign".into()));
                }
            }
        }
    }
    if let Some(d) = cfg.draw {
        let k = d.movecount as usize * n;
        if total_turns / n >= d.movenumber as usize
            && scores.len() >= k
            && scores[scores.len() - k..].iter().all(|s| s.1.is_some_and(|v| v.abs() <= d.score))
        {
            return Some(End::AdjDraw("adjudication: draw".into()));
        }
    }
    None
}

/// Why an engine's `bestmove` line is not a turn: the engine forfeits. The
/// text quotes the engine's token, cut short and with its control
/// characters escaped (escaped first, then cut: the cut bounds what is
/// shown): it goes to the terminal and the PGN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BestmoveError {
    /// `bestmove` alone.
    #[error("malformed bestmove (no turn)")]
    NoTurn,
    /// A token the rules refuse here.
    #[error("illegal turn `{}`: {}", cut(&printable(token), 60), cut(&printable(&reason.to_string()), 200))]
    Illegal {
        /// The engine's token, as it wrote it.
        token: String,
        /// The rules' refusal of the token (malformed or illegal).
        reason: TokenError,
    },
}

/// The turn of an engine's `bestmove` line on `pos`, or why the engine
/// forfeits.
pub fn bestmove_turn<G: GameInfo>(pos: &G, line: &str) -> Result<Vec<G::Action>, BestmoveError> {
    let Some(tok) = line.split_whitespace().nth(1) else {
        return Err(BestmoveError::NoTurn);
    };
    parse_turn(pos, tok).map_err(|reason| BestmoveError::Illegal { token: tok.to_string(), reason })
}

/// How a game's result reads in its record.
struct Scored {
    result: String,
    reason: String,
    decided: Decided,
    points: Vec<f64>,
    ranks: Vec<u32>,
}

/// An engine's answer to `go`.
struct Answer {
    /// Time it took, ms.
    used: u64,
    /// The `bestmove` line.
    line: String,
    /// Its last `info` score, from the mover's side.
    score: Option<i32>,
    /// The time it had, ms (the margin included).
    limit_ms: u64,
}

/// One game in play: the position, its history, the clocks and what the
/// record keeps.
struct GameState<G: GameInfo> {
    pos: G,
    /// Turn-start keys before the current position.
    history: Vec<u64>,
    /// The number of seats.
    n: usize,
    fmt: Format,
    /// Every turn from the start, the opening's included, canonical.
    turns: Vec<String>,
    /// Time of each game turn, ms.
    times: Vec<u64>,
    /// (mover, last score) of each game turn.
    scores: Vec<(Seat, Option<i32>)>,
    clocks: Vec<Clock>,
    /// Free-for-all: seats out of the game, in the order they went out.
    out_order: Vec<Seat>,
    /// (engine, slot) per seat.
    keys: Vec<(usize, usize)>,
    /// The game in the 4pchess dialect, kept only if an engine speaks it.
    dialect_line: Option<DialectLine>,
    /// What each seat's engine is told of the start (its own secrets only).
    seen: Vec<Opening>,
}

impl<G: GameInfo> GameState<G> {
    /// The opening's position (checked before the match) and full clocks.
    fn new(ctx: &MatchCtx<G>, job: &Job) -> GameState<G> {
        let (pos, history) = job.opening.replay::<G>(&ctx.opts).expect("openings are checked before the match");
        let n = pos.seats();
        let keys = (0..n)
            .map(|s| {
                let e = job.seat_engines[s];
                (e, job.seat_engines[..s].iter().filter(|&&x| x == e).count())
            })
            .collect();
        GameState {
            fmt: format_of(&pos),
            turns: job.opening.turns.clone(),
            times: Vec::new(),
            scores: Vec::new(),
            clocks: (0..n).map(|s| Clock::new(ctx.cfg.engines[job.seat_engines[s]].tc)).collect(),
            out_order: Vec::new(),
            keys,
            dialect_line: None,
            seen: (0..n).map(|s| job.opening.seen_by::<G>(s, &ctx.opts)).collect(),
            pos,
            history,
            n,
        }
    }

    /// Every seat's engine started (or reused) and ready; the first seat
    /// whose engine fails forfeits.
    fn prepare_seats(&self, ctx: &MatchCtx<G>, job: &Job, slots: &mut Slots) -> Option<End> {
        for (s, &key) in self.keys.iter().enumerate() {
            let e = job.seat_engines[s];
            if let Err(msg) = prepare(slots, key, &ctx.cfg.engines[e], ctx.variant, &ctx.engine_options[e], &ctx.log) {
                return Some(End::Forfeit(s, format!("engine failed to start: {}", cut(&printable(&msg.to_string()), 300))));
            }
        }
        None
    }

    /// The opening in the 4pchess dialect if an engine speaks it; the first
    /// such seat forfeits if the game cannot be written in it.
    fn start_dialect(&mut self, ctx: &MatchCtx<G>, job: &Job) -> Option<End> {
        let seat = (0..self.n).find(|&s| ctx.cfg.engines[job.seat_engines[s]].proto == Proto::FourPChess)?;
        match DialectLine::new::<G>(&job.opening, &ctx.opts) {
            Ok(l) => {
                self.dialect_line = Some(l);
                None
            }
            Err(e) => Some(End::Forfeit(seat, e.to_string())),
        }
    }

    /// The end by the rules, the turn cap or the engines' scores, if any.
    fn end_now(&self, ctx: &MatchCtx<G>) -> Option<End> {
        if let Some(o) = self.pos.outcome().or_else(|| self.pos.history_outcome(&self.history)) {
            return Some(End::Rules(o));
        }
        if ctx.maxturns > 0 && self.turns.len() >= ctx.maxturns as usize {
            return Some(End::AdjDraw("adjudication: turn cap".into()));
        }
        adjudicate(&self.pos, &ctx.cfg, self.fmt, &self.scores, self.turns.len())
    }

    /// Turns until the game ends.
    fn play(&mut self, ctx: &MatchCtx<G>, job: &Job, slots: &mut Slots) -> End {
        loop {
            if let Some(e) = self.end_now(ctx) {
                return e;
            }
            if let Some(e) = self.turn(ctx, job, slots) {
                return e;
            }
        }
    }

    /// One turn of the mover's engine: asked, timed, checked, played; or
    /// the forfeit.
    fn turn(&mut self, ctx: &MatchCtx<G>, job: &Job, slots: &mut Slots) -> Option<End> {
        let mover = self.pos.to_move();
        let ecfg = &ctx.cfg.engines[job.seat_engines[mover]];
        let p = slots.procs.get_mut(&self.keys[mover]).expect("prepared");
        let answer = match self.ask(&ctx.cfg, ecfg, p, mover) {
            Ok(a) => a,
            Err(end) => return Some(end),
        };
        if let Some(end) = self.charge(&ctx.cfg, ecfg, mover, &answer) {
            return Some(end);
        }
        let acts = match bestmove_turn(&self.pos, &answer.line) {
            Ok(a) => a,
            Err(why) => {
                p.broken = true;
                return Some(End::Forfeit(mover, why.to_string()));
            }
        };
        self.apply(mover, &acts, &answer);
        None
    }

    /// Sends the position and `go` to the mover's engine and waits for its
    /// `bestmove`, reading its scores; or the forfeit.
    fn ask(&self, cfg: &Config, ecfg: &EngineConfig, p: &mut EngineProc, mover: Seat) -> Result<Answer, End> {
        match p.drain() {
            Ok(()) => {}
            Err(WaitError::TooLong) => {
                p.kill();
                return Err(End::Forfeit(mover, WaitError::TooLong.reason(0)));
            }
            Err(_) => return Err(End::Forfeit(mover, "engine crashed (exited)".into())),
        }
        match (&self.dialect_line, ecfg.proto) {
            (Some(line), Proto::FourPChess) => p.send(&line.position_command()),
            _ => p.send(&self.seen[mover].position_command(&self.turns)),
        }
        p.send(&go_command(self.n, mover, &self.clocks, ecfg));
        let t0 = Instant::now();
        let limit_ms = match (self.clocks[mover].tc, ecfg.st_ms) {
            (Some(_), _) => self.clocks[mover].left_ms + cfg.margin_ms,
            (None, Some(st)) => st + cfg.margin_ms,
            (None, None) => cfg.max_wait_ms,
        };
        let mut score = None;
        let answer = p.wait_for(
            t0 + Duration::from_millis(limit_ms),
            |l| {
                if ecfg.proto == Proto::FourPChess {
                    if let Some(s) = dialect::info_score(l) {
                        score = Some(dialect::score_for_mover(s, mover));
                    }
                } else if let Some(s) = info_score(l) {
                    score = Some(s);
                }
            },
            |l| l.split_whitespace().next() == Some("bestmove"),
        );
        match answer {
            Ok((t, line)) => Ok(Answer { used: t.saturating_duration_since(t0).as_millis() as u64, line, score, limit_ms }),
            Err(e) => {
                p.kill();
                Err(End::Forfeit(mover, e.reason(limit_ms)))
            }
        }
    }

    /// Charges the mover's clock; a flag fallen or a `movetime` overrun is
    /// a time forfeit.
    fn charge(&mut self, cfg: &Config, ecfg: &EngineConfig, mover: Seat, a: &Answer) -> Option<End> {
        let used = a.used;
        if !self.clocks[mover].charge(used, cfg.margin_ms) {
            return Some(End::Forfeit(mover, format!("time forfeit: {used} ms used, {} ms left", a.limit_ms - cfg.margin_ms)));
        }
        if self.clocks[mover].tc.is_none() {
            if let Some(st) = ecfg.st_ms {
                if used > st + cfg.margin_ms {
                    return Some(End::Forfeit(mover, format!("time forfeit: {used} ms for movetime {st}")));
                }
            }
        }
        None
    }

    /// Plays the mover's turn and records it (canonically, whatever form
    /// the engine wrote).
    fn apply(&mut self, mover: Seat, acts: &[G::Action], a: &Answer) {
        self.history.push(self.pos.key());
        if let Some(line) = &mut self.dialect_line {
            line.push::<G>(&self.pos, acts);
        }
        let canonical = tetrarch_core::turns::turn_string(&self.pos, acts);
        play_turn(&mut self.pos, acts);
        self.turns.push(canonical);
        self.times.push(a.used);
        self.scores.push((mover, a.score));
        if self.fmt == Format::FreeForAll && self.pos.outcome().is_none() {
            note_seats_out(&mut self.out_order, mover, self.pos.to_move(), self.n);
        }
    }

    /// The result of a game of two sides: the winners' seats, or a draw.
    fn two_sides_result(&self, end: &End) -> Scored {
        let (n, pos) = (self.n, &self.pos);
        let losers_side = |s: &Seat| (0..n).filter(|&x| pos.side_of(x) != pos.side_of(*s)).collect();
        let (winners, reason, decided): (Option<Vec<Seat>>, String, Decided) = match end {
            End::Rules(o) => match o.result {
                GameResult::Win(w) => (Some(w.iter().collect()), o.reason.to_string(), Decided::Rules),
                GameResult::Draw(_) => (None, o.reason.to_string(), Decided::Rules),
            },
            End::AdjDraw(r) => (None, r.clone(), Decided::Adjudication),
            End::AdjLoss(s, r) => (Some(losers_side(s)), r.clone(), Decided::Adjudication),
            End::Forfeit(s, r) => (Some(losers_side(s)), r.clone(), Decided::Forfeit),
        };
        match winners {
            Some(w) => Scored {
                result: format!("win {}", w.iter().map(|s| (s + 1).to_string()).collect::<Vec<_>>().join(" ")),
                reason,
                decided,
                points: (0..n).map(|s| if w.contains(&s) { 1.0 } else { 0.0 }).collect(),
                ranks: (0..n).map(|s| if w.contains(&s) { 1 } else { 2 }).collect(),
            },
            None => Scored { result: "draw".to_string(), reason, decided, points: vec![0.5; n], ranks: vec![1; n] },
        }
    }

    /// The result of a free-for-all game: every seat's place.
    fn free_for_all_result(&self, end: &End) -> Scored {
        let (n, pos, out_order) = (self.n, &self.pos, &self.out_order);
        let mover = pos.to_move();
        let (groups, reason, decided): (Vec<Vec<Seat>>, String, Decided) = match end {
            End::Rules(o) => {
                (free_for_all_places(n, mover, Some(o), out_order, |s| pos.seat_in_game(s)), o.reason.to_string(), Decided::Rules)
            }
            End::AdjDraw(r) | End::AdjLoss(_, r) => {
                (free_for_all_places(n, mover, None, out_order, |s| pos.seat_in_game(s)), r.clone(), Decided::Adjudication)
            }
            End::Forfeit(f, r) => {
                let in_game: Vec<Seat> = (0..n).filter(|s| !out_order.contains(s)).collect();
                let mut g = vec![in_game.iter().copied().filter(|s| s != f).collect(), vec![*f]];
                g.extend(out_order.iter().rev().map(|&s| vec![s]).filter(|x| x[0] != *f));
                (g, r.clone(), Decided::Forfeit)
            }
        };
        let (ranks, points) = places_to_points(n, &groups);
        let result = format!("ranks {}", ranks.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" "));
        Scored { result, reason, decided, points, ranks }
    }

    /// The game's record.
    fn record(self, ctx: &MatchCtx<G>, job: &Job, end: &End, started: u64, t_start: Instant) -> GameRecord {
        let scored = match self.fmt {
            Format::Duel | Format::Teams => self.two_sides_result(end),
            Format::FreeForAll => self.free_for_all_result(end),
        };
        GameRecord {
            match_id: ctx.match_id.clone(),
            game: job.game,
            opening_index: job.opening_index,
            round: job.round,
            variant: ctx.variant.to_string(),
            start: job.opening.start_string(),
            opening_turns: job.opening.turns.len(),
            seats: job.seat_engines.iter().map(|&e| ctx.cfg.engines[e].name.clone()).collect(),
            seat_engines: job.seat_engines.clone(),
            turns: self.turns,
            times_ms: self.times,
            scores: self.scores.into_iter().map(|s| s.1).collect(),
            result: scored.result,
            reason: scored.reason,
            decided: scored.decided,
            culprit: match end {
                End::AdjLoss(s, _) | End::Forfeit(s, _) => Some(*s),
                _ => None,
            },
            points: scored.points,
            ranks: scored.ranks,
            started,
            duration_ms: t_start.elapsed().as_millis() as u64,
        }
    }
}

/// Plays one game and returns its record. Never panics on engine misbehaviour.
pub fn play_game<G: GameInfo>(ctx: &MatchCtx<G>, job: &Job, slots: &mut Slots) -> GameRecord {
    let started = now_secs();
    let t_start = Instant::now();
    // 1. The opening's position, the clocks, and every seat's engine ready.
    let mut game = GameState::<G>::new(ctx, job);
    let failed_start = game.prepare_seats(ctx, job, slots);
    // 2. The game in the 4pchess dialect, if an engine speaks it.
    let no_dialect = game.start_dialect(ctx, job);
    // 3. Turns until the rules, the runner or a forfeit end the game.
    let end = match failed_start.or(no_dialect) {
        Some(e) => e,
        None => game.play(ctx, job, slots),
    };
    // 4. The result and the record.
    game.record(ctx, job, &end, started, t_start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzzing (engine_output) found that the reason quoting an engine's
    /// token was cut before its control characters were escaped, so it
    /// could be four times the intended length (over 1,000 characters for
    /// a line of NULs). It is escaped first, then cut.
    #[test]
    fn a_forfeit_reason_quoting_an_engine_is_short() {
        use tetrarch_core::game::Rules;
        use tetrarch_core::games::quadranj::Quadranj;
        // The input the fuzzer found (its first line), read as the runner reads it.
        let found: &[u8] = b"bestmove \x1b[2\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\xf4\x1b\xf4\xf4\xf4J\xf4]0;xc2,\xf4";
        let text = String::from_utf8_lossy(found);
        let line = text.lines().next().unwrap();
        let qj = Quadranj::startpos(&Quadranj::default_options("quadranj"));
        let why = bestmove_turn(&qj, line).unwrap_err();
        assert!(matches!(why, BestmoveError::Illegal { .. }), "{why}");
        let why = why.to_string();
        assert!(why.chars().count() < 300 && !why.chars().any(char::is_control), "{} {why}", why.chars().count());
    }

    /// A Quadranj royal home: the three others, all still in, share places
    /// 2–4 (1/3 point each); a seat out earlier ranks below them. A Queens &
    /// Kings win: the seats out in the last turn in reverse visiting order.
    #[test]
    fn places_after_a_win() {
        let g = win_places(4, 2, &[1], &[], |_| true);
        assert_eq!(g, vec![vec![1], vec![3, 0, 2]]);
        let (r, p) = places_to_points(4, &g);
        assert_eq!(r, vec![2, 1, 2, 2]);
        assert_eq!(p, vec![1.0 / 3.0, 1.0, 1.0 / 3.0, 1.0 / 3.0]);
        let g = win_places(4, 2, &[1], &[0], |s| s != 0);
        assert_eq!(places_to_points(4, &g).0, vec![4, 1, 2, 2]);
        // Seat 0 won; 2 and 3 went out in the last turn (visited 2, then 3
        // from mover 1), 1 went out before.
        let g = win_places(4, 1, &[0], &[1], |s| s == 0);
        assert_eq!(g, vec![vec![0], vec![3], vec![2], vec![1]]);
        assert_eq!(places_to_points(4, &g).0, vec![1, 4, 3, 2]);
    }

    #[test]
    fn places() {
        // Winner seat 2, then 0, then 3 and 1 out together? No: 3 then 1.
        let (r, p) = places_to_points(4, &[vec![2], vec![0], vec![3], vec![1]]);
        assert_eq!(r, vec![2, 4, 1, 3]);
        assert_eq!(p, vec![2.0 / 3.0, 0.0, 1.0, 1.0 / 3.0]);
        // A draw of three seats still in, one out: positions 1..3 shared.
        let (r, p) = places_to_points(4, &[vec![0, 1, 3], vec![], vec![2]]);
        assert_eq!(r, vec![1, 1, 4, 1]);
        assert!((p[0] - 2.0 / 3.0).abs() < 1e-12 && p[2] == 0.0);
        assert!((p.iter().sum::<f64>() - 2.0).abs() < 1e-12);
    }
}

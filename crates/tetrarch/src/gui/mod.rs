//! `tetrarch gui`: a page to play and analyse every variant in a browser,
//! served on 127.0.0.1 by a tiny HTTP server ([`http`]) with everything
//! embedded in the binary. The server is the referee: it keeps the game
//! (start and turn tokens), asks the rules for legal actions ([`rules`]) and
//! drives an in-process [`Engine`] through the protocol for the engine seats
//! and for analysis. `docs/gui.md` describes the HTTP API.

pub mod game_queries;
pub mod http;
#[cfg(test)]
mod tests;

use std::net::TcpListener;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Serialize, Serializer};

/// Pairs of strings as a JSON object, in order.
struct StrMap<'a>(Vec<(&'a str, &'a str)>);

impl Serialize for StrMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().copied())
    }
}

/// `v` as one line of JSON.
fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("the GUI's JSON serialises")
}

use crate::options::{check_value, default_strategy, strategies, Settings, ValueError, STRATEGIES};
use crate::out::Captured;
use crate::{variants, with_variant, Engine, Out};
use game_queries::{
    default_value, Actions, CheckOptions, CheckTurn, Facts, FactsOf, Propose, Record, SetupPlace, Snapshot, Start,
};
use http::{Request, Response};
use tetrarch_core::game::{OptionKind, Outcome, PositionError, TokenError};

/// Why the GUI refuses a request (the `error` of its 400 answer) or cannot
/// serve; the text is what the page shows (docs/gui.md).
#[derive(Debug, thiserror::Error)]
pub enum GuiError {
    /// No game has this variant.
    #[error("unknown variant `{name}` (known: {})", .known.join(", "))]
    UnknownVariant {
        /// The name given.
        name: String,
        /// Every variant.
        known: Vec<&'static str>,
    },
    /// A listed variant the game table lacks (a bug).
    #[error("unknown variant")]
    NotInGameTable,
    /// A rule option the variant does not have (`/api/new`, listing the
    /// options it has).
    #[error("unknown option `{name}` for variant {variant} (options: {})", options_list(.options))]
    UnknownOption {
        /// The name given.
        name: String,
        /// The variant.
        variant: String,
        /// Its rule options.
        options: Vec<&'static str>,
    },
    /// A rule option the game does not have (checked by the rules).
    #[error("unknown option `{name}` for variant {variant}")]
    NoSuchOption {
        /// The name given.
        name: String,
        /// The variant.
        variant: String,
    },
    /// An option's value does not fit its kind.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The game refused an option's value.
    #[error("option {name}: {source}")]
    Option {
        /// The option.
        name: &'static str,
        /// The game's reason.
        source: PositionError,
    },
    /// `Strategy` in a variant that is not a free-for-all.
    #[error("option Strategy: variant {variant} is not a free-for-all game")]
    NotFreeForAll {
        /// The variant.
        variant: String,
    },
    /// A player is neither `human` nor `engine:<ms>` with 10..600000 ms.
    #[error("bad player `{0}`: expected human or engine:<ms> with 10..600000 ms")]
    BadPlayer(String),
    /// Not one player per seat.
    #[error("players: {given} given, variant {variant} has {seats} seats")]
    PlayerCount {
        /// Players given.
        given: usize,
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
    },
    /// A clock that is not `<minutes>+<seconds>`.
    #[error("bad clock `{0}`: expected <minutes>+<seconds>, e.g. 5+3 or 0.5+0")]
    BadClock(String),
    /// A clock outside 0.1 s to 24 h, or an increment over 1 h.
    #[error("bad clock `{0}`: the base time must be 0.1 s to 24 h, the increment at most 1 h")]
    ClockRange(String),
    /// `start=fen` without a position string.
    #[error("start fen: the position string is empty")]
    EmptyFen,
    /// `start` other than `startpos`, `fen` or `setup`.
    #[error("unknown start `{0}` (startpos, fen or setup)")]
    UnknownStart(String),
    /// A set-up in a game without one.
    #[error("variant {variant} has no set-up")]
    NoSetup {
        /// The variant.
        variant: String,
    },
    /// The game proposed no set-up for a seat.
    #[error("no set-up proposal")]
    NoProposal,
    /// A seat's set-up token (`setup<n>`) has spaces.
    #[error("set-up token of seat {seat}: no spaces allowed")]
    SetupTokenSpaces {
        /// The seat, from 1.
        seat: usize,
    },
    /// The set-up token of `/api/setup/place` has spaces.
    #[error("a set-up token has no spaces")]
    PlaceTokenSpaces,
    /// A seat past the variant's seats.
    #[error("seat {seat} does not exist (variant {variant} has {seats})")]
    NoSuchSeat {
        /// The seat, from 1.
        seat: usize,
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
    },
    /// The position string is wrong.
    #[error("invalid position string: {0}")]
    InvalidPosition(PositionError),
    /// The game's position parser panicked.
    #[error("invalid position (the parser failed)")]
    PositionParserFailed,
    /// The set-up tokens are wrong.
    #[error("invalid set-up: {0}")]
    InvalidSetup(PositionError),
    /// The game's set-up parser panicked.
    #[error("invalid set-up (the parser failed)")]
    SetupParserFailed,
    /// A turn of the game after its end.
    #[error("turn {turn} `{token}`: the game is over ({outcome})")]
    TurnAfterEnd {
        /// Its number, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// A turn of the game is not a turn of its position.
    #[error("turn {turn} `{token}`: {source}")]
    Turn {
        /// Its number, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// The turn played is not a turn of the position.
    #[error("turn `{token}`: {source}")]
    BadTurn {
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// A turn played after the end of the game.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// Actions listed after the end of the game.
    #[error("the game is over")]
    GameOver,
    /// An action of the `prefix` after the turn's last action.
    #[error("action {index} `{token}`: the turn is already over")]
    ActionAfterTurn {
        /// Its place in the prefix, from 1.
        index: usize,
        /// The token.
        token: String,
    },
    /// An action of the `prefix` that does not parse.
    #[error("action {index} `{token}`: {source}")]
    Action {
        /// Its place in the prefix, from 1.
        index: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// An action of the `prefix` that is not legal.
    #[error("action {index} `{token}`: illegal")]
    IllegalAction {
        /// Its place in the prefix, from 1.
        index: usize,
        /// The token.
        token: String,
    },
    /// The `prefix` is a whole turn.
    #[error("the turn is already over")]
    TurnOver,
    /// The variant has no record format.
    #[error("variant {variant} has no record format")]
    NoRecordFormat {
        /// The variant.
        variant: &'static str,
    },
    /// The game could not write its record.
    #[error(transparent)]
    Record(PositionError),
    /// The engine refused the game's `position` command: its
    /// `info string error: …` line.
    #[error("{0}")]
    Engine(String),
    /// The server could not start or keep its threads.
    #[error(transparent)]
    Serve(#[from] http::ServeError),
}

/// The rule options of [`GuiError::UnknownOption`]: `none`, or their names.
fn options_list(options: &[&str]) -> String {
    if options.is_empty() {
        "none".to_string()
    } else {
        options.join(", ")
    }
}

impl GuiError {
    fn unknown_variant(name: &str) -> Self {
        GuiError::UnknownVariant { name: name.into(), known: variants() }
    }
}

const INDEX_HTML: &str = include_str!("index.html");
const APP_JS: &str = include_str!("app.js");
const STYLE_CSS: &str = include_str!("style.css");

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the page.
    Human,
    /// The engine, with this much time per turn (ms).
    Engine(u64),
}

impl Player {
    fn parse(s: &str) -> Result<Player, GuiError> {
        match s {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine(1000)),
            _ => match s.strip_prefix("engine:").map(str::parse::<u64>) {
                Some(Ok(ms)) if (10..=600_000).contains(&ms) => Ok(Player::Engine(ms)),
                _ => Err(GuiError::BadPlayer(s.into())),
            },
        }
    }
    fn word(self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(ms) => format!("engine:{ms}"),
        }
    }
}

/// A clock for every seat: base time and increment per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time at the start, ms.
    pub base_ms: u64,
    /// Added after each of the seat's turns, ms.
    pub inc_ms: u64,
}

impl Clock {
    /// `<minutes>+<seconds>` (`5+3`, `0.5+0`, `10`): `None` for an empty
    /// string, `none` or `0`.
    fn parse(s: &str) -> Result<Option<Clock>, GuiError> {
        let s = s.trim();
        if s.is_empty() || s == "none" || s == "0" || s == "0+0" {
            return Ok(None);
        }
        let bad = || GuiError::BadClock(s.into());
        let (m, i) = s.split_once('+').unwrap_or((s, "0"));
        let num = |x: &str| x.trim().parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0);
        let (m, i) = (num(m).ok_or_else(bad)?, num(i).ok_or_else(bad)?);
        let (base_ms, inc_ms) = ((m * 60_000.0).round() as u64, (i * 1000.0).round() as u64);
        if !(100..=24 * 3_600_000).contains(&base_ms) || inc_ms > 3_600_000 {
            return Err(GuiError::ClockRange(s.into()));
        }
        Ok(Some(Clock { base_ms, inc_ms }))
    }
    /// As `parse` reads it.
    fn word(self) -> String {
        let m = self.base_ms as f64 / 60_000.0;
        let i = self.inc_ms as f64 / 1000.0;
        format!("{m}+{i}")
    }
}

/// The last search report (as the state's `thinking.info`).
#[derive(Clone, Debug, Default, Serialize)]
struct Thinking {
    depth: String,
    score: String,
    nodes: String,
    nps: String,
    time: String,
    pv: String,
}

impl Thinking {
    fn parse(line: &str) -> Option<Thinking> {
        let w: Vec<&str> = line.split(' ').collect();
        if w.first() != Some(&"info") || !w.contains(&"depth") {
            return None;
        }
        let mut t = Thinking::default();
        let mut i = 1;
        while i < w.len() {
            match w[i] {
                "depth" => t.depth = w.get(i + 1).unwrap_or(&"").to_string(),
                "score" => {
                    t.score = format!("{} {}", w.get(i + 1).unwrap_or(&""), w.get(i + 2).unwrap_or(&""));
                    i += 1;
                }
                "nodes" => t.nodes = w.get(i + 1).unwrap_or(&"").to_string(),
                "nps" => t.nps = w.get(i + 1).unwrap_or(&"").to_string(),
                "time" => t.time = w.get(i + 1).unwrap_or(&"").to_string(),
                "pv" => {
                    t.pv = w[i + 1..].join(" ");
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        Some(t)
    }
}

/// A running engine search.
struct Search {
    /// The seat it plays for (`None`: analysis only).
    seat: Option<usize>,
    started: Instant,
    /// Number of turns when it started (a reply to an older position is void).
    turns: usize,
}

/// The game the page shows, and the engine.
struct Gui {
    variant: &'static str,
    facts: Facts,
    /// The rule options that differ from the defaults (game spelling,
    /// canonical values).
    options: Vec<(String, String)>,
    /// The engine's `Strategy` (free-for-all variants), if chosen.
    strategy: Option<&'static str>,
    clock: Option<Clock>,
    /// Time left per seat, ms (the seat to move's clock runs from
    /// `clock_since`).
    remaining: Vec<i64>,
    /// `remaining` when the current turn began.
    turn_clock: Vec<i64>,
    /// `remaining` when each turn played began (for undo).
    clock_hist: Vec<Vec<i64>>,
    /// Since when the seat to move's clock runs.
    clock_since: Option<Instant>,
    /// The seat whose clock ran out.
    time_loss: Option<usize>,
    start: Start,
    turns: Vec<String>,
    times_ms: Vec<Option<u64>>,
    scores: Vec<Option<String>>,
    players: Vec<Player>,
    paused: bool,
    engine: Engine,
    cap: Captured,
    /// What the engine was last set to (variant, options, clock).
    engine_config: String,
    search: Option<Search>,
    thinking: Option<Thinking>,
    log: Vec<String>,
    log_dropped: usize,
    message: String,
    game: u64,
    version: u64,
    started: SystemTime,
    /// The cached snapshot of the current position.
    snap: Option<game_queries::SnapshotOut>,
}

/// `/api/state`: the game, the position and the engine, as the page reads
/// them (docs/gui.md, "HTTP API").
#[derive(Serialize)]
struct StateOut<'a> {
    game: u64,
    version: u64,
    variant: &'a str,
    start: String,
    seat_names: &'a [&'static str],
    players: Vec<String>,
    turns: &'a [String],
    paused: bool,
    has_record: bool,
    has_setup: bool,
    options: StrMap<'a>,
    clock: Option<ClockOut>,
    /// `board`, `position`, … ([`game_queries::Position`]), or `"board":null`.
    #[serde(flatten)]
    position: PositionOut<'a>,
    thinking: Option<ThinkingOut<'a>>,
    message: &'a str,
    log_start: usize,
    log: &'a [String],
}

/// The position's fields of the state.
#[derive(Serialize)]
#[serde(untagged)]
enum PositionOut<'a> {
    Known(&'a game_queries::Position),
    Unknown { board: () },
}

/// The engine's search in the state: running (for a seat, or an analysis),
/// or done.
#[derive(Serialize)]
#[serde(untagged)]
enum ThinkingOut<'a> {
    Running { seat: Option<usize>, analysis: bool, info: Option<&'a Thinking> },
    Done { seat: Option<usize>, done: bool, info: &'a Thinking },
}

/// The clocks in the state (seats from 1).
#[derive(Serialize)]
struct ClockOut {
    base_ms: u64,
    inc_ms: u64,
    left: Vec<i64>,
    running: Option<usize>,
    flagged: Option<usize>,
}

/// `/api/record.jsonl`: one line like the match runner's records.
#[derive(Serialize)]
struct RecordOut<'a> {
    game: u64,
    variant: &'a str,
    start: String,
    seats: Vec<String>,
    turns: &'a [String],
    times_ms: &'a [Option<u64>],
    scores: Vec<Option<i64>>,
    result: String,
    reason: String,
    decided: Option<&'static str>,
    culprit: Option<usize>,
    options: StrMap<'a>,
    clock: Option<String>,
    started: u64,
    duration_ms: u64,
}

/// One variant of `/api/variants`.
#[derive(Serialize)]
struct VariantOut {
    name: &'static str,
    seats: usize,
    setup: bool,
    board: bool,
    record: bool,
    seat_names: Vec<&'static str>,
    options: Vec<OptionOut>,
}

/// One option of `/api/variants` (`min`, `max` for a spin, `vars` for a combo).
#[derive(Serialize)]
struct OptionOut {
    name: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    default: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vars: Option<&'static [&'static str]>,
    engine: bool,
}

impl OptionOut {
    fn new(name: &'static str, kind: &OptionKind, engine: bool) -> Self {
        let o = |kind, default: String| OptionOut { name, kind, default, min: None, max: None, vars: None, engine };
        match *kind {
            OptionKind::Check(d) => o("check", d.to_string()),
            OptionKind::Spin { default, min, max } => {
                OptionOut { min: Some(min), max: Some(max), ..o("spin", default.to_string()) }
            }
            OptionKind::Combo(vals) => {
                OptionOut { vars: Some(vals), ..o("combo", vals.first().copied().unwrap_or("").to_string()) }
            }
        }
    }
}

/// `/api/variants`: every variant with its seats and options.
fn variants_json() -> String {
    #[derive(Serialize)]
    struct Variants {
        variants: Vec<VariantOut>,
    }
    let variants = variants()
        .into_iter()
        .map(|v| {
            let f = with_variant(v, FactsOf).expect("known");
            let strategy = f.ffa.then(|| OptionOut::new("Strategy", &OptionKind::Combo(strategies(v)), true));
            let options = f.options.iter().map(|o| OptionOut::new(o.name, &o.kind, false)).chain(strategy).collect();
            VariantOut { name: v, seats: f.seats, setup: f.setup, board: f.board, record: f.record, seat_names: f.names, options }
        })
        .collect();
    to_json(&Variants { variants })
}

fn now_secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Gui {
    fn new(variant: &'static str) -> Gui {
        Gui::with_settings(variant, Settings::default())
    }

    /// A GUI whose engine has these settings (the fuzz harness asks for a
    /// 1 MiB hash: the default 64 MiB, zeroed per input, cost it 90 % of its time).
    fn with_settings(variant: &'static str, settings: Settings) -> Gui {
        let (out, cap) = Out::buffer();
        let engine = Engine::with_settings(out, variant, settings).expect("a known variant");
        let facts = with_variant(variant, FactsOf).expect("a known variant");
        let players = vec![Player::Human; facts.seats]
            .into_iter()
            .enumerate()
            .map(|(i, p)| if i == 0 { p } else { Player::Engine(1000) })
            .collect();
        let mut g = Gui {
            variant,
            facts,
            options: Vec::new(),
            strategy: None,
            clock: None,
            remaining: Vec::new(),
            turn_clock: Vec::new(),
            clock_hist: Vec::new(),
            clock_since: None,
            time_loss: None,
            start: Start::Startpos,
            turns: vec![],
            times_ms: vec![],
            scores: vec![],
            players,
            paused: false,
            engine,
            cap,
            engine_config: String::new(),
            search: None,
            thinking: None,
            log: vec![],
            log_dropped: 0,
            message: String::new(),
            game: 1,
            version: 0,
            started: SystemTime::now(),
            snap: None,
        };
        g.refresh();
        g
    }

    /// Recomputes the snapshot after a change.
    fn refresh(&mut self) {
        self.version += 1;
        self.snap = with_variant(
            self.variant,
            Snapshot { options: &self.options, start: &self.start, turns: &self.turns, time_loss: self.time_loss },
        )
        .and_then(Result::ok);
    }

    /// The seat to move, if the game goes on.
    fn mover(&self) -> Option<usize> {
        self.snap.as_ref().filter(|s| !s.over).map(|s| s.to_move)
    }

    /// Time left on `seat`'s clock now, ms.
    fn clock_left(&self, seat: usize) -> i64 {
        let run = match (self.clock_since, self.mover()) {
            (Some(t), Some(m)) if m == seat => t.elapsed().as_millis() as i64,
            _ => 0,
        };
        self.remaining.get(seat).copied().unwrap_or(0) - run
    }

    /// Starts or stops the clock of the seat to move: it runs while the
    /// game goes on and is not paused.
    fn sync_clock(&mut self) {
        let run = self.clock.is_some() && !self.paused && self.mover().is_some();
        match (run, self.clock_since) {
            (true, None) => self.clock_since = Some(Instant::now()),
            (false, Some(t)) => {
                self.clock_since = None;
                if let Some(m) = self.snap.as_ref().map(|s| s.to_move) {
                    if let Some(r) = self.remaining.get_mut(m) {
                        *r -= t.elapsed().as_millis() as i64;
                    }
                }
            }
            _ => {}
        }
    }

    /// Charges `seat` for the turn it just played; `false` if its clock ran
    /// out meanwhile (the turn does not count: it lost on time).
    fn clock_turn(&mut self, seat: usize) -> bool {
        let Some(c) = self.clock else { return true };
        let used = self.clock_since.take().map_or(0, |t| t.elapsed().as_millis() as i64);
        if self.remaining[seat] - used <= 0 {
            self.remaining[seat] -= used;
            self.flag(seat);
            return false;
        }
        self.clock_hist.push(self.turn_clock.clone());
        self.remaining[seat] += c.inc_ms as i64 - used;
        self.turn_clock = self.remaining.clone();
        self.clock_since = Some(Instant::now());
        true
    }

    /// `seat` lost on time: the game ends.
    fn flag(&mut self, seat: usize) {
        self.halt();
        self.clock_since = None;
        self.remaining[seat] = self.remaining[seat].min(0);
        self.time_loss = Some(seat);
        self.message = format!("{} lost on time", self.facts.names.get(seat).copied().unwrap_or("?"));
        self.refresh();
    }

    /// Sets the engine's variant and options to the game's when they differ
    /// from what it has (every rule option explicitly, so nothing of an
    /// earlier game stays).
    fn configure_engine(&mut self) {
        let key = format!("{}|{:?}|{:?}|{}", self.variant, self.options, self.strategy, self.clock.is_some());
        if key == self.engine_config {
            return;
        }
        let mut lines = vec![format!("setoption name UCI_Variant value {}", self.variant)];
        for spec in &self.facts.options {
            let v =
                self.options.iter().find(|(n, _)| n == spec.name).map_or_else(|| default_value(&spec.kind), |(_, v)| v.clone());
            lines.push(format!("setoption name {} value {v}", spec.name));
        }
        if self.facts.ffa {
            lines.push(format!("setoption name Strategy value {}", self.strategy.unwrap_or(default_strategy(self.variant))));
        }
        // Under a clock the in-process engine keeps a margin for the GUI's
        // polling of its answer.
        lines.push(format!("setoption name Move Overhead value {}", if self.clock.is_some() { 60 } else { 10 }));
        for l in lines {
            for e in self.send(&l) {
                self.log_line(format!("{l}: {e}"));
            }
        }
        self.engine_config = key;
    }

    fn log_line(&mut self, l: String) {
        self.log.push(l);
        if self.log.len() > 400 {
            self.log.remove(0);
            self.log_dropped += 1;
        }
    }

    /// Sends one protocol line to the engine; returns the error lines it
    /// printed at once.
    fn send(&mut self, line: &str) -> Vec<String> {
        self.engine.handle_line(line);
        let mut errs = Vec::new();
        for l in self.cap.take_lines() {
            if l.starts_with("info string error") {
                errs.push(l.clone());
            }
            self.absorb(l, false);
        }
        errs
    }

    /// Takes in one engine line (`bestmove` only when `play` is set).
    fn absorb(&mut self, l: String, play: bool) {
        if let Some(t) = Thinking::parse(&l) {
            self.thinking = Some(t);
            self.version += 1;
        }
        if let Some(rest) = l.strip_prefix("bestmove ") {
            let tok = rest.split(' ').next().unwrap_or("").to_string();
            if play {
                self.engine_reply(tok);
            }
        }
        if !l.starts_with("info depth") {
            self.log_line(l);
        }
    }

    /// Stops a running search and forgets its answer.
    fn halt(&mut self) {
        if self.search.take().is_some() {
            self.send("stop");
            self.version += 1;
        }
    }

    /// The engine's `bestmove` for the running search.
    fn engine_reply(&mut self, tok: String) {
        let Some(s) = self.search.take() else { return };
        self.version += 1;
        let Some(seat) = s.seat else { return };
        if s.turns != self.turns.len() || tok == "(none)" || self.mover() != Some(seat) {
            return;
        }
        match with_variant(self.variant, CheckTurn { options: &self.options, start: &self.start, turns: &self.turns, turn: &tok })
        {
            Some(Ok(t)) => {
                if !self.clock_turn(seat) {
                    return;
                }
                self.turns.push(t);
                self.times_ms.push(Some(s.started.elapsed().as_millis() as u64));
                self.scores.push(self.thinking.as_ref().map(|t| t.score.clone()));
                self.message = format!("{} played {tok}", self.facts.names.get(seat).copied().unwrap_or("?"));
                self.refresh();
            }
            Some(Err(e)) => {
                self.paused = true;
                self.message = format!("the engine answered an illegal turn: {e}; engines paused");
            }
            None => {}
        }
    }

    /// The `position` command for the engine playing `seat` (a seat does
    /// not learn the other seats' secret set-up choices where the game
    /// accepts `?` for them).
    fn position_for(&mut self, seat: Option<usize>) -> Result<(), GuiError> {
        self.configure_engine();
        let moves = if self.turns.is_empty() { String::new() } else { format!(" moves {}", self.turns.join(" ")) };
        if let (Start::Setup(toks), Some(seat)) = (&self.start, seat) {
            let masked: Vec<&str> = toks.iter().enumerate().map(|(i, t)| if i == seat { t.as_str() } else { "?" }).collect();
            if self.send(&format!("position setup {}{moves}", masked.join(" "))).is_empty() {
                return Ok(());
            }
        }
        let errs = self.send(&format!("position {}{moves}", self.start.protocol()));
        match errs.first() {
            None => Ok(()),
            Some(e) => Err(GuiError::Engine(e.clone())),
        }
    }

    /// Drains the engine's output and starts the next engine turn.
    fn tick(&mut self) {
        for l in self.cap.take_lines() {
            self.absorb(l, true);
        }
        self.sync_clock();
        if let Some(m) = self.mover() {
            if self.clock_since.is_some() && self.clock_left(m) <= 0 {
                self.flag(m);
            }
        }
        if self.search.is_some() || self.paused {
            return;
        }
        let Some(seat) = self.mover() else { return };
        if let Some(Player::Engine(ms)) = self.players.get(seat).copied() {
            if let Err(e) = self.position_for(Some(seat)) {
                self.paused = true;
                self.message = format!("engine: {e}");
                self.sync_clock();
                return;
            }
            self.thinking = None;
            self.search = Some(Search { seat: Some(seat), started: Instant::now(), turns: self.turns.len() });
            let go = match self.clock {
                Some(c) => self.go_clock(c),
                None => format!("go movetime {ms}"),
            };
            self.log_line(format!("> {go}"));
            self.send(&go);
            self.version += 1;
        }
    }

    /// `go` with every seat's clock: `wtime btime winc binc` for two
    /// seats, `p1time … pNtime p1inc … pNinc` for more.
    fn go_clock(&self, c: Clock) -> String {
        let n = self.facts.seats;
        let left: Vec<i64> = (0..n).map(|s| self.clock_left(s).max(1)).collect();
        if n == 2 {
            format!("go wtime {} btime {} winc {} binc {}", left[0], left[1], c.inc_ms, c.inc_ms)
        } else {
            let mut g = String::from("go");
            for (s, t) in left.iter().enumerate() {
                g.push_str(&format!(" p{}time {t}", s + 1));
            }
            for s in 0..n {
                g.push_str(&format!(" p{}inc {}", s + 1, c.inc_ms));
            }
            g
        }
    }

    /// The clocks (`None` without a clock).
    fn clock_out(&self) -> Option<ClockOut> {
        let c = self.clock?;
        let running = match (self.clock_since, self.mover()) {
            (Some(_), Some(m)) => Some(m + 1),
            _ => None,
        };
        Some(ClockOut {
            base_ms: c.base_ms,
            inc_ms: c.inc_ms,
            left: (0..self.facts.seats).map(|s| self.clock_left(s).max(0)).collect(),
            running,
            flagged: self.time_loss.map(|s| s + 1),
        })
    }

    /// The rule options (and the engine's `Strategy`) as a JSON object.
    fn options_out(&self) -> StrMap<'_> {
        let strategy = self.strategy.map(|s| ("Strategy", s));
        StrMap(self.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).chain(strategy).collect())
    }

    /// The state the page shows (`/api/state` and the answer of every change).
    fn state_json(&self) -> String {
        let thinking = match (&self.search, &self.thinking) {
            (Some(s), t) => {
                Some(ThinkingOut::Running { seat: s.seat.map(|x| x + 1), analysis: s.seat.is_none(), info: t.as_ref() })
            }
            (None, Some(t)) => Some(ThinkingOut::Done { seat: None, done: true, info: t }),
            (None, None) => None,
        };
        to_json(&StateOut {
            game: self.game,
            version: self.version,
            variant: self.variant,
            start: self.start.protocol(),
            seat_names: &self.facts.names,
            players: self.players.iter().map(|p| p.word()).collect(),
            turns: &self.turns,
            paused: self.paused,
            has_record: self.facts.record,
            has_setup: self.facts.setup,
            options: self.options_out(),
            clock: self.clock_out(),
            position: match &self.snap {
                Some(s) => PositionOut::Known(&s.position),
                None => PositionOut::Unknown { board: () },
            },
            thinking,
            message: &self.message,
            log_start: self.log_dropped,
            log: &self.log,
        })
    }

    /// The game as one JSON line, like the match runner's records.
    fn record_jsonl(&self) -> String {
        let (result, reason) = match self.snap.as_ref().and_then(|s| s.result.clone()) {
            Some(r) => {
                let mut w: Vec<&str> = r.split(' ').collect();
                let reason = w.pop().unwrap_or("").to_string();
                (w.join(" "), reason)
            }
            None => ("none".to_string(), String::new()),
        };
        let decided = match (self.time_loss, result.as_str()) {
            (Some(_), _) if reason == "time" => Some("forfeit"),
            (_, "none") => None,
            _ => Some("rules"),
        };
        let mut line = to_json(&RecordOut {
            game: self.game,
            variant: self.variant,
            start: self.start.protocol(),
            seats: self.players.iter().map(|p| p.word()).collect(),
            turns: &self.turns,
            times_ms: &self.times_ms,
            scores: self
                .scores
                .iter()
                .map(|s| s.as_deref().and_then(|s| s.strip_prefix("cp ")).and_then(|x| x.parse::<i64>().ok()))
                .collect(),
            culprit: self.time_loss.filter(|_| reason == "time").map(|s| s + 1),
            result,
            reason,
            decided,
            options: self.options_out(),
            clock: self.clock.map(Clock::word),
            started: now_secs(self.started),
            duration_ms: self.started.elapsed().map_or(0, |d| d.as_millis() as u64),
        });
        line.push('\n');
        line
    }

    fn new_game(&mut self, req: &Request) -> Result<(), GuiError> {
        let name = req.param("variant").unwrap_or(self.variant);
        let variant =
            variants().into_iter().find(|v| v.eq_ignore_ascii_case(name)).ok_or_else(|| GuiError::unknown_variant(name))?;
        let facts = with_variant(variant, FactsOf).ok_or(GuiError::NotInGameTable)?;
        let (options, strategy) = parse_options(req, variant, &facts)?;
        let players = match req.param("players").filter(|p| !p.is_empty()) {
            Some(p) => {
                let v = p.split(',').map(Player::parse).collect::<Result<Vec<_>, _>>()?;
                if v.len() != facts.seats {
                    return Err(GuiError::PlayerCount { given: v.len(), variant, seats: facts.seats });
                }
                v
            }
            None if variant == self.variant => self.players.clone(),
            None => (0..facts.seats).map(|i| if i == 0 { Player::Human } else { Player::Engine(1000) }).collect(),
        };
        let start = match req.param("start").unwrap_or("startpos") {
            "startpos" | "" => Start::Startpos,
            "fen" => {
                let s = req.param("fen").unwrap_or("").trim();
                if s.is_empty() {
                    return Err(GuiError::EmptyFen);
                }
                Start::Fen(s.split_whitespace().collect::<Vec<_>>().join(" "))
            }
            "setup" => {
                if !facts.setup {
                    return Err(GuiError::NoSetup { variant: variant.into() });
                }
                let mut toks = Vec::new();
                for seat in 0..facts.seats {
                    let t = req.param(&format!("setup{}", seat + 1)).unwrap_or("").trim().to_string();
                    if t.is_empty() {
                        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(7, |d| d.as_nanos() as u64)
                            ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        toks.push(
                            with_variant(variant, Propose { options: &options, seat, seed })
                                .flatten()
                                .ok_or(GuiError::NoProposal)?,
                        );
                    } else if t.contains(char::is_whitespace) {
                        return Err(GuiError::SetupTokenSpaces { seat: seat + 1 });
                    } else {
                        toks.push(t);
                    }
                }
                Start::Setup(toks)
            }
            s => return Err(GuiError::UnknownStart(s.into())),
        };
        let moves: Vec<String> = req.param("moves").unwrap_or("").split_whitespace().map(str::to_owned).collect();
        let clock = Clock::parse(req.param("clock").unwrap_or(""))?;
        // Check everything before changing anything.
        with_variant(variant, Snapshot { options: &options, start: &start, turns: &moves, time_loss: None })
            .ok_or(GuiError::NotInGameTable)??;
        self.halt();
        self.variant = variant;
        self.facts = facts;
        self.options = options;
        self.strategy = strategy;
        self.players = players;
        self.start = start;
        self.turns = moves;
        self.clock = clock;
        self.remaining = vec![clock.map_or(0, |c| c.base_ms as i64); self.facts.seats];
        self.turn_clock = self.remaining.clone();
        self.clock_hist = vec![self.remaining.clone(); self.turns.len()];
        self.clock_since = None;
        self.time_loss = None;
        self.times_ms = vec![None; self.turns.len()];
        self.scores = vec![None; self.turns.len()];
        self.thinking = None;
        self.paused = false;
        self.game += 1;
        self.started = SystemTime::now();
        self.send("ucinewgame");
        self.message = format!("new game: {variant}");
        self.refresh();
        self.sync_clock();
        Ok(())
    }

    /// `/api/actions`: what to list, or the error.
    fn actions_job(&self, req: &Request) -> Result<ActionsJob, Response> {
        if self.time_loss.is_some() {
            return Err(Response::error(400, &format!("the game is over ({})", self.message)));
        }
        let prefix: Vec<String> =
            req.param("prefix").unwrap_or("").split(',').filter(|s| !s.is_empty()).map(str::to_owned).collect();
        Ok(ActionsJob {
            variant: self.variant,
            options: self.options.clone(),
            start: self.start.clone(),
            turns: self.turns.clone(),
            prefix,
        })
    }

    /// Answers one API request, one function per route; a known path with
    /// the other method is 405.
    fn handle(&mut self, req: &Request) -> Response {
        match (req.path.as_str(), req.method == "POST") {
            ("/api/state", false) => self.ok(),
            ("/api/board", false) => self.api_board(),
            ("/api/variants", false) => Response::json(200, variants_json()),
            ("/api/actions", false) => match self.actions_job(req) {
                Ok(job) => job.run(),
                Err(r) => r,
            },
            ("/api/setup", false) => self.api_setup(req),
            ("/api/setup/place", false) => self.api_setup_place(req),
            ("/api/record.jsonl", false) => self.api_record_jsonl(),
            ("/api/record.pgn4", false) => self.api_record_pgn4(),
            ("/api/new", true) => self.api_new(req),
            ("/api/play", true) => self.api_play(req),
            ("/api/undo", true) => self.api_undo(),
            ("/api/stop", true) => self.api_stop(),
            ("/api/pause", true) => self.api_pause(req),
            ("/api/players", true) => self.api_players(req),
            ("/api/analyse", true) => self.api_analyse(),
            (
                "/api/state" | "/api/board" | "/api/variants" | "/api/actions" | "/api/setup" | "/api/setup/place"
                | "/api/record.jsonl" | "/api/record.pgn4",
                true,
            )
            | ("/api/new" | "/api/play" | "/api/undo" | "/api/stop" | "/api/pause" | "/api/players" | "/api/analyse", false) => {
                Response::error(405, "method not allowed")
            }
            _ => Response::error(404, &format!("no such page `{}`", req.path)),
        }
    }

    /// The state, the answer of every change that succeeded.
    fn ok(&self) -> Response {
        Response::json(200, self.state_json())
    }

    /// `GET /api/board`: the board description alone.
    fn api_board(&self) -> Response {
        match &self.snap {
            Some(s) => Response::json(200, to_json(&s.position.board)),
            None => bad("no position"),
        }
    }

    /// `GET /api/setup`: the engine's proposal for a seat's set-up.
    fn api_setup(&self, req: &Request) -> Response {
        let variant = req.param("variant").unwrap_or(self.variant);
        let Some(seat) = seat_param(req) else { return bad("bad seat") };
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        match with_variant(variant, FactsOf) {
            None => bad(format!("unknown variant `{variant}`")),
            Some(f) if seat >= f.seats => bad(format!("seat {} does not exist", seat + 1)),
            Some(f) => match parse_options(req, variant, &f).and_then(|(o, _)| {
                with_variant(variant, Propose { options: &o, seat, seed })
                    .flatten()
                    .ok_or_else(|| GuiError::NoSetup { variant: variant.into() })
            }) {
                Ok(token) => {
                    #[derive(Serialize)]
                    struct Proposal {
                        token: String,
                    }
                    Response::json(200, to_json(&Proposal { token }))
                }
                Err(e) => bad(e),
            },
        }
    }

    /// `GET /api/setup/place`: what a person needs to place a set-up.
    fn api_setup_place(&self, req: &Request) -> Response {
        let name = req.param("variant").unwrap_or(self.variant);
        let Some(variant) = variants().into_iter().find(|v| v.eq_ignore_ascii_case(name)) else {
            return bad(format!("unknown variant `{name}`"));
        };
        let Some(seat) = seat_param(req) else { return bad("bad seat") };
        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
        let facts = with_variant(variant, FactsOf).expect("known");
        let r = parse_options(req, variant, &facts).and_then(|(o, _)| {
            let token = req.param("token");
            with_variant(variant, SetupPlace { options: &o, seat, token, seed }).expect("known")
        });
        match r {
            Ok(j) => Response::json(200, j),
            Err(e) => bad(e),
        }
    }

    /// `GET /api/record.jsonl`: the game as a download.
    fn api_record_jsonl(&self) -> Response {
        let mut r = Response::json(200, self.record_jsonl());
        r.content_type = "application/x-ndjson; charset=utf-8";
        r.headers.push((
            "Content-Disposition".into(),
            format!("attachment; filename=\"tetrarch-{}-{}.jsonl\"", self.variant, self.game),
        ));
        r
    }

    /// `GET /api/record.pgn4`: the game in the variant's record format.
    fn api_record_pgn4(&self) -> Response {
        match with_variant(self.variant, Record { options: &self.options, start: &self.start, turns: &self.turns }) {
            Some(Ok(text)) => Response {
                status: 200,
                content_type: "text/plain; charset=utf-8",
                headers: vec![(
                    "Content-Disposition".into(),
                    format!("attachment; filename=\"tetrarch-{}-{}.pgn4\"", self.variant, self.game),
                )],
                body: text.into_bytes(),
            },
            Some(Err(e)) => bad(e),
            None => bad("unknown variant"),
        }
    }

    /// `POST /api/new`.
    fn api_new(&mut self, req: &Request) -> Response {
        match self.new_game(req) {
            Ok(()) => {
                self.tick();
                self.ok()
            }
            Err(e) => bad(e),
        }
    }

    /// `POST /api/play`: a person's turn.
    fn api_play(&mut self, req: &Request) -> Response {
        let turn = req.param("turn").unwrap_or("").trim();
        if let Some(s) = &self.search {
            if s.seat.is_some() {
                return Response::error(409, "the engine is thinking: wait, or press Move now");
            }
        }
        let Some(to_move) = self.snap.as_ref().map(|s| s.to_move) else { return bad("no position") };
        if self.time_loss.is_some() {
            return bad(format!("the game is over ({})", self.message));
        }
        if self.players.get(to_move) != Some(&Player::Human) {
            return Response::error(409, "it is an engine seat's turn");
        }
        let check = CheckTurn { options: &self.options, start: &self.start, turns: &self.turns, turn };
        match with_variant(self.variant, check) {
            Some(Ok(t)) => {
                self.halt();
                if !self.clock_turn(to_move) {
                    return bad(format!("too late: {}", self.message));
                }
                self.turns.push(t.clone());
                self.times_ms.push(None);
                self.scores.push(None);
                self.message = format!("{} played {t}", self.facts.names.get(to_move).copied().unwrap_or("?"));
                self.refresh();
                self.tick();
                self.ok()
            }
            Some(Err(e)) => bad(e),
            None => bad("unknown variant"),
        }
    }

    /// `POST /api/undo`: takes back turns up to a person's (or one turn
    /// when every seat is an engine).
    fn api_undo(&mut self) -> Response {
        if self.turns.is_empty() {
            return bad("nothing to undo");
        }
        self.halt();
        self.time_loss = None;
        self.clock_since = None;
        loop {
            self.turns.pop();
            self.times_ms.pop();
            self.scores.pop();
            if let Some(c) = self.clock_hist.pop() {
                self.remaining = c;
            }
            self.refresh();
            let to_move = self.snap.as_ref().map_or(0, |s| s.to_move);
            let human = self.players.get(to_move) == Some(&Player::Human);
            if self.turns.is_empty() || human || self.players.iter().all(|p| *p != Player::Human) {
                break;
            }
        }
        // After an undo the engines wait, so that the person can play.
        self.paused = self.players.iter().all(|p| *p != Player::Human);
        self.turn_clock = self.remaining.clone();
        self.sync_clock();
        self.message = "undone".into();
        self.ok()
    }

    /// `POST /api/stop`: move now: the engine plays its best turn so far;
    /// an analysis ends.
    fn api_stop(&mut self) -> Response {
        if self.search.is_some() {
            self.engine.handle_line("stop");
            self.tick();
        }
        self.ok()
    }

    /// `POST /api/pause`: pauses (or, with `paused=false`, resumes) the engines.
    fn api_pause(&mut self, req: &Request) -> Response {
        self.paused = req.param("paused") != Some("false");
        if self.paused {
            self.halt();
        }
        self.version += 1;
        self.tick();
        self.ok()
    }

    /// `POST /api/players`: who plays each seat.
    fn api_players(&mut self, req: &Request) -> Response {
        let p = req.param("players").unwrap_or("");
        match p.split(',').map(Player::parse).collect::<Result<Vec<_>, _>>() {
            Ok(v) if v.len() == self.facts.seats => {
                self.halt();
                self.players = v;
                self.version += 1;
                self.tick();
                self.ok()
            }
            Ok(v) => bad(format!("players: {} given, the game has {} seats", v.len(), self.facts.seats)),
            Err(e) => bad(e),
        }
    }

    /// `POST /api/analyse`: the engine analyses the position until stopped.
    fn api_analyse(&mut self) -> Response {
        if self.snap.as_ref().is_some_and(|s| s.over) {
            return bad("the game is over");
        }
        self.halt();
        self.paused = true;
        if let Err(e) = self.position_for(None) {
            return bad(e);
        }
        self.thinking = None;
        self.search = Some(Search { seat: None, started: Instant::now(), turns: self.turns.len() });
        self.send("go infinite");
        self.version += 1;
        self.ok()
    }
}

/// A 400 answer.
fn bad(msg: impl std::fmt::Display) -> Response {
    Response::error(400, &msg.to_string())
}

/// The `seat` parameter (from 1; default 1) as a 0-based seat.
fn seat_param(req: &Request) -> Option<usize> {
    match req.param("seat").unwrap_or("1").parse::<usize>() {
        Ok(s) if s >= 1 => Some(s - 1),
        _ => None,
    }
}

fn lock(m: &Mutex<Gui>) -> MutexGuard<'_, Gui> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Rule options (game spelling, canonical values) and the engine's
/// `Strategy`.
type ChosenOptions = (Vec<(String, String)>, Option<&'static str>);

/// The `option.NAME=VALUE` parameters of a request: the rule options the
/// variant offers (checked, canonical, the defaults left out) and the
/// engine's `Strategy` (free-for-all variants only).
fn parse_options(req: &Request, variant: &str, facts: &Facts) -> Result<ChosenOptions, GuiError> {
    let mut pairs = Vec::new();
    let mut strategy = None;
    for (k, v) in &req.params {
        let Some(name) = k.strip_prefix("option.") else { continue };
        if name.eq_ignore_ascii_case("Strategy") {
            if !facts.ffa {
                return Err(GuiError::NotFreeForAll { variant: variant.into() });
            }
            let v = check_value("Strategy", &OptionKind::Combo(STRATEGIES), Some(v))?;
            strategy = STRATEGIES.iter().copied().find(|s| *s == v);
        } else if facts.options.iter().any(|o| o.name.eq_ignore_ascii_case(name)) {
            pairs.push((name.to_string(), v.clone()));
        } else {
            let options = facts.options.iter().map(|o| o.name).collect();
            return Err(GuiError::UnknownOption { name: name.into(), variant: variant.into(), options });
        }
    }
    let options = with_variant(variant, CheckOptions { options: &pairs }).ok_or(GuiError::NotInGameTable)??;
    Ok((options, strategy))
}

/// For the fuzz target `gui_request` and its property test: reads `data` as
/// an HTTP request and, if it parses, answers it from a fresh game of
/// `quattuor` whose seats are all human (requests that would start an
/// engine search are not answered: they cost time by design). Panics if a
/// request answered with an error changed the game. Returns the status.
pub fn fuzz_request(data: &[u8]) -> u16 {
    let req = match http::read_request(&mut std::io::Cursor::new(data)) {
        Ok(r) => r,
        Err(e) => {
            let status = e.status();
            assert!(matches!(status, 400 | 408 | 413 | 414 | 431 | 501) && !e.to_string().is_empty());
            return status;
        }
    };
    let _ = http::check_origin(&req, 8080);
    let engine = req.path == "/api/analyse"
        || req.path == "/api/pause"
        || req.params.iter().any(|(k, v)| k == "players" && v.contains("engine"));
    if engine || !req.path.starts_with("/api/") {
        return 0;
    }
    let mut g = Gui::with_settings("quattuor", Settings { hash_mb: 1, ..Settings::default() });
    g.players = vec![Player::Human; g.facts.seats];
    let state = |g: &mut Gui| g.handle(&Request { method: "GET".into(), path: "/api/state".into(), ..Request::default() });
    let before = state(&mut g).body;
    let r = g.handle(&req);
    assert!((200..600).contains(&r.status));
    if r.status >= 400 {
        assert!(r.body.starts_with(b"{\"error\":"), "{}", String::from_utf8_lossy(&r.body));
        assert_eq!(state(&mut g).body, before, "an error changed the game: {req:?}");
    }
    r.status
}

/// A fresh access token: 128 bits from the system's random source
/// (`/dev/urandom`; failing that, the random keys std's `RandomState`
/// draws from the system), as 32 hex digits.
pub fn new_token() -> String {
    use std::io::Read;
    let mut b = [0u8; 16];
    let ok = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b)).is_ok();
    if !ok {
        use std::hash::{BuildHasher, Hasher};
        for (i, chunk) in b.chunks_mut(8).enumerate() {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_usize(i);
            h.write_u128(SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos()));
            chunk.copy_from_slice(&h.finish().to_le_bytes());
        }
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The name of the cookie that carries the token (per port: cookies are
/// shared by every port of a host).
fn cookie_name(port: u16) -> String {
    format!("tetrarch_token_{port}")
}

/// Equal, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The token a request carries: `?token=` (the address `tetrarch gui`
/// prints), the cookie the page got with it, or `Authorization: token <t>`.
fn token_given(req: &Request, port: u16) -> Vec<String> {
    let mut v: Vec<String> = req.params.iter().filter(|(k, _)| k == "token").map(|(_, t)| t.clone()).collect();
    let name = cookie_name(port);
    for (k, h) in &req.headers {
        if k == "cookie" {
            v.extend(
                h.split(';').filter_map(|c| c.trim().split_once('=')).filter(|(n, _)| *n == name).map(|(_, t)| t.to_string()),
            );
        } else if k == "authorization" {
            if let Some(t) = h.trim().strip_prefix("token ").or_else(|| h.trim().strip_prefix("Token ")) {
                v.push(t.trim().to_string());
            }
        }
    }
    v
}

/// Answers one request (static files, or the API under the lock). A request
/// not addressed to this server by name (`Host`), a cross-origin request
/// that would change something (`Origin`), or one without the access token
/// (when there is one) gets 403 and changes nothing. `HEAD` is answered as
/// `GET` (the server sends no body); methods other than `GET`, `HEAD` and
/// `POST` are 405.
fn route(gui: &Mutex<Gui>, req: &Request, port: u16, token: Option<&str>) -> Response {
    if let Err(e) = http::check_origin(req, port) {
        return Response::error(403, &e.to_string());
    }
    let method = match req.method.as_str() {
        "GET" | "HEAD" => "GET",
        "POST" => "POST",
        _ => return Response::error(405, "method not allowed"),
    };
    let mut set_cookie = None;
    if let Some(t) = token {
        let given = token_given(req, port);
        if !given.iter().any(|g| same(g, t)) {
            return Response::error(
                403,
                "forbidden: this server needs its access token: open the address `tetrarch gui` printed (with ?token=…)",
            );
        }
        if req.param("token").is_some_and(|g| same(g, t)) {
            set_cookie = Some(format!("{}={t}; Path=/; HttpOnly; SameSite=Strict", cookie_name(port)));
        }
    }
    // The access token is not a parameter of the API (`/api/setup/place`
    // has a `token` of its own: a set-up).
    let stripped;
    let req = match token {
        Some(t) if req.params.iter().any(|(k, v)| k == "token" && same(v, t)) => {
            stripped = Request {
                params: req.params.iter().filter(|(k, v)| !(k == "token" && same(v, t))).cloned().collect(),
                ..req.clone()
            };
            &stripped
        }
        _ => req,
    };
    let mut resp = match (method, req.path.as_str()) {
        ("GET", "/" | "/index.html") => Response::file("text/html; charset=utf-8", INDEX_HTML),
        ("GET", "/app.js") => Response::file("text/javascript; charset=utf-8", APP_JS),
        ("GET", "/style.css") => Response::file("text/css; charset=utf-8", STYLE_CSS),
        ("GET", "/favicon.ico") => Response { status: 404, content_type: "text/plain", headers: vec![], body: vec![] },
        ("GET", "/api/actions") => {
            // Listing the legal actions can take long and much memory (a
            // tall Quadranj stack: millions): it is done outside the game's
            // lock, one listing at a time.
            let job = {
                let mut g = lock(gui);
                g.tick();
                g.actions_job(req)
            };
            match job {
                Ok(job) => {
                    let _one = LISTING.lock().unwrap_or_else(|e| e.into_inner());
                    job.run()
                }
                Err(r) => r,
            }
        }
        (_, p) if p.starts_with("/api/") => {
            let mut g = lock(gui);
            g.tick();
            g.handle(req)
        }
        _ => Response::error(404, &format!("no such page `{}`", req.path)),
    };
    if let Some(c) = set_cookie {
        resp.headers.push(("Set-Cookie".into(), c));
    }
    resp
}

/// One `/api/actions` listing at a time (each may hold hundreds of MB).
static LISTING: Mutex<()> = Mutex::new(());

/// What `/api/actions` needs, copied out of the game so that the listing
/// runs without its lock.
pub(crate) struct ActionsJob {
    variant: &'static str,
    options: Vec<(String, String)>,
    start: Start,
    turns: Vec<String>,
    prefix: Vec<String>,
}

impl ActionsJob {
    fn run(&self) -> Response {
        let a = Actions { options: &self.options, start: &self.start, turns: &self.turns, prefix: &self.prefix };
        match with_variant(self.variant, a) {
            Some(Ok(j)) => Response::json(200, j),
            Some(Err(e)) => bad(e),
            None => Response::error(400, "unknown variant"),
        }
    }
}

/// Binds 127.0.0.1:`port` (0: any free port) and returns the listener and
/// its URL (without a token).
pub fn bind(port: u16) -> std::io::Result<(TcpListener, String)> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let url = format!("http://127.0.0.1:{}/", listener.local_addr()?.port());
    Ok((listener, url))
}

/// Serves the GUI on `listener` for ever, starting with `variant`; with a
/// `token`, every request must carry it (docs/gui.md, "Security").
pub fn serve(listener: TcpListener, variant: &str, token: Option<String>) -> Result<(), GuiError> {
    let variant =
        variants().into_iter().find(|v| v.eq_ignore_ascii_case(variant)).ok_or_else(|| GuiError::unknown_variant(variant))?;
    let port = listener.local_addr().map_err(http::ServeError::Io)?.port();
    let gui = Arc::new(Mutex::new(Gui::new(variant)));
    // The ticker: engine replies are taken in and clocks run out even when
    // no page asks.
    let g2 = Arc::clone(&gui);
    std::thread::Builder::new()
        .name("gui ticker".into())
        .spawn(move || loop {
            std::thread::sleep(Duration::from_millis(25));
            lock(&g2).tick();
        })
        .map_err(http::ServeError::Threads)?;
    Ok(http::serve(listener, move |req| route(&gui, req, port, token.as_deref()))?)
}

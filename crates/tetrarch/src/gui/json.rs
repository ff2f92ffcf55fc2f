//! The JSON the API answers (serde types): the state (`/api/state` and the
//! answer of every change), the record (`/api/record.jsonl`) and the
//! variants (`/api/variants`), and the game's state and record built from
//! them.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Serialize, Serializer};

use super::clock::Clock;
use super::game_queries::{self, Facts};
use super::scorer::{Eval, EvalPoint};
use super::state::Gui;
use super::thinking::Thinking;
use crate::options::strategies;
use tetrarch_core::game::OptionKind;
use tetrarch_core::handle::Variant;

/// Pairs of strings as a JSON object, in order.
pub(super) struct StrMap<'a>(Vec<(&'a str, &'a str)>);

impl Serialize for StrMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().copied())
    }
}

/// `v` as one line of JSON.
pub(super) fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("the GUI's JSON serialises")
}

/// `/api/state`: the game, the position and the engine, as the page reads
/// them (docs/gui.md, "HTTP API").
#[derive(Serialize)]
pub(super) struct StateOut<'a> {
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
    /// The seat to move's best turn, when a person asked for it.
    hint: Option<HintOut<'a>>,
    /// The side of each seat (seats of one side share a score).
    sides: &'a [usize],
    /// The score graph: the position after each turn, `null` until scored.
    evals: Vec<Option<&'a EvalPoint>>,
    message: &'a str,
    log_start: usize,
    log: &'a [String],
}

/// The position's fields of the state.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum PositionOut<'a> {
    Known(&'a game_queries::Position),
    Unknown { board: () },
}

/// The engine's search in the state: running (for a seat, a hint, or an
/// analysis), or done; `info` its best line, `lines` every line (MultiPV),
/// `view` the seat (from 1) whose view their scores are.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum ThinkingOut<'a> {
    Running { seat: Option<usize>, analysis: bool, hint: bool, view: usize, info: Option<&'a Thinking>, lines: &'a [Thinking] },
    Done { seat: Option<usize>, done: bool, view: usize, info: &'a Thinking, lines: &'a [Thinking] },
}

/// A hint in the state (seat from 1).
#[derive(Serialize)]
pub(super) struct HintOut<'a> {
    seat: usize,
    turn: &'a str,
}

/// The clocks in the state (seats from 1).
#[derive(Serialize)]
pub(super) struct ClockOut {
    base_ms: u64,
    inc_ms: u64,
    left: Vec<i64>,
    running: Option<usize>,
    flagged: Option<usize>,
}

/// `/api/record.jsonl`: one line like the match runner's records.
#[derive(Serialize)]
pub(super) struct RecordOut<'a> {
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
pub(super) struct VariantOut {
    name: &'static str,
    seats: usize,
    setup: bool,
    board: bool,
    record: bool,
    seat_names: Vec<&'static str>,
    options: Vec<OptionOut>,
    /// The named engine levels, with their Elo where the variant has a
    /// calibrated table.
    levels: Vec<LevelOut>,
}

/// One named level of `/api/variants`.
#[derive(Serialize)]
pub(super) struct LevelOut {
    name: &'static str,
    /// The `Skill Level`.
    level: u8,
    /// Its Elo on the variant's scale (uniform random = 0), if calibrated.
    #[serde(skip_serializing_if = "Option::is_none")]
    elo: Option<i64>,
}

/// The named levels of `variant` (docs/gui.md, "Levels").
pub(super) fn levels_out(variant: &str) -> Vec<LevelOut> {
    let table = crate::levels::table(variant);
    super::player::NAMED_LEVELS
        .iter()
        .map(|&(name, level)| LevelOut { name, level, elo: table.map(|t| t.elo_of_level(f64::from(level)).round() as i64) })
        .collect()
}

/// One option of `/api/variants` (`min`, `max` for a spin, `vars` for a combo).
#[derive(Serialize)]
pub(super) struct OptionOut {
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

/// `/api/variants`: every variant of the game registry with its seats and
/// options.
pub(super) fn variants_json() -> String {
    #[derive(Serialize)]
    struct Variants {
        variants: Vec<VariantOut>,
    }
    let variants = Variant::all()
        .into_iter()
        .map(|variant| {
            let (v, f) = (variant.name(), Facts::of(variant));
            let strategy = f.ffa.then(|| OptionOut::new("Strategy", &OptionKind::Combo(strategies(v)), true));
            let options = f.options.iter().map(|o| OptionOut::new(o.name, &o.kind, false)).chain(strategy).collect();
            let levels = levels_out(v);
            VariantOut {
                name: v,
                seats: f.seats,
                setup: f.setup,
                board: f.board,
                record: f.record,
                seat_names: f.names,
                options,
                levels,
            }
        })
        .collect();
    to_json(&Variants { variants })
}

pub(super) fn now_secs(t: SystemTime) -> u64 {
    t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

impl Gui {
    /// The clocks (`None` without a clock).
    pub(super) fn clock_out(&self) -> Option<ClockOut> {
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
    pub(super) fn options_out(&self) -> StrMap<'_> {
        let strategy = self.strategy.map(|s| ("Strategy", s));
        StrMap(self.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).chain(strategy).collect())
    }

    /// The state the page shows (`/api/state` and the answer of every change).
    pub(super) fn state_json(&self) -> String {
        let (lines, view) = (self.lines.as_slice(), self.lines_seat + 1);
        let thinking = match (&self.search, lines.first()) {
            (Some(s), info) => Some(ThinkingOut::Running {
                seat: s.seat.map(|x| x + 1),
                analysis: s.seat.is_none(),
                hint: s.hint,
                view,
                info,
                lines,
            }),
            (None, Some(info)) => Some(ThinkingOut::Done { seat: None, done: true, view, info, lines }),
            (None, None) => None,
        };
        let hint = self
            .hint
            .as_ref()
            .filter(|h| h.turns == self.turns().len() && self.mover() == Some(h.seat))
            .map(|h| HintOut { seat: h.seat + 1, turn: &h.turn });
        let evals = self
            .evals
            .iter()
            .map(|e| match e {
                Eval::Known(p) => Some(p),
                _ => None,
            })
            .collect();
        to_json(&StateOut {
            game: self.game,
            version: self.version,
            variant: self.variant.name(),
            start: self.start.protocol(),
            seat_names: &self.facts.names,
            players: self.players.iter().map(|p| p.word()).collect(),
            turns: self.turns(),
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
            hint,
            sides: &self.facts.sides,
            evals,
            message: &self.message,
            log_start: self.log_dropped,
            log: &self.log,
        })
    }

    /// The game as one JSON line, like the match runner's records.
    pub(super) fn record_jsonl(&self) -> String {
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
            variant: self.variant.name(),
            start: self.start.protocol(),
            seats: self.players.iter().map(|p| p.word()).collect(),
            turns: self.turns(),
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
}

//! The game the page plays ([`Gui`]): its start, turns, players, options
//! and clocks, the engine and its running search; a new game set up from
//! `/api/new`'s parameters ([`parse_options`]); the clocks charged and run
//! out.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use super::clock::Clock;
use super::error::GuiError;
use super::game_queries::{self, propose, snapshot, Facts, Start};
use super::http::Request;
use super::player::Player;
use super::scorer::{Eval, Scorer};
use super::thinking::Thinking;
use crate::options::{check_value, Settings, STRATEGIES};
use crate::out::{Captured, Events};
use crate::{Engine, Out};
use tetrarch_core::game::OptionKind;
use tetrarch_core::handle::{AnyGame, GameError, Variant};

/// A running engine search.
pub(super) struct Search {
    /// The seat it plays for (`None`: analysis only).
    pub(super) seat: Option<usize>,
    pub(super) started: Instant,
    /// Number of turns when it started (a reply to an older position is void).
    pub(super) turns: usize,
    /// A hint for `seat`'s person: its answer is shown, not played.
    pub(super) hint: bool,
}

/// The engine's best turn for a person's seat, shown and not played.
#[derive(Clone, Debug)]
pub(super) struct Hint {
    /// The seat (0-based).
    pub(super) seat: usize,
    /// Number of turns of the position it is for.
    pub(super) turns: usize,
    /// The turn token.
    pub(super) turn: String,
}

/// The game the page shows, and the engine.
pub(super) struct Gui {
    pub(super) variant: Variant,
    pub(super) facts: Facts,
    /// The rule options that differ from the defaults (game spelling,
    /// canonical values).
    pub(super) options: Vec<(String, String)>,
    /// The engine's `Strategy` (free-for-all variants), if chosen.
    pub(super) strategy: Option<&'static str>,
    pub(super) clock: Option<Clock>,
    /// Time left per seat, ms (the seat to move's clock runs from
    /// `clock_since`).
    pub(super) remaining: Vec<i64>,
    /// `remaining` when the current turn began.
    pub(super) turn_clock: Vec<i64>,
    /// `remaining` when each turn played began (for undo).
    pub(super) clock_hist: Vec<Vec<i64>>,
    /// Since when the seat to move's clock runs.
    pub(super) clock_since: Option<Instant>,
    /// The seat whose clock ran out.
    pub(super) time_loss: Option<usize>,
    pub(super) start: Start,
    /// The game: its start, the turns played and the position now.
    pub(super) played: AnyGame,
    pub(super) times_ms: Vec<Option<u64>>,
    pub(super) scores: Vec<Option<String>>,
    /// The score graph: what is known of the position after each turn.
    pub(super) evals: Vec<Eval>,
    /// The quick searches that fill `evals` for the turns no engine seat scored.
    pub(super) scorer: Scorer,
    /// The last hint (shown while the position is the one it is for).
    pub(super) hint: Option<Hint>,
    pub(super) players: Vec<Player>,
    pub(super) paused: bool,
    pub(super) engine: Engine,
    pub(super) cap: Captured,
    /// The engine's typed events (search reports, answers).
    pub(super) events: Events,
    /// What the engine was last set to (variant, options, clock).
    pub(super) engine_config: String,
    pub(super) search: Option<Search>,
    /// The last search report, one entry per line (`MultiPV`), best first.
    pub(super) lines: Vec<Thinking>,
    /// The seat to move in the position `lines` are for (their scores are
    /// from its view; 0-based).
    pub(super) lines_seat: usize,
    pub(super) log: Vec<String>,
    pub(super) log_dropped: usize,
    pub(super) message: String,
    pub(super) game: u64,
    pub(super) version: u64,
    pub(super) started: SystemTime,
    /// The cached snapshot of the current position.
    pub(super) snap: Option<game_queries::SnapshotOut>,
}

impl Gui {
    /// A GUI playing `variant` (a name of [`Variant::all`]; tests and the
    /// server give known names).
    pub(super) fn new(variant: &str) -> Gui {
        Gui::with_settings(variant, Settings::default())
    }

    /// A GUI whose engine has these settings (the fuzz harness asks for a
    /// 1 MiB hash: the default 64 MiB, zeroed per input, cost it 90 % of its time).
    pub(super) fn with_settings(variant: &str, settings: Settings) -> Gui {
        let variant = Variant::from_name(variant).expect("a known variant");
        let (out, cap, events) = Out::buffer_with_events();
        let engine = Engine::with_settings(out, variant.name(), settings).expect("a known variant");
        let facts = Facts::of(variant);
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
            played: AnyGame::startpos(variant),
            times_ms: vec![],
            scores: vec![],
            evals: vec![],
            scorer: Scorer::off(),
            hint: None,
            players,
            paused: false,
            engine,
            cap,
            events,
            engine_config: String::new(),
            search: None,
            lines: Vec::new(),
            lines_seat: 0,
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
    pub(super) fn refresh(&mut self) {
        self.version += 1;
        self.snap = Some(snapshot(&self.played, self.time_loss));
    }

    /// The canonical tokens of the turns played.
    pub(super) fn turns(&self) -> &[String] {
        self.played.turns()
    }

    /// Forgets the last search report: a search for `seat` (0-based) begins.
    pub(super) fn new_report(&mut self, seat: usize) {
        self.lines.clear();
        self.lines_seat = seat;
    }

    /// Takes the game back to its first `k` turns (undo, a new line): the
    /// searches stop, the later turns go with their times, scores and
    /// points, the clocks are as they were when turn `k + 1` began, and
    /// the engines wait when no seat is a person's (so that the position
    /// can be looked at before they play on).
    pub(super) fn cut_to(&mut self, k: usize) {
        self.halt();
        self.scorer.cancel();
        self.hint = None;
        self.time_loss = None;
        self.clock_since = None;
        self.played.truncate(k);
        self.times_ms.truncate(k);
        self.scores.truncate(k);
        self.evals.truncate(k);
        if let Some(c) = self.clock_hist.get(k) {
            self.remaining = c.clone();
        }
        self.clock_hist.truncate(k);
        self.turn_clock = self.remaining.clone();
        self.paused = self.players.iter().all(|p| *p != Player::Human);
        self.refresh();
        self.sync_clock();
    }

    /// The seat to move, if the game goes on.
    pub(super) fn mover(&self) -> Option<usize> {
        self.snap.as_ref().filter(|s| !s.over).map(|s| s.to_move)
    }

    /// Time left on `seat`'s clock now, ms.
    pub(super) fn clock_left(&self, seat: usize) -> i64 {
        let run = match (self.clock_since, self.mover()) {
            (Some(t), Some(m)) if m == seat => t.elapsed().as_millis() as i64,
            _ => 0,
        };
        self.remaining.get(seat).copied().unwrap_or(0) - run
    }

    /// Starts or stops the clock of the seat to move: it runs while the
    /// game goes on and is not paused.
    pub(super) fn sync_clock(&mut self) {
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
    pub(super) fn clock_turn(&mut self, seat: usize) -> bool {
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
    pub(super) fn flag(&mut self, seat: usize) {
        self.halt();
        self.clock_since = None;
        self.remaining[seat] = self.remaining[seat].min(0);
        self.time_loss = Some(seat);
        self.message = format!("{} lost on time", self.facts.names.get(seat).copied().unwrap_or("?"));
        self.refresh();
    }

    pub(super) fn new_game(&mut self, req: &Request) -> Result<(), GuiError> {
        let name = req.param("variant").unwrap_or(self.variant.name());
        let variant = Variant::from_name_ignore_case(name).ok_or_else(|| GuiError::unknown_variant(name))?;
        let facts = Facts::of(variant);
        let (options, strategy) = parse_options(req, variant, &facts)?;
        let players = match req.param("players").filter(|p| !p.is_empty()) {
            Some(p) => {
                let v = p.split(',').map(Player::parse).collect::<Result<Vec<_>, _>>()?;
                if v.len() != facts.seats {
                    return Err(GuiError::PlayerCount { given: v.len(), variant: variant.name(), seats: facts.seats });
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
                    return Err(GameError::NoSetup { variant: variant.name() }.into());
                }
                let mut toks = Vec::new();
                for seat in 0..facts.seats {
                    let t = req.param(&format!("setup{}", seat + 1)).unwrap_or("").trim().to_string();
                    if t.is_empty() {
                        let seed = SystemTime::now().duration_since(UNIX_EPOCH).map_or(7, |d| d.as_nanos() as u64)
                            ^ (seat as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        toks.push(propose(variant, &options, seat, seed).ok_or(GuiError::NoProposal)?);
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
        let mut played = AnyGame::new(variant, &options, &start)?;
        played.play_all(&moves)?;
        self.halt();
        self.variant = variant;
        self.facts = facts;
        self.options = options;
        self.strategy = strategy;
        self.players = players;
        self.start = start;
        self.played = played;
        self.clock = clock;
        self.remaining = vec![clock.map_or(0, |c| c.base_ms as i64); self.facts.seats];
        self.turn_clock = self.remaining.clone();
        self.clock_hist = vec![self.remaining.clone(); moves.len()];
        self.clock_since = None;
        self.time_loss = None;
        self.times_ms = vec![None; moves.len()];
        self.scores = vec![None; moves.len()];
        self.evals = vec![Eval::Pending; moves.len()];
        self.scorer.cancel();
        self.hint = None;
        self.lines.clear();
        self.paused = false;
        self.game += 1;
        self.started = SystemTime::now();
        self.send("ucinewgame");
        self.message = format!("new game: {variant}");
        self.refresh();
        self.sync_clock();
        Ok(())
    }
}

/// Rule options (game spelling, canonical values) and the engine's
/// `Strategy`.
pub(super) type ChosenOptions = (Vec<(String, String)>, Option<&'static str>);

/// The `option.NAME=VALUE` parameters of a request: the rule options the
/// variant offers (checked, canonical, the defaults left out) and the
/// engine's `Strategy` (free-for-all variants only).
pub(super) fn parse_options(req: &Request, variant: Variant, facts: &Facts) -> Result<ChosenOptions, GuiError> {
    let mut pairs = Vec::new();
    let mut strategy = None;
    for (k, v) in &req.params {
        let Some(name) = k.strip_prefix("option.") else { continue };
        if name.eq_ignore_ascii_case("Strategy") {
            if !facts.ffa {
                return Err(GuiError::NotFreeForAll { variant: variant.to_string() });
            }
            let v = check_value("Strategy", &OptionKind::Combo(STRATEGIES), Some(v))?;
            strategy = STRATEGIES.iter().copied().find(|s| *s == v);
        } else if facts.options.iter().any(|o| o.name.eq_ignore_ascii_case(name)) {
            pairs.push((name.to_string(), v.clone()));
        } else {
            let options = facts.options.iter().map(|o| o.name).collect();
            return Err(GuiError::UnknownOption { name: name.into(), variant: variant.to_string(), options });
        }
    }
    let options = AnyGame::canonical_options(variant, &pairs)?;
    Ok((options, strategy))
}

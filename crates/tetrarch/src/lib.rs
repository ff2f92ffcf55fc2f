//! The Tetrarch protocol engine (`shared/spec/protocol.md`).
//!
//! - [`Engine`]: the line handler. It owns the session of the current variant
//!   ([`AnySession`], a boxed [`session::SessionOps`]), the engine-wide
//!   [`Settings`] and the running search job, and dispatches once per line.
//! - [`session::Session`]: everything one game needs, generic over
//!   [`Game`](tetrarch_core::game::Game).
//! - [`perft_bench`]: perft, bench and record for the sub-commands.
//!
//! The games come from the core crate's registry
//! ([`tetrarch_core::registry`]): adding a game there (its module under
//! `tetrarch-core/src/games/`, `impl Game` and `impl GameInfo`, and one line
//! in the registry's list) adds it here, to `uci`'s `UCI_Variant`, `perft`,
//! `bench`, the GUI, the match runner, the tuner and the fuzz targets.
//!
//! Threading: `go` starts a job thread (search or perft) that owns a clone of
//! the position and shares the session's searcher through `Arc<Mutex<…>>`;
//! `stop` sets the job's stop flag and joins it (the job prints the one
//! `bestmove`); a state-changing command (`position`, `setoption`,
//! `ucinewgame`, `go`, `bench`) first stops and joins a running job. All output
//! goes through one shared [`Out`] writer, flushed after every line.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board_json;
pub mod error;
pub mod go;
pub mod gui;
pub mod job;
pub mod levels;
pub mod options;
pub mod out;
pub mod perft_bench;
pub mod session;
#[cfg(test)]
mod tests;

use tetrarch_core::registry;
pub use tetrarch_core::registry::{GameInfo, GameVisitor};
#[cfg(test)]
use tetrarch_core::{game::Rules, toy::Toy};

pub use error::CommandError;
pub use job::Job;
pub use options::Settings;
use options::{check_value, option_line, parse_setoption, spec_line, Generic, OptionError, ValueError};
pub use out::{Captured, EngineEvent, Events, Out, SearchReport};
use session::{Session, SessionOps};

/// The engine's name and version for `id name`.
pub const NAME: &str = "Tetrarch";
/// `id author`.
pub const AUTHOR: &str = "The Tetrarch developers";
/// The engine's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The variant before any `setoption name UCI_Variant`.
pub const DEFAULT_VARIANT: &str = "fourchess";

/// The session of the current variant: a [`Session`] of its game behind
/// the object-safe [`SessionOps`], so the engine dispatches once per line.
pub type AnySession = Box<dyn SessionOps>;

struct NewSession<'a>(&'a Settings);

impl GameVisitor for NewSession<'_> {
    type Output = AnySession;
    fn visit<G: GameInfo>(self, variant: &'static str) -> AnySession {
        Box::new(Session::<G>::new(variant, self.0))
    }
}

/// A fresh session of `variant` (`None` if no game has it).
pub fn new_session(variant: &str, settings: &Settings) -> Option<AnySession> {
    with_variant(variant, NewSession(settings))
}

/// Every variant name, in the order of the game registry
/// ([`tetrarch_core::registry`]); in this crate's unit tests the toy game
/// (`tetrarch_core::toy`, a test game) comes last.
pub fn variants() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut v = registry::variants();
    #[cfg(test)]
    v.extend_from_slice(<Toy as Rules>::VARIANTS);
    v
}

/// Runs `visitor` with the game of `variant` (`None` if unknown): the core
/// registry's [`registry::with_variant`] (and, in unit tests, the toy game).
pub fn with_variant<V: GameVisitor>(variant: &str, visitor: V) -> Option<V::Output> {
    #[cfg(test)]
    if let Some(v) = <Toy as Rules>::VARIANTS.iter().find(|v| **v == variant) {
        return Some(visitor.visit::<Toy>(v));
    }
    registry::with_variant(variant, visitor)
}

/// What the caller of [`Engine::handle_line`] does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Read the next line.
    Continue,
    /// `quit`: exit with status 0 now.
    Quit,
}

/// The protocol engine: state + line handler.
pub struct Engine {
    out: Out,
    settings: Settings,
    session: AnySession,
    job: Option<Job>,
    /// The variant it started in (`UCI_Variant`'s default in `uci`).
    start_variant: &'static str,
}

impl Engine {
    /// An engine writing to `out`, playing the default variant.
    pub fn new(out: Out) -> Self {
        Self::with_variant(out, DEFAULT_VARIANT).expect("the default variant is in the game table")
    }

    /// An engine writing to `out`, playing `variant` (`None` if unknown).
    pub fn with_variant(out: Out, variant: &str) -> Option<Self> {
        Self::with_settings(out, variant, Settings::default())
    }

    /// An engine playing `variant` with these engine settings (`None` for
    /// an unknown variant).
    pub fn with_settings(out: Out, variant: &str, settings: Settings) -> Option<Self> {
        let session = new_session(variant, &settings)?;
        let start_variant = session.variant();
        Some(Engine { out, settings, session, job: None, start_variant })
    }

    /// The output.
    pub fn out(&self) -> &Out {
        &self.out
    }

    /// The engine-wide settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The current variant.
    pub fn variant(&self) -> &'static str {
        self.session.variant()
    }

    /// The current position string.
    pub fn position_string(&self) -> String {
        self.session.position_string()
    }

    /// Whether a search or perft job is running.
    pub fn busy(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.is_finished())
    }

    /// Waits until a running job has ended by itself (an infinite search is
    /// stopped instead, since it never would).
    pub fn wait(&mut self) {
        if let Some(job) = self.job.take() {
            if job.is_open() {
                job.stop();
            }
            job.join();
        }
    }

    /// Stops a running job, search or perft, and waits for it (a search
    /// prints its `bestmove`, a perft `info string perft stopped`).
    pub fn stop_job(&mut self) {
        if let Some(job) = self.job.take() {
            job.stop();
            job.join();
        }
    }

    /// Handles one line of the protocol. Output goes to the engine's [`Out`]
    /// (a running search writes there later, from its thread).
    pub fn handle_line(&mut self, line: &str) -> Control {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let words: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
        let Some((&cmd, args)) = words.split_first() else {
            return Control::Continue;
        };
        // A line that would be rejected changes nothing, so it is checked
        // before a running job is stopped (state-changing commands stop it).
        let r = match cmd {
            "uci" | "ugi" | "isready" | "quit" | "stop" | "ponderhit" | "ucinewgame" | "uginewgame" | "d" | "moves" | "eval"
            | "record"
                if !args.is_empty() =>
            {
                Err(CommandError::Unexpected { cmd: cmd.into(), word: args[0].into() })
            }
            "uci" | "ugi" => {
                // The handshake picks the answers' dialect (docs/protocol.md,
                // "UGI runners"); the last one counts.
                self.settings.ugi = cmd == "ugi";
                self.identify(if cmd == "uci" { "uciok" } else { "ugiok" });
                Ok(())
            }
            "isready" => {
                self.out.line("readyok");
                Ok(())
            }
            "quit" => {
                // Exit at once (the spec): a search is stopped and prints its
                // bestmove, a perft is abandoned (`info string perft stopped`).
                self.stop_job();
                return Control::Quit;
            }
            "stop" => {
                // A search is stopped and joined (it prints its `bestmove`);
                // a perft is abandoned (`info string perft stopped`), as it
                // is by every state-changing command.
                self.stop_job();
                Ok(())
            }
            "ponderhit" => {
                if let Some(job) = &mut self.job {
                    job.ponderhit();
                }
                Ok(())
            }
            "setoption" => self
                .setoption(args, false)
                .map(|()| {
                    self.stop_job();
                })
                .and_then(|()| self.setoption(args, true))
                .map_err(CommandError::from),
            "ucinewgame" | "uginewgame" => {
                self.stop_job();
                self.session.new_game();
                Ok(())
            }
            "position" | "go" => self.session.check(cmd, args).and_then(|()| {
                self.stop_job();
                match cmd {
                    "position" => self.session.position(args),
                    _ => self.session.go(args, &self.settings, &self.out).map(|j| self.job = j),
                }
            }),
            "bench" => match args {
                [] => Ok(None),
                ["depth", n] => match n.parse::<u32>() {
                    Ok(d) if d >= 1 => Ok(Some(d)),
                    _ => Err(CommandError::BenchDepth(n.to_string())),
                },
                [w, ..] => Err(CommandError::Unexpected { cmd: "bench".into(), word: w.to_string() }),
            }
            .and_then(|d| {
                self.stop_job();
                Ok(perft_bench::bench(d, None, &self.settings.search_params, &self.out).map(|_| ())?)
            }),
            "d" => {
                self.session.display(&self.out);
                Ok(())
            }
            "moves" => self.session.moves(&self.out),
            "eval" => {
                self.session.eval(&self.out);
                Ok(())
            }
            "query" => self.session.query(args, &self.settings, &self.out),
            "record" => self.session.record(&self.out),
            _ => Err(CommandError::UnknownCommand(cmd.into())),
        };
        if let Err(e) = r {
            self.out.error(e.to_string());
        }
        Control::Continue
    }

    /// At the end of the input, which means `quit` (as in Stockfish): a
    /// running search or perft is stopped (a search prints its `bestmove`),
    /// however long it would still run.
    pub fn finish(&mut self) {
        self.stop_job();
    }

    fn identify(&self, ok: &str) {
        let ops = &*self.session;
        let mut v = vec![format!("id name {NAME} {VERSION}"), format!("id author {AUTHOR}")];
        let mut var = format!("option name UCI_Variant type combo default {}", self.start_variant);
        for name in variants() {
            var.push_str(" var ");
            var.push_str(name);
        }
        v.push(var);
        for g in Generic::ALL {
            if !g.offered(ops.variant(), ops.free_for_all(), ops.has_setup()) {
                continue;
            }
            v.push(option_line(g.name(), g.kind(ops.variant()).as_ref()));
        }
        v.push(option_line("Ponder", Some(&tetrarch_core::game::OptionKind::Check(false))));
        v.push("option name EvalFile type string default <empty>".into());
        v.extend(ops.option_specs().iter().map(spec_line));
        v.push(ok.to_string());
        self.out.lines(v);
    }

    /// `setoption`; with `apply` false it only checks the line (the same
    /// errors, nothing changed).
    fn setoption(&mut self, args: &[&str], apply: bool) -> Result<(), OptionError> {
        let (name, value) = parse_setoption(args)?;
        let value = value.as_deref();
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let all = variants();
            let v = value.filter(|v| !v.is_empty()).ok_or_else(|| ValueError::Missing { name: "UCI_Variant".into() })?;
            let variant = *all
                .iter()
                .find(|x| x.eq_ignore_ascii_case(v))
                .ok_or_else(|| OptionError::UnknownVariant { name: v.into(), known: all.clone() })?;
            if apply && variant != self.variant() {
                // The new session starts with a 1 MiB table, the old one
                // (and its table) is dropped, and only then is the table
                // grown to `Hash`: never two big tables at once, and a size
                // the allocator refuses is an error, not a panic.
                let small = Settings { hash_mb: 1, ..self.settings.clone() };
                self.session = new_session(variant, &small).ok_or(OptionError::NotInGameTable)?;
                if self.settings.hash_mb != 1 {
                    if let Err(source) = self.session.resize_hash(self.settings.hash_mb) {
                        self.settings.hash_mb = 1;
                        return Err(OptionError::VariantHash { variant, source });
                    }
                }
            }
            return Ok(());
        }
        if name.eq_ignore_ascii_case("EvalFile") {
            return self.session.eval_file(value, apply);
        }
        if name.eq_ignore_ascii_case("Ponder") {
            let v = check_value("Ponder", &tetrarch_core::game::OptionKind::Check(false), value)?;
            if apply {
                self.settings.ponder = v == "true";
            }
            return Ok(());
        }
        let (ffa, setup) = (self.session.free_for_all(), self.session.has_setup());
        if let Some(g) =
            Generic::ALL.into_iter().find(|g| g.name().eq_ignore_ascii_case(&name) && g.offered(self.variant(), ffa, setup))
        {
            let Some(kind) = g.kind(self.variant()) else {
                // The button: Clear Hash.
                if apply {
                    self.session.clear_hash();
                }
                return Ok(());
            };
            let v = check_value(g.name(), &kind, value)?;
            let n = || v.parse::<i64>().unwrap_or(0);
            if g == Generic::Hash {
                let mb = n() as usize;
                if let Some(avail) = options::available_mib() {
                    if mb > avail * 3 / 4 {
                        return Err(OptionError::HashTooLarge { mb, available: avail });
                    }
                }
            }
            if !apply {
                return Ok(());
            }
            match g {
                Generic::Hash => {
                    let mb = n() as usize;
                    self.session.resize_hash(mb).map_err(OptionError::Hash)?;
                    self.settings.hash_mb = mb;
                }
                Generic::Threads => self.settings.threads = n() as usize,
                Generic::MultiPv => self.settings.multipv = n() as usize,
                Generic::MoveOverhead => self.settings.move_overhead_ms = n() as u64,
                Generic::SetupSeed => {
                    self.settings.setup_seed = n() as u64;
                    self.session.restart_setups();
                }
                Generic::Strategy => self.settings.strategy = options::STRATEGIES.iter().find(|s| **s == v).copied(),
                Generic::TurnCap => self.settings.turn_cap = n() as u32,
                Generic::SkillLevel => self.settings.skill_level = n() as u8,
                Generic::LimitStrength => self.settings.limit_strength = v == "true",
                Generic::UciElo => self.settings.uci_elo = Some(n()),
                Generic::SkillSeed => self.settings.skill_seed = n() as u64,
                Generic::ClearHash => {}
            }
            return Ok(());
        }
        if let Some(spec) = options::search_param(&name) {
            // Hidden: not in `uci`'s list (docs/protocol.md).
            let kind = tetrarch_core::game::OptionKind::Spin {
                default: i64::from(spec.default),
                min: i64::from(spec.min),
                max: i64::from(spec.max),
            };
            let v = check_value(&format!("{}{}", options::SEARCH_PARAM_PREFIX, spec.name), &kind, value)?;
            if apply {
                self.settings.set_search_param(spec.name, v.parse().unwrap_or(spec.default));
            }
            return Ok(());
        }
        let ops = &mut *self.session;
        match ops.option_specs().iter().position(|s| s.name.eq_ignore_ascii_case(&name)) {
            Some(i) if apply => ops.set_game_option(i, value),
            Some(i) => ops.check_game_option(i, value),
            None => Err(OptionError::UnknownOption { name, variant: ops.variant() }),
        }
    }
}

/// Runs the lines of `input` through a fresh engine writing to a buffer and
/// returns the output; for fuzz targets and tests. Lines that would only cost
/// time or memory (`bench`, `go perft` deeper than 1 turn or 2 actions, `Hash` above 64 MiB,
/// `go` without a depth or node limit) are skipped, and every search is
/// joined before the next line, so the result is a function of the input
/// (but for the times and speeds in `info` lines). The engine starts with a
/// 1 MiB hash table (making and clearing the default 64 MiB for every input
/// slowed the fuzz target down).
pub fn run_script(input: &str) -> Vec<String> {
    let (out, cap) = Out::buffer();
    let settings = Settings { hash_mb: 1, ..Settings::default() };
    let session = new_session(DEFAULT_VARIANT, &settings).expect("the default variant is in the game table");
    let start_variant = session.variant();
    let mut e = Engine { out, settings, session, job: None, start_variant };
    for line in input.split('\n') {
        let words: Vec<&str> = line.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
        let expensive = match words.as_slice() {
            ["bench", ..] => true,
            // Perft grows fastest in the games with two actions a turn:
            // quadranj's perft 2 is 82 million turns, quattuor's 21 million,
            // and one Quadranj turn in a crowded position can be millions of
            // unstacking chains (found by the fuzzer): perft by turns runs
            // at depth 0 only; by actions up to 2.
            ["go", "perft", n, "actions", ..] => n.parse::<u32>().is_ok_and(|n| n > 2),
            ["go", "perft", n, ..] => n.parse::<u32>().is_ok_and(|n| n > 0),
            ["go", rest @ ..] => {
                !rest.first().is_some_and(|w| *w == "setup" || *w == "perft")
                    && !rest.windows(2).any(|w| {
                        (w[0] == "depth" && w[1].parse::<u32>().is_ok_and(|d| d <= 3))
                            || (w[0] == "nodes" && w[1].parse::<u64>().is_ok_and(|n| n <= 10_000))
                    })
            }
            ["setoption", ..] => {
                words.iter().any(|w| w.eq_ignore_ascii_case("hash"))
                    && words.iter().any(|w| w.parse::<u64>().is_ok_and(|n| n > 64))
            }
            _ => false,
        };
        if expensive {
            continue;
        }
        if e.handle_line(line) == Control::Quit {
            break;
        }
        e.wait();
    }
    e.stop_job();
    cap.take_lines()
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_job();
    }
}

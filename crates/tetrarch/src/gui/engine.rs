//! The engine bridge: the in-process [`Engine`](crate::Engine) driven
//! through the protocol (options, `position`, `go`, `stop`), its output
//! taken in (search reports and answers as typed events, its lines as the
//! log) and its turns played.

use std::time::Instant;

use super::clock::Clock;
use super::error::GuiError;
use super::game_queries::{default_value, Start};
use super::player::Player;
use super::scorer::{Eval, EvalPoint};
use super::state::{Gui, Hint, Search};
use super::thinking::Thinking;
use crate::options::default_strategy;
use crate::out::EngineEvent;

impl Gui {
    /// The lines that set an engine to the game's variant and options
    /// (every rule option explicitly, so nothing of an earlier game stays).
    pub(super) fn setup_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("setoption name UCI_Variant value {}", self.variant)];
        for spec in &self.facts.options {
            let v =
                self.options.iter().find(|(n, _)| n == spec.name).map_or_else(|| default_value(&spec.kind), |(_, v)| v.clone());
            lines.push(format!("setoption name {} value {v}", spec.name));
        }
        if self.facts.ffa {
            lines.push(format!(
                "setoption name Strategy value {}",
                self.strategy.unwrap_or(default_strategy(self.variant.name()))
            ));
        }
        lines
    }

    /// Sets the engine's variant and options to the game's when they differ
    /// from what it has.
    pub(super) fn configure_engine(&mut self) {
        let key = format!("{}|{:?}|{:?}|{}", self.variant, self.options, self.strategy, self.clock.is_some());
        if key == self.engine_config {
            return;
        }
        let mut lines = self.setup_lines();
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

    /// Sets the engine's `MultiPV` to `k` if it has another (an analysis
    /// shows `k` lines; a seat's search and a hint want one).
    pub(super) fn set_multipv(&mut self, k: usize) {
        if self.engine.settings().multipv != k {
            self.set_option("MultiPV", &k.to_string());
        }
    }

    /// Sets the engine's `Skill Level` to `level` if it has another (each
    /// engine seat plays at its own; analysis at full strength).
    pub(super) fn set_skill(&mut self, level: u8) {
        if self.engine.settings().skill_level != level {
            self.set_option("Skill Level", &level.to_string());
        }
    }

    /// `setoption name <name> value <value>`, logged with any error.
    fn set_option(&mut self, name: &str, value: &str) {
        let l = format!("setoption name {name} value {value}");
        self.log_line(l.clone());
        for e in self.send(&l) {
            self.log_line(format!("{l}: {e}"));
        }
    }

    pub(super) fn log_line(&mut self, l: String) {
        self.log.push(l);
        if self.log.len() > 400 {
            self.log.remove(0);
            self.log_dropped += 1;
        }
    }

    /// Sends one protocol line to the engine; returns the error lines it
    /// printed at once. An answer among its events answers the running
    /// search (a weak level's search can end before `go` returns: left for
    /// the next tick it would be lost); one of a search already halted is
    /// ignored by [`Gui::engine_reply`].
    pub(super) fn send(&mut self, line: &str) -> Vec<String> {
        self.engine.handle_line(line);
        let errs = self.take_output();
        self.take_events();
        errs
    }

    /// Takes the engine's lines into the log (not its search reports: they
    /// are shown as they come, from the events); returns the error lines.
    fn take_output(&mut self) -> Vec<String> {
        let mut errs = Vec::new();
        for l in self.cap.take_lines() {
            if l.starts_with("info string error") {
                errs.push(l.clone());
            }
            if !l.starts_with("info depth") {
                self.log_line(l);
            }
        }
        errs
    }

    /// Takes in the engine's typed events: search reports into the lines
    /// shown, an answer to the running search.
    fn take_events(&mut self) {
        for e in self.events.take() {
            match e {
                EngineEvent::Report(r) => {
                    Thinking::of(&r).into_lines(&mut self.lines);
                    self.version += 1;
                }
                EngineEvent::BestMove(turn) => self.engine_reply(turn.unwrap_or_else(|| "(none)".into())),
            }
        }
    }

    /// Stops a running search and forgets its answer.
    pub(super) fn halt(&mut self) {
        if self.search.take().is_some() {
            self.send("stop");
            self.version += 1;
        }
    }

    /// The engine's `bestmove` for the running search.
    pub(super) fn engine_reply(&mut self, tok: String) {
        let Some(s) = self.search.take() else { return };
        self.version += 1;
        let Some(seat) = s.seat else { return };
        if s.turns != self.turns().len() || tok == "(none)" || self.mover() != Some(seat) {
            return;
        }
        if s.hint {
            self.hint = Some(Hint { seat, turns: s.turns, turn: tok.clone() });
            self.message = format!("hint for {}: {tok}", self.facts.names.get(seat).copied().unwrap_or("?"));
            return;
        }
        match self.played.check_turn(&tok) {
            Ok(t) => {
                if !self.clock_turn(seat) {
                    return;
                }
                self.played.play(&t).expect("a turn just checked");
                self.times_ms.push(Some(s.started.elapsed().as_millis() as u64));
                let best = self.lines.first();
                self.scores.push(best.map(|t| t.score.clone()));
                self.evals.push(best.and_then(|b| EvalPoint::of(seat, b)).map_or(Eval::Pending, Eval::Known));
                self.message = format!("{} played {tok}", self.facts.names.get(seat).copied().unwrap_or("?"));
                self.refresh();
            }
            Err(e) => {
                self.paused = true;
                self.message = format!("the engine answered an illegal turn: {e}; engines paused");
            }
        }
    }

    /// The `position` commands for the position after `turns` as `seat`
    /// may know it, to be tried in order: a seat does not learn the other
    /// seats' secret set-up choices where the game accepts `?` for them (the
    /// first command), else the whole game (the second).
    pub(super) fn position_lines(&self, seat: Option<usize>, turns: &[String]) -> Vec<String> {
        let moves = if turns.is_empty() { String::new() } else { format!(" moves {}", turns.join(" ")) };
        let mut lines = Vec::new();
        if let (Start::Setup(toks), Some(seat)) = (&self.start, seat) {
            let masked: Vec<&str> = toks.iter().enumerate().map(|(i, t)| if i == seat { t.as_str() } else { "?" }).collect();
            lines.push(format!("position setup {}{moves}", masked.join(" ")));
        }
        lines.push(format!("position {}{moves}", self.start.protocol()));
        lines
    }

    /// The `position` command for the engine playing `seat` (see
    /// [`Gui::position_lines`]).
    pub(super) fn position_for(&mut self, seat: Option<usize>) -> Result<(), GuiError> {
        self.configure_engine();
        let lines = self.position_lines(seat, self.turns());
        let mut errs = Vec::new();
        for l in &lines {
            errs = self.send(l);
            if errs.is_empty() {
                return Ok(());
            }
        }
        match errs.first() {
            None => Ok(()),
            Some(e) => Err(GuiError::Engine(e.clone())),
        }
    }

    /// Drains the engine's output and starts the next engine turn.
    pub(super) fn tick(&mut self) {
        self.take_output();
        self.take_events();
        self.sync_clock();
        if let Some(m) = self.mover() {
            if self.clock_since.is_some() && self.clock_left(m) <= 0 {
                self.flag(m);
            }
        }
        self.score_graph();
        if self.search.is_some() || self.paused {
            return;
        }
        let Some(seat) = self.mover() else { return };
        let player = self.players.get(seat).copied().unwrap_or(Player::Human);
        if let (Some(ms), Some(level)) = (player.turn_ms(), player.skill()) {
            self.set_skill(level);
            self.set_multipv(1);
            if let Err(e) = self.position_for(Some(seat)) {
                self.paused = true;
                self.message = format!("engine: {e}");
                self.sync_clock();
                return;
            }
            self.new_report(seat);
            self.search = Some(Search { seat: Some(seat), started: Instant::now(), turns: self.turns().len(), hint: false });
            let go = match self.clock {
                Some(c) => self.go_clock(c),
                None => format!("go movetime {ms}"),
            };
            self.log_line(format!("> {go}"));
            self.send(&go);
            self.version += 1;
        }
    }

    /// The score graph's step: takes in a finished quick search and, while
    /// no engine seat searches, starts the next (the earliest turn not
    /// scored yet).
    pub(super) fn score_graph(&mut self) {
        if !self.scorer.on {
            return;
        }
        if let Some((game, i, eval)) = self.scorer.poll() {
            if game == self.game && self.evals.get(i) == Some(&Eval::Pending) {
                self.evals[i] = eval;
                self.version += 1;
            }
        }
        if self.scorer.busy() || self.search.as_ref().is_some_and(|s| s.seat.is_some() && !s.hint) {
            return;
        }
        let Some(i) = self.evals.iter().position(|e| *e == Eval::Pending) else { return };
        let after = self.played.at(i + 1);
        let Some(seat) = after.outcome().is_none().then(|| after.to_move()) else {
            self.evals[i] = Eval::Never;
            return;
        };
        // As the first person's seat may know the game (a secret set-up
        // stays secret in its graph).
        let person = self.players.iter().position(|p| *p == Player::Human);
        let (setup, positions) = (self.setup_lines(), self.position_lines(person, after.turns()));
        if !self.scorer.start(&setup, &positions, self.game, i, seat) {
            self.evals[i] = Eval::Never;
        }
    }

    /// `go` with every seat's clock: `wtime btime winc binc` for two
    /// seats, `p1time … pNtime p1inc … pNinc` for more.
    pub(super) fn go_clock(&self, c: Clock) -> String {
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
}

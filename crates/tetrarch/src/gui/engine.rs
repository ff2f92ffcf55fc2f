//! The engine bridge: the in-process [`Engine`](crate::Engine) driven
//! through the protocol (options, `position`, `go`, `stop`), its output
//! taken in (search reports, `bestmove`, the log) and its turns played.

use std::time::Instant;

use super::clock::Clock;
use super::error::GuiError;
use super::game_queries::{default_value, CheckTurn, Start};
use super::player::Player;
use super::state::{Gui, Search};
use super::thinking::Thinking;
use crate::options::default_strategy;
use crate::with_variant;

impl Gui {
    /// Sets the engine's variant and options to the game's when they differ
    /// from what it has (every rule option explicitly, so nothing of an
    /// earlier game stays).
    pub(super) fn configure_engine(&mut self) {
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

    /// Sets the engine's `Skill Level` to `level` if it has another (each
    /// engine seat plays at its own; analysis at full strength).
    pub(super) fn set_skill(&mut self, level: u8) {
        if self.engine.settings().skill_level == level {
            return;
        }
        let l = format!("setoption name Skill Level value {level}");
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
    /// printed at once. A `bestmove` among them answers the running search
    /// (a weak level's search can end before `go` returns: left for the
    /// next tick it would be lost); one of a search already halted is
    /// ignored by [`Gui::engine_reply`].
    pub(super) fn send(&mut self, line: &str) -> Vec<String> {
        self.engine.handle_line(line);
        let mut errs = Vec::new();
        for l in self.cap.take_lines() {
            if l.starts_with("info string error") {
                errs.push(l.clone());
            }
            self.absorb(l, true);
        }
        errs
    }

    /// Takes in one engine line (`bestmove` only when `play` is set).
    pub(super) fn absorb(&mut self, l: String, play: bool) {
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
    pub(super) fn position_for(&mut self, seat: Option<usize>) -> Result<(), GuiError> {
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
    pub(super) fn tick(&mut self) {
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
        let player = self.players.get(seat).copied().unwrap_or(Player::Human);
        if let (Some(ms), Some(level)) = (player.turn_ms(), player.skill()) {
            self.set_skill(level);
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

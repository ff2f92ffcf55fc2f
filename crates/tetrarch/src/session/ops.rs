//! The protocol commands of a [`Session`], behind [`SessionOps`].

use crate::GameInfo;
use std::sync::Arc;

use tetrarch_core::eval::Weights;
use tetrarch_core::game::OptionSpec;
use tetrarch_core::handle::{GameOps, Played};
use tetrarch_core::turns::{count_turns_up_to, legal_turns_up_to, TURN_LIST_LIMIT};
use tetrarch_search::AllocError;

use super::{lock, ugi_result, Session, SessionOps};
use crate::error::CommandError;
use crate::go::{parse_go, GoCommand, GoError};
use crate::job::Job;
use crate::options::{OptionError, Settings};
use crate::out::Out;

impl<G: GameInfo> SessionOps for Session<G> {
    fn variant(&self) -> &'static str {
        self.variant
    }

    fn free_for_all(&self) -> bool {
        self.ffa
    }

    fn has_setup(&self) -> bool {
        G::propose_setup(self.game.options(), 0, 0).is_some()
    }

    fn option_specs(&self) -> &[OptionSpec] {
        &self.specs
    }

    fn set_game_option(&mut self, index: usize, value: Option<&str>) -> Result<(), OptionError> {
        let opts = self.with_game_option(index, value)?;
        self.game.set_options(opts);
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
        let opts = self.game.options().clone();
        self.game = Played::from_position(self.variant, opts.clone(), G::startpos(&opts));
        self.head = None;
        self.setup_count = 0;
    }

    fn restart_setups(&mut self) {
        self.setup_count = 0;
    }

    fn record(&self, out: &Out) -> Result<(), CommandError> {
        match G::write_record(self.game.start(), self.game.turns()) {
            None => Err(CommandError::NoRecordFormat { variant: self.variant }),
            Some(Err(e)) => Err(CommandError::Record(e)),
            Some(Ok(text)) => {
                out.lines(text.lines());
                Ok(())
            }
        }
    }

    fn position(&mut self, args: &[&str]) -> Result<(), CommandError> {
        self.game = self.parse_position(args)?;
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
                match G::propose_setup(self.game.options(), seat, seed) {
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
        let mut v: Vec<String> = self.pos().render().lines().map(str::to_owned).collect();
        let seat = self.pos().to_move();
        v.push(format!("Position: {}", self.pos().position_string()));
        for (label, text) in self.pos().alt_notations() {
            v.push(format!("{label}: {text}"));
        }
        v.push(format!("Key: {:016x}", self.pos().key()));
        v.push(format!("To move: p{} ({})", seat + 1, self.pos().seat_name(seat)));
        // The count of `moves` (rules of the position alone, like perft).
        let limit = TURN_LIST_LIMIT as u64;
        match count_turns_up_to(self.pos(), limit) {
            Some(n) => v.push(format!("Legal turns: {n}")),
            None => v.push(format!("Legal turns: more than {limit}")),
        }
        out.lines(v);
    }

    fn moves(&self, out: &Out) -> Result<(), CommandError> {
        let turns = legal_turns_up_to(self.pos(), TURN_LIST_LIMIT).ok_or(CommandError::TooManyTurns)?;
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
            ["result"] if settings.ugi && self.pos().seats() == 2 => {
                out.line(format!("response {}", ugi_result(outcome().as_ref())))
            }
            ["result"] => match outcome() {
                Some(o) => out.line(format!("response {o}")),
                None => out.line("response none"),
            },
            ["reason"] => out.line(format!("response {}", outcome().map_or("none", |o| o.reason))),
            ["turn"] => out.line(format!("response p{}", self.pos().to_move() + 1)),
            ["p1turn"] => out.line(format!("response {}", self.pos().to_move() == 0)),
            ["board"] => match crate::board_json::board_json(self.game.pos(), self.game.history()) {
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
        let seat = self.pos().to_move();
        let mut v = vec![format!("Eval for p{} ({}), centipawns for its side:", seat + 1, self.pos().seat_name(seat))];
        let w = self.weights();
        for (name, x) in self.pos().eval_terms(seat, w) {
            v.push(format!("{name}: {x}"));
        }
        v.push(format!("Total: {}", self.pos().evaluate(seat, w)));
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
        self.pos().position_string()
    }
}

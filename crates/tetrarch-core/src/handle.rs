//! The typed game handle that front ends hold: a [`Variant`] parsed once
//! from its name, and a game in progress of any variant ([`AnyGame`]) with
//! the front-end API: start it (start position, position string or set-up,
//! rule options checked), play and take back turns, ask for the outcome,
//! the legal actions with the cells a person points at, the board view,
//! the record, the variant's options and set-up proposals.
//!
//! [`AnyGame`] is an enum with one arm per game of the registry, each a
//! [`Played`] of that game: the dispatch on the name happens once, when the
//! handle is made; after that, every call goes to the game's own code. The
//! GUI, the runner and the tuner hold an [`AnyGame`]; generic code that
//! must be monomorphised per game (the search, perft, datagen) keeps the
//! [`GameVisitor`](crate::registry::GameVisitor), reached from a
//! [`Variant`] with [`Variant::visit`].
//!
//! Tokens stay text at this boundary (an action's type differs per game):
//! every token the handle returns is canonical, and every token it takes
//! is checked against the rules before anything changes. A refused call
//! changes nothing.

use core::fmt;
use core::str::FromStr;

use crate::game::Seat;
pub use crate::played::{
    ActionChoice, ActionChoices, BoardState, GameError, GameOps, LineTurn, OptionPairs, Played, Start, ACTIONS_LISTED,
};
pub use crate::registry::{AnyGame, GameKind, Variant};

impl Variant {
    /// The variant's `UCI_Variant` name.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The game it belongs to.
    pub fn game(self) -> GameKind {
        self.kind
    }

    /// The variant named `name` exactly (`None`: no game has it).
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::all().into_iter().find(|v| v.name == name)
    }

    /// The variant named `name`, whatever its case (for people typing it).
    pub fn from_name_ignore_case(name: &str) -> Option<Variant> {
        Variant::all().into_iter().find(|v| v.name.eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({})", self.name)
    }
}

impl FromStr for Variant {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Self, GameError> {
        Variant::from_name(s).ok_or_else(|| GameError::UnknownVariant { name: s.to_string() })
    }
}

impl AnyGame {
    /// A game of `variant` with the rule options `options` from `start`.
    pub fn new(variant: Variant, options: &OptionPairs, start: &Start) -> Result<AnyGame, GameError> {
        AnyGame::make(variant, options, start)
    }

    /// A game of `variant` from its start position under the default
    /// options (the variant's facts: seats, names, options, …).
    pub fn startpos(variant: Variant) -> AnyGame {
        AnyGame::make(variant, &[], &Start::Startpos).expect("every variant starts with its defaults")
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        Variant::from_name(self.ops().variant_name()).expect("a handle's variant is in the registry")
    }

    /// The game as it was after its first `k` turns (all of them if `k` is
    /// more).
    pub fn at(&self, k: usize) -> AnyGame {
        let mut g = self.clone();
        g.truncate(k);
        g
    }

    /// Plays `turns` in order; on the first refused one, the error names it
    /// by its number in the game and nothing of the list stays played.
    pub fn play_all(&mut self, turns: &[String]) -> Result<(), GameError> {
        let k = self.turns().len();
        for (i, t) in turns.iter().enumerate() {
            let turn = k + i + 1;
            let r = match self.outcome() {
                Some(outcome) => Err(GameError::TurnAfterEnd { turn, token: t.clone(), outcome }),
                None => self.play(t).map_err(|e| match e {
                    GameError::BadTurn { token, source } => GameError::Turn { turn, token, source },
                    e => e,
                }),
            };
            if let Err(e) = r {
                self.truncate(k);
                return Err(e);
            }
        }
        Ok(())
    }

    /// The rule options `pairs` of `variant` checked: the game's spelling
    /// of each name and the canonical value, in the game's order, the
    /// defaults left out.
    pub fn canonical_options(variant: Variant, pairs: &OptionPairs) -> Result<Vec<(String, String)>, GameError> {
        AnyGame::canonical(variant, pairs)
    }

    /// Checks a seat number (0-based) against the variant's seats.
    pub fn check_seat(&self, seat: Seat) -> Result<(), GameError> {
        let seats = self.seats();
        if seat < seats {
            Ok(())
        } else {
            Err(GameError::NoSuchSeat { seat: seat + 1, variant: self.variant_name(), seats })
        }
    }
}

impl core::ops::Deref for AnyGame {
    type Target = dyn GameOps;
    fn deref(&self) -> &(dyn GameOps + 'static) {
        self.ops()
    }
}

impl core::ops::DerefMut for AnyGame {
    fn deref_mut(&mut self) -> &mut (dyn GameOps + 'static) {
        self.ops_mut()
    }
}

#[cfg(test)]
mod tests;

//! [`Player`]: who plays a seat (a person or the engine), as the requests
//! and the records spell it.

use super::error::GuiError;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the page.
    Human,
    /// The engine, with this much time per turn (ms).
    Engine(u64),
}

impl Player {
    pub(super) fn parse(s: &str) -> Result<Player, GuiError> {
        match s {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine(1000)),
            _ => match s.strip_prefix("engine:").map(str::parse::<u64>) {
                Some(Ok(ms)) if (10..=600_000).contains(&ms) => Ok(Player::Engine(ms)),
                _ => Err(GuiError::BadPlayer(s.into())),
            },
        }
    }
    pub(super) fn word(self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(ms) => format!("engine:{ms}"),
        }
    }
}

//! [`Player`]: who plays a seat (a person or the engine), as the requests
//! and the records spell it.

use super::error::GuiError;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person clicking on the page.
    Human,
    /// The engine at full strength, with this much time per turn (ms).
    Engine(u64),
    /// The engine at this `Skill Level` (0..=20; docs/levels.md), with
    /// `LEVEL_MS` (1 s) a turn (a level below 20 stops far sooner, on its own
    /// node budget).
    Level(u8),
}

/// The time a turn of a [`Player::Level`] seat may take without a clock.
pub const LEVEL_MS: u64 = 1000;

/// The levels the page names, weakest first: a name and its `Skill Level`
/// (each with its Elo on the variant's scale in `/api/variants` where the
/// variant has a table; docs/gui.md).
pub const NAMED_LEVELS: [(&str, u8); 5] = [("Beginner", 0), ("Casual", 5), ("Club", 10), ("Strong", 15), ("Strongest", 20)];

impl Player {
    pub(super) fn parse(s: &str) -> Result<Player, GuiError> {
        match s {
            "human" => Ok(Player::Human),
            "engine" => Ok(Player::Engine(1000)),
            _ => {
                if let Some(k) = s.strip_prefix("level:") {
                    return match k.parse::<u8>() {
                        Ok(k) if k <= crate::options::SKILL_FULL => Ok(Player::Level(k)),
                        _ => Err(GuiError::BadPlayer(s.into())),
                    };
                }
                match s.strip_prefix("engine:").map(str::parse::<u64>) {
                    Some(Ok(ms)) if (10..=600_000).contains(&ms) => Ok(Player::Engine(ms)),
                    _ => Err(GuiError::BadPlayer(s.into())),
                }
            }
        }
    }

    /// The `Skill Level` the engine plays this seat at (`None`: a person).
    pub(super) fn skill(self) -> Option<u8> {
        match self {
            Player::Human => None,
            Player::Engine(_) => Some(crate::options::SKILL_FULL),
            Player::Level(k) => Some(k),
        }
    }

    /// The time a turn may take without a clock (`None`: a person).
    pub(super) fn turn_ms(self) -> Option<u64> {
        match self {
            Player::Human => None,
            Player::Engine(ms) => Some(ms),
            Player::Level(_) => Some(LEVEL_MS),
        }
    }
    pub(super) fn word(self) -> String {
        match self {
            Player::Human => "human".into(),
            Player::Engine(ms) => format!("engine:{ms}"),
            Player::Level(k) => format!("level:{k}"),
        }
    }
}

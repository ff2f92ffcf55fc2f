//! The games the runner referees, and the one dispatch from a variant name to
//! generic code ([`with_variant`]).
//!
//! The runner does not depend on the `tetrarch` engine crate (that crate's
//! binary calls the runner for `tetrarch match`, so the dependency goes the
//! other way); it lists the games of `tetrarch-core` itself, with the few
//! things a runner needs beyond [`Game`]: random set-ups and a default turn
//! cap.

use tetrarch_core::game::{Game, Seat};
use tetrarch_core::games::{
    fourchess::FourChess, quadranj::Quadranj, quattuor::Quattuor, queenskings::QueensKings, teamchess::TeamChess,
};

/// What the runner needs beyond [`Game`].
pub trait MatchGame: Game {
    /// A random legal set-up token for `seat`, for games with a set-up phase.
    fn random_setup(_opts: &Self::Options, _seat: Seat, _seed: u64) -> Option<String> {
        None
    }
    /// The turn cap when `--maxturns` is not given (0: none). Games whose rules
    /// end every game (a draw rule) need none.
    fn default_maxturns(_variant: &str) -> u32 {
        0
    }
}

impl MatchGame for FourChess {}
impl MatchGame for TeamChess {}
impl MatchGame for QueensKings {}
impl MatchGame for Quadranj {
    /// The burglar choice: the game's own proposal, varied by the seed.
    fn random_setup(opts: &Self::Options, seat: Seat, seed: u64) -> Option<String> {
        Self::propose_setup(opts, seat, seed)
    }
}
impl MatchGame for Quattuor {
    fn random_setup(_opts: &Self::Options, seat: Seat, seed: u64) -> Option<String> {
        Some(tetrarch_core::games::quattuor::setup::random_setup(seat.min(1), seed))
    }
    /// Quattuor Reges has no draw rule (spec 7.2).
    fn default_maxturns(_variant: &str) -> u32 {
        400
    }
}

/// Generic code run with the game of a variant.
pub trait Visitor {
    /// What it returns.
    type Output;
    /// Runs with game `G` playing `variant`.
    fn visit<G: MatchGame>(self, variant: &'static str) -> Self::Output;
}

fn find<G: Game>(variant: &str) -> Option<&'static str> {
    G::VARIANTS.iter().find(|v| **v == variant).copied()
}

/// Runs `v` with the game of `variant` (`None` if no game has it).
pub fn with_variant<V: Visitor>(variant: &str, v: V) -> Option<V::Output> {
    if let Some(name) = find::<FourChess>(variant) {
        return Some(v.visit::<FourChess>(name));
    }
    if let Some(name) = find::<TeamChess>(variant) {
        return Some(v.visit::<TeamChess>(name));
    }
    if let Some(name) = find::<Quattuor>(variant) {
        return Some(v.visit::<Quattuor>(name));
    }
    if let Some(name) = find::<QueensKings>(variant) {
        return Some(v.visit::<QueensKings>(name));
    }
    if let Some(name) = find::<Quadranj>(variant) {
        return Some(v.visit::<Quadranj>(name));
    }
    None
}

/// Every variant the runner knows.
pub fn variants() -> Vec<&'static str> {
    let mut v = Vec::new();
    v.extend_from_slice(FourChess::VARIANTS);
    v.extend_from_slice(TeamChess::VARIANTS);
    v.extend_from_slice(Quattuor::VARIANTS);
    v.extend_from_slice(QueensKings::VARIANTS);
    v.extend_from_slice(Quadranj::VARIANTS);
    v
}

/// How the seats of a game group into sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Two seats, one each.
    Duel,
    /// Four seats in two teams.
    Teams,
    /// Every seat for itself (more than two seats).
    FreeForAll,
}

/// The format of a position's game.
pub fn format_of<G: Game>(g: &G) -> Format {
    let n = g.seats();
    let mut sides: Vec<usize> = (0..n).map(|s| g.side_of(s)).collect();
    sides.sort_unstable();
    sides.dedup();
    match (n, sides.len()) {
        (2, _) => Format::Duel,
        (_, 2) => Format::Teams,
        _ => Format::FreeForAll,
    }
}

//! The games the runner referees: the variant dispatch of the core crate's
//! registry ([`tetrarch_core::registry`], re-exported here), the check of
//! `--variant`, and how a game's seats group into sides.
//!
//! The runner does not depend on the `tetrarch` engine crate (that crate's
//! binary calls the runner for `tetrarch match`, so the dependency goes the
//! other way); what it needs beyond [`Game`] — random set-ups and a default
//! turn cap — is each game's [`GameInfo`].

use tetrarch_core::game::Game;
use tetrarch_core::handle::AnyGame;
pub use tetrarch_core::handle::Variant;
pub use tetrarch_core::registry::{variants, with_variant, GameInfo, GameVisitor};

/// A variant no game of the registry plays; the text lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant `{0}` (known: {known})", known = variants().join(", "))]
pub struct UnknownVariant(pub String);

/// The variant of `--variant` (names are exact), parsed once into the
/// core's typed [`Variant`], or the error listing the known ones.
pub fn check_variant(variant: &str) -> Result<Variant, UnknownVariant> {
    Variant::from_name(variant).ok_or_else(|| UnknownVariant(variant.to_string()))
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
    format_of_sides(g.seats(), |s| g.side_of(s))
}

/// The format of a variant's game (from its start position under the
/// default options).
pub fn variant_format(variant: Variant) -> Format {
    let g = AnyGame::startpos(variant);
    format_of_sides(g.seats(), |s| g.side_of(s))
}

/// The format of `n` seats whose sides are `side_of`.
fn format_of_sides(n: usize, side_of: impl Fn(usize) -> usize) -> Format {
    let mut sides: Vec<usize> = (0..n).map(side_of).collect();
    sides.sort_unstable();
    sides.dedup();
    match (n, sides.len()) {
        (2, _) => Format::Duel,
        (_, 2) => Format::Teams,
        _ => Format::FreeForAll,
    }
}

//! The one list of games, and the one dispatch from a variant name to code
//! generic over the game.
//!
//! Everything that needs "every game" — the engine (`uci`'s `UCI_Variant`,
//! `perft`, `bench`, `record`, the GUI), the match runner, the tuner and the
//! fuzz targets — asks this module: [`variants`] for the names, in the order
//! `uci` announces them, and [`with_variant`] to run a [`GameVisitor`] with
//! the game of one of them.
//!
//! The same list makes the typed handle's [`GameKind`] and [`AnyGame`]
//! ([`crate::handle`]): front ends parse a name once into a
//! [`Variant`] and hold an [`AnyGame`].
//!
//! Adding a game: write its module under `games/` with `impl Game` and
//! `impl GameInfo` (every fact of [`GameInfo`] has a default), and add
//! `Name => type` to the `games!` invocation below. A type missing its
//! `GameInfo` impl does not compile here; nothing else lists games.

pub use crate::game::GameInfo;
use crate::game::Rules;
use crate::played::{canonical_options, GameError, GameOps, OptionPairs, Played, Start};

/// Something to do with a game type picked by variant name at run time
/// (a generic closure).
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Does it with game `G` playing `variant`.
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output;
}

/// Declares the games: [`GameKind`], [`AnyGame`], [`variants`],
/// [`with_variant`] and [`Variant`]'s list and dispatch, from one list of
/// `Name => type` in the order `uci` lists their variants.
macro_rules! games {
    ($($name:ident => $ty:ty),* $(,)?) => {
        /// The games of the registry (a [`Variant`] belongs to one).
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum GameKind {
            $(
                #[doc = concat!("`", stringify!($ty), "`.")]
                $name,
            )*
        }

        /// A game in progress of any variant ([`crate::handle`]): one arm per
        /// game, each the game's [`Played`].
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $(
                #[doc = concat!("A game of `", stringify!($ty), "`.")]
                $name(Played<$ty>),
            )*
        }

        impl AnyGame {
            /// The game's front-end API.
            pub(crate) fn ops(&self) -> &(dyn GameOps + 'static) {
                match self { $( AnyGame::$name(g) => g, )* }
            }

            /// The game's front-end API, to change it.
            pub(crate) fn ops_mut(&mut self) -> &mut (dyn GameOps + 'static) {
                match self { $( AnyGame::$name(g) => g, )* }
            }

            pub(crate) fn make(variant: Variant, options: &OptionPairs, start: &Start) -> Result<AnyGame, GameError> {
                match variant.kind {
                    $( GameKind::$name => {
                        let opts = Played::<$ty>::options_from(variant.name, options)?;
                        Ok(AnyGame::$name(Played::new(variant.name, opts, start)?))
                    } )*
                }
            }

            pub(crate) fn canonical(variant: Variant, pairs: &OptionPairs) -> Result<Vec<(String, String)>, GameError> {
                match variant.kind {
                    $( GameKind::$name => canonical_options::<$ty>(variant.name, pairs), )*
                }
            }
        }

        /// A variant of one of the registry's games, parsed once from its
        /// `UCI_Variant` name (`FromStr`, exact) and written back by
        /// `Display` ([`crate::handle`]).
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct Variant {
            pub(crate) kind: GameKind,
            pub(crate) name: &'static str,
        }

        impl Variant {
            /// Every variant, in the order `uci` announces them.
            pub fn all() -> Vec<Variant> {
                let mut v = Vec::new();
                $(
                    v.extend(<$ty as Rules>::VARIANTS.iter().map(|&name| Variant { kind: GameKind::$name, name }));
                )*
                v
            }

            /// Runs `visitor` with the variant's game: the one dispatch for
            /// code generic over the game (the search, perft, datagen).
            pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
                match self.kind {
                    $( GameKind::$name => visitor.visit::<$ty>(self.name), )*
                }
            }
        }
    };
}

/// Every variant name, in the order `uci` announces them.
pub fn variants() -> Vec<&'static str> {
    Variant::all().into_iter().map(Variant::name).collect()
}

/// Runs `visitor` with the game of `variant` (`None` if no game has it;
/// names are matched exactly).
pub fn with_variant<V: GameVisitor>(variant: &str, visitor: V) -> Option<V::Output> {
    Variant::from_name(variant).map(|v| v.visit(visitor))
}

games! {
    FourChess => crate::games::fourchess::FourChess,
    TeamChess => crate::games::teamchess::TeamChess,
    Quattuor => crate::games::quattuor::Quattuor,
    QueensKings => crate::games::queenskings::QueensKings,
    Quadranj => crate::games::quadranj::Quadranj,
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Facts;
    impl GameVisitor for Facts {
        type Output = (&'static str, u32, &'static str, u32, usize);
        fn visit<G: GameInfo>(self, v: &'static str) -> Self::Output {
            (v, G::bench_depth(v), G::default_strategy(v), G::default_maxturns(v), G::bench_positions(v).len())
        }
    }

    #[test]
    fn every_variant_dispatches_to_its_own_name_once() {
        let all = variants();
        for (i, v) in all.iter().enumerate() {
            assert!(!all[..i].contains(v), "{v} is listed twice");
            assert_eq!(with_variant(v, Facts).map(|f| f.0), Some(*v));
        }
        assert!(with_variant("chess", Facts).is_none());
        assert!(with_variant("FourChess", Facts).is_none(), "names are exact");
    }

    /// The facts as they were before they moved here from the engine's and
    /// the runner's `match` arms (and fourchess's turn cap of 1,000 since
    /// the fifteenth session: docs/fourchess.md, "Turn cap").
    #[test]
    fn facts_keep_their_values() {
        let facts: Vec<_> = variants().into_iter().map(|v| with_variant(v, Facts).unwrap()).collect();
        let expect = [
            ("fourchess", 8, "paranoid", 1000, 5),
            ("teamchess", 8, "paranoid", 0, 2),
            ("quattuor", 6, "paranoid", 400, 1),
            ("queenskings", 8, "paranoid", 0, 0),
            ("queenskings-teams", 8, "paranoid", 0, 0),
            ("queenskings-duel", 8, "paranoid", 0, 0),
            ("queenskings9", 8, "paranoid", 0, 0),
            ("queenskings9-teams", 8, "paranoid", 0, 0),
            ("queenskings9-duel", 8, "paranoid", 0, 0),
            ("quadranj", 6, "paranoid", 0, 0),
            ("quadranj4", 6, "brs", 0, 0),
        ];
        assert_eq!(facts, expect);
    }
}

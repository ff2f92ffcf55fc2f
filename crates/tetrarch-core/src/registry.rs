//! The one list of games, and the one dispatch from a variant name to code
//! generic over the game.
//!
//! Everything that needs "every game" — the engine (`uci`'s `UCI_Variant`,
//! `perft`, `bench`, `record`, the GUI), the match runner, the tuner and the
//! fuzz targets — asks this module: [`variants`] for the names, in the order
//! `uci` announces them, and [`with_variant`] to run a [`GameVisitor`] with
//! the game of one of them.
//!
//! Adding a game: write its module under `games/` with `impl Game` and
//! `impl GameInfo` (every fact of [`GameInfo`] has a default), and add its
//! type to the `games!` invocation below. A type missing its `GameInfo`
//! impl does not compile here; nothing else lists games.

use crate::game::{Game, Rules, Seat};

/// Per-game facts the tools need beyond the rules: `bench` positions and
/// depth, the default free-for-all search strategy, a default turn cap and
/// random set-ups for the match runner. Every listed game implements it;
/// the defaults fit a game with no special needs.
pub trait GameInfo: Game {
    /// The built-in `bench` positions of `variant` besides its start
    /// position (position strings; `bench` always searches `startpos`
    /// first).
    fn bench_positions(_variant: &str) -> &'static [&'static str] {
        &[]
    }

    /// The depth `bench` searches `variant` to when no depth is given:
    /// about a quarter of a second per variant in a release build.
    fn bench_depth(_variant: &str) -> u32 {
        8
    }

    /// The default `Strategy` of `variant` (free-for-all variants): one of
    /// `paranoid`, `brs`, `maxn` — the strongest measured for it
    /// (docs/search.md, "Free-for-all strategies").
    fn default_strategy(_variant: &str) -> &'static str {
        "paranoid"
    }

    /// The match runner's turn cap when `--maxturns` is not given, and the
    /// tuner's when `--max-turns` is 0 (0: none). Games whose rules end
    /// every game (a draw rule) need none.
    fn default_maxturns(_variant: &str) -> u32 {
        0
    }

    /// A random legal set-up token for `seat`, for games with a set-up
    /// phase (the match runner's and the tuner's openings).
    fn random_setup(_opts: &Self::Options, _seat: Seat, _seed: u64) -> Option<String> {
        None
    }
}

/// Something to do with a game type picked by variant name at run time
/// (a generic closure).
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Does it with game `G` playing `variant`.
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output;
}

/// Declares the games: [`variants`] and [`with_variant`] from one list of
/// types, in the order `uci` lists their variants.
macro_rules! games {
    ($($ty:ty),* $(,)?) => {
        /// Every variant name: each game's [`Rules::VARIANTS`], in the order
        /// of the game list.
        pub fn variants() -> Vec<&'static str> {
            let mut v: Vec<&'static str> = Vec::new();
            $( v.extend_from_slice(<$ty as Rules>::VARIANTS); )*
            v
        }

        /// Runs `visitor` with the game of `variant` (`None` if no game has
        /// it; names are matched exactly).
        pub fn with_variant<V: GameVisitor>(variant: &str, visitor: V) -> Option<V::Output> {
            $(
                if let Some(v) = <$ty as Rules>::VARIANTS.iter().find(|v| **v == variant) {
                    return Some(visitor.visit::<$ty>(v));
                }
            )*
            let _ = visitor;
            None
        }
    };
}

games! {
    crate::games::fourchess::FourChess,
    crate::games::teamchess::TeamChess,
    crate::games::quattuor::Quattuor,
    crate::games::queenskings::QueensKings,
    crate::games::quadranj::Quadranj,
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

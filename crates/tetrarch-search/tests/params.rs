//! The search parameters of every game: each game's overrides
//! (`SearchHints::SEARCH_PARAMS`) name known parameters within range, a
//! searcher starts from them, and they differ from the search's defaults
//! exactly where the game says (teamchess and fourchess: reverse futility
//! pruning at depth 1, margin 150; every other game: none).

use tetrarch_core::registry::{self, GameInfo, GameVisitor};
use tetrarch_search::{SearchParams, Searcher};

struct Defaults;

impl GameVisitor for Defaults {
    type Output = (SearchParams, SearchParams);
    fn visit<G: GameInfo>(self, _variant: &'static str) -> Self::Output {
        (SearchParams::for_game::<G>(), Searcher::<G>::new(1).params().clone())
    }
}

#[test]
fn every_game_starts_from_the_search_defaults() {
    for v in registry::variants() {
        let (game, searcher) = registry::with_variant(v, Defaults).unwrap();
        assert_eq!(game, searcher, "{v}: a searcher starts with its game's defaults");
        let mut expected = SearchParams::default();
        if v == "teamchess" || v == "fourchess" {
            expected.set_text("Rfp=1 RfpDepth=1 RfpMargin=150").unwrap();
        }
        assert_eq!(game, expected, "{v}: the game's own overrides, nothing else");
    }
}

//! The search parameters of every game: each game's overrides
//! (`SearchHints::SEARCH_PARAMS`) name known parameters within range, and
//! today every game searches with the search's own defaults.

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
        assert_eq!(game, SearchParams::default(), "{v}: no game overrides a default yet");
    }
}

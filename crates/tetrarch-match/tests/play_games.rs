//! `tetrarch_match::play_games`: the runner's entry for programs that
//! drive it (`tetrarch spsa`): games of a match, quietly, records back.

use tetrarch_match::{parse_args, play_games, RunError};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn config() -> tetrarch_match::Config {
    let line = format!(
        "--variant queenskings9-duel --games 4 --concurrency 2 --seed 3 --random-plies 2 \
         --engine cmd={FAKE} name=plus option.Search_X=5 --engine cmd={FAKE} name=minus option.Search_X=3 \
         --each depth=1"
    );
    let words: Vec<String> = line.split_whitespace().map(String::from).collect();
    parse_args(&words).unwrap().unwrap()
}

#[test]
fn plays_pairs_from_the_given_opening_and_returns_records_in_order() {
    let recs = play_games(config(), 7).unwrap();
    assert_eq!(recs.iter().map(|r| r.game).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(recs.iter().map(|r| r.opening_index).collect::<Vec<_>>(), [7, 7, 8, 8]);
    // Sides swapped within each pair.
    assert_eq!(recs[0].seat_engines, [0, 1]);
    assert_eq!(recs[1].seat_engines, [1, 0]);
    // The same opening for both games of a pair, another for the next
    // pair; and the opening of index 7 is the one a match plays as its
    // opening 7 (the same seed): here, again with another first opening.
    assert_eq!((&recs[0].start, &recs[0].turns[..2]), (&recs[1].start, &recs[1].turns[..2]));
    let again = play_games(config(), 6).unwrap();
    assert_eq!(again[2].turns[..2], recs[0].turns[..2]);
}

#[test]
fn an_engine_that_rejects_an_option_is_an_error_before_any_game() {
    let line = format!(
        "--variant queenskings9-duel --games 2 --engine cmd={FAKE} name=plus option.Search_X=5 \
         --engine cmd={FAKE} arg=mode=badoption name=minus option.Search_X=3 --each depth=1"
    );
    let words: Vec<String> = line.split_whitespace().map(String::from).collect();
    let e = play_games(parse_args(&words).unwrap().unwrap(), 0).unwrap_err();
    assert!(matches!(e, RunError::EngineHandshake { ref name, .. } if name == "minus"), "{e}");
}

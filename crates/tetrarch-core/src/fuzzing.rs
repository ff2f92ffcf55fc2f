//! Invariants every parser must keep on any input, shared by the cargo-fuzz
//! targets under `fuzz/` and by the property tests that run in CI.
//!
//! Each function takes arbitrary text and panics only if an invariant
//! breaks: parsing never panics, what parses prints canonically and parses
//! back to the same position, and a token that parses plays legally.

use crate::game::{ActionList, Game};
use crate::turns::{parse_turn, play_turn};

/// Feeds `data` to `G`'s position-string parser under every variant.
pub fn position_string<G: Game>(data: &str) {
    for v in G::VARIANTS {
        let opts = G::default_options(v);
        if let Ok(p) = G::from_position_string(data, &opts) {
            let s = p.position_string();
            let q = G::from_position_string(&s, &opts)
                .unwrap_or_else(|e| panic!("canonical string `{s}` does not parse: {e}"));
            assert_eq!(q.position_string(), s, "print(parse(s)) is not stable");
            assert_eq!(p.key(), p.key_from_scratch());
            assert_eq!(q.key(), p.key());
            let mut list = G::Actions::default();
            p.legal_actions(&mut list);
            let _ = p.outcome();
            let _ = p.render();
        }
    }
}

/// Feeds a turn token to `G`'s token parser. `data` is `<token>` (played from
/// the start position) or `<position string>\n<token>`.
pub fn turn_token<G: Game>(data: &str) {
    for v in G::VARIANTS {
        let opts = G::default_options(v);
        let (pos, token) = match data.split_once('\n') {
            Some((p, t)) => match G::from_position_string(p, &opts) {
                Ok(pos) => (pos, t),
                Err(_) => continue,
            },
            None => (G::startpos(&opts), data),
        };
        let before = pos.position_string();
        if let Ok(actions) = parse_turn(&pos, token) {
            let mut p = pos.clone();
            let mut list = G::Actions::default();
            for &a in &actions {
                list.clear();
                p.legal_actions(&mut list);
                assert!(list.contains(&a), "parsed action is not legal");
                p.make(a);
            }
            let mut q = pos.clone();
            play_turn(&mut q, &actions);
            assert_eq!(q.key(), q.key_from_scratch());
        }
        assert_eq!(pos.position_string(), before, "parsing changed the position");
    }
}

/// Feeds a PGN4 text to the `teamchess` reader: what reads writes back and
/// reads again to the same turns.
pub fn pgn4(data: &str) {
    use crate::games::teamchess::{pgn4, Options};
    if let Ok(rec) = pgn4::read(data, &Options::default()) {
        let names = Default::default();
        let text = pgn4::write(&rec.start, &rec.turns, &names).expect("turns that were read write back");
        let again = pgn4::read(&text, &Options::default()).expect("written PGN4 reads back");
        assert_eq!(again.turns, rec.turns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fourchess::FourChess;
    use proptest::prelude::*;

    const SEED: &str = "4yK3/1wP6/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1";

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]
        #[test]
        fn fourchess_position_strings(s in "\\PC{0,80}") {
            position_string::<FourChess>(&s);
        }

        /// Mutations of a valid string: one character replaced.
        #[test]
        fn fourchess_mutated_strings(i in 0usize..80, c in proptest::char::any()) {
            let mut chars: Vec<char> = SEED.chars().collect();
            let i = i % chars.len();
            chars[i] = c;
            position_string::<FourChess>(&chars.into_iter().collect::<String>());
        }

        #[test]
        fn teamchess_fen4_mutations(i in 0usize..400, c in proptest::char::any()) {
            let mut chars: Vec<char> = crate::games::teamchess::START_FEN4.chars().collect();
            let i = i % chars.len();
            chars[i] = c;
            position_string::<crate::games::teamchess::TeamChess>(&chars.into_iter().collect::<String>());
        }

        #[test]
        fn pgn4_texts(s in "(\\[[A-Za-z]{1,8} \"[^\"]{0,8}\"\\]\n){0,2}([0-9]{1,2}\\. )?([a-n][0-9]{1,2}[-x][a-n][0-9]{1,2}( \\.\\. )?){0,4}") {
            pgn4(&s);
        }

        #[test]
        fn fourchess_tokens(t in "[a-p0-9q,\\-]{0,12}") {
            turn_token::<FourChess>(&t);
            turn_token::<FourChess>(&format!("{SEED}\n{t}"));
        }
    }
}

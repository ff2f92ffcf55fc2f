//! Invariants every parser must keep on any input, shared by the cargo-fuzz
//! targets under `fuzz/` and by the property tests that run in CI.
//!
//! Each function takes arbitrary text and panics only if an invariant
//! breaks: parsing never panics, what parses prints canonically and parses
//! back to the same position, and a token that parses plays legally.

use crate::game::Game;
use crate::registry::{GameInfo, GameVisitor, Variant};
use crate::turns::{parse_turn, play_turn};

/// Feeds `data` to `G`'s position-string parser under every variant.
pub fn position_string<G: Game>(data: &str) {
    for v in G::VARIANTS {
        position_string_in::<G>(v, data);
    }
}

fn position_string_in<G: Game>(v: &str, data: &str) {
    let opts = G::default_options(v);
    if let Ok(p) = G::from_position_string(data, &opts) {
        check_parsed(&p, &opts);
    }
}

/// What any parsed position keeps: its string parses back to the same
/// position and prints the same, its key is the key from scratch, and its
/// actions, outcome and picture can be computed.
fn check_parsed<G: Game>(p: &G, opts: &G::Options) {
    let s = p.position_string();
    let q = G::from_position_string(&s, opts).unwrap_or_else(|e| panic!("printed string `{s}` does not parse: {e}"));
    assert_eq!(q.position_string(), s, "print(parse(s)) is not stable");
    assert_eq!(p.key(), p.key_from_scratch());
    assert_eq!(q.key(), p.key());
    let mut list = G::Actions::default();
    p.legal_actions(&mut list);
    let _ = p.outcome();
    let _ = p.render();
}

/// Feeds a turn token to `G`'s token parser. `data` is `<token>` (played from
/// the start position) or `<position string>\n<token>`.
pub fn turn_token<G: Game>(data: &str) {
    for v in G::VARIANTS {
        turn_token_in::<G>(v, data);
    }
}

fn turn_token_in<G: Game>(v: &str, data: &str) {
    let opts = G::default_options(v);
    let (pos, token) = match data.split_once('\n') {
        Some((p, t)) => match G::from_position_string(p, &opts) {
            Ok(pos) => (pos, t),
            Err(_) => return,
        },
        None => (G::startpos(&opts), data),
    };
    let before = pos.position_string();
    if let Ok(actions) = parse_turn(&pos, token) {
        let mut p = pos.clone();
        for &a in &actions {
            assert!(p.is_legal(a), "parsed action is not legal");
            p.make(a);
        }
        let mut q = pos.clone();
        play_turn(&mut q, &actions);
        assert_eq!(q.key(), q.key_from_scratch());
    }
    assert_eq!(pos.position_string(), before, "parsing changed the position");
}

/// Feeds set-up tokens (`data` split at whitespace, one token per seat) to
/// `G`'s `position setup` parser under every variant: no panic, and what
/// parses prints a position string that parses back to the same position.
pub fn setup_tokens<G: Game>(data: &str) {
    for v in G::VARIANTS {
        setup_tokens_in::<G>(v, data);
    }
}

fn setup_tokens_in<G: Game>(v: &str, data: &str) {
    let tokens: Vec<&str> = data.split_whitespace().collect();
    let opts = G::default_options(v);
    if let Ok(p) = G::from_setup(&tokens, &opts) {
        check_parsed(&p, &opts);
    }
}

/// One of the parser checks above, for [`every_game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// [`position_string`].
    PositionString,
    /// [`turn_token`].
    TurnToken,
    /// [`setup_tokens`].
    SetupTokens,
}

struct Check<'a>(Target, &'a str);

impl GameVisitor for Check<'_> {
    type Output = ();
    fn visit<G: GameInfo>(self, variant: &'static str) {
        match self.0 {
            Target::PositionString => position_string_in::<G>(variant, self.1),
            Target::TurnToken => turn_token_in::<G>(variant, self.1),
            Target::SetupTokens => setup_tokens_in::<G>(variant, self.1),
        }
    }
}

/// Runs `target` on `data` under every variant of the game registry
/// ([`crate::registry`]), for the fuzz targets; returns the variants it
/// ran under (a new game is fuzzed once it is in the registry).
pub fn every_game(target: Target, data: &str) -> Vec<&'static str> {
    Variant::all()
        .into_iter()
        .map(|v| {
            v.visit(Check(target, data));
            through_handle(v, target, data);
            v.name()
        })
        .collect()
}

/// The same input through the typed handle ([`crate::handle::AnyGame`]):
/// a refused start or turn is an error, never a panic, and changes
/// nothing; a played turn is taken back to the same position.
fn through_handle(v: Variant, target: Target, data: &str) {
    use crate::handle::{AnyGame, Start};
    let (start, token) = match (target, data.split_once('\n')) {
        (Target::PositionString, _) => (Start::Fen(data.to_string()), None),
        (Target::TurnToken, Some((p, t))) => (Start::Fen(p.to_string()), Some(t)),
        (Target::TurnToken, None) => (Start::Startpos, Some(data)),
        (Target::SetupTokens, _) => (Start::Setup(data.split_whitespace().map(str::to_string).collect()), None),
    };
    let Ok(mut g) = AnyGame::new(v, &[], &start) else { return };
    let before = g.position_string();
    if let Some(token) = token {
        match g.play(token) {
            Ok(_) => {
                assert_eq!(g.turns().len(), 1);
                assert!(g.undo().is_some());
                assert_eq!(g.position_string(), before, "undo did not restore the position");
            }
            Err(e) => {
                assert!(!e.to_string().is_empty());
                assert_eq!(g.position_string(), before, "a refused turn changed the position");
            }
        }
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

    /// `text` with its `i`-th character (modulo its length) replaced by `c`.
    fn mutate(text: &str, i: usize, c: char) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        let i = i % chars.len();
        chars[i] = c;
        chars.into_iter().collect()
    }

    /// One-character mutations of the start position string of variant `v`
    /// (modulo the game's variants), of a set-up proposed for it, and of a
    /// turn token legal there: every parser of `G` keeps its invariants.
    fn mutations<G: crate::game::GameInfo>(v: usize, i: usize, c: char) {
        let variant = G::VARIANTS[v % G::VARIANTS.len()];
        let opts = G::default_options(variant);
        let start = G::startpos(&opts);
        position_string::<G>(&mutate(&start.position_string(), i, c));
        let proposals: Vec<String> = (0..start.seats()).filter_map(|seat| G::propose_setup(&opts, seat, i as u64)).collect();
        if !proposals.is_empty() {
            setup_tokens::<G>(&mutate(&proposals.join(" "), i, c));
        }
        let mut list = G::Actions::default();
        start.legal_actions(&mut list);
        if let Some(&a) = list.get(i % list.len().max(1)) {
            let token = crate::game::action_string(&start, a);
            turn_token::<G>(&mutate(&token, i, c));
        }
    }

    /// The set-ups a game proposes for its seats are accepted together, and
    /// give the start position's seats and side to move.
    fn proposals_parse<G: crate::game::GameInfo>(seed: u64) {
        for v in G::VARIANTS {
            let opts = G::default_options(v);
            let start = G::startpos(&opts);
            let proposals: Option<Vec<String>> = (0..start.seats()).map(|seat| G::propose_setup(&opts, seat, seed)).collect();
            if let Some(tokens) = proposals {
                let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
                let p = G::from_setup(&tokens, &opts).unwrap_or_else(|e| panic!("{v}: proposed set-up {tokens:?} rejected: {e}"));
                assert_eq!(p.seats(), start.seats());
                assert_eq!(p.to_move(), start.to_move());
                setup_tokens::<G>(&tokens.join(" "));
            }
        }
    }

    /// Legal first turns of every variant through the handle check (a
    /// refused input alone would never reach its played-turn branch).
    #[test]
    fn legal_first_turns_through_the_handle() {
        struct First;
        impl GameVisitor for First {
            type Output = Vec<String>;
            fn visit<G: GameInfo>(self, v: &'static str) -> Vec<String> {
                let g = G::startpos(&G::default_options(v));
                crate::turns::legal_turns(&g).into_iter().take(3).map(|(t, _)| t).collect()
            }
        }
        for v in Variant::all() {
            let turns = v.visit(First);
            assert!(!turns.is_empty(), "{v}");
            for t in turns {
                assert!(crate::handle::AnyGame::startpos(v).check_turn(&t).is_ok(), "{v} {t}");
                through_handle(v, Target::TurnToken, &t);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]
        #[test]
        fn every_game_mutated_inputs(v in 0usize..8, i in 0usize..400, c in r"[0-9a-zA-Z/ ,:;!?+^@=.\-]|\PC") {
            let c = c.chars().next().unwrap();
            mutations::<crate::games::quattuor::Quattuor>(v, i, c);
            mutations::<crate::games::queenskings::QueensKings>(v, i, c);
            mutations::<crate::games::quadranj::Quadranj>(v, i, c);
        }

        #[test]
        fn every_game_arbitrary_text(s in "\\PC{0,60}") {
            every_game(Target::PositionString, &s);
            every_game(Target::SetupTokens, &s);
            every_game(Target::TurnToken, &s);
        }

        #[test]
        fn set_up_proposals_parse(seed in 0u64..1_000_000) {
            proposals_parse::<crate::games::quattuor::Quattuor>(seed);
            proposals_parse::<crate::games::quadranj::Quadranj>(seed);
        }

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

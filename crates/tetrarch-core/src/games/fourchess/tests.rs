//! Perft from the spec's tables and the worked examples of §13.

use super::piece::*;
use super::*;
use crate::turns::{legal_turns, parse_turn, perft, play_turn};

fn pos(s: &str) -> FourChess {
    FourChess::from_position_string(s, &Options::default()).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn turns_of(p: &FourChess) -> Vec<String> {
    legal_turns(p).into_iter().map(|t| t.0).collect()
}

fn play(p: &mut FourChess, t: &str) {
    let acts = parse_turn(p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    play_turn(p, &acts);
}

#[test]
fn start_positions_round_trip() {
    for layout in [Layout::A, Layout::B] {
        let opts = Options { layout, ..Options::default() };
        let p = FourChess::startpos(&opts);
        let s = p.position_string();
        assert_eq!(s, if layout == Layout::A { notation::START_A } else { notation::START_B });
    }
}

// ---- §13 worked examples ----------------------------------------------------

#[test]
fn e1_reversal() {
    let mut p = pos("4yK3/1wP6/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1");
    play(&mut p, "e13e14");
    assert_eq!(p.position_string(), "1wp2yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 b - 0 1");
    for t in ["a7a6", "h14h13", "n8n7"] {
        play(&mut p, t);
    }
    assert_eq!(p.to_move(), 0);
    assert!(turns_of(&p).contains(&"e14e13".to_string()), "{:?}", turns_of(&p));
}

#[test]
fn e1b_back_to_forward() {
    let start = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/1wp6/2bN5/3wK4 w - 0 1");
    let t = turns_of(&start);
    assert!(t.contains(&"e3e2".into()) && t.contains(&"e3f2".into()), "{t:?}");
    for mv in ["e3e2", "e3f2"] {
        let mut p = start.clone();
        play(&mut p, mv);
        let to = board::parse_square(&mv[2..]).unwrap();
        assert_eq!(p.piece_at(to), Some((0, PAWN)), "{mv}");
    }
}

/// A pawn can walk to its partner's back line, turn (§5.3.5), walk home,
/// turn again and start over: every step is a pawn move, so the half-move
/// clock never gets past 3 and the no-progress rule never ends such a game
/// (only repetition does, which other men moving about can put off for
/// tens of thousands of turns: a 4,000-node match game was seen at 24,900).
/// So the runner caps `fourchess` games by default.
#[test]
fn a_pawn_walking_to_and_fro_keeps_the_clock_at_zero() {
    use crate::registry::GameInfo;
    let mut p = pos("4yK3/1wP6/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1");
    let clock = |p: &FourChess| p.position_string().split(' ').nth(3).unwrap().parse::<u32>().unwrap();
    let others = [["a7a6", "a6a7"], ["h14h13", "h13h14"], ["n8n7", "n7n8"]];
    // e13 → e14 (reversed), back down to e2 (forward again), up to e13.
    let walk = std::iter::once(14).chain((2..=13).rev()).chain(3..=13);
    let mut from = 13;
    for (i, to) in walk.enumerate() {
        play(&mut p, &format!("e{from}e{to}"));
        assert_eq!(clock(&p), 0, "after e{from}e{to}");
        for o in &others {
            play(&mut p, o[i % 2]);
        }
        assert_eq!(clock(&p), 3);
        from = to;
    }
    assert_eq!(p.piece_at(board::parse_square("e13").unwrap()), Some((0, PAWN)), "forward again");
    assert!(FourChess::default_maxturns("fourchess") > 0);
}

#[test]
fn e2_leap() {
    let s = "4yK3/8/8/14/14/14/13rK/bK13/4yPwP1bP6/4wPwP1wP6/13rR/8/8/3wK4 w - 0 1";
    let p = pos(s);
    let t = turns_of(&p);
    assert_eq!(t.len(), 7, "{t:?}");
    let pawn_moves: Vec<_> = t.iter().filter(|m| ["e5", "f5", "h5"].iter().any(|f| m.starts_with(f))).collect();
    assert_eq!(pawn_moves, ["e5e7"]);
    let opts = Options { leap_own_pawns: true, ..Options::default() };
    let p = FourChess::from_position_string(s, &opts).unwrap();
    let t = turns_of(&p);
    assert!(t.contains(&"f5f7".into()) && t.contains(&"e5e7".into()), "{t:?}");
    assert!(!t.iter().any(|m| m.starts_with("h5")));
    let p = pos(&s.replace(" w - 0 1", " y - 0 1"));
    assert!(turns_of(&p).contains(&"e6e4".into()));
}

#[test]
fn e3_partner_exposure() {
    let p = pos("8/8/8/4bR9/14/14/4wB8rK/bK13/14/4yK9/14/8/8/3wK4 w - 0 1");
    assert_eq!(turns_of(&p), ["g1f1", "g1f2", "g1g2", "g1h1", "g1h2"]);
    let p = pos("8/8/8/4bR9/14/14/4wB8rK/bK13/14/4yK2rR6/14/8/8/3wK4 w - 0 1");
    let t = turns_of(&p);
    assert_eq!(t.len(), 19, "{t:?}");
    assert_eq!(t.iter().filter(|m| m.starts_with("e8")).count(), 14 + 2, "{t:?}");
}

#[test]
fn e4_mate_inert_release() {
    let mut p = pos("4yK3/8/8/14/14/14/13rK/bK13/10yB3/3bR10/7rN6/8/wPwPwP5/wNwKwR5 r - 0 1");
    play(&mut p, "h4g2");
    assert_eq!(p.position_string(), "4yK3/8/8/14/14/14/13rK/bK13/10yB3/3bR10/14/8/wPwPwPrN4/wNwKwR5 w w 1 2");
    assert_eq!(turns_of(&p), ["0000"]);
    play(&mut p, "0000");
    assert!(p.position_string().ends_with(" b w 2 2"));
    // E4b: inert men cannot be captured.
    let t = turns_of(&p);
    assert!(t.contains(&"d5d3".into()) && !t.contains(&"d5d2".into()), "{t:?}");
    // E4c: Yellow takes the Knight and releases White.
    play(&mut p, "a7a6");
    play(&mut p, "k6g2");
    assert_eq!(p.inert_mask(), 0, "{}", p.position_string());
    play(&mut p, "n8n7");
    play(&mut p, "e2e3");
    assert!(turns_of(&p).contains(&"d5d2".into()));
}

#[test]
fn e5_stalemate_pass_and_draw() {
    let mut p = pos("4yK3/8/4yP3/14/14/14/13rK/bK13/14/14/14/1rQ6/8/wK7 w - 0 1");
    assert_eq!(turns_of(&p), ["0000"]);
    assert_eq!(p.outcome(), None);
    play(&mut p, "0000");
    assert_eq!(p.to_move(), 1);
    let mut p = pos("yK6bR/yPyP6/8/14/14/14/13rK/bK13/14/14/14/1rQ6/8/wK7 w y 0 1");
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("draw stalemate".into()));
    assert!(turns_of(&p).is_empty());
    assert_eq!(perft(&mut p, 1), 0);
    assert_eq!(perft(&mut p, 3), 0);
}

#[test]
fn e6_promotion() {
    let p = pos("4yK3/8/8/bN1rN11/1wP12/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1");
    let t = turns_of(&p);
    let pawn: Vec<_> = t.iter().filter(|m| m.starts_with("b10")).cloned().collect();
    assert_eq!(pawn, ["b10a11q", "b10b11", "b10c11"]);
    let mut q = p.clone();
    play(&mut q, "b10a11"); // the `q` may be left out on input
    assert_eq!(q.piece_at(board::parse_square("a11").unwrap()), Some((0, QUEEN)));
    let mut q = p.clone();
    play(&mut q, "b10c11");
    assert_eq!(q.piece_at(board::parse_square("c11").unwrap()), Some((0, PAWN)));
    assert!(parse_turn(&p, "b10b11q").is_err());
}

#[test]
fn e7_cascade() {
    let mut p =
        pos("7bK/yP7/1yK1wK3rP/5rKyQ1bP5/2yp5yQ1yP3/14/14/11rB2/3wR10/1bP1rP6rPrPyR1/1bP1wP7yP1rQ/2bpyP4/3wP4/6bR1 b r 1 1");
    play(&mut p, "j1j12");
    assert!(p.position_string().ends_with(" y w 2 1"), "{}", p.position_string());
    assert_eq!(turns_of(&p).len(), 4, "{:?}", turns_of(&p));
}

#[test]
fn double_mate_and_material() {
    // Both Black and Red inert: White and Yellow win.
    let p = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w br 0 1");
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("win 1 3 checkmate".into()));
    assert!(turns_of(&p).is_empty());
    // Kings and pawns only: a material draw.
    let p = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/14/8/4wP3/3wK4 w - 0 1");
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("draw material".into()));
    // No progress at 200 plies.
    let p = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 200 90");
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("draw noprogress".into()));
    // Quiescence's early stand pat finds no quiet turn in an ended game,
    // and White's King steps one ply earlier.
    assert!(!p.has_quiet_action());
    let p = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 199 90");
    assert_eq!(p.outcome(), None);
    assert!(p.has_quiet_action());
}

#[test]
fn repetition_is_a_history_rule() {
    let mut p = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1");
    let mut history = vec![];
    for t in ["g1g2", "a7a6", "h14h13", "n8n7", "g2g1", "a6a7", "h13h14", "n7n8"].repeat(2) {
        history.push(p.key());
        play(&mut p, t);
    }
    assert_eq!(p.history_outcome(&history).map(|o| o.to_string()), Some("draw repetition".into()));
    assert_eq!(p.history_outcome(&history[..8]), None);
    assert!(!turns_of(&p).is_empty(), "perft and moves ignore repetition");
}

#[test]
fn bad_position_strings() {
    let good = "4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1";
    assert!(FourChess::from_position_string(good, &Options::default()).is_ok());
    let cases = [
        ("", "5 fields"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0", "5 fields"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/3wK4 w - 0 1", "14 ranks"),
        ("4yK4/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1", "rank 14"),
        ("4yK2/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1", "rank 14"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/03wK4 w - 0 1", "leading zero"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3gK4 w - 0 1", "colour"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wX4 w - 0 1", "piece"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK3w w - 0 1", "without a piece"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/8 w - 0 1", "Kings"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/2wKwK4 w - 0 1", "Kings"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/wP2wK4 w - 0 1", "own back line"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/bP2wK4 w - 0 1", "enemy"),
        ("wP3yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1", "partner"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/wp7/3wK4 w - 0 1", "own pawn line"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 x - 0 1", "side"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w yw 0 1", "inert"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w ww 0 1", "inert"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - -1 1", "clock"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 0", "fullmove"),
        ("4yK3/8/8/14/14/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 99999999999", "fullmove"),
    ];
    for (s, why) in cases {
        let e = FourChess::from_position_string(s, &Options::default()).expect_err(s);
        assert!(
            matches!(&e, PositionError::Field { field, reason } if field.contains(why) || reason.contains(why)),
            "{s}: `{e}` should be a field error mentioning `{why}`"
        );
    }
}

#[test]
fn bad_tokens() {
    let p = FourChess::startpos(&Options::default());
    for (t, illegal) in [
        ("e2e3", None),
        ("e2e4", Some(true)),
        ("0000", Some(true)),
        ("e2", Some(false)),
        ("e2e3x", Some(false)),
        ("a1a2", Some(false)),
        ("e2-e3", Some(false)),
        ("E2E3", Some(false)),
        ("e02e3", Some(false)),
        ("", Some(false)),
        ("é2e3", Some(false)),
    ] {
        match (p.parse_action(t), illegal) {
            (Ok(_), None) => {}
            (Err(TokenError::Illegal(_)), Some(true)) | (Err(TokenError::Malformed(_)), Some(false)) => {}
            (r, _) => panic!("{t}: {r:?}"),
        }
    }
}

// ---- properties on positions reached by random play -----------------------

mod properties {
    use super::super::board::{file, rank};
    use super::super::naive::Naive;
    use super::*;
    use proptest::prelude::*;

    const STARTS: [&str; 4] = [
        notation::START_A,
        // E7's crowded middle game, with Black to move.
        "7bK/yP7/1yK1wK3rP/5rKyQ1bP5/2yp5yQ1yP3/14/14/11rB2/3wR10/1bP1rP6rPrPyR1/1bP1wP7yP1rQ/2bpyP4/3wP4/6bR1 b r 1 1",
        // Heavy pieces near the Kings: mates come quickly.
        "3yRyK3/2yP5/8/14/bQ12rR/14/bK12rK/14/14/bR12rQ/14/8/5wP2/4wKwQ2 w - 0 1",
        // Reversible pawns near partner lines, leaps possible.
        "4yK3/1wP6/4yP3/14/14/14/4yPwP1bP5rK/bK4wP8/14/14/13rR/1wp6/2bN5/3wK4 w - 0 1",
    ];

    fn xy(s: usize) -> (i32, i32) {
        (file(s) as i32, rank(s) as i32)
    }

    /// A turn as (from, to) coordinates; `None` for a pass.
    type Turn = Option<((i32, i32), (i32, i32))>;

    fn fast_turns(p: &FourChess) -> Vec<Turn> {
        let mut l = <FourChess as Rules>::Actions::default();
        p.legal_actions(&mut l);
        let mut v: Vec<_> = l.iter().map(|m| (!m.is_pass()).then(|| (xy(m.from()), xy(m.to())))).collect();
        v.sort();
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

        /// Along a random game: the fast generator equals the simple one,
        /// statuses after every turn equal the spec's loop, make/unmake
        /// restores everything, the incremental key equals the key from
        /// scratch, and the position string round-trips.
        #[test]
        fn random_games(start in 0usize..4, leap_own in any::<bool>(), picks in proptest::collection::vec(any::<u16>(), 1..120)) {
            let opts = Options { leap_own_pawns: leap_own, ..Options::default() };
            let mut p = FourChess::from_position_string(STARTS[start], &opts).unwrap();
            for pick in picks {
                let naive = Naive::from(&p);
                let mut expect = naive.turns();
                expect.sort();
                let got = fast_turns(&p);
                prop_assert_eq!(&got, &expect, "{}", p.position_string());
                // Quiescence's early stand pat: a quiet turn exactly when
                // the list has one (a seat without moves, whose pass the
                // shortcut does not look for, aside; none when the game is
                // over).
                let mut l = <FourChess as Rules>::Actions::default();
                p.legal_actions(&mut l);
                let quiet = l.iter().any(|&m| !p.is_tactical(m));
                let passes_without_moves = l.len() == 1 && l[0].is_pass() && p.inert >> p.side & 1 == 0;
                prop_assert_eq!(p.has_quiet_action(), quiet && !passes_without_moves, "{}", p.position_string());
                if got.is_empty() {
                    break;
                }
                let s = p.position_string();
                let q = FourChess::from_position_string(&s, &opts).unwrap();
                prop_assert_eq!(q.position_string(), s.clone());
                prop_assert_eq!(q.key(), p.key());
                // make/unmake of every turn restores the position
                for &m in l.iter() {
                    let before = p.clone();
                    let u = p.make(m);
                    prop_assert_eq!(p.key(), p.key_from_scratch());
                    for seat in 0..4 {
                        let mut kept = crate::eval::FeatureList::default();
                        super::eval::features(&p, seat, &mut kept);
                        let mut scratch = crate::eval::FeatureList::default();
                        super::eval::features_scratch(&p, seat, &mut scratch);
                        prop_assert_eq!(kept.merged(), scratch.merged());
                    }
                    p.unmake(m, u);
                    prop_assert_eq!(p.position_string(), before.position_string());
                    prop_assert_eq!(p.key(), before.key());
                    prop_assert_eq!((p.checks, p.inert), (before.checks, before.inert));
                    prop_assert_eq!((p.adv, p.centre), (before.adv, before.centre));
                }
                let m = l[pick as usize % l.len()];
                let t = (!m.is_pass()).then(|| (xy(m.from()), xy(m.to())));
                let after = naive.play(t);
                p.make(m);
                prop_assert_eq!(p.inert_mask(), after.inert, "after {:?} from {}", m, s);
                prop_assert_eq!(Naive::from(&p), after);
                let mut cache = 0u8;
                for seat in 0..4 {
                    if p.seat_in_check(seat, p.inert) { cache |= 1 << seat; }
                }
                prop_assert_eq!(p.checks, cache);
            }
        }
    }

    /// The random games above do reach mates and releases: play seeded games
    /// from the heavy-piece start against the simple implementation and
    /// count the turns after which somebody became inert or was released.
    #[test]
    fn random_play_reaches_mates_and_releases() {
        let mut seed = 0x2545F4914F6CDD1Du64;
        let (mut mates, mut releases) = (0, 0);
        for _ in 0..60 {
            let mut p = FourChess::from_position_string(STARTS[2], &Options::default()).unwrap();
            for _ in 0..80 {
                let mut l = <FourChess as Rules>::Actions::default();
                p.legal_actions(&mut l);
                if l.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = l[(seed % l.len() as u64) as usize];
                let naive = Naive::from(&p).play((!m.is_pass()).then(|| (xy(m.from()), xy(m.to()))));
                let before = p.inert_mask();
                p.make(m);
                assert_eq!(p.inert_mask(), naive.inert, "{}", p.position_string());
                mates += (p.inert_mask() & !before).count_ones();
                releases += (before & !p.inert_mask()).count_ones();
            }
        }
        assert!(mates > 0 && releases > 0, "mates {mates}, releases {releases}");
    }

    #[test]
    fn list_capacity_is_a_bound() {
        // Sixteen Queens of one colour on an open board stay below the bound.
        let mut p = FourChess::from_position_string(STARTS[2], &Options::default()).unwrap();
        let mut l = <FourChess as Rules>::Actions::default();
        p.legal_actions(&mut l);
        assert!(l.len() < MAX_ACTIONS);
        l.clear();
        p.side = 1;
        p.legal_actions(&mut l);
        assert!(l.len() < MAX_ACTIONS);
    }
}

/// The `mobility` term, counted by hand: a White Rook on b4 reaches b5–b11
/// (7), a4 (1) and c4–n4 (12); nobody else has a slider. White's team gets
/// 20 cells at the compiled `mobility.slider` weight each, the other team
/// the same negated, and the terms still add up to the evaluation.
#[test]
fn eval_mobility_counts_the_cells_sliders_reach() {
    use crate::games::cross_board::test_util::{assert_team_mobility, mobility};
    let per_cell = FourChess::default_weights("fourchess").values[eval::w::MOBILITY];
    assert!(per_cell > 0);
    let p = pos("4yK3/8/8/14/14/14/13rK/bK13/14/14/1wR12/8/8/3wK4 w - 0 1");
    assert_team_mobility(&p, 20 * per_cell);
    // A man of its own on b5 closes the Rook's way up: a4 and c4–n4 remain.
    let q = pos("4yK3/8/8/14/14/14/13rK/bK13/14/1wP12/1wR12/8/8/3wK4 w - 0 1");
    assert_eq!(mobility(&q, 0), 13 * per_cell);
}

/// The compiled default is the committed tuned set (`tuned.weights`): it
/// loads, it is not the hand-set table, the inert weights (frozen in the
/// fit) are the table's, and the pieces keep their order.
#[test]
fn the_compiled_weights_are_the_committed_tuned_set() {
    use eval::w;
    let d = FourChess::default_weights("fourchess");
    let hand = crate::eval::Weights::defaults("fourchess", &w::TABLE);
    assert_ne!(d.values, hand.values);
    for i in [w::INERT_PAWN, w::INERT_KNIGHT, w::INERT_BISHOP, w::INERT_ROOK, w::INERT_QUEEN, w::INERT] {
        assert_eq!(d.values[i], hand.values[i], "{}", w::TABLE.name_of(i));
    }
    let m = [w::PAWN, w::KNIGHT, w::BISHOP, w::ROOK, w::QUEEN].map(|i| d.values[i]);
    assert!(m.windows(2).all(|p| p[0] < p[1]), "{m:?}");
}

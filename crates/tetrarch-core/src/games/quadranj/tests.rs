//! Perft figures of §13, the worked examples of §12, divides of every action
//! type and end-of-turn rule, notation and set-up errors, and properties
//! against the simple rules in `naive`.

use super::*;
use crate::game::{action_string, Game};
use crate::turns::{legal_turns, parse_turn, perft, perft_actions, play_turn};

const START8: &str = "5bG1bK/4bBb2B2/4bBbGb2BbG/5bBbB1/1rBrB5/rGr2BrGrB4/2r2BrB4/rK1rG5 r 0 - rb 0/0 ?/? 0 1";
const START10: &str = "gK1gG4bG1bK/2gBgB2bBbB2/gGgBgGgB2bBbGbBbG/1gBgB4bBbB1/10/10/1rBrB4yByB1/rGrBrGrB2yByGyByG/2rBrB2yByB2/rK1rG4yG1yK g 0 - gbyr 0/0/0/0 ?/?/?/? 0 1";

fn o2() -> Options {
    Options::for_variant("quadranj")
}
fn o4() -> Options {
    Options::for_variant("quadranj4")
}
fn before() -> Options {
    Options { charge_before: true, ..o2() }
}

fn pos_with(s: &str, o: &Options) -> Quadranj {
    Quadranj::from_position_string(s, o).unwrap_or_else(|e| panic!("{s}: {e}"))
}
fn pos(s: &str) -> Quadranj {
    pos_with(s, &o2())
}
fn pos4(s: &str) -> Quadranj {
    pos_with(s, &o4())
}

fn actions_of(p: &Quadranj) -> Vec<String> {
    let mut l = ActionVec::default();
    p.legal_actions(&mut l);
    let mut v: Vec<String> = l.iter().map(|&a| action_string(p, a)).collect();
    v.sort();
    v
}

fn after(p: &Quadranj, t: &str) -> Quadranj {
    let mut q = p.clone();
    let acts = parse_turn(&q, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    play_turn(&mut q, &acts);
    q
}

fn result(p: &Quadranj) -> Option<String> {
    p.outcome().map(|o| o.to_string())
}

#[test]
fn start_positions() {
    let p = Quadranj::startpos(&o2());
    assert_eq!(p.position_string(), START8);
    assert_eq!(pos(START8).key(), p.key());
    let p = Quadranj::startpos(&o4());
    assert_eq!(p.position_string(), START10);
    assert_eq!(pos4(START10).key(), p.key());
}

#[test]
fn perft_start_2p() {
    let mut p = Quadranj::startpos(&o2());
    let acts = actions_of(&p);
    assert_eq!(acts.len(), 134);
    assert_eq!(perft_actions(&mut p, 1), 134);
    assert_eq!(perft_actions(&mut p, 2), 9076);
    assert_eq!(perft(&mut p, 1), 9076);
    assert_eq!(perft_actions(&mut p, 3), 1_214_712);
}

#[test]
fn perft_start_4p() {
    let mut p = Quadranj::startpos(&o4());
    assert_eq!(perft_actions(&mut p, 1), 80);
    assert_eq!(perft_actions(&mut p, 2), 4556);
    assert_eq!(perft(&mut p, 1), 4556);
    assert_eq!(perft_actions(&mut p, 3), 361_408);
}

#[test]
#[ignore]
fn perft_start_deep() {
    let mut p = Quadranj::startpos(&o2());
    assert_eq!(perft_actions(&mut p, 4), 82_017_564);
    let mut p = Quadranj::startpos(&o4());
    assert_eq!(perft_actions(&mut p, 4), 20_335_148);
    assert_eq!(perft(&mut p, 2), 20_335_148);
}

#[test]
fn start_action_kinds() {
    let p = Quadranj::startpos(&o2());
    let a = actions_of(&p);
    let count = |f: &dyn Fn(&str) -> bool| a.iter().filter(|t| f(t)).count();
    assert_eq!(count(&|t| t.contains('+')), 82);
    assert_eq!(count(&|t| t.contains('^') && !t.contains('/')), 16);
    assert_eq!(count(&|t| t.contains('/')), 6);
    assert_eq!(count(&|t| t.starts_with("a1") && t.len() == 4), 2);
    assert_eq!(count(&|t| t.contains('+') && t.ends_with("+b3")), 31);
    assert_eq!(count(&|t| t.contains('+') && t.ends_with("+c2")), 31);
}

// ---- §12 worked examples ------------------------------------------------------

struct Ex {
    pos: &'static str,
    actions: &'static str,
    /// (action or turn, position after)
    after: &'static [(&'static str, &'static str)],
}

const EX: [Ex; 10] = [
    Ex {
        pos: "7bK/8/rG7/2rPbBrP3/8/8/8/7rK r 1 h1 rb 0/0 c5/? 1 1",
        actions: "a6a3 a6a4 a6a5 a6a7 a6a8 a6b6 a6c6 a6d6 a6e6 a6f6 a6g6 a6h6 c5b5 c5c4 c5c6 e5e4 e5e6 e5f5",
        after: &[
            ("a6c6", "7bK/8/2rG5/2rP1rP3/8/8/8/7rK b 0 - rb 1/0 c5/? 0 2"),
            ("a6b6", "7bK/8/1rG6/2rPbBrP3/8/8/8/7rK b 0 - rb 0/0 c5/? 2 2"),
        ],
    },
    Ex {
        pos: "7bK/8/rG7/2rPb2BrP3/8/8/8/7rK r 1 h1 rb 0/0 c5/? 1 1",
        actions: "a6a3 a6a4 a6a5 a6a7 a6a8 a6b6 a6c6 a6d6 a6e6 a6f6 a6g6 a6h6 c5b5 c5c4 c5c6 e5e4 e5e6 e5f5",
        after: &[("a6c6", "7bK/8/2rG5/2rPb2BrP3/8/8/8/7rK b 0 - rb 0/0 c5/? 2 2")],
    },
    Ex {
        pos: "bK7/8/6bB1/8/8/rG7/5XrKX/6X1 r 1 a3 rb 0/0 -/? 1 1",
        actions: "g2@g6 g2g3 g2g4 g2g5",
        after: &[("g2@g6", "bK7/8/6rK1/8/8/rG7/5X1X/6X1 b 0 - rb 1/0 -/? 0 2")],
    },
    Ex {
        pos: "7bK/8/8/8/2r2Br2Br2B3/1rB5X/8/6XrK r 1 c4,d4,e4 rb 0/0 c4:1/? 1 1",
        actions: "b3+c4 b3+d4 b3+e4 b3^a3 b3^a4 b3^b4 b3^c2 b3^c3 b3a3 b3a4 b3b4 b3c2 b3c3 h1h2",
        after: &[("b3+e4", "7bK/8/8/8/2r2Br2Br3B3/7X/8/6XrK b 0 - rb 0/0 c4:1/? 2 2")],
    },
    Ex {
        pos: "r3B6bK/XXXX4/8/8/8/8/8/7rK r 1 h1 rb 0/0 a8:2/? 1 1",
        actions: "a8/1b8 a8/1b8.b8^c8 a8/2b8 a8/2b8/1c8 a8/2b8/1c8.c8^d8 a8b8",
        after: &[
            ("a8/2b8/1c8.c8^d8", "rBrBXrP3bK/XXXX4/8/8/8/8/8/7rK b 0 - rb 0/0 b8:1/? 2 2"),
            ("a8/1b8.b8^c8", "r2BXrP4bK/XXXX4/8/8/8/8/8/7rK b 0 - rb 0/0 a8:2/? 2 2"),
        ],
    },
    Ex {
        pos: "rPXXXrB3/bBbBbBbBbB3/7bK/8/8/8/8/7rK r 1 h1 rb 0/0 a8/? 1 1",
        actions: "a8:b8 a8:b8a8 a8:c8 a8:d8 a8:d8+e8 e8^f7 e8^f8 e8f7 e8f8",
        after: &[
            ("a8:c8", "1XrBXrB3/bBbBbBbBbB3/7bK/8/8/8/8/7rK b 0 - rb 0/0 c8:1/? 2 2"),
            ("a8:d8+e8", "1XX1r2B3/bBbBbBbBbB3/7bK/8/8/8/8/7rK b 0 - rb 0/0 e8:2/? 2 2"),
        ],
    },
    Ex {
        pos: "rKrBbG5/rGr2BbB5/bGbBbB5/8/8/8/8/7bK r 1 b7 rb 0/0 b7:1/? 1 1",
        actions: "a8~a7 a8~b8 b8+b7",
        after: &[("a8~b8", "rBrKbG5/rGr2BbB5/bGbBbB5/8/8/8/8/7bK b 0 - rb 0/0 b7:1/? 2 2")],
    },
    Ex {
        pos: "bK3rGX2/rG3X3/8/8/8/8/6XX/6XrK r 1 a7 rb 0/0 -/- 1 1",
        actions: "e8b8 e8c8 e8d8",
        after: &[("e8b8", "bKrG3X2/rG3X3/8/8/8/8/6XX/6XrK b 0 - rb 0/0 -/- 2 2")],
    },
    Ex {
        pos: "bK7/5rP2/6rP1/8/8/8/8/7rK r 1 h1 rb 0/0 g6/? 1 1",
        actions: "f7e7 f7f6 f7f8 g6f6 g6g5 g6g7 g6h6",
        after: &[("g6g7", "bK7/5rPrP1/8/8/8/8/8/7rK b 0 - rb 0/0 g7!/? 2 2")],
    },
    Ex {
        pos: "bK7/7rP/8/8/8/8/8/7rK r 0 - rb 0/0 h7!/? 1 1",
        actions: "h1a1 h1b1 h1c1 h1d1 h1e1 h1f1 h1g1 h1h2 h1h3 h1h4 h1h5 h1h6 h7g7 h7h6 h7h8",
        after: &[("h7h8", "bK6rP/8/8/8/8/8/8/7rK r 1 h8 rb 0/0 h8!/? 2 1")],
    },
];

#[test]
fn worked_examples_2p() {
    for (i, e) in EX.iter().enumerate() {
        let p = pos(e.pos);
        assert_eq!(p.position_string(), e.pos, "E{} round trip", i + 1);
        assert_eq!(actions_of(&p).join(" "), e.actions, "E{} actions", i + 1);
        for (t, s) in e.after {
            let q = after(&p, t);
            assert_eq!(q.position_string(), *s, "E{} after {t}", i + 1);
            assert_eq!(q.key(), pos(s).key(), "E{} key after {t}", i + 1);
            assert_eq!(q.key(), q.key_from_scratch());
            assert_eq!(result(&q), result(&pos(s)), "E{} result after {t}", i + 1);
        }
    }
}

#[test]
fn e1_other_captures() {
    let p = pos(EX[0].pos);
    for t in ["a6d6", "a6e6"] {
        let q = after(&p, t);
        assert!(q.position_string().contains(" rb 1/0 c5/? 0 2"), "{t}: {}", q.position_string());
    }
}

#[test]
fn e3_charge_before() {
    let p = pos_with(EX[2].pos, &before());
    assert_eq!(actions_of(&p).join(" "), "g2@g6 g2g3 g2g4 g2g5");
    let q = after(&p, "g2@g6");
    assert_eq!(q.position_string(), "bK7/8/6rK1/6bB1/8/rG7/5X1X/6X1 b 0 - rb 0/0 -/? 2 2");
}

#[test]
fn e8_immobilised() {
    let p = pos(EX[7].pos);
    assert_eq!(result(&after(&p, "e8b8")).as_deref(), Some("win 1 immobilised"));
    assert_eq!(result(&after(&p, "e8c8")).as_deref(), Some("win 2 immobilised"));
    assert_eq!(result(&after(&p, "e8d8")).as_deref(), Some("win 2 immobilised"));
}

#[test]
fn e9_unknown_burglars() {
    let p = pos("bK7/5rP2/6rP1/8/8/8/8/7rK r 1 h1 rb 0/0 ?/? 1 1");
    let a = actions_of(&p);
    assert!(a.contains(&"f7g7".to_string()) && a.contains(&"g6g7".to_string()), "{a:?}");
    let q = after(&p, "f7g7");
    assert_eq!(q.position_string(), "bK7/6rP1/6rP1/8/8/8/8/7rK b 0 - rb 0/0 g7!/? 2 2");
}

#[test]
fn e10_home_mid_turn() {
    let p = pos(EX[9].pos);
    let q = after(&p, "h7h8");
    assert_eq!(result(&q).as_deref(), Some("win 1 burglar"));
    assert_eq!(perft(&mut q.clone(), 1), 0);
    assert!(actions_of(&q).is_empty());
    let mut p2 = p.clone();
    assert_eq!(perft(&mut p2, 1), 61);
    let turns: Vec<String> = legal_turns(&p).into_iter().map(|t| t.0).collect();
    assert!(turns.contains(&"h7g7,h1h8".to_string()));
    assert!(turns.contains(&"h7h8".to_string()));
    let q = after(&p, "h7g7,h1h8");
    assert_eq!(result(&q).as_deref(), Some("win 1 home"));
    assert!(q.position_string().starts_with("bK6rK/6rP1/"), "{}", q.position_string());
}

#[test]
fn e11_four_players_boxing_in() {
    let s = "gK9/4rG5/7rG2/10/10/3XbKX4/2X1X5/1XrKX6/2X7/9yK r 1 h8 gbyr 0/0/0/0 -/-/-/- 1 4";
    let p = pos4(s);
    assert_eq!(p.position_string(), s);
    assert_eq!(actions_of(&p).join(" "), "e9c9 e9d9 e9e10 e9e6 e9e7 e9e8 e9f9 e9g9 e9h9 e9i9 e9j9");
    let q = after(&p, "e9e6");
    assert_eq!(q.position_string(), "gK9/10/7rG2/10/4rG5/3X1X4/2X1X5/1XrKX6/2X7/9yK g 0 - gyr 0/0/0/0 -/-/-/- 0 5");
    assert_eq!(result(&q), None);
    let q = after(&p, "e9e7");
    assert_eq!(q.position_string(), "gK9/10/10/10/10/3XbKX4/2X1X5/1X1X6/2X7/9yK g 0 - gby 0/0/0/0 -/-/-/- 0 5");
}

#[test]
fn e12_no_second_action() {
    let s = "gK8bK/10/10/10/10/10/10/10/9gG/rK6X1yK y 0 - gbyr 0/0/0/0 -/-/-/- 0 3";
    let p = pos4(s);
    assert_eq!(actions_of(&p).join(" "), "j1i1");
    let q = after(&p, "j1i1");
    assert_eq!(q.position_string(), "gK8bK/10/10/10/10/10/10/10/9gG/rK6X2 r 0 - gbr 0/0/0/0 -/-/-/- 0 4");
    let turns: Vec<String> = legal_turns(&p).into_iter().map(|t| t.0).collect();
    assert_eq!(turns, vec!["j1i1".to_string()]);
}

#[test]
fn e13_rounds() {
    let s = "bK7/8/8/8/3rG4/8/8/rK7 r 0 - rb 1/0 -/- 98 160";
    let mut p = pos(s);
    assert_eq!(
        actions_of(&p).join(" "),
        "a1a2 a1a3 a1a4 a1a5 a1a6 a1a7 a1b1 a1c1 a1d1 a1e1 a1f1 a1g1 a1h1 d4a4 d4b4 d4c4 d4d1 d4d2 d4d3 d4d5 d4d6 d4d7 d4d8 d4e4 d4f4 d4g4 d4h4"
    );
    let q = after(&p, "a1a2,d4d5");
    assert_eq!(q.position_string(), "bK7/8/8/3rG4/8/8/rK7/8 b 0 - rb 1/0 -/- 100 161");
    assert_eq!(result(&q).as_deref(), Some("win 1 rounds"));
    assert_eq!(result(&pos(&q.position_string())).as_deref(), Some("win 1 rounds"));
    assert_eq!(perft(&mut p, 1), 353);
    assert_eq!(perft(&mut p, 2), 0);
    assert_eq!(perft_actions(&mut p, 1), 27);
    assert_eq!(perft_actions(&mut p, 2), 353);
    assert_eq!(perft_actions(&mut p, 3), 0);
}

/// Speed of action-level perft from the start (a benchmark, not a check):
/// `cargo test --release -p tetrarch-core quadranj_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn quadranj_speed() {
    for (o, d, expect) in [(o2(), 4, 82_017_564u64), (o4(), 4, 20_335_148)] {
        let mut p = Quadranj::startpos(&o);
        let t = std::time::Instant::now();
        let n = perft_actions(&mut p, d);
        let dt = t.elapsed().as_secs_f64();
        assert_eq!(n, expect);
        eprintln!("{}: perft actions {d}: {n} in {dt:.2}s = {:.2} M actions/s", if o.four { "quadranj4" } else { "quadranj" }, n as f64 / dt / 1e6);
    }
}

// ---- properties on positions reached by random play ---------------------------

mod properties {
    use super::super::naive::{fast, Naive};
    use super::*;
    use proptest::prelude::*;

    /// Starts: both start positions, the worked examples, and crowded
    /// positions with walls, tall stacks and lone pilots.
    pub(super) fn start(i: usize) -> Quadranj {
        const MORE: [&str; 6] = [
            "7bK/8/2XbP4/1r3BXX4/2rPbB4/1XbPrB4/3b2B4/rK7 r 0 - rb 0/0 ?/? 0 1",
            "5bG1bK/2bPbBbBX2/4bBbGb2BbG/3XbB3/1rBrBbP4/rGr2BrGrB4/2r2BrB4/rK1rG5 b 0 - rb 0/0 ?/? 0 7",
            "7bK/3X4/1bBr4B5/1rBXrB4/2bPrPX3/8/8/rK7 r 0 - rb 0/0 c6:2/? 0 1",
            "gK8bK/10/2gBgPX5/2X1r3B5/2rBbB6/3yPyBX4/10/10/10/rK8yK r 0 - gbyr 0/0/0/0 ?/?/?/? 0 1",
            "gK1gG4bG1bK/3gB3bB2/gGgBgGgB2bBbGbBbG/1gBgBX3bBbB1/2X7/5X4/1rBrB4yByB1/rGrBrGrB2yByGyByG/2rBrB3yB2/rK1rG4yG1yK y 0 - gbyr 0/0/0/0 ?/?/?/? 0 3",
            "bK7/8/8/2rGbBrG3/2bPrPbP3/8/6rP1/rK7 r 0 - rb 0/0 ?/? 0 1",
        ];
        match i {
            0 => Quadranj::startpos(&o2()),
            1 => Quadranj::startpos(&o4()),
            2..=11 => pos(EX[i - 2].pos),
            12 => pos4("gK9/4rG5/7rG2/10/10/3XbKX4/2X1X5/1XrKX6/2X7/9yK r 1 h8 gbyr 0/0/0/0 -/-/-/- 1 4"),
            _ => {
                let s = MORE[(i - 13) % MORE.len()];
                if s.starts_with("gK") {
                    pos4(s)
                } else {
                    pos(s)
                }
            }
        }
    }

    pub(super) const STARTS: usize = 19;

    /// Random play keeps stacks at most 4 high, so the cascades of an
    /// unstacking (and the simple implementation's copies) stay small.
    fn too_tall(p: &Quadranj, a: Action) -> bool {
        let h = |s: usize| cell::height(p.code(s));
        match a.kind {
            moves::kind::STACK => h(a.a as usize) + a.contributors().map(h).sum::<usize>() > 4,
            moves::kind::CLIMB_IN => a.c == moves::kind::DRIVE_STACK && h(a.x as usize) >= 4,
            _ => false,
        }
    }

    fn choose(p: &Quadranj, l: &[Action], tactical: bool, r: usize) -> Action {
        let ok: Vec<Action> = l.iter().copied().filter(|&a| !too_tall(p, a)).collect();
        let pool = if ok.is_empty() { l.to_vec() } else { ok };
        let tac: Vec<Action> = pool.iter().copied().filter(|&a| effect(p, a)).collect();
        if tactical && !tac.is_empty() {
            tac[r % tac.len()]
        } else {
            pool[r % pool.len()]
        }
    }

    fn effect(p: &Quadranj, a: Action) -> bool {
        p.is_tactical(a) || matches!(a.kind, moves::kind::UNSTACK | moves::kind::CLIMB_IN | moves::kind::SWAP)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

        /// Along a random game: the fast generator and make equal the simple
        /// implementation (tokens, positions and results), make/unmake
        /// restores position and key, the incremental key equals the key
        /// from scratch, every token parses back to its action, and
        /// print(parse(s)) == s.
        #[test]
        fn random_games(st in 0usize..STARTS, picks in proptest::collection::vec(any::<u32>(), 1..40)) {
            let mut p = start(st);
            let opts = Options { four: p.geo.seats == 4, charge_before: p.charge_before };
            for pick in picks {
                let s = p.position_string();
                let q = Quadranj::from_position_string(&s, &opts).unwrap();
                prop_assert_eq!(q.position_string(), s.clone());
                prop_assert_eq!(q.key(), p.key());
                prop_assert_eq!(p.key(), p.key_from_scratch());
                prop_assert_eq!(q.outcome(), p.outcome(), "{}", s);
                let expect = Naive::from(&p).actions();
                let got = fast(&p);
                prop_assert_eq!(&got, &expect, "{}", s);
                if got.is_empty() {
                    prop_assert!(p.outcome().is_some());
                    break;
                }
                let mut l = ActionVec::default();
                p.legal_actions(&mut l);
                for (i, &a) in l.iter().enumerate() {
                    let tok = action_string(&p, a);
                    if i < 40 || i % 17 == 0 {
                        prop_assert_eq!(p.parse_action(&tok), Ok(a), "{}", tok);
                    }
                    let before = p.st;
                    let u = p.make(a);
                    prop_assert_eq!(p.key(), p.key_from_scratch(), "{} after {}", s, tok);
                    p.unmake(a, u);
                    prop_assert_eq!(p.st, before);
                }
                let a = choose(&p, &l, pick % 3 == 0, (pick / 3) as usize);
                p.make(a);
            }
        }
    }

    /// Seeded random games against the simple implementation reach the
    /// special rules.
    #[test]
    fn random_play_reaches_special_rules() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut seen = std::collections::BTreeMap::<String, u32>::new();
        for game in 0..64u64 {
            let mut p = start((game % STARTS as u64) as usize);
            if game % 5 == 0 {
                p.charge_before = true;
            }
            for _ in 0..80 {
                let mut l = ActionVec::default();
                p.legal_actions(&mut l);
                if l.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if game % 8 == 0 {
                    assert_eq!(fast(&p), Naive::from(&p).actions(), "{}", p.position_string());
                }
                let a = choose(&p, &l, seed % 2 == 0, (seed >> 8) as usize);
                let tok = action_string(&p, a);
                let kind = match a.kind {
                    moves::kind::MOVE => "move",
                    moves::kind::CLIMB_OUT => "climb out",
                    moves::kind::SWAP => "swap",
                    moves::kind::CHARGE => "charge",
                    moves::kind::CLIMB_IN => "climb in",
                    moves::kind::STACK => "stack",
                    _ => "unstack",
                };
                *seen.entry(kind.into()).or_default() += 1;
                if tok.contains('x') {
                    *seen.entry("landing capture".into()).or_default() += 1;
                }
                let tallies: u32 = p.st.tally.iter().sum();
                let in_game = p.st.in_game;
                p.make(a);
                if p.st.tally.iter().sum::<u32>() > tallies + (tok.contains('x') as u32) && a.kind != moves::kind::CHARGE {
                    *seen.entry("custodian".into()).or_default() += 1;
                }
                if p.st.in_game != in_game {
                    *seen.entry("out".into()).or_default() += 1;
                }
                if let Some(o) = p.outcome() {
                    *seen.entry(o.reason.into()).or_default() += 1;
                }
            }
        }
        eprintln!("{seen:?}");
        for k in ["move", "climb out", "swap", "charge", "climb in", "stack", "unstack", "landing capture", "custodian"] {
            assert!(seen.get(k).copied().unwrap_or(0) > 0, "{k}: {seen:?}");
        }
    }
}

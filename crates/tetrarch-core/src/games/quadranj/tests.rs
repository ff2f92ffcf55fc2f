//! Perft figures of §13, the worked examples of §12, divides of every action
//! type and end-of-turn rule, notation and set-up errors, and properties
//! against the simple rules in `naive`.

use super::*;
use crate::game::{action_string, GameInfo};
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

/// Red's first actions as tokens: as many as perft counts (the start-position
/// perft vectors are in `tests/data/perft.txt`).
#[test]
fn start_action_tokens() {
    let mut p = Quadranj::startpos(&o2());
    assert_eq!(actions_of(&p).len(), 134);
    assert_eq!(perft_actions(&mut p, 1), 134);
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
        eprintln!(
            "{}: perft actions {d}: {n} in {dt:.2}s = {:.2} M actions/s",
            if o.four { "quadranj4" } else { "quadranj" },
            n as f64 / dt / 1e6
        );
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

    /// The `threats` term the simple way: every unit against every seat,
    /// square by square (§6.2 item 1 and the value rule).
    fn naive_threats(p: &Quadranj) -> [i32; 4] {
        let g = p.geo;
        let st = &p.st;
        let unit = |u: usize| st.occ.has(u) && !st.walls.has(u) && cell::kind(st.cell[u]) != cell::T_ROYAL;
        let captures = |by: usize, u: usize| {
            let mine = |d: usize| g.step(u, d).is_some_and(|v| st.own[by].has(v));
            let sum: u32 =
                (0..8).filter_map(|d| g.step(u, d)).filter(|&v| st.own[by].has(v)).map(|v| cell::value2(st.cell[v])).sum();
            ((mine(0) && mine(2)) || (mine(1) && mine(3))) && sum >= 2 * cell::value2(st.cell[u])
        };
        let mut t = [0; 4];
        for s in (0..g.seats).filter(|&s| p.in_game(s)) {
            for u in (0..g.n * g.n).filter(|&u| unit(u)) {
                let v = cell::value2(st.cell[u]) as i32 * eval::THREAT;
                if !st.own[s].has(u) && captures(s, u) {
                    t[s] += v;
                }
                if st.own[s].has(u) && (0..g.seats).any(|e| e != s && p.in_game(e) && captures(e, u)) {
                    t[s] -= v;
                }
            }
        }
        t
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
            // The simple implementation and the strings know no history (§7.9).
            p.set_history_rules(false);
            let opts = Options { four: p.geo.seats == 4, charge_before: p.charge_before };
            for pick in picks {
                let s = p.position_string();
                let q = Quadranj::from_position_string(&s, &opts).unwrap();
                prop_assert_eq!(q.position_string(), s.clone());
                prop_assert_eq!(q.key(), p.key());
                prop_assert_eq!(p.key(), p.key_from_scratch());
                prop_assert_eq!(q.outcome(), p.outcome(), "{}", s);
                prop_assert_eq!(eval::threat_terms(&p), naive_threats(&p), "{}", s);
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
                    prop_assert!(p.is_legal(a), "{} {}", s, tok);
                    prop_assert_eq!(p.order_info(a), (p.is_tactical(a), p.order_hint(a)), "{}", tok);
                    let before = p.st;
                    let u = p.make(a);
                    prop_assert_eq!(p.key(), p.key_from_scratch(), "{} after {}", s, tok);
                    p.unmake(a, u);
                    prop_assert_eq!(p.st, before);
                }
                // Quiescence's shortcut never hides a tactical action.
                if p.no_tactical() {
                    prop_assert!(l.iter().all(|&a| !p.is_tactical(a)), "{}", s);
                }
                // The search's list: the legal actions in the same order
                // without the unstacking chains of more than SEARCH_LINKS.
                let mut sl = ActionVec::default();
                p.search_actions(&mut sl);
                let short: Vec<Action> =
                    l.iter().copied().filter(|a| a.kind != moves::kind::UNSTACK || a.b as usize <= SEARCH_LINKS).collect();
                prop_assert_eq!(&sl[..], &short[..], "{}", s);
                let a = choose(&p, &l, pick % 3 == 0, (pick / 3) as usize);
                p.make(a);
            }
        }
    }

    /// §6.7 against its literal reading ([`naive::arrangement_verdict`] on
    /// every recording so far, arrangements read off the simple board):
    /// seeded games whose seats mostly shuffle among their first few
    /// actions, 2 and 4 seats. After each turn, `make` (history rules on)
    /// must have done exactly what the verdict says to the position that
    /// the same turn gives with the history rules off.
    #[test]
    fn arrangement_rule_matches_literal_reading() {
        use super::super::naive::{arrangement, arrangement_verdict};
        let starts = [
            "bK7/8/8/3bG4/3rG4/8/8/rK7 r 0 - rb 0/0 -/- 0 1",
            "bK7/8/1bP6/3bG4/3rG4/6rP1/8/rK7 r 0 - rb 1/0 -/- 0 1",
            "gK8bK/10/10/3gG2bG3/10/10/3rG2yG3/10/10/rK8yK r 0 - gbyr 0/0/0/0 -/-/-/- 0 1",
            "gK8bK/10/10/3gG2bG3/10/10/3rP2yG3/10/10/rK8yK r 0 - gbyr 0/0/2/0 -/-/-/- 0 1",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut seen = [[0u32; 3]; 2]; // by seats: not repeating, one repeating, all repeating
        for game in 0..48 {
            let s = starts[game % starts.len()];
            let mut p = if s.starts_with("gK") { pos4(s) } else { pos(s) };
            let seats = p.geo.seats;
            let k = 4 + (game / starts.len()) % 8;
            let mut recs: Vec<(usize, Vec<String>)> = Vec::new();
            for _ in 0..60 {
                if p.outcome().is_some() {
                    break;
                }
                let x = p.st.to_move as usize;
                // Mostly a turn back to an arrangement x had before.
                let turns = legal_turns(&p);
                let back: Vec<&Vec<Action>> = turns
                    .iter()
                    .map(|(_, t)| t)
                    .filter(|t| {
                        let mut q = p.clone();
                        q.set_history_rules(false);
                        play_turn(&mut q, t);
                        q.in_game(x) && recs.iter().any(|r| r.0 == x && r.1 == arrangement(&q, x))
                    })
                    .collect();
                let r = rnd() as usize;
                let turn =
                    if !back.is_empty() && r % 4 != 0 { back[r / 4 % back.len()] } else { &turns[r / 4 % turns.len().min(k)].1 };
                let mut plain = p.clone();
                plain.set_history_rules(false);
                play_turn(&mut p, turn);
                play_turn(&mut plain, turn);
                let mut expect = plain.clone();
                if plain.outcome().is_none() && plain.in_game(x) {
                    recs.push((x, arrangement(&plain, x)));
                    let in_game: Vec<bool> = (0..seats).map(|s| plain.in_game(s)).collect();
                    let verdict = arrangement_verdict(&recs, &in_game);
                    seen[seats / 4][verdict.map_or(0, |all| 1 + all as usize)] += 1;
                    match verdict {
                        None => {}
                        Some(true) => expect.set_captures_decide(reason::REPETITION),
                        Some(false) if seats == 2 => expect.set_win(1 - x, reason::ARRANGEMENT),
                        Some(false) => {
                            expect.go_out(x);
                            if expect.st.in_game.count_ones() == 1 {
                                expect.set_win(expect.st.in_game.trailing_zeros() as usize, reason::ELIMINATION);
                            }
                        }
                    }
                }
                expect.st.arr_len = p.st.arr_len;
                assert_eq!(p.st, expect.st, "game {game}: {} after {recs:?}", p.position_string());
            }
        }
        eprintln!("{seen:?}");
        assert!(seen.iter().flatten().all(|&n| n > 0), "{seen:?}");
    }

    /// Seeded random games against the simple implementation reach the
    /// special rules.
    #[test]
    fn random_play_reaches_special_rules() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut seen = std::collections::BTreeMap::<String, u32>::new();
        for game in 0..64u64 {
            let mut p = start((game % STARTS as u64) as usize);
            p.set_history_rules(false);
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

// ---- hand-built checks of single rules -----------------------------------------

const CAPTURES: &str = "bK7/8/8/2bP5/1rBbP1bP3/rG2r3B4/bP7/rK7 r 0 - rb 0/0 ?/a2! 0 1";

fn has(p: &Quadranj, t: &str) -> bool {
    actions_of(p).iter().any(|a| a == t)
}

#[test]
fn landing_captures_and_keeps() {
    // A lone pilot is captured by landing (slide, step, climb out, drive,
    // unstack link and exit); x appears exactly then.
    let p = pos(CAPTURES);
    let a = actions_of(&p);
    assert!(a.contains(&"b4xc5".into()) && a.contains(&"b4^xc5".into()) && a.contains(&"b4xc4".into()), "{a:?}");
    assert!(a.contains(&"d3/1xc4".into()) && a.contains(&"d3/1xe4".into()), "{a:?}");
    assert!(!a.contains(&"b4c5".into()));
    // The Red guard may not enter Blue's Keep (a2 is Blue's), but a royal may.
    assert!(!a.iter().any(|t| t.starts_with("a3a2") || t.starts_with("a3xa2")));
    assert!(a.contains(&"a1xa2".into()));
    let q = after(&p, "b4xc5,a1xa2");
    assert!(q.position_string().contains(" rb 1/0 "), "{}", q.position_string());
    // Stack steps never enter a Keep.
    let p = pos("bK7/8/8/8/8/8/2r2B5/rK7 r 0 - rb 0/0 ?/? 0 1");
    assert!(has(&p, "c2c3") && !has(&p, "c2b2") && !has(&p, "c2b1") && !has(&p, "c2/1b2"));
}

#[test]
fn drive_and_stack_from_climb_in() {
    // Pilot on a4 climbs into b4 (wall), hops to c4; drives capture.
    let p = pos("bK7/8/8/2bP5/rPXXrB4/8/8/rK7 r 0 - rb 0/0 ?/? 0 1");
    let a = actions_of(&p);
    for t in ["a4:b4", "a4:c4", "a4:b4xc5", "a4:c4xc5", "a4:b4a4", "a4:c4+d4", "a4:b4+d4"] {
        let ok = a.contains(&t.to_string());
        assert_eq!(ok, t != "a4:b4+d4", "{t}: {a:?}");
    }
    let q = after(&p, "a4:c4+d4,a1a2");
    assert!(q.position_string().starts_with("bK7/8/8/2bP5/1X1r2B4/8/"), "{}", q.position_string());
}

#[test]
fn charges() {
    // Beyond: a guard pushed into an enemy Keep is removed (value 2); a royal
    // is pushed anywhere; an own unit, a stack or a lone pilot is no target.
    let p = pos("bK7/8/8/8/8/bG7/8/rK6rG r 0 - rb 0/0 ?/? 0 1");
    assert!(has(&p, "a1@a3"));
    let p = pos("bK7/8/7bG/8/8/8/8/2rG4rK r 0 - rb 0/0 ?/? 0 1");
    let q = after(&p, "h1@h6,c1c2");
    assert_eq!(q.position_string(), "bK7/8/7rK/8/8/8/2rG5/8 b 0 - rb 2/0 ?/? 1 2");
    // As a first action with nothing left to move, the mover loses (§6.3).
    let p = pos("bK7/8/7bG/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1");
    let q = after(&p, "h1@h6");
    assert_eq!(result(&q).as_deref(), Some("win 2 nomove"));
    assert_eq!(q.position_string(), "bK7/8/7rK/8/8/8/8/8 r 1 h6 rb 2/0 ?/? 0 1");
    assert_eq!(result(&pos(&q.position_string())).as_deref(), Some("win 2 nomove"));
    let p = pos("8/8/8/8/bK7/8/bG7/2rK5 r 0 - rb 0/0 ?/? 0 1");
    // c1 charges nothing along rank 1 toward a1? a1 empty, b1 empty.
    assert!(!actions_of(&p).iter().any(|t| t.contains('@')));
    let p = pos("7bK/8/8/8/8/8/bG7/3rK4 r 0 - rb 0/0 ?/? 0 1");
    assert!(!has(&p, "d1@a2"));
    let p = pos("7bK/8/8/8/bG7/8/8/rK1rG5 r 0 - rb 0/0 ?/? 0 1");
    // a1 → a4 guard: a2, a3 empty; beyond a5 empty: pushed to a5 (no Keep).
    let q = after(&p, "a1@a4,c1c2");
    assert!(q.position_string().starts_with("7bK/8/8/bG7/rK7/8/2rG5/8 "), "{}", q.position_string());
    // Before: the guard goes to b1, inside Blue's own Keep: allowed.
    let p = pos_with("7bK/8/8/8/8/8/7rG/rK1bG5 r 0 - rb 0/0 ?/? 0 1", &before());
    let q = after(&p, "a1@c1,h2h3");
    assert!(q.position_string().starts_with("7bK/8/8/8/8/7rG/8/1bGrK5 "), "{}", q.position_string());
    // A royal target is pushed, never removed.
    let p = pos("7rG/8/8/8/8/8/8/rK2bK4 r 0 - rb 0/0 ?/? 0 1");
    let q = after(&p, "a1@d1,h8h7");
    assert!(q.position_string().starts_with("8/7rG/8/8/8/8/8/3rKbK3 "), "{}", q.position_string());
}

#[test]
fn custodian_thresholds() {
    // A lone pilot between two Red pilots: 1 + 1 >= 2·½: captured.
    let p = pos("bK7/8/8/8/1rPbPrP4/7rG/8/rK7 r 0 - rb 0/0 ?/? 0 1");
    let q = after(&p, "a1b1,h3h2");
    assert!(q.position_string().starts_with("bK7/8/8/8/1rP1rP4/"), "{}", q.position_string());
    assert!(q.position_string().contains(" rb 0.5/0 "));
    // A guard needs 4 (value 2 → 2·2): two pilots and a single are 2.5.
    let p = pos("bK7/8/8/2rB5/1rPbGrP4/7rG/8/rK7 r 0 - rb 0/0 ?/? 0 1");
    let q = after(&p, "a1b1,h3h2");
    assert!(q.position_string().starts_with("bK7/8/8/2rB5/1rPbGrP4/"), "{}", q.position_string());
    // Brackets must be orthogonal on one axis: diagonal units only add value.
    let p = pos("bK7/8/8/1rGrG5/2bB5/1rG6/8/rK7 r 0 - rb 0/0 ?/? 0 1");
    let q = after(&p, "a1a2,b3a3");
    assert!(q.position_string().starts_with("bK7/8/8/1rGrG5/2bB5/"), "{}", q.position_string());
    // Pending capture: Blue steps between, Red captures at the end of its next turn.
    let p = pos("bK7/8/8/8/1rG1rG4/2bB5/7rG/rK7 b 0 - rb 0/0 ?/? 0 5");
    let q = after(&p, "c3c4,a8a7");
    assert!(q.position_string().contains("bB"));
    let q = after(&q, "a1b1,h2h3");
    assert!(!q.position_string().contains("bB"), "{}", q.position_string());
    assert!(q.position_string().contains(" rb 1/0 "));
}

#[test]
fn four_player_out_keep_inactive() {
    // Blue is out: its Keep (a1 a2 b1 b2) no longer stops Red's single.
    let p = pos4("gK9/10/10/10/10/10/10/10/1rB8/rK8yK r 0 - gyr 0/0/0/0 -/-/-/- 0 9");
    assert!(has(&p, "b2a2") && has(&p, "b2b1"));
    // A seat that is out: `-` burglar, no units; errors otherwise.
    assert!(Quadranj::from_position_string("gK9/10/10/10/10/10/10/10/1rB8/rK8yK r 0 - gyr 0/0/0/0 -/?/-/- 0 9", &o4()).is_err());
}

#[test]
fn action_list_grows() {
    // An 8-high stack in the open: far more actions than the inline capacity.
    let p = pos("bK7/8/8/3r8B4/8/8/8/rK7 r 0 - rb 0/0 ?/? 0 1");
    let mut l = ActionVec::default();
    p.legal_actions(&mut l);
    assert!(l.len() > 100_000, "{}", l.len());
    let mut seen = std::collections::HashSet::new();
    for &a in l.iter().step_by(97) {
        assert!(seen.insert(action_string(&p, a)));
    }
}

// ---- notation errors ----------------------------------------------------------

#[test]
fn bad_position_strings() {
    let cases: [(&str, &str); 28] = [
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0", "expected 9 fields"),
        ("7bK/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "field 1 (board): expected 8 ranks"),
        ("7bK/8/8/8/8/8/7/7rK r 0 - rb 0/0 ?/? 0 1", "rank 2 has 7 cells, expected 8"),
        ("7bK/8/8//8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "rank 5 is empty"),
        ("7bK/8/8/08/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "has a leading zero"),
        ("7bK/8/8/r1B7/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "height"),
        ("7bK/8/8/r2G6/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "a height is given to `G`"),
        ("7bK/8/8/gB7/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "character `g`"),
        ("7bK/8/8/8/8/8/8/8 r 0 - rb 0/0 ?/? 0 1", "Red has 0 royals"),
        ("7bK/8/8/rGrGrGrG4/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "4 guards"),
        ("7bK/8/8/r9B7/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "9 pilots"),
        ("7bK/8/8/8/8/8/X7/7rK r 0 - rb 0/0 ?/? 0 1", "empty blocker on a2"),
        ("7bK/8/8/8/8/8/rB7/7rK r 0 - rb 0/0 ?/? 0 1", "column on a2"),
        ("7bK/8/8/8/8/8/rG7/7rK r 0 - rb 0/0 ?/? 0 1", "guard of Red on a2"),
        ("7bK/6rP1/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1", "lone pilot of Red on g7"),
        ("7bK/8/8/8/8/8/8/7rK g 0 - rb 0/0 ?/? 0 1", "field 2 (seat to move)"),
        ("7bK/8/8/8/8/8/8/7rK r 2 - rb 0/0 ?/? 0 1", "field 3 (action index)"),
        ("7bK/8/8/8/8/8/8/7rK r 1 - rb 0/0 ?/? 0 1", "field 4 (moved marks)"),
        ("7bK/8/8/8/8/8/8/7rK r 1 a8 rb 0/0 ?/? 0 1", "neither a unit of the seat to move"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - br 0/0 ?/? 0 1", "field 5"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0.25 ?/? 0 1", "field 6 (tallies)"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 ?! /? 0 1", "expected 9 fields"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 a3/? 0 1", "no lone pilot of Red"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 102 1", "field 8 (quiet counter)"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0 0", "field 9 (turn number)"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0 1000000001", "at most 1000000000"),
        ("7bK/8/8/8/8/8/8/7rK r 0 - rb 0/0 ?/? 0 4294967295", "at most 1000000000"),
        ("7rK/8/8/8/8/8/8/bK7 r 0 - rb 0/0 ?/? 0 1", "two seats stand on their homes"),
    ];
    for (s, want) in cases {
        match Quadranj::from_position_string(s, &o2()) {
            Ok(_) => panic!("accepted: {s}"),
            Err(e) => assert!(e.to_string().contains(want), "{s}: `{e}` lacks `{want}`"),
        }
    }
    // 8×8 board given to quadranj4, 10×10 to quadranj.
    assert!(Quadranj::from_position_string(START8, &o4()).unwrap_err().to_string().contains("ranks"));
    assert!(Quadranj::from_position_string(START10, &o2()).unwrap_err().to_string().contains("ranks"));
    // quadranj4: the seat to move must have an action (§7.11 item 11).
    let e = Quadranj::from_position_string("gK8bK/10/10/10/10/10/10/10/9gG/rK6XgGyK y 1 j1 gbyr 0/0/0/0 -/-/-/- 0 3", &o4());
    assert!(e.is_err());
}

#[test]
fn bad_tokens() {
    let p = Quadranj::startpos(&o2());
    let malformed = ["", "a1", "a9a1", "b3/01a4", "b3/1a4.", "a1-a2", "a3^", "c2d2d3b3"];
    for t in malformed {
        assert!(matches!(p.parse_action(t), Err(TokenError::Malformed(_))), "{t}: {:?}", p.parse_action(t));
    }
    let illegal = ["0000", "a1a3", "d3c2+b3", "d2d3c2+b3", "b3+b3", "c1xd1", "b3/1a5", "a3a2", "b3/1a4.b3^a5"];
    for t in illegal {
        assert!(matches!(p.parse_action(t), Err(TokenError::Illegal(_))), "{t}: {:?}", p.parse_action(t));
    }
    assert!(p.parse_action("d3c2+b3").unwrap_err().to_string().contains("c2d3+b3"));
    assert!(parse_turn(&p, "a1a2").is_err(), "a turn has two actions");
    assert!(parse_turn(&p, "a1a2,a3a4").is_ok());
    assert!(parse_turn(&p, "a1a2,a1b1").is_err(), "the royal has moved");
}

#[test]
fn setup_tokens() {
    let p = Quadranj::from_setup(&["b3:2", "?"], &o2()).unwrap();
    assert!(p.position_string().ends_with(" b3:2/? 0 1"), "{}", p.position_string());
    let p = Quadranj::from_setup(&["?", "e6:1"], &o2()).unwrap();
    assert!(p.position_string().ends_with(" ?/e6:1 0 1"));
    let p = Quadranj::from_setup(&["?", "?"], &o2()).unwrap();
    assert_eq!(p.position_string(), START8);
    for (toks, want) in [
        (vec!["b3:3", "?"], "token 1 `b3:3` of seat p1"),
        (vec!["e6:1", "?"], "no column of this seat"),
        (vec!["?", "b3"], "`<square>:<level>`"),
        (vec!["?", "e6:0"], "level"),
        (vec!["?"], "expected 2"),
        (vec!["z9:1", "?"], "not a square"),
    ] {
        let e = Quadranj::from_setup(&toks, &o2()).unwrap_err().to_string();
        assert!(e.contains(want), "{toks:?}: {e}");
    }
    for seat in 0..4 {
        for seed in 0..6 {
            let t = Quadranj::propose_setup(&o4(), seat, seed).unwrap();
            let mut toks = vec!["?"; 4];
            toks[seat] = &t;
            Quadranj::from_setup(&toks, &o4()).unwrap_or_else(|e| panic!("{t}: {e}"));
        }
    }
    for seat in 0..2 {
        let t = Quadranj::propose_setup(&o2(), seat, 3).unwrap();
        let mut toks = vec!["?"; 2];
        toks[seat] = &t;
        Quadranj::from_setup(&toks, &o2()).unwrap();
    }
    // An explicit burglar: only it may enter the Keep.
    let p = pos("bK7/8/5rBrB1/8/8/8/8/7rK r 0 - rb 0/0 f6:1/? 0 1");
    assert!(has(&p, "f6^g7") && !has(&p, "g6^g7"));
    // Options.
    let mut o = o2();
    assert!(Quadranj::set_option(&mut o, "qj_chargelanding", "before").is_ok() && o.charge_before);
    assert!(Quadranj::set_option(&mut o, "QJ_ChargeLanding", "sideways").is_err() && o.charge_before);
}

// ---- repetition (§6.6, §6.7) ----------------------------------------------------

/// Plays `turns` from `start` as a game (history rules on), the result
/// after each turn by the position's rules or §6.6 on the keys.
fn play_game(start: &str, turns: &[&str]) -> Vec<Option<String>> {
    let mut p = pos(start);
    let mut history = Vec::new();
    let mut out = Vec::new();
    for t in turns {
        assert!(p.outcome().or_else(|| p.history_outcome(&history)).is_none(), "{out:?}");
        history.push(p.key());
        p = after(&p, t);
        out.push(p.outcome().or_else(|| p.history_outcome(&history)).map(|o| o.to_string()));
    }
    out
}

#[test]
fn repetition_both_shuffling() {
    let s = "bK7/8/8/3bG4/3rG4/8/8/rK7 r 0 - rb 0/0 -/- 0 1";
    let red = ["a1b1,d4c4", "b1a1,c4d4"];
    let blue = ["a8b8,d5e5", "b8a8,e5d5"];
    let turns: Vec<&str> = (0..11).map(|i| if i % 2 == 0 { red[(i / 2) % 2] } else { blue[(i / 2) % 2] }).collect();
    let r = play_game(s, &turns);
    // Red's arrangement A is recorded at turns 3, 7, 11 with Blue repeating too.
    assert!(r[..10].iter().all(|o| o.is_none()), "{r:?}");
    assert_eq!(r[10].as_deref(), Some("draw repetition"));
}

#[test]
fn repetition_one_shuffling_loses() {
    let s = "bK7/8/8/3bG4/3rG4/8/8/rK7 r 0 - rb 0/0 -/- 0 1";
    let red = ["a1b1,d4c4", "b1a1,c4d4"];
    let blue = ["a8b8,d5e5", "b8a8,e5f5", "a8b8,f5g5", "b8a8,g5h5", "a8b8,h5h6"];
    let turns: Vec<&str> = (0..11).map(|i| if i % 2 == 0 { red[(i / 2) % 2] } else { blue[i / 2] }).collect();
    let r = play_game(s, &turns);
    assert!(r[..10].iter().all(|o| o.is_none()), "{r:?}");
    assert_eq!(r[10].as_deref(), Some("win 2 arrangement"));
}

#[test]
fn repetition_of_position() {
    // Unknown history keys (never shown to history_outcome) still allow §6.6.
    let p = pos("bK7/8/8/3bG4/3rG4/8/8/rK7 r 0 - rb 0/0 -/- 0 1");
    let k = p.key() ^ 0x1234; // same board (high bits), other low bits
    assert_eq!(p.history_outcome(&[1 << 20, k, k]).map(|o| o.to_string()).as_deref(), Some("draw repetition"));
    assert_eq!(p.history_outcome(&[k, 1 << 20, k]), None, "a new boundary since");
    assert_eq!(p.history_outcome(&[1 << 20, k]), None);
    let q = pos("bK7/8/8/3bG4/3rG4/8/8/rK7 r 0 - rb 1/0 -/- 0 1");
    assert_eq!(q.history_outcome(&[1 << 20, k, k]).map(|o| o.to_string()).as_deref(), Some("win 1 repetition"));
    // What a search expects of a repetition: the captures decide (§6.6).
    assert_eq!(q.repetition_outcome().map(|o| o.to_string()).as_deref(), Some("win 1 repetition"));
    assert_eq!(p.repetition_outcome().map(|o| o.to_string()).as_deref(), Some("draw repetition"));
}

#[test]
fn threats_by_value() {
    let threats = |s: &str, seat: usize| crate::game::eval_term(&pos(s), seat, "threats");
    // Blue's guard on d4 between Red's guards on c4 and e4: 2 + 2 is twice
    // its value, enough (§6.2): Red gains it, Blue stands to lose it.
    let t = 4 * eval::THREAT;
    assert_eq!(threats("bK7/8/8/8/2rGbGrG3/8/8/rK7 r 0 - rb 0/0 -/- 0 1", 0), 2 * t);
    assert_eq!(threats("bK7/8/8/8/2rGbGrG3/8/8/rK7 r 0 - rb 0/0 -/- 0 1", 1), -2 * t);
    // A lone pilot for one guard: 2 + ½ is not enough.
    assert_eq!(threats("bK7/8/8/8/2rGbGrP3/8/8/rK7 r 0 - rb 0/0 -/- 0 1", 0), 0);
    // ... unless a column of height 2 stands beside as well (2 + ½ + 2).
    assert_eq!(threats("bK7/8/8/3r2B4/2rGbGrP3/8/8/rK7 r 0 - rb 0/0 -/- 0 1", 0), 2 * t);
    // Brackets on one axis only: c4 and d5 do not.
    assert_eq!(threats("bK7/8/8/3rG4/2rGbG4/8/8/rK7 r 0 - rb 0/0 -/- 0 1", 0), 0);
}

#[test]
fn search_hooks_and_render() {
    for o in [o2(), o4()] {
        let s = Quadranj::startpos(&o);
        for seat in 0..s.seats() {
            assert_eq!(crate::game::eval_value(&s, seat), 0, "{o:?}");
        }
        let names: Vec<&str> = crate::game::eval_terms_of(&s, 0).iter().map(|t| t.0).collect();
        assert_eq!(names, ["material", "race", "threats", "royal", "home", "arrival"]);
        let r = s.render();
        assert_eq!(r.lines().count(), s.geo.n + 1, "{r}");
    }
    let p = pos(CAPTURES);
    let cap = p.parse_action("b4xc5").unwrap();
    let quiet = p.parse_action("b4a5").unwrap();
    assert!(p.is_tactical(cap) && !p.is_tactical(quiet));
    // Red's royal on h1, its home h8 up a clear file; Blue's royal on a8,
    // its home a1 holding its own guard, and both corner roads start or end
    // on the royal's own square or the home: no road.
    let q = pos("bK7/8/8/8/8/8/8/bG6rK r 0 - rb 0/0 -/- 0 1");
    // A move onto the mover's home is tactical (it wins at once).
    assert!(q.is_tactical(q.parse_action("h1h8").unwrap()));
    assert!(!q.is_tactical(q.parse_action("h1h7").unwrap()));
    let home = |p: &Quadranj, seat: usize| crate::game::eval_term(p, seat, "home");
    assert_eq!(home(&q, 0), eval::HOME_LINE);
    assert_eq!(home(&q, 1), -eval::HOME_LINE);
    // A unit on h4 closes the file, and Red's two corners are h8 (the home)
    // and h1 (the royal): no road.
    let q = pos("bK7/8/8/8/7bG/8/8/bG6rK r 0 - rb 0/0 -/- 0 1");
    assert_eq!(home(&q, 0), 0);
    // Red's royal on d4: two corner roads (d8 then h8, h4 then h8).
    let q = pos("bK7/8/8/8/3rK4/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(home(&q, 0), 2 * eval::HOME_CORNER);
    // The gate (Red's Keep g7 g8 h7 h8): on f8, beside the free g8, the
    // slide home crosses only Keep squares.
    let q = pos("bK4rK2/8/8/8/8/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(home(&q, 0), eval::HOME_LINE + eval::GATE_LINE);
    // On e8 the slide home is as clear, but f8 is no Keep square.
    let q = pos("bK3rK3/8/8/8/8/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(home(&q, 0), eval::HOME_LINE);
    // On f7, beside the free g7: two corner roads (f8, h7) and the gate.
    let q = pos("bK7/5rK2/8/8/8/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(home(&q, 0), 2 * eval::HOME_CORNER + eval::GATE);
    // A Red guard on g7 fills the Keep square beside it: no gate, and only
    // the road by f8 is left.
    let q = pos("bK7/5rKrG1/8/8/8/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(home(&q, 0), eval::HOME_CORNER);
    assert!(p.order_hint(cap) > p.order_hint(quiet));
    // The royal's room in quadranj4 (the other royals on c7, e5 and g7
    // have 4 free squares each, 60): Red's on e1 with a Blue guard on e2
    // has 2 free squares and no unit to swap with; a Red guard on d2 is a
    // way out, as one on d1 taking one of the squares; Blue guards leave
    // it one square, then none (a Red guard on j4 keeps Red an action).
    // In quadranj only a boxed-in royal counts.
    let royal = |r2: &str, r1: &str| {
        let s = format!("10/10/10/2gK3yK3/10/4bK5/9rG/10/{r2}/{r1} r 0 - gbyr 0/0/0/0 -/-/-/- 0 1");
        crate::game::eval_term(&pos4(&s), 3, "royal")
    };
    let f = eval::ROYAL_FREE;
    assert_eq!(royal("4bG5", "4rK5"), 2 * f - eval::TIGHT2 - 4 * f);
    assert_eq!(royal("3rGbG5", "4rK5"), 2 * f - 4 * f);
    assert_eq!(royal("4bG5", "3rGrK5"), f - 4 * f);
    assert_eq!(royal("4bG5", "3bGrK5"), f - eval::TIGHT1 - 4 * f);
    assert_eq!(royal("4bG5", "3bGrKbG4"), -eval::BOXED - 4 * f);
    // A Blue guard on d5 and a Yellow one on f4 could fill d1 and f1: with
    // Red to move that is only TIGHT2; with Green to move two opponents
    // could close the box before Red moves again (BOX_RISK).
    let boxed = |mover: &str| {
        let s = format!("10/10/10/2gK3yK3/10/3bGbK5/5yG3rG/10/4bG5/4rK5 {mover} 0 - gbyr 0/0/0/0 -/-/-/- 0 1");
        crate::game::eval_term(&pos4(&s), 3, "royal")
    };
    let others = (4 * f + 3 * f + 4 * f) / 3;
    assert_eq!(boxed("r"), 2 * f - eval::TIGHT2 - others);
    assert_eq!(boxed("g"), 2 * f - eval::TIGHT2 - eval::BOX_RISK[2] - others);
    let royal2 = |s: &str| crate::game::eval_term(&pos(&format!("{s} r 0 - rb 0/0 -/- 0 1")), 0, "royal");
    assert_eq!(royal2("8/8/8/3bK4/8/8/8/6bGrK"), f - 4 * f);
    assert_eq!(royal2("8/8/8/3bK4/8/8/7bG/6bGrK"), -eval::BOXED - 4 * f);
}

/// The `arrival` term: a road home through the seat's own Keep is sure
/// whoever is to move; a road any unit could still block counts for the
/// seat to move, and for a seat that moves before the evaluated one.
#[test]
fn arrival_roads() {
    let arrival_term = |p: &Quadranj, seat: usize| crate::game::eval_term(p, seat, "arrival");
    // Red's royal on h1, its home h8 up a clear file: Red to move arrives
    // now; with Blue to move Blue may block it first.
    let q = pos("bK7/8/8/8/8/8/8/bG6rK r 0 - rb 0/0 -/- 0 1");
    assert_eq!(eval::arrival(&q, 0), Some((0, 0)));
    assert_eq!(arrival_term(&q, 0), eval::ARRIVAL);
    assert_eq!(arrival_term(&q, 1), -eval::ARRIVAL);
    let q = pos("bK7/8/8/8/8/8/8/bG6rK b 0 - rb 0/0 -/- 0 1");
    assert_eq!((eval::arrival(&q, 0), eval::arrival(&q, 1)), (None, None));
    // Red's royal moved this turn: it cannot slide home before Blue moves.
    let q = pos("bK7/8/8/8/8/8/8/bG6rK r 1 h1 rb 0/0 -/- 0 1");
    assert_eq!((eval::arrival(&q, 0), eval::arrival(&q, 1)), (None, None));
    // On f8 the road home crosses only g8, a square of Red's Keep: sure,
    // one seat turn away with Blue to move.
    let q = pos("bK4rK2/8/8/8/8/8/8/bG7 b 0 - rb 0/0 -/- 0 1");
    assert_eq!(eval::arrival(&q, 1), Some((0, 1)));
    assert_eq!(arrival_term(&q, 1), -eval::ARRIVAL + eval::ARRIVAL_SLOT);
    // On f4 no road home, but a slide to f8, beside the Keep square g8,
    // then home: Red to move arrives in its second turn, after Blue's
    // (slot 2). A Blue guard on f6 closes the file.
    let q = pos("bK7/8/8/8/5rK2/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(eval::arrival(&q, 0), Some((0, 2)));
    assert_eq!(arrival_term(&q, 0), eval::ARRIVAL - 2 * eval::ARRIVAL_SLOT);
    let q = pos("bK7/8/5bG2/8/5rK2/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(eval::arrival(&q, 0), None);
    // On c7 a slide straight into the Keep (h7, beside home): also two turns.
    let q = pos("bK7/2rK5/8/8/8/8/8/bG7 r 0 - rb 0/0 -/- 0 1");
    assert_eq!(eval::arrival(&q, 0), Some((0, 2)));

    // quadranj4, seats in turn order Green, Blue, Yellow, Red: Red's royal
    // on j5 has a clear file to its home j10. With Green to move every
    // other seat moves before Red and may block; with Yellow to move Red
    // comes next, so Green and Blue (after Red) must expect the arrival,
    // and Yellow (before it) need not.
    let b = "10/10/10/4bK5/4gK5/9rK/5yK4/10/10/10";
    let q = pos4(&format!("{b} g 0 - gbyr 0/0/0/0 -/-/-/- 0 1"));
    for seat in 0..4 {
        assert_eq!(eval::arrival(&q, seat), None, "seat {seat}");
    }
    let q = pos4(&format!("{b} y 0 - gbyr 0/0/0/0 -/-/-/- 0 1"));
    assert_eq!(eval::arrival(&q, 0), Some((3, 1)));
    assert_eq!(eval::arrival(&q, 1), Some((3, 1)));
    assert_eq!(eval::arrival(&q, 2), None);
    assert_eq!(eval::arrival(&q, 3), None);
    assert_eq!(arrival_term(&q, 0), -eval::ARRIVAL + eval::ARRIVAL_SLOT);
    // A seat that went out has lost, whatever the board.
    let q = pos4("10/10/10/4bK5/10/9rK/5yK4/10/10/10 b 0 - byr 0/0/0/0 -/-/-/- 0 1");
    assert_eq!(arrival_term(&q, 0), -eval::OUT);
    assert!(crate::game::eval_value(&q, 0) < -eval::ARRIVAL);
}

/// `skip_to` (Best-Reply Search in `quadranj4`): at a turn start another
/// seat in the game becomes the seat to move with its own actions, and
/// `unskip` gives back the position exactly; never mid-turn, never in the
/// 2-player game, never to the seat already to move.
#[test]
fn skip_to_hands_the_turn_to_another_seat_at_a_turn_start() {
    let mut p = Quadranj::startpos(&o4());
    let (key, s0) = (p.key(), p.position_string());
    let first = p.to_move();
    let other = (first + 1) % 4;
    assert!(p.skip_to(first).is_none());
    let u = p.skip_to(other).expect("a turn start of quadranj4");
    assert_eq!(p.to_move(), other);
    assert_ne!(p.key(), key);
    // The actions are the other seat's: the same as in the position string
    // with that seat to move.
    let s_other = p.position_string();
    let q = pos4(&s_other);
    assert_eq!(q.to_move(), other);
    let (mut a, mut b) = (<Quadranj as Rules>::Actions::default(), <Quadranj as Rules>::Actions::default());
    p.legal_actions(&mut a);
    q.legal_actions(&mut b);
    assert!(!a.is_empty());
    assert_eq!(a.len(), b.len());
    p.unskip(u);
    assert_eq!((p.key(), p.position_string()), (key, s0));

    // Mid-turn (after the first action): no.
    let mut acts = <Quadranj as Rules>::Actions::default();
    p.legal_actions(&mut acts);
    let a0 = acts.iter().copied().find(|&x| {
        let mut c = p.clone();
        c.make(x);
        !c.at_turn_start()
    });
    p.make(a0.expect("a first action that leaves the turn open"));
    assert!(p.skip_to(other).is_none());
    // The 2-player game: no.
    let mut p2 = Quadranj::startpos(&o2());
    assert!(p2.skip_to(1 - p2.to_move()).is_none());
}

// ---- cues of the board view (issue 42) ----------------------------------------

/// `p` after the first action `t` of a turn.
fn first(p: &Quadranj, t: &str) -> Quadranj {
    let mut q = p.clone();
    let a = q.parse_action(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    q.make(a);
    q
}

/// The cells of `p`'s board view with a pending-capture mark: (cell, seat).
fn pending_marks(p: &Quadranj) -> Vec<(String, Option<usize>)> {
    let v = p.board_view().unwrap();
    let mut out = Vec::new();
    for c in &v.cells {
        for m in &c.marks {
            assert_eq!(m.kind, crate::view::MarkKind::PendingCapture);
            out.push((c.name.clone(), m.seat));
        }
    }
    out
}

/// The mark text on `cell`.
fn mark_text(p: &Quadranj, cell: &str) -> String {
    let v = p.board_view().unwrap();
    v.cells.iter().find(|c| c.name == cell).unwrap().marks.iter().map(|m| m.text.clone()).collect::<Vec<_>>().join(" | ")
}

/// The cells of `p`'s board view holding a piece marked as having acted.
fn acted_cells(p: &Quadranj) -> Vec<String> {
    let v = p.board_view().unwrap();
    v.cells.iter().filter(|c| c.pieces.iter().any(|x| x.acted.is_some())).map(|c| c.name.clone()).collect()
}

#[test]
fn view_marks_pending_captures_where_the_rules_capture() {
    // Blue's single steps between two Red guards (c3c4): it is captured at
    // the end of Red's next turn (§6.2), and the board says so from then on.
    let p = pos("bK7/8/8/8/1rG1rG4/2bB5/7rG/rK7 b 0 - rb 0/0 ?/? 0 5");
    assert_eq!(pending_marks(&p), vec![]);
    let mid = first(&p, "c3c4");
    assert!(!mid.at_turn_start());
    assert_eq!(pending_marks(&mid), vec![("c4".to_string(), Some(0))]);
    assert!(mark_text(&mid, "c4").contains("Red's next turn"), "{}", mark_text(&mid, "c4"));
    let q = after(&p, "c3c4,a8a7");
    assert_eq!(pending_marks(&q), vec![("c4".to_string(), Some(0))]);
    assert!(mark_text(&q, "c4").contains("this turn (Red's)"), "{}", mark_text(&q, "c4"));
    // Red's turn ends with the bracket in place: the marked unit goes.
    let r = after(&q, "a1b1,h2h3");
    assert!(!r.position_string().contains("bB"), "{}", r.position_string());
    assert_eq!(pending_marks(&r), vec![]);

    // Both seats at once: d4 (Blue, between Red singles) falls at the end of
    // Red's turn under way, d6 (Red, between Blue singles) at the end of
    // Blue's next turn; nothing else is marked.
    let p = pos("7bK/8/2bBrBbB3/8/2rBbBrB3/8/8/rK7 r 0 - rb 0/0 -/- 0 5");
    let mut marks = pending_marks(&p);
    marks.sort();
    assert_eq!(marks, vec![("d4".to_string(), Some(0)), ("d6".to_string(), Some(1))]);
    assert!(mark_text(&p, "d6").contains("Blue's next turn"), "{}", mark_text(&p, "d6"));
    // The mark follows the rules' threshold: a guard needs twice its value.
    let p = pos("bK7/8/8/2rB5/1rPbGrP4/7rG/8/rK7 r 0 - rb 0/0 ?/? 0 1");
    assert_eq!(pending_marks(&p), vec![]);
}

#[test]
fn view_marks_what_moved_this_turn() {
    let p = pos(START8);
    assert_eq!(acted_cells(&p), Vec::<String>::new());
    // A guard slides: it alone is pale, with the reason on a tap.
    let q = first(&p, "a3a4");
    assert_eq!(acted_cells(&q), ["a4"]);
    assert!(q.idle_reason("a4").unwrap().contains("moved this turn"));
    assert_eq!(q.idle_reason("c3"), None);
    assert_eq!(q.idle_reason("h8"), None);
    // A stack steps: every layer of it is pale.
    let q = first(&p, "b3a4");
    assert_eq!(acted_cells(&q), ["a4"]);
    let v = q.board_view().unwrap();
    let a4 = v.cells.iter().find(|c| c.name == "a4").unwrap();
    assert_eq!(a4.pieces.len(), 2);
    assert!(a4.pieces.iter().all(|x| x.acted.is_some()));
    // The turn over, nothing is pale.
    let mut l = ActionVec::default();
    q.legal_actions(&mut l);
    let mut r = q.clone();
    r.make(l[0]);
    assert!(r.at_turn_start());
    assert_eq!(acted_cells(&r), Vec::<String>::new());
    assert_eq!(r.idle_reason("a4"), None);
}

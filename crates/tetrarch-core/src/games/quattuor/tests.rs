//! Perft figures of §10.3, the worked examples of §11, special-rule divides,
//! notation and set-up errors, and properties against the simple rules.

use super::*;
use crate::game::{action_string, GameInfo};
use crate::turns::{divide, legal_turns, parse_turn, perft, perft_actions, play_turn};

fn pos(s: &str) -> Quattuor {
    Quattuor::from_position_string(s, &Options).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn actions_of(p: &Quattuor) -> Vec<String> {
    let mut l = <Quattuor as Rules>::Actions::default();
    p.legal_actions(&mut l);
    let mut v: Vec<String> = l.iter().map(|&a| action_string(p, a)).collect();
    v.sort();
    v
}

fn play(p: &mut Quattuor, t: &str) {
    let acts = parse_turn(p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    play_turn(p, &acts);
}

#[test]
fn start_position() {
    let p = Quattuor::startpos(&Options);
    assert_eq!(p.position_string(), START);
    let q = Quattuor::from_setup(&START_SETUP, &Options).unwrap();
    assert_eq!(q.position_string(), START);
    assert_eq!(q.key(), p.key());
    assert_eq!(setup_token(&p, 0), START_SETUP[0]);
    assert_eq!(setup_token(&p, 1), START_SETUP[1]);
}

/// After Red passes its first turn (§10.3): Black to move with two actions
/// (the start-position vectors are in `tests/data/perft.txt`).
#[test]
fn perft_after_a_first_pass() {
    let mut p = Quattuor::startpos(&Options);
    play(&mut p, "0000");
    assert_eq!(perft(&mut p, 1), 61_017);
}

// ---- §11 worked examples -----------------------------------------------------

const E: [&str; 9] = [
    "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hK16 r - d7d8d9dTdJdQdKdAh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 3",
    "14cK1sK/16/17/16/17/16/17/16/17/16/17/16/17/c715/hKhJ15 r - d7d8d9dTdJdQdKdAh7h8h9hThQhAc8c9cTcJcQcAs7s8s9sTsJsQsA - 3",
    "16sK/16/17/16/17/16/17/16/17/16/17/16/17/1cQc813/d71dA14 r - d8d9dTdJdQdKh7h8h9hThJhQhKhAc7c9cTcJcKcAs7s8s9sTsJsQsA - 3",
    "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hK15dK r - d7d8d9dTdJdQdAh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 3",
    "16sK/16/17/16/17/16/17/16/17/16/17/16/17/1sA14/dKdQ15 b - d7d8d9dTdJdAh7h8h9hThJhQhKhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQ - 4",
    "16sK/16/17/16/10hT6/16/17/16/17/16/17/5d710/17/16/hK15dK r - d8d9dTdJdQdAh7h8h9hJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 3",
    "16sK/16/8h88/16/17/16/17/16/17/16/17/16/17/16/hK16 r - d7d8d9dTdJdQdKdAh7h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 3",
    "16sK/16/17/16/10h86/16/17/16/17/16/4d82dA9/16/17/16/hK16 r - d7d9dTdJdQdKh7h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 3",
    "17/15s9/17/16/17/16/17/16/17/4sA11/4h712/16/17/16/hK16 r - d7d8d9dTdJdQdKdAh8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8sTsJsQsK - 3",
];

/// (number of depth-1 actions, turns(1), actions(2)) for E1–E9.
const E_COUNTS: [(usize, u64, u64); 9] = [
    (7, 7, 13),
    (8, 8, 669),
    (8, 8, 14),
    (13, 85, 91),
    (23, 23, 27),
    (80, 3656, 3662),
    (1766, 1766, 1772),
    (1021, 42905, 42911),
    (42, 42, 87),
];

#[test]
fn examples_counts() {
    for (i, s) in E.iter().enumerate() {
        let mut p = pos(s);
        assert_eq!(p.position_string(), *s, "E{} round trip", i + 1);
        let (n, t1, a2) = E_COUNTS[i];
        assert_eq!(actions_of(&p).len(), n, "E{} actions", i + 1);
        assert_eq!(perft(&mut p, 1), t1, "E{} turns(1)", i + 1);
        assert_eq!(perft_actions(&mut p, 2), a2, "E{} actions(2)", i + 1);
        assert_eq!(p.position_string(), *s);
    }
}

#[test]
fn examples_action_lists() {
    let lists: [(usize, &str); 5] = [
        (0, "0000 a1a2 a1a3 a1b1 a1b2 a1b3 a1c1"),
        (1, "0000 a1a2 b1b2 b1b3 b1c1 b1c2 b1c3 b1d1"),
        (2, "0000 c1a2 c1b1 c1b2 c1b2c1 c1d1 c1d2 c1e1"),
        (3, "0000 a1a2 a1a3 a1b1 a1b2 a1b3 a1c1 q1o1 q1o2 q1p1 q1p2 q1p3 q1q3"),
        (4, "0000 b2a1 b2a1b2 b2a2 b2a3 b2a4 b2b1 b2b1b2 b2b3 b2b4 b2c1 b2c2 b2c3 b2c4 b2d1 b2d2 b2d3 q15o14 q15o15 q15p13 q15p14 q15p15 q15q13"),
    ];
    for (i, l) in lists {
        assert_eq!(actions_of(&pos(E[i])).join(" "), l, "E{}", i + 1);
    }
}

#[test]
fn e5_ace_on_goal_rank() {
    let p = pos(E[4]);
    for (t, result) in [
        ("b2b1", Some("win 2 reach")),
        ("b2c1", Some("win 2 reach")),
        ("b2d1", Some("win 2 reach")),
        // The table of §11 says "by reaching" for b2a1, but it takes Red's
        // last King (Red keeps only dQ) and §7.1 checks annihilation first.
        ("b2a1", Some("win 2 annihilation")),
        ("b2a1b2", Some("win 2 annihilation")),
        ("b2b1b2", None),
        ("b2c2", None),
    ] {
        let mut q = p.clone();
        play(&mut q, t);
        assert_eq!(q.outcome().map(|o| o.to_string()).as_deref(), result, "{t}");
        if result.is_some() {
            // §5.5: the turn ended, the other side is to move.
            assert!(
                q.position_string().ends_with(" r - - 5") || q.position_string().contains(" r - "),
                "{}",
                q.position_string()
            );
            assert!(actions_of(&q).is_empty());
            assert_eq!(perft(&mut q, 1), 0);
        }
    }
}

#[test]
fn e6_enemy_base_one_free_base() {
    let p = pos(E[5]);
    let onto: Vec<String> = actions_of(&p).into_iter().filter(|a| a.starts_with("k11k12")).collect();
    let mut expect = vec!["k11k12".to_string()];
    for pc in ["d8", "d9", "dT", "dJ", "dQ", "dA", "h7", "h8", "h9", "hT", "hJ", "hQ", "hA"] {
        expect.push(format!("k11k12/{pc}@n4"));
    }
    expect.sort();
    assert_eq!(onto, expect);
}

#[test]
fn e7_two_rescues() {
    let p = pos(E[6]);
    let a = actions_of(&p);
    for g in ["f15", "g15", "h15", "i15", "j15", "k15", "l15"] {
        assert_eq!(a.iter().filter(|t| t.starts_with(&format!("i13{g}"))).count(), 241, "{g}");
    }
    assert!(a.contains(&"i13i15/dK@f4/h8@n4".to_string()));
    assert!(a.contains(&"i13i15/h8@f4/dK@n4".to_string()));
    assert!(!a.contains(&"i13i15/h8@f4/h8@n4".to_string()));
    let mut q = p.clone();
    let a = q.parse_action("i13i15/dK@f4/h8@n4").unwrap();
    q.make(a);
    assert_eq!(
        q.position_string(),
        "16sK/16/17/16/17/16/17/16/17/16/17/5dK7h82/17/16/hK16 r h d7d8d9dTdJdQdAh7h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA f4,n4 3"
    );
    // Out of order, duplicate, or on the wrong Base: rejected.
    for bad in ["i13i15/h8@n4/dK@f4", "i13i15/dK@f4/dK@n4", "i13i15/dK@c12", "i13i15/dK@f4/h8@n4/h9@f4"] {
        assert!(p.parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn e8_rescue_unfreezes_suit() {
    let p = pos(E[7]);
    assert!(!actions_of(&p).iter().any(|a| a.starts_with("e5")));
    let mut p = pos(E[7]);
    let a = p.parse_action("k11k12/dK@f4").unwrap();
    p.make(a);
    let mid = "16sK/16/17/16/17/16/17/16/17/16/4d82dA9/5dK10/17/16/hK16 r h d7d9dTdJdQh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA f4 3";
    assert_eq!(p.position_string(), mid);
    assert!(!p.at_turn_start());
    let acts = actions_of(&p);
    assert_eq!(acts.len(), 75);
    assert_eq!(acts.iter().filter(|a| a.starts_with("e5")).count(), 57);
    assert_eq!(acts.iter().filter(|a| a.starts_with("h5")).count(), 17);
    assert!(!acts.iter().any(|a| a.starts_with("f4")));
    assert_eq!(perft(&mut p, 1), 75);
    assert_eq!(perft_actions(&mut p, 2), 525);
    assert_eq!(pos(mid).key(), p.key());
    // Without rescue the diamond 8 stays frozen.
    let mut p = pos(E[7]);
    let a = p.parse_action("k11k12").unwrap();
    p.make(a);
    assert_eq!(perft(&mut p, 1), 19);
    // The locked King: a clear error.
    let q = pos(mid);
    let e = q.parse_action("f4f5").unwrap_err().to_string();
    assert!(e.contains("locked"), "{e}");
}

#[test]
fn e9_seven_takes_last_ace() {
    let mut p = pos(E[8]);
    let d = divide(&p, 2, false).unwrap();
    assert_eq!(d.iter().find(|(t, _)| t == "e5e6").map(|x| x.1), Some(0));
    play(&mut p, "e5e6");
    assert_eq!(p.outcome().map(|o| o.to_string()).as_deref(), Some("win 1 annihilation"));
    assert_eq!(p.position_string().split(' ').nth(1), Some("b"));
    assert_eq!(p.parse_action("0000").unwrap_err().to_string(), "illegal (the game is over)");
}

#[test]
fn turn_tokens_and_divide_agree() {
    // Every turn token corresponds to one path of the action tree (§10.2.3).
    for s in [E[3], E[7], START] {
        let p = pos(s);
        let turns = legal_turns(&p);
        let mut q = p.clone();
        assert_eq!(turns.len() as u64, perft(&mut q, 1));
        for (tok, acts) in turns.iter().take(400) {
            let parsed = parse_turn(&p, tok).unwrap();
            assert_eq!(&parsed, acts, "{tok}");
        }
    }
    let mut p = pos(E[3]);
    let d = divide(&p, 1, false).unwrap();
    assert_eq!(d.len(), 85);
    assert_eq!(d[0].0, "0000");
    assert!(
        d.iter().any(|(t, _)| t == "a1a2,q1o1") && d.iter().any(|(t, _)| t == "q1o1,a1a2") && d.iter().any(|(t, _)| t == "a1a2")
    );
    assert_eq!(perft_actions(&mut p, 1), 13);
}

// ---- special rules on hand-built positions ----------------------------------

/// A position from (piece, square) pairs; every other piece captured.
fn build(pieces: &[(&str, &str)], side: usize, turn: u32, moved: &str) -> Quattuor {
    let mut p = Quattuor::empty();
    for (pc, s) in pieces {
        p.put(parse_piece(pc).unwrap(), board::parse_square(s).unwrap());
    }
    let mut s = notation::write_position(&p);
    // write_position prints side r, turn 1: patch the fields.
    let f: Vec<&str> = s.split(' ').collect();
    s = format!("{} {} {} {} - {}", f[0], ["r", "b"][side], moved, f[3], turn);
    pos(&s)
}

fn with_prefix(p: &Quattuor, pre: &str) -> Vec<String> {
    actions_of(p).into_iter().filter(|a| a.starts_with(pre)).collect()
}

fn after(p: &Quattuor, t: &str) -> Quattuor {
    let mut q = p.clone();
    let a = q.parse_action(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    q.make(a);
    q
}

#[test]
fn retreat_cancels_base_capture() {
    let p = build(&[("hK", "a1"), ("dK", "q1"), ("dA", "k11"), ("cQ", "k12"), ("cK", "o15"), ("sK", "q15")], 0, 3, "-");
    let onto = with_prefix(&p, "k11k12");
    // 14 captured Red pieces + the Ace itself, two free Bases: 1 + 1 + 2·14.
    assert_eq!(onto.len(), 2 + 2 * 14, "{onto:?}");
    assert!(onto.contains(&"k11k12k11".into()) && onto.contains(&"k11k12/dA@n4".into()));
    let q = after(&p, "k11k12k11");
    assert_eq!(q.piece_at(board::parse_square("k11").unwrap()), parse_piece("dA"));
    assert!(q.piece_at(board::parse_square("k12").unwrap()).is_none());
    assert!(
        q.position_string().ends_with(" r d d7d8d9dTdJdQh7h8h9hThJhQhAc7c8c9cTcJcQcAs7s8s9sTsJsQsA - 3"),
        "{}",
        q.position_string()
    );
    let q = after(&p, "k11k12");
    assert!(q.square_of(parse_piece("dA").unwrap()).is_none());
    let q = after(&p, "k11k12/dA@f4");
    assert!(q.position_string().ends_with(" f4 3"), "{}", q.position_string());
    // A retreat is only for an Ace that captured.
    for bad in ["k11j11k11", "a1a2a1", "k11k12k11/dA@f4"] {
        assert!(p.parse_action(bad).is_err(), "{bad}");
    }
}

#[test]
fn annihilation_order_and_mid_turn() {
    // Red's last Ace takes Black's last Ace on Black's Base k12.
    let p = build(&[("dA", "k11"), ("h8", "a5"), ("sA", "k12"), ("s9", "p14")], 0, 3, "-");
    for (t, r) in [
        ("k11k12", Some("win 2 annihilation")), // both have none: Red loses
        ("k11k12k11", Some("win 1 annihilation")),
        ("k11k12/dA@f4", Some("win 1 annihilation")),
        ("k11k12/h7@f4", Some("win 2 annihilation")),
    ] {
        let q = after(&p, t);
        assert_eq!(q.outcome().map(|o| o.to_string()).as_deref(), r, "{t}");
        assert!(q.position_string().contains(" b - "), "{t}: {}", q.position_string());
    }
    // Mid-turn: the second action ends the game.
    let p = build(&[("hK", "a1"), ("dK", "q1"), ("h7", "e5"), ("sA", "e6"), ("s9", "p14")], 0, 3, "d");
    let mut q = p.clone();
    assert_eq!(perft(&mut q, 1), actions_of(&p).len() as u64);
    let d = divide(&p, 2, true).unwrap();
    assert_eq!(d.iter().find(|x| x.0 == "e5e6").unwrap().1, 0);
    let q = after(&p, "e5e6");
    assert_eq!(q.outcome().unwrap().to_string(), "win 1 annihilation");
    assert!(q.position_string().ends_with(" b - c7c8c9cTcJcQcKcAs7s8sTsJsQsKsA - 4") || q.position_string().contains(" b - "));
}

#[test]
fn jack_and_seven() {
    let p = build(&[("hK", "a1"), ("hJ", "e5"), ("c7", "e6"), ("cK", "o15"), ("sK", "q15")], 0, 3, "-");
    assert!(with_prefix(&p, "e5e6").is_empty());
    let e = p.parse_action("e5e6").unwrap_err().to_string();
    assert!(e.contains("cannot capture"), "{e}");
    let p = build(&[("hK", "a1"), ("hJ", "e5"), ("c7", "e6"), ("cK", "o15"), ("sK", "q15")], 1, 4, "-");
    assert_eq!(with_prefix(&p, "e6e5"), ["e6e5"]);
}

#[test]
fn zero_step_and_token_errors() {
    let p = pos(E[7]);
    let cases = [
        ("a1a1", "0-step"),
        ("e5e6", "frozen"),
        ("q15p15", "opponent"),
        ("c3c4", "no piece"),
        ("a1a2/hA@f4", "no rescue"),
        ("h5h7h5", "not a capture"),
        ("k11k12/hA@n4/hQ@f4", "order"),
        ("k11k12/hA@f4/hQ@n4", "at most 1"),
        ("k11k12/sA@f4", "not a piece of the side"),
        ("k11k12/h8@c12", "not an own Base"),
        ("a1a4", "cannot reach"),
        ("a1a2x", "malformed"),
        ("a1q2", "not a square"),
        ("", "malformed"),
    ];
    for (t, want) in cases {
        let e = p.parse_action(t).map(|a| format!("{a:?}")).unwrap_err().to_string();
        assert!(e.contains(want), "{t}: {e}");
    }
    // A second action by the same suit.
    let mid = after(&p, "a1a2");
    let e = mid.parse_action("a2a3").unwrap_err().to_string();
    assert!(e.contains("already made an action"), "{e}");
    let e = parse_turn(&p, "a1a2,a2a3").unwrap_err().to_string();
    assert!(e.contains("already made an action") && e.contains("action 2"), "{e}");
    assert!(parse_turn(&p, "a1a2,0000").is_err());
    // Turn 1 allows one action.
    let s = Quattuor::startpos(&Options);
    let e = parse_turn(&s, "m3m2,e3e2").unwrap_err().to_string();
    assert!(e.contains("turn is over"), "{e}");
    // No Base rescue variants once both own Bases are taken.
    let p = build(&[("hK", "f4"), ("dK", "n4"), ("h8", "i13"), ("sK", "q15")], 0, 3, "-");
    assert_eq!(with_prefix(&p, "i13i15"), ["i13i15"]);
}

#[test]
fn bad_position_strings() {
    let good = E[0];
    let f: Vec<&str> = good.split(' ').collect();
    let with = |i: usize, v: &str| {
        let mut g = f.clone();
        g[i] = v;
        g.join(" ")
    };
    let cases = [
        (good.replace(" 3", ""), "expected 6 fields"),
        (with(0, "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16"), "field 1"),
        (with(0, "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hK17"), "field 1"),
        (with(0, "17sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hK16"), "field 1"),
        (with(0, "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hK016"), "leading zero"),
        (with(0, "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hX16"), "not followed by a value"),
        (with(0, "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/xK16"), "neither a digit"),
        (with(0, "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/sKhK15"), "more than once"),
        (good.replace("16sK/16/17/16", "16sK/16/17/2hA13").replace("hQhAc7", "hQc7"), "enemy Base"),
        (good.replace("16sK/", "h816sK/").replace("16sK/", "15sK/").replace("h7h8h9", "h7h9"), "goal rank"),
        (with(1, "w"), "field 2"),
        (with(5, "4"), "field 6"),
        (with(5, "03"), "field 6"),
        (with(5, "0"), "field 6"),
        (with(5, "1000000001"), "at most 1000000000"),
        (with(5, "4294967297"), "at most 1000000000"),
        (with(2, "c"), "field 3"),
        (with(2, "dh"), "field 3"),
        (with(3, "-"), "field 4"),
        (with(3, &f[3].replace("d7d8", "d8d7")), "canonical order"),
        (with(3, &f[3].replace("d7d8", "d7d7d8")), "twice"),
        (with(3, &format!("{}hK", f[3])), "stands on the board"),
        (with(3, &f[3].replace("d7", "")), "not listed"),
        (with(4, "f4"), "field 5"),
    ];
    for (s, want) in cases {
        match Quattuor::from_position_string(&s, &Options) {
            Ok(_) => panic!("accepted {s}"),
            Err(e) => assert!(e.to_string().contains(want), "{s}: {e}"),
        }
    }
    // Both sides on their goal ranks.
    let s =
        "hK16/16/17/16/17/16/17/16/17/16/17/16/17/16/sK16 r - d7d8d9dTdJdQdKdAh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 3";
    let e = Quattuor::from_position_string(s, &Options).unwrap_err().to_string();
    assert!(e.contains("both sides"), "{e}");
    // One side only: valid, and over (§9.2.2, §7.4).
    let mut p = build(&[("hK", "a15"), ("sK", "q15")], 1, 4, "-");
    assert_eq!(p.outcome().unwrap().to_string(), "win 1 reach");
    assert_eq!(perft(&mut p, 1), 0);
}

/// The turn number is read up to 10^9, and play from there keeps counting
/// (with its parity) instead of wrapping round to turn 1's one-action rule.
#[test]
fn large_turn_numbers() {
    let f: Vec<&str> = E[0].split(' ').collect();
    let at = |t: &str| {
        let mut g = f.clone();
        g[5] = t;
        pos(&g.join(" "))
    };
    let first = at("999999999");
    let mut p = first.clone();
    for _ in 0..4 {
        play(&mut p, "0000");
    }
    assert!(p.position_string().ends_with(" 1000000003"), "{}", p.position_string());
    assert_eq!(legal_turns(&p).len(), legal_turns(&first).len());
    assert_eq!(first.turn(), 999_999_999);
}

#[test]
fn locked_field_checks() {
    let mid = "16sK/16/17/16/17/16/17/16/17/16/4d82dA9/5dK10/17/16/hK16 r h d7d9dTdJdQh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA f4 3";
    pos(mid);
    for (l, want) in [("n4", "holds no piece"), ("c12", "not an own Base"), ("f4,f4", "twice"), ("x9", "not a square")] {
        let s = mid.replace(" f4 3", &format!(" {l} 3"));
        let e = Quattuor::from_position_string(&s, &Options).unwrap_err().to_string();
        assert!(e.contains("field 5") && e.contains(want), "{l}: {e}");
    }
    let two = build(&[("hK", "f4"), ("dK", "n4"), ("sK", "q15")], 0, 3, "h").position_string().replace(" - 3", " n4,f4 3");
    let e = Quattuor::from_position_string(&two, &Options).unwrap_err().to_string();
    assert!(e.contains("increasing"), "{e}");
    let s = mid.replace(" r h ", " r - ");
    assert!(Quattuor::from_position_string(&s, &Options).unwrap_err().to_string().contains("field 5"));
    let s =
        "16sK/16/17/16/17/16/17/16/17/16/17/16/17/16/hK16 r d d7d8d9dTdJdQdKdAh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA - 1";
    assert!(Quattuor::from_position_string(s, &Options).unwrap_err().to_string().contains("field 3"));
}

#[test]
fn setup_tokens() {
    let r = START_SETUP[0];
    let b = START_SETUP[1];
    let cases = [
        (r.replacen(",d8@c6", "", 1), "expected 16 entries"),
        (r.replace("d8@c6", "d8c6"), "not <piece>@<square>"),
        (r.replace("d8@c6", "d9@c6"), "expected d8"),
        (r.replace("d8@c6", "d8@c7"), "outside the red territory"),
        (r.replace("d8@c6", "d8@q2"), "not a square"),
        (r.replace("d8@c6", "d8@m3"), "used twice"),
        (b.to_string(), "expected d7"),
    ];
    for (t, want) in cases {
        let e = Quattuor::from_setup(&[&t, b], &Options).unwrap_err().to_string();
        assert!(e.contains("red") && e.contains(want), "{t}: {e}");
    }
    let e = Quattuor::from_setup(&[r, r], &Options).unwrap_err().to_string();
    assert!(e.contains("black"), "{e}");
    assert!(Quattuor::from_setup(&[r], &Options).is_err());
    // Proposals and random set-ups are legal, varied, and follow the advice.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..200u64 {
        let pr = Quattuor::propose_setup(&Options, 0, seed).unwrap();
        let pb = Quattuor::propose_setup(&Options, 1, seed).unwrap();
        let p = Quattuor::from_setup(&[&pr, &pb], &Options).unwrap_or_else(|e| panic!("{pr} {pb}: {e}"));
        seen.insert(pr.clone());
        for side in 0..2 {
            for pc in side * 16..side * 16 + 16 {
                let s = p.square_of(pc).unwrap();
                let adv = if side == 0 { board::rank(s) } else { 14 - board::rank(s) };
                if value_of(pc) == value::ACE || value_of(pc) == value::SEVEN {
                    assert!(adv < 4, "{pr}");
                }
            }
            assert!(board::BASES[side].iter().all(|&b| p.piece_at(b).is_none()));
        }
        let rr = setup::random_setup(0, seed);
        let rb = setup::random_setup(1, seed);
        Quattuor::from_setup(&[&rr, &rb], &Options).unwrap();
    }
    assert!(seen.len() > 150);
    assert!(seen.contains(START_SETUP[0]) || seen.len() > 150);
}

/// The list capacity is a bound: for every set of a side's pieces on the
/// board, the most actions the rules allow, from board-wide maxima of the
/// cells within reach (D) and of the goal-rank cells within reach (G).
#[test]
fn capacity_bound() {
    use crate::bitboard::Bb256;
    let mut d = [0u32; 5];
    let mut g = [0u32; 5];
    for s in board::EXISTS {
        let mut r = Bb256::from_cell(s);
        for k in 1..=4 {
            r |= board::nbrs(r) & board::EXISTS;
            d[k] = d[k].max(r.count() - 1);
            g[k] = g[k].max((r & board::GOAL[0]).count());
        }
    }
    assert_eq!(d, [0, 6, 18, 36, 60]);
    let mut worst = 0u64;
    for set in 0u32..1 << 16 {
        let n = 16 - set.count_ones() as u64 + 1;
        let mut total = 1u64; // 0000
        for pc in 0..16 {
            if set >> pc & 1 == 0 {
                continue;
            }
            let v = value_of(pc);
            let king_on = set >> (suit_of(pc) * 8 + value::KING) & 1 != 0;
            if v != value::ACE && !king_on {
                continue; // frozen
            }
            let r = RANGE[v] as usize;
            let (dd, gg) = (d[r] as u64, g[r] as u64);
            total += dd + 2 * 2 * n;
            if v <= value::JACK {
                total += gg * (2 * n + n * (n - 1));
            }
            if v == value::ACE {
                total += dd;
            }
        }
        worst = worst.max(total);
    }
    assert!(worst <= MAX_ACTIONS as u64, "bound {worst}");
    eprintln!("action bound {worst} (D {d:?}, G {g:?})");
}

// ---- properties on positions reached by random play ---------------------------

mod properties {
    use super::super::naive::Naive;
    use super::*;
    use proptest::prelude::*;

    /// Starts: the default set-up, rescue-rich examples, a crowded middle game
    /// built by random set-ups pushed into the neutral zone.
    fn start(i: usize, seed: u64) -> Quattuor {
        match i {
            0 => Quattuor::startpos(&Options),
            1..=9 => pos(E[i - 1]),
            10 => pos("16sK/16/17/16/17/16/17/16/17/16/4d82dA9/5dK10/17/16/hK16 r h d7d9dTdJdQh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA f4 3"),
            _ => {
                let r = setup::random_setup(0, seed);
                let b = setup::random_setup(1, seed);
                Quattuor::from_setup(&[&r, &b], &Options).unwrap()
            }
        }
    }

    /// Captures and rescues: actions with effects, to steer random games.
    fn effect(p: &Quattuor, a: Action) -> bool {
        !a.is_pass() && (p.piece_at(a.to()).is_some() || a.has_rescue())
    }

    fn fast(p: &Quattuor) -> Vec<(String, String)> {
        let mut l = <Quattuor as Rules>::Actions::default();
        p.legal_actions(&mut l);
        let mut v: Vec<(String, String)> = l
            .iter()
            .map(|&a| {
                let mut q = p.clone();
                let t = action_string(&q, a);
                q.make(a);
                (t, q.position_string())
            })
            .collect();
        v.sort();
        v
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, .. ProptestConfig::default() })]

        /// Along a random game: the fast generator and make equal the simple
        /// implementation (tokens and resulting positions), make/unmake
        /// restores position and key, the incremental key equals the key
        /// from scratch, every token parses back to its action, and
        /// print(parse(s)) == s.
        #[test]
        fn random_games(st in 0usize..14, seed in any::<u64>(), picks in proptest::collection::vec(any::<u32>(), 1..60)) {
            let mut p = start(st, seed);
            for pick in picks {
                let s = p.position_string();
                let q = Quattuor::from_position_string(&s, &Options).unwrap();
                prop_assert_eq!(q.position_string(), s.clone());
                prop_assert_eq!(q.key(), p.key());
                prop_assert_eq!(p.key(), p.key_from_scratch());
                let expect = Naive::from(&p).actions();
                let got = fast(&p);
                prop_assert_eq!(&got, &expect, "{}", s);
                if got.is_empty() {
                    prop_assert!(p.outcome().is_some());
                    break;
                }
                let mut l = <Quattuor as Rules>::Actions::default();
                p.legal_actions(&mut l);
                for &a in l.iter() {
                    let tok = action_string(&p, a);
                    prop_assert_eq!(p.parse_action(&tok), Ok(a), "{}", tok);
                    let before = p.clone();
                    let u = p.make(a);
                    prop_assert_eq!(p.key(), p.key_from_scratch(), "{} after {}", s, tok);
                    p.unmake(a, u);
                    prop_assert_eq!(p.position_string(), before.position_string());
                    prop_assert_eq!(p.key(), before.key());
                    prop_assert_eq!(p.board, before.board);
                    prop_assert_eq!(p.sq_of, before.sq_of);
                    prop_assert_eq!(p.by_side, before.by_side);
                    prop_assert_eq!(p.result, before.result);
                }
                // Prefer actions with effects now and then, so rescues and
                // the end of the game come up.
                let tactical: Vec<Action> = l.iter().copied().filter(|&a| effect(&p, a)).collect();
                let a = if pick % 3 == 0 && !tactical.is_empty() {
                    tactical[(pick / 3) as usize % tactical.len()]
                } else {
                    l[pick as usize % l.len()]
                };
                p.make(a);
            }
        }
    }

    /// Seeded random games against the simple implementation reach every
    /// special rule: retreats, both rescue kinds, locks, frozen suits, both
    /// ends of the game.
    #[test]
    fn random_play_reaches_special_rules() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut seen = std::collections::BTreeMap::<&str, u32>::new();
        for game in 0..120u64 {
            let mut p = start(1 + (game % 13) as usize, game);
            for _ in 0..60 {
                let mut l = <Quattuor as Rules>::Actions::default();
                p.legal_actions(&mut l);
                if l.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let tactical: Vec<Action> = l.iter().copied().filter(|&a| effect(&p, a)).collect();
                let a = if seed % 2 == 0 && !tactical.is_empty() {
                    tactical[(seed >> 8) as usize % tactical.len()]
                } else {
                    l[(seed >> 8) as usize % l.len()]
                };
                if game % 4 == 0 {
                    assert_eq!(fast(&p), Naive::from(&p).actions(), "{}", p.position_string());
                }
                if a.retreat() {
                    *seen.entry("retreat").or_default() += 1;
                }
                if a.rescue(0).is_some() && a.rescue(1).is_some() {
                    *seen.entry("two rescues").or_default() += 1;
                } else if a.has_rescue() {
                    *seen.entry("one rescue").or_default() += 1;
                }
                if p.locked != 0 {
                    *seen.entry("locked").or_default() += 1;
                }
                if (0..4).any(|su| p.captured >> (su * 8 + value::KING) & 1 != 0 && p.captured >> (su * 8) & 0xFF != 0xFF) {
                    *seen.entry("frozen").or_default() += 1;
                }
                if !p.at_turn_start() {
                    *seen.entry("mid-turn").or_default() += 1;
                }
                p.make(a);
                if let Some(o) = p.outcome() {
                    *seen.entry(o.reason).or_default() += 1;
                }
            }
        }
        for k in ["retreat", "two rescues", "one rescue", "locked", "frozen", "mid-turn", "annihilation", "reach"] {
            assert!(seen.get(k).copied().unwrap_or(0) > 0, "{k}: {seen:?}");
        }
        eprintln!("{seen:?}");
    }
}

/// Speed of action-level perft from the start (a benchmark, not a check):
/// `cargo test --release -p tetrarch-core quattuor_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn quattuor_speed() {
    let mut p = Quattuor::startpos(&Options);
    let t = std::time::Instant::now();
    let n = perft_actions(&mut p, 3);
    let dt = t.elapsed().as_secs_f64();
    assert_eq!(n, 21_396_895);
    eprintln!("perft actions 3: {n} in {dt:.3}s = {:.1} M actions/s", n as f64 / dt / 1e6);
    let t = std::time::Instant::now();
    let n = perft(&mut p, 2);
    let dt = t.elapsed().as_secs_f64();
    eprintln!("perft turns 2: {n} in {dt:.3}s = {:.1} M turns/s", n as f64 / dt / 1e6);
}

#[test]
fn search_hooks() {
    let p = pos(E[6]);
    let mut l = <Quattuor as Rules>::Actions::default();
    p.legal_actions(&mut l);
    let tactical = l.iter().filter(|&&a| p.is_tactical(a)).count();
    assert!(tactical > 0 && tactical < 100, "{tactical}");
    let p = pos(E[4]);
    let win = p.parse_action("b2c1").unwrap();
    let quiet = p.parse_action("b2c3").unwrap();
    assert!(p.is_tactical(win) && !p.is_tactical(quiet));
    assert!(p.order_hint(win) > p.order_hint(quiet));
    assert!(p.order_hint(quiet) > p.order_hint(Action::PASS));
    // Black (to move, with an Ace one step from the goal) stands better.
    assert!(crate::game::eval_value(&p, 1) > 0 && crate::game::eval_value(&p, 0) < 0);
    assert_eq!(crate::game::eval_value(&p, 1), -crate::game::eval_value(&p, 0));
    let s = Quattuor::startpos(&Options);
    assert_eq!(crate::game::eval_value(&s, 0), 0);
    let names: Vec<&str> = crate::game::eval_terms_of(&s, 0).iter().map(|t| t.0).collect();
    assert_eq!(names, ["material", "advance", "reach", "king", "free", "tempo"]);
    // The race: Black's Ace is 1 turn from its goal rank (1 rank at range
    // 2), Red's Queen and King 7 turns (14 ranks at range 2): Black leads.
    let tempo = |p: &Quattuor, seat: usize| crate::game::eval_term(p, seat, "tempo");
    assert_eq!(tempo(&p, 1), eval::TEMPO);
    assert_eq!(tempo(&p, 0), -eval::TEMPO);
    // Nobody within 4 turns at the start: no tempo term.
    assert_eq!(tempo(&s, 0), 0);
}

/// The `free` term, on hand-built positions: Red's Queen on a11 is 4 ranks
/// (2 turns at range 2) from its goal rank; Black's only piece able to take
/// it (a Queen falls to an Ace or a King) decides whether it runs free.
#[test]
fn free_runner() {
    let free = |p: &Quattuor, seat: usize| crate::game::eval_term(p, seat, "free");
    let captured = "d7d8d9dTdJdQdKdAh7h8h9hThJhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQ";
    // Black's Ace far away on q15 (18 steps): the Queen runs free, whoever
    // is to move.
    for (side, turn) in [("r", 3), ("b", 4)] {
        let p = pos(&format!("16sA/16/17/16/hQ16/16/17/16/17/16/17/16/17/16/hK16 {side} - {captured}sK - {turn}"));
        assert_eq!(free(&p, 0), eval::FREE[2], "{side}");
        assert_eq!(free(&p, 1), -eval::FREE[2], "{side}");
    }
    // The Ace on d13 (4 steps away, range 2): within reach in 2 turns of
    // Black's when Black is to move, not within the 1 turn Black gets
    // before Red's second move when Red is to move.
    let near = |side: &str, turn: u32| {
        pos(&format!("17/16/3sA13/16/hQ16/16/17/16/17/16/17/16/17/16/hK16 {side} - {captured}sK - {turn}"))
    };
    assert_eq!(free(&near("b", 4), 0), 0);
    assert_eq!(free(&near("r", 3), 0), eval::FREE[2]);
    // Right next to the Queen, a Black Ace or King guards it whoever is to
    // move; a Black Jack (which cannot take a Queen) does not.
    let c = captured.replace("sJ", "");
    let next = |guard: &str, far: &str, off: &str| {
        pos(&format!("16{far}/16/17/16/hQ{guard}15/16/17/16/17/16/17/16/17/16/hK16 r - {c}{off} - 3"))
    };
    // (On q15 the other piece is 18 steps away: too far to matter.)
    assert_eq!(free(&next("sA", "sJ", "sK"), 0), 0);
    assert_eq!(free(&next("sK", "sJ", "sA"), 0), 0);
    assert_eq!(free(&next("sJ", "sK", "sA"), 0), eval::FREE[2]);
}

#[test]
fn render_start() {
    let r = Quattuor::startpos(&Options).render();
    assert!(r.lines().count() == 16, "{r}");
    assert!(r.contains("dK"), "{r}");
    eprintln!("{r}");
}

// ---- cues of the board view (issue 42) ----------------------------------------

/// The cells of `p`'s board view holding a piece marked as having acted.
fn acted_cells(p: &Quattuor) -> Vec<String> {
    let v = p.board_view().unwrap();
    let mut c: Vec<String> =
        v.cells.iter().filter(|c| c.pieces.iter().any(|x| x.acted.is_some())).map(|c| c.name.clone()).collect();
    c.sort();
    c
}

#[test]
fn view_marks_what_acted_this_turn() {
    // E4: hK a1, dK q1. After hK's action the hearts have acted (§5.2):
    // hK is pale, dK (the other suit) and Black's sK are not.
    let p = pos(E[3]);
    assert_eq!(acted_cells(&p), Vec::<String>::new());
    let q = after(&p, "a1a2");
    assert!(!q.at_turn_start());
    assert_eq!(acted_cells(&q), ["a2"]);
    assert!(q.idle_reason("a2").unwrap().contains("already made an action"));
    assert_eq!(q.idle_reason("q1"), None);
    assert_eq!(q.idle_reason("q15"), None);
    // E8 after `k11k12/dK@f4`: hearts acted (hK), the rescued dK is locked;
    // d8 and dA may still act.
    let mid = "16sK/16/17/16/17/16/17/16/17/16/4d82dA9/5dK10/17/16/hK16 r h d7d9dTdJdQh7h8h9hThJhQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsQsA f4 3";
    let q = pos(mid);
    assert_eq!(acted_cells(&q), ["a1", "f4"]);
    assert!(q.idle_reason("f4").unwrap().contains("locked"));
    assert_eq!(q.idle_reason("e5"), None);
    // A frozen piece is not pale (it did not act) but says why it is idle.
    let f = pos(E[2]);
    assert_eq!(acted_cells(&f), Vec::<String>::new());
    assert!(f.idle_reason("a1").unwrap().contains("frozen"));
}

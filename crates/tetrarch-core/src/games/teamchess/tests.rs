//! Perft from §12, the worked examples T1–T4, FEN4 and tokens.

use super::*;
use crate::game::Game;
use crate::turns::{legal_turns, parse_turn, perft, play_turn};

fn pos(s: &str) -> TeamChess {
    TeamChess::from_position_string(s, &Options::default()).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn turns_of(p: &TeamChess) -> Vec<String> {
    legal_turns(p).into_iter().map(|t| t.0).collect()
}

fn play(p: &mut TeamChess, t: &str) {
    let acts = parse_turn(p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    play_turn(p, &acts);
}

#[test]
fn start_round_trips() {
    let p = TeamChess::startpos(&Options::default());
    assert_eq!(p.position_string(), START);
    assert_eq!(to_fen4(&p), START_FEN4);
    let q = pos(START_FEN4);
    assert_eq!(q.position_string(), START);
}

#[test]
fn perft_start() {
    let mut p = TeamChess::startpos(&Options::default());
    for (d, n) in [20u64, 395, 7_800, 152_050, 3_452_310].into_iter().enumerate() {
        assert_eq!(perft(&mut p, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
#[ignore]
fn perft_start_depth_6() {
    let mut p = TeamChess::startpos(&Options::default());
    assert_eq!(perft(&mut p, 6), 77_430_383);
}

#[test]
fn t1_en_passant_survives_two_moves() {
    let mut p = TeamChess::startpos(&Options::default());
    for t in ["d2d3", "b4d4", "i13i12", "m8l8"] {
        play(&mut p, t);
    }
    assert!(p.position_string().ends_with("rRrNrBrQrKrBrNrR r rKQbKQyKQgKQ c4 0 2"), "{}", p.position_string());
    assert!(to_fen4(&p).contains("{'enPassant':('','c4:d4','','')}"), "{}", to_fen4(&p));
    assert!(turns_of(&p).contains(&"d3c4".into()));
    let d4 = crate::games::chess4::board::parse_square("d4").unwrap();
    play(&mut p, "d3c4");
    assert_eq!(p.piece_at(d4), None);
    assert_eq!(p.key(), p.key_from_scratch());
    // The FEN4 with the entry reads back to the same position.
    let mut q = TeamChess::startpos(&Options::default());
    for t in ["d2d3", "b4d4", "i13i12", "m8l8"] {
        play(&mut q, t);
    }
    let r = pos(&to_fen4(&q));
    assert_eq!(r.ep, q.ep);
    assert!(turns_of(&r).contains(&"d3c4".into()));
}

#[test]
fn t1_entry_cleared_when_owner_moves_again() {
    let mut p = TeamChess::startpos(&Options::default());
    for t in ["d2d3", "b4d4", "i13i12", "m8l8", "e2e3"] {
        play(&mut p, t);
    }
    // Blue to move: its own entry is cleared (§6.3.1 rule 2).
    assert_eq!(p.ep, [0; 4]);
}

#[test]
fn t2_castling() {
    let s = "3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/rR3rK2rR r rKQ - 0 1";
    let mut p = pos(s);
    let t = turns_of(&p);
    assert!(t.contains(&"h1j1".into()) && t.contains(&"h1f1".into()), "{t:?}");
    play(&mut p, "h1j1");
    assert_eq!(p.position_string(), "3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/rR4rRrK1 b - - 1 1");
    // A Blue Rook on i5 attacks i1: King-side castling is illegal.
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/8bR5/14/8/8/rR3rK2rR r rKQ - 0 1");
    let t = turns_of(&p);
    assert!(!t.contains(&"h1j1".into()) && t.contains(&"h1f1".into()), "{t:?}");
    // Castling out of check is illegal; through an attacked square too.
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/7bR6/14/8/8/rR3rK2rR r rKQ - 0 1");
    let t = turns_of(&p);
    assert!(!t.contains(&"h1j1".into()) && !t.contains(&"h1f1".into()), "{t:?}");
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/6bR7/14/8/8/rR3rK2rR r rKQ - 0 1");
    let t = turns_of(&p);
    assert!(t.contains(&"h1j1".into()) && !t.contains(&"h1f1".into()), "{t:?}");
}

#[test]
fn t3_promotion() {
    let p = pos("3yK4/8/8/14/4rP9/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0 1");
    let t: Vec<_> = turns_of(&p).into_iter().filter(|m| m.starts_with("e10")).collect();
    assert_eq!(t, ["e10e11b", "e10e11n", "e10e11q", "e10e11r"]);
    assert_eq!(parse_turn(&p, "e10-e11=N"), parse_turn(&p, "e10e11n"));
    assert_eq!(parse_turn(&p, "e10-e11=q"), parse_turn(&p, "e10e11q"));
    assert!(matches!(parse_turn(&p, "e10e11"), Err(TokenError::Illegal(_))));
    assert!(matches!(parse_turn(&p, "e10e11k"), Err(TokenError::Malformed(_))));
}

#[test]
fn t4_king_capture_ends_the_game() {
    let mut p = pos("3yK4/8/8/14/7bK6/14/13gK/14/14/7rR6/14/8/8/4rK3 r - - 0 1");
    assert!(turns_of(&p).contains(&"h5h10".into()));
    play(&mut p, "h5h10");
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("win 1 3 kingcapture".into()));
    assert_eq!(perft(&mut p, 1), 0);
    assert!(turns_of(&p).is_empty());
}

#[test]
fn checkmate_and_stalemate() {
    // Red's King h1 boxed by its own men, Blue Rook gives mate along rank 1.
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/3rPrPrP2/bR3rKrB2 r - - 0 1");
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("win 2 4 checkmate".into()));
    assert!(turns_of(&p).is_empty());
}

#[test]
fn fen4_reading_rules() {
    // Castling bits whose King or Rook is not at home are dropped.
    let f = START_FEN4.replace("x,x,x,rR,rN,rB,rQ,rK,rB,rN,rR,x,x,x", "x,x,x,1,rN,rB,rQ,rK,rB,rN,rR,x,x,x");
    let p = pos(&f);
    assert!(p.position_string().contains(" r rKbKQyKQgKQ - "), "{}", p.position_string());
    // An `x` on an existing cell, a piece on a missing one, a short rank.
    for (bad, why) in [
        (START_FEN4.replacen("x,x,x,yR", "x,x,x,x", 1), "existing"),
        (START_FEN4.replacen("x,x,x,yR", "x,x,yR,1", 1), "missing"),
        (START_FEN4.replacen("x,x,x,8,x,x,x", "x,x,x,8,x,x", 1), "columns"),
        (START_FEN4.replacen("bR,bP", "bX,bP", 1), "unknown cell"),
        (START_FEN4.replacen("R-", "W-", 1), "expected"),
        (START_FEN4.replacen("-1,1,1,1-1,1,1,1-", "-1,1,1-1,1,1,1-", 1), "castling"),
        (START_FEN4.replacen("-0-x", "-0-{'foo':1}-x", 1), "extras"),
    ] {
        let e = TeamChess::from_position_string(&bad, &Options::default()).expect_err(&bad);
        assert!(e.0.contains(why), "{bad}: {e}");
    }
    // Double quotes may stand for single quotes; stale entries are dropped.
    let q = START_FEN4.replacen("-0-x", "-0-{ \"enPassant\" : ( \"\" , \"c4:d4\" , \"\" , \"\" ) }-x", 1);
    let p = pos(&q);
    assert_eq!(p.ep, [0; 4], "no Blue pawn on d4: dropped");
}

#[test]
fn bad_position_strings() {
    let cases = [
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0", "6 fields"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rKrK2 r - - 0 1", "Kings"),
        ("3yR4/8/8/14/14/14/13gR/bK13/14/14/14/8/8/4rK3 r - - 0 1", "more than one colour"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/rP3rK3 r - - 0 1", "promotion line"),
        ("3yK4/8/8/4rP9/14/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0 1", "promotion line"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rK3 r gKrK - 0 1", "order"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rK3 r rK - 0 1", "home square"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rK3 r - e5 0 1", "double step"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rK3 r - c4 0 1", "pawn"),
        ("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0 0", "fullmove"),
        // Green moved last and its King n8 is attacked by Red's Rook.
        ("3yK4/8/8/14/14/14/12rRgK/bK13/14/14/14/8/8/4rK3 r - - 0 1", "moved last"),
    ];
    for (s, why) in cases {
        let e = TeamChess::from_position_string(s, &Options::default()).expect_err(s);
        assert!(e.0.contains(why), "{s}: `{e}` should mention `{why}`");
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]
        /// Random games: make/unmake restores everything, keys agree, the
        /// position string and FEN4 round-trip.
        #[test]
        fn random_games(picks in proptest::collection::vec(any::<u16>(), 1..150)) {
            let opts = Options::default();
            let mut p = TeamChess::startpos(&opts);
            for pick in picks {
                let mut l = <TeamChess as Game>::Actions::default();
                p.legal_actions(&mut l);
                if l.is_empty() { break; }
                let s = p.position_string();
                prop_assert_eq!(TeamChess::from_position_string(&s, &opts).unwrap().position_string(), s.clone());
                let f = to_fen4(&p);
                let q = TeamChess::from_position_string(&f, &opts).unwrap();
                prop_assert_eq!(to_fen4(&q), f.clone());
                for &m in l.iter() {
                    let before = p.position_string();
                    let k = p.key();
                    let u = p.make(m);
                    prop_assert_eq!(p.key(), p.key_from_scratch());
                    p.unmake(m, u);
                    prop_assert_eq!(p.position_string(), before);
                    prop_assert_eq!(p.key(), k);
                }
                p.make(l[pick as usize % l.len()]);
            }
        }
    }
}

#[test]
fn pgn4_round_trip() {
    let opts = Options::default();
    let start = TeamChess::startpos(&opts);
    let turns: Vec<String> = ["h2h4", "b8c8", "h13h11", "m8l8", "i1f4", "a9c7", "j14i12", "n9l7"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let names = ["R".into(), "B".into(), "Y".into(), "G".into()];
    let text = pgn4::write(&start, &turns, &names).unwrap();
    assert!(text.contains("[Variant \"Teams\"]") && text.contains("[StartFen4 \"R-0,0,0,0-1,1,1,1-1,1,1,1-"), "{text}");
    assert!(text.contains("1. h2-h4 .. b8-c8 .. h13-h11 .. m8-l8+\n2. Bi1-f4 .. Ba9-c7+ .. Nj14-i12 .. Bn9-l7"), "{text}");
    assert!(text.contains("[Result \"*\"]"));
    let rec = pgn4::read(&text, &opts).unwrap();
    assert_eq!(rec.turns, turns);
    assert_eq!(rec.start.position_string(), START);
    // chess.com style with captures, checks and comments reads too.
    let rec = pgn4::read("[Variant \"Teams\"]\n1. h2-h4 { a comment } .. b8-c8 .. h13-h11 .. m8-l8\n2. Bi1-f4+ ..", &opts).unwrap();
    assert_eq!(rec.turns.len(), 5);
    assert!(pgn4::read("1. h2-h5", &opts).is_err());
}

#[test]
fn pgn4_result_tags() {
    let mut p = pos("3yK4/8/8/14/7bK6/14/13gK/14/14/7rR6/14/8/8/4rK3 r - - 0 1");
    let text = pgn4::write(&p, &["h5h10".to_string()], &Default::default()).unwrap();
    assert!(text.contains("[Result \"1-0\"]") && text.contains("King captured"), "{text}");
    play(&mut p, "h5h10");
    let t2 = pos("3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/rR3rK2rR r rKQ - 0 1");
    let text = pgn4::write(&t2, &["h1j1".to_string()], &Default::default()).unwrap();
    assert!(text.contains("1. O-O\n"), "{text}");
    assert_eq!(pgn4::read(&text, &Options::default()).unwrap().turns, ["h1j1"]);
}

/// The `mobility` term, counted by hand: a Red Rook on b4 reaches b5–b11
/// (7), a4 (1) and c4–n4 (12); an enemy man on the line counts (it can be
/// taken), the cells behind it do not.
#[test]
fn eval_mobility_counts_the_cells_sliders_reach() {
    use crate::games::chess4::test_util::assert_team_mobility;
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/14/1rR12/8/8/3rK4 r - - 0 1");
    assert_team_mobility(&p, 20 * eval::MOBILITY);
    // A Blue Bishop on f4 ends the Rook's way right: c4, d4, e4, f4. The
    // Bishop reaches e5–a9 (5), g5–m11 (7), e3–d2 (2) and g3–i1 (3).
    let q = pos("3yK4/8/8/14/14/14/13gK/bK13/14/14/1rR3bB8/8/8/3rK4 r - - 0 1");
    assert_team_mobility(&q, (7 + 1 + 4 - 17) * eval::MOBILITY);
}

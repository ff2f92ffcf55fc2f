//! Perft from §12, the worked examples T1–T4, FEN4 and tokens.

use super::*;
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
fn t1_en_passant_survives_two_moves() {
    let mut p = TeamChess::startpos(&Options::default());
    for t in ["d2d3", "b4d4", "i13i12", "m8l8"] {
        play(&mut p, t);
    }
    assert!(p.position_string().ends_with("rRrNrBrQrKrBrNrR r rKQbKQyKQgKQ c4 0 2"), "{}", p.position_string());
    assert!(to_fen4(&p).contains("{'enPassant':('','c4:d4','','')}"), "{}", to_fen4(&p));
    assert!(turns_of(&p).contains(&"d3c4".into()));
    let d4 = crate::games::cross_board::board::parse_square("d4").unwrap();
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
        assert!(
            matches!(&e, PositionError::Field { field, reason } if field.contains(why) || reason.contains(why)),
            "{bad}: {e}"
        );
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
        assert!(
            matches!(&e, PositionError::Field { field, reason } if field.contains(why) || reason.contains(why)),
            "{s}: `{e}` should be a field error mentioning `{why}`"
        );
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]
        /// Random games: make/unmake restores everything, keys agree, the
        /// position string and FEN4 round-trip, and `checks_next_seat`
        /// tells every check before the move is made.
        #[test]
        fn random_games(picks in proptest::collection::vec(any::<u16>(), 1..150)) {
            let opts = Options::default();
            let mut p = TeamChess::startpos(&opts);
            for pick in picks {
                let mut l = <TeamChess as Rules>::Actions::default();
                p.legal_actions(&mut l);
                let s = p.position_string();
                // Quiescence's early stand pat: a quiet move exactly when
                // the list has one (none when the game is over).
                prop_assert_eq!(p.has_quiet_action(), l.iter().any(|&m| !p.is_tactical(m)), "{}", s);
                if l.is_empty() { break; }
                prop_assert_eq!(TeamChess::from_position_string(&s, &opts).unwrap().position_string(), s.clone());
                let f = to_fen4(&p);
                let q = TeamChess::from_position_string(&f, &opts).unwrap();
                prop_assert_eq!(to_fen4(&q), f.clone());
                for &m in l.iter() {
                    let before = p.position_string();
                    let k = p.key();
                    let told = p.checks_next_seat(m);
                    let u = p.make(m);
                    prop_assert_eq!(p.key(), p.key_from_scratch());
                    // Checkmates included; a captured King is no check.
                    if !m.is_castle() && !m.is_ep() && (0..4).all(|s| p.men.has_king(s)) {
                        prop_assert_eq!(told, p.in_check(), "checks_next_seat of {:?}", m);
                    }
                    p.unmake(m, u);
                    prop_assert_eq!(p.position_string(), before);
                    prop_assert_eq!(p.key(), k);
                }
                p.make(l[pick as usize % l.len()]);
            }
        }
    }
}

/// Quiescence's early stand pat asks for a legal quiet move: in check,
/// free pawn pushes (d2-d3) do not count, and the only legal move here
/// takes the checking Rook.
#[test]
fn quiet_moves_in_check() {
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/7bR6/14/8/rPrB1rP1rP2/3rRrKrR2 r - - 0 1");
    assert!(p.in_check());
    assert_eq!(turns_of(&p), ["e2h5"]);
    assert!(!p.has_quiet_action());
    // Without the check (the Rook one file over) the pushes are quiet moves.
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/6bR7/14/8/rPrB1rP1rP2/3rRrKrR2 r - - 0 1");
    assert!(!p.in_check() && p.has_quiet_action());
}

/// The early stand pat's shortcut must not count what is no quiet move:
/// a push onto the promotion line (a promotion), a pinned Knight's jumps,
/// or any move once the game is over.
#[test]
fn quiet_moves_exclude_promotions_pins_and_ended_games() {
    let quiet = |p: &TeamChess| {
        let mut l = <TeamChess as Rules>::Actions::default();
        p.legal_actions(&mut l);
        l.iter().any(|&m| !p.is_tactical(m))
    };
    // Red's only push reaches rank 11 (a promotion); the rest of its
    // moves take Blue's men.
    let promo = "3yK4/8/8/14/4rP9/14/13gK/bK13/14/14/14/3bPbPbP2/3rPrPrP2/3bNrKbN2 r - - 0 1";
    // Red's Knight on i1 is pinned by the Rook on k1; its jumps are illegal.
    let pin = "3yK4/8/8/14/14/14/13gK/bK13/14/14/14/3bPbPbP2/3rPrPrP2/3bNrKrN1bR r - - 0 1";
    for s in [promo, pin] {
        let p = pos(s);
        assert!(!p.in_check(), "{s}");
        assert!(!quiet(&p), "{s}: {:?}", turns_of(&p));
        assert!(!p.has_quiet_action(), "{s}");
    }
    // A game over by the no-progress rule (200 turns by default): the
    // start position's pushes are no actions any more.
    let p = pos(&TeamChess::startpos(&Options::default()).position_string().replace(" 0 1", " 200 1"));
    assert!(p.outcome().is_some() && !p.has_quiet_action());
}

#[test]
fn pgn4_round_trip() {
    let opts = Options::default();
    let start = TeamChess::startpos(&opts);
    let turns: Vec<String> =
        ["h2h4", "b8c8", "h13h11", "m8l8", "i1f4", "a9c7", "j14i12", "n9l7"].iter().map(|s| s.to_string()).collect();
    let names = ["R".into(), "B".into(), "Y".into(), "G".into()];
    let text = pgn4::write(&start, &turns, &names).unwrap();
    assert!(text.contains("[Variant \"Teams\"]") && text.contains("[StartFen4 \"R-0,0,0,0-1,1,1,1-1,1,1,1-"), "{text}");
    assert!(text.contains("1. h2-h4 .. b8-c8 .. h13-h11 .. m8-l8+\n2. Bi1-f4 .. Ba9-c7+ .. Nj14-i12 .. Bn9-l7"), "{text}");
    assert!(text.contains("[Result \"*\"]"));
    let rec = pgn4::read(&text, &opts).unwrap();
    assert_eq!(rec.turns, turns);
    assert_eq!(rec.start.position_string(), START);
    // chess.com style with captures, checks and comments reads too.
    let rec =
        pgn4::read("[Variant \"Teams\"]\n1. h2-h4 { a comment } .. b8-c8 .. h13-h11 .. m8-l8\n2. Bi1-f4+ ..", &opts).unwrap();
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
    use crate::games::cross_board::test_util::assert_team_mobility;
    let w0 = TeamChess::default_weights("teamchess");
    let (rook, bishop) = (w0.values[w::MOB_ROOK], w0.values[w::MOB_BISHOP]);
    let p = pos("3yK4/8/8/14/14/14/13gK/bK13/14/14/1rR12/8/8/3rK4 r - - 0 1");
    assert_team_mobility(&p, 20 * rook);
    // A Blue Bishop on f4 ends the Rook's way right: c4, d4, e4, f4. The
    // Bishop reaches e5–a9 (5), g5–m11 (7), e3–d2 (2) and g3–i1 (3).
    let q = pos("3yK4/8/8/14/14/14/13gK/bK13/14/14/1rR3bB8/8/8/3rK4 r - - 0 1");
    assert_team_mobility(&q, (7 + 1 + 4) * rook - 17 * bishop);
}

// ---- evaluation terms (docs/teamchess.md, "Evaluation") -------------------

use crate::eval::FeatureList;
use crate::games::cross_board::board::{parse_square, sq as cell, EXISTS};
use crate::games::cross_board::men::{code, write_board_field};
use eval::w;

/// A position with these men (`"rK@g1"`: colour, type, cell) and `side`
/// to move, no castling, no en passant.
fn men(list: &[&str], side: char) -> TeamChess {
    let mut m = crate::games::cross_board::men::Men::default();
    for x in list {
        let (man, at) = x.split_once('@').unwrap();
        let seat = "rbyg".find(man.chars().next().unwrap()).unwrap();
        let ty = "PpNBRQK".find(man.chars().nth(1).unwrap()).unwrap();
        m.put(code(seat, ty), parse_square(at).unwrap());
    }
    let mut b = String::new();
    write_board_field(&m, ['r', 'b', 'y', 'g'], &mut b);
    pos(&format!("{b} {side} - - 0 1"))
}

/// The merged features of `p` for `seat`.
fn feats(p: &TeamChess, seat: usize) -> Vec<(u32, i32)> {
    let mut f = FeatureList::default();
    p.eval_features(seat, &mut f);
    f.merged()
}

fn has(f: &[(u32, i32)], idx: usize, count: i32) -> bool {
    f.contains(&(idx as u32, count))
}

fn term(p: &TeamChess, seat: usize, name: &str) -> i32 {
    crate::game::eval_term(p, seat, name)
}

const KINGS: [&str; 4] = ["rK@h1", "bK@a7", "yK@g14", "gK@n8"];

fn with_kings(extra: &[&str], side: char) -> TeamChess {
    let mut v: Vec<&str> = KINGS.to_vec();
    v.extend_from_slice(extra);
    men(&v, side)
}

/// Turns a position a quarter round: seat `s`'s men become seat `s + 1`'s
/// on the cell that is the same cell in its own frame (castling and en
/// passant dropped).
fn quarter_turn(p: &TeamChess) -> TeamChess {
    let mut m = crate::games::cross_board::men::Men::default();
    for s in EXISTS {
        if let Some((seat, ty)) = p.piece_at(s) {
            let (x, y) = (s & 15, s >> 4);
            m.put(code((seat + 1) & 3, ty), cell(y, 13 - x));
        }
    }
    let mut b = String::new();
    write_board_field(&m, ['r', 'b', 'y', 'g'], &mut b);
    let side = ['r', 'b', 'y', 'g'][(p.to_move() + 1) & 3];
    pos(&format!("{b} {side} - - 0 1"))
}

/// Every term is the same for every seat in its own frame: a position
/// turned a quarter round evaluates, for the next seat, exactly as before
/// (piece-square frames, pawn directions, King zones, the turn order of
/// threats, tempo). Along random games, every seat.
#[test]
fn eval_is_the_same_for_each_seat_in_its_own_frame() {
    let mut rng = crate::zobrist::splitmix64(11);
    for game in 0..12 {
        let mut p = TeamChess::startpos(&Options::default());
        for _ in 0..60 {
            let q = quarter_turn(&p);
            for seat in 0..4 {
                assert_eq!(
                    crate::game::eval_value(&p, seat),
                    crate::game::eval_value(&q, (seat + 1) & 3),
                    "game {game}: {} seat {seat}",
                    p.position_string()
                );
            }
            let t = turns_of(&p);
            if t.is_empty() {
                break;
            }
            rng = crate::zobrist::splitmix64(rng);
            play(&mut p, &t[(rng % t.len() as u64) as usize]);
        }
    }
}

#[test]
fn eval_frame_puts_every_king_on_the_same_home_cell() {
    for (seat, k) in KINGS.iter().enumerate() {
        let s = parse_square(&k[3..]).unwrap();
        assert_eq!(eval::frame(seat, s), (7, 0), "{k}");
    }
}

/// A man attacked by the other team and undefended (or attacked by a
/// cheaper man) is a threat, worth what its seat's place in the turn order
/// says: Blue's Knight hanging to a Red pawn with Red to move (Blue is the
/// next seat) against the same with Blue to move (its own move).
#[test]
fn eval_threat_by_turn_order() {
    let w0 = TeamChess::default_weights("teamchess");
    let next_n = w0.values[w::THREAT + 5 + 1];
    let own_n = w0.values[w::THREAT + 1];
    assert!(next_n < own_n && own_n < 0, "defaults: a threat costs its side, most when the enemy moves first");
    let red = with_kings(&["rP@f5", "bN@g6"], 'r');
    assert_eq!(term(&red, 0, "threat"), -next_n);
    assert_eq!(term(&red, 1, "threat"), next_n);
    let blue = with_kings(&["rP@f5", "bN@g6"], 'b');
    assert_eq!(term(&blue, 0, "threat"), -own_n);
    // Defended by a Green pawn (moving west, attacking h5 and h7): still a
    // threat, the attacker is cheaper.
    let defended = with_kings(&["rP@f5", "bN@g6", "gP@h7"], 'r');
    assert_eq!(term(&defended, 0, "threat"), -next_n);
    // A defended Knight attacked by a Rook is no threat.
    let rook = with_kings(&["rR@g3", "bN@g6", "gP@h7"], 'r');
    assert_eq!(term(&rook, 0, "threat"), 0);
}

/// The King's zone under attack: a Blue Queen on j3 (5 units) and a Green
/// Rook on i8 (3 units) attack the zone of Red's King on h1, and together
/// its cells h1, i2 (the Queen) and i1, i2 (the Rook): 3 more units, 11 in
/// all, from two seats; the other Kings are not attacked.
#[test]
fn eval_king_danger_counts_attack_units_and_seats() {
    let p = with_kings(&["bQ@j3", "gR@i8"], 'r');
    let k = eval::kings(&p);
    assert_eq!((k[0].unwrap().units, k[0].unwrap().seats), (11, 2));
    for s in 1..4 {
        assert_eq!((k[s].unwrap().units, k[s].unwrap().seats), (0, 0), "seat {s}");
    }
    // One attacker only: the Queen's 5 units and 2 cells, one seat.
    let q = with_kings(&["bQ@j3"], 'r');
    let kq = eval::kings(&q)[0].unwrap();
    assert_eq!((kq.units, kq.seats), (7, 1));
    // The features carry it: Red's danger and seats entries, counted for Red.
    let f = feats(&p, 0);
    assert!(has(&f, w::DANGER + 11, 1) && has(&f, w::SEATS + 2, 1), "{f:?}");
    // With the default weights the double attack costs more.
    assert!(term(&p, 0, "king") < term(&q, 0, "king"));
}

/// Shelter and exposure: three pawns in front of Red's King on h1 close
/// its lines (10 cells a Queen there would reach: g2, h2, i2, g1–d1,
/// i1–k1); without them 33 (at most 23 counted).
#[test]
fn eval_king_shelter_and_exposure() {
    let shut = with_kings(&["rP@g2", "rP@h2", "rP@i2"], 'b');
    let k = eval::kings(&shut)[0].unwrap();
    assert_eq!((k.shelter, k.exposure, k.guards), (3, 10, 3));
    let open = with_kings(&[], 'b');
    let k = eval::kings(&open)[0].unwrap();
    assert_eq!((k.shelter, k.exposure, k.guards), (0, eval::EXPOSURE_MAX, 0));
    assert!(term(&shut, 0, "king") > term(&open, 0, "king"));
    // A seat without its King: `none`, a lost game for its team.
    let mut v: Vec<&str> = KINGS[1..].to_vec();
    v.push("rQ@e5");
    let no_red = men(&v, 'b');
    assert!(eval::kings(&no_red)[0].is_none());
    let none = TeamChess::default_weights("teamchess").values[w::NO_KING];
    assert!(none <= -20_000);
    assert!(has(&feats(&no_red, 0), w::NO_KING, 1));
    // The other Kings' terms are hundreds, not thousands.
    assert!(term(&no_red, 0, "king") < none / 2, "{}", term(&no_red, 0, "king"));
}

#[test]
fn eval_tempo_goes_to_the_team_to_move() {
    let t = TeamChess::default_weights("teamchess").values[w::TEMPO];
    assert_eq!(term(&with_kings(&[], 'r'), 0, "tempo"), t);
    assert_eq!(term(&with_kings(&[], 'b'), 0, "tempo"), -t);
    assert_eq!(term(&with_kings(&[], 'g'), 2, "tempo"), -t);
}

/// The piece-square tables: a Knight in the centre against one on its
/// home cell, for Red and, in its own frame, for Green.
#[test]
fn eval_pst_is_per_frame() {
    let w0 = TeamChess::default_weights("teamchess");
    let home = with_kings(&["rN@e1"], 'b');
    let centre = with_kings(&["rN@g7"], 'b');
    let (fh, fc) = (eval::frame(0, parse_square("e1").unwrap()), eval::frame(0, parse_square("g7").unwrap()));
    let pst = |(f, r): (usize, usize)| w0.values[w::PST_KNIGHT + r * 7 + f.min(13 - f)];
    assert_eq!(term(&centre, 0, "pst") - term(&home, 0, "pst"), pst(fc) - pst(fh));
    assert!(pst(fc) > pst(fh));
    // Green's Knight on its own e1 (n5) and g7 (h7).
    let g_home = with_kings(&["gN@n5"], 'b');
    let g_centre = with_kings(&["gN@h7"], 'b');
    assert_eq!(term(&g_centre, 3, "pst") - term(&g_home, 3, "pst"), pst(fc) - pst(fh));
}

/// The compiled default is the committed tuned set (`tuned.weights`): it
/// loads, it is not the hand-set table, the tuner left the fixed weight
/// alone, and the material values keep their order.
#[test]
fn the_compiled_weights_are_the_committed_tuned_set() {
    let d = TeamChess::default_weights("teamchess");
    let hand = crate::eval::Weights::defaults("teamchess", &w::TABLE);
    assert_ne!(d.values, hand.values);
    assert_eq!(d.values[w::NO_KING], hand.values[w::NO_KING]);
    let m = [w::PAWN, w::KNIGHT, w::ROOK, w::QUEEN].map(|i| d.values[i]);
    assert!(m.windows(2).all(|p| p[0] < p[1]), "{m:?}");
    assert!(d.values[w::KNIGHT] <= d.values[w::BISHOP] && d.values[w::BISHOP] < d.values[w::ROOK]);
}

#[test]
fn checks_next_seat_sees_direct_and_opened_checks() {
    let told = |p: &TeamChess, t: &str| p.checks_next_seat(p.parse_action(t).unwrap());
    // Red's Knight to c8 checks Blue's King on a7 (the next seat); to e8
    // it does not.
    let p = with_kings(&["rN@d6"], 'r');
    assert!(told(&p, "d6c8"));
    assert!(!told(&p, "d6e8"));
    // A Knight check on Green's King on n8 (the seat after next) is not one.
    assert!(!told(&with_kings(&["rN@k5"], 'r'), "k5l7"));
    // Yellow's Rook on a11 behind Red's Bishop on a9: the Bishop moving
    // away opens the file to Blue's King (a check by Red's partner).
    assert!(told(&with_kings(&["yR@a11", "rB@a9"], 'r'), "a9b10"));
    // A Rook that moves next to the King checks it; elsewhere on its rank
    // it does not.
    let p = with_kings(&["rR@e10"], 'r');
    assert!(told(&p, "e10e7"));
    assert!(!told(&p, "e10e11"));
    // A Red pawn (moving north) to b6 attacks a7.
    assert!(told(&with_kings(&["rP@b5"], 'r'), "b5b6"));
    // Promoting on e11: a Queen or Bishop there checks along the diagonal
    // to a7, a Rook or Knight does not.
    let p = with_kings(&["rP@e10"], 'r');
    assert!(told(&p, "e10e11q") && told(&p, "e10e11b"));
    assert!(!told(&p, "e10e11r") && !told(&p, "e10e11n"));
}

// ---- the fast generator against the simple one (`naive.rs`) ---------------

mod against_naive {
    use super::super::naive::Naive;
    use super::*;
    use crate::games::cross_board::piece::KING;

    /// A position with these men (`"rK@h1"`), side to move and castling.
    fn start(list: &[&str], side: char, castling: &str) -> String {
        let b = men(list, side).position_string();
        b.replace(&format!(" {side} - - 0 1"), &format!(" {side} {castling} - 0 1"))
    }

    /// Where the seeded random games start: the start position and four
    /// built to reach every rule soon.
    fn starts() -> Vec<String> {
        vec![
            START.to_string(),
            // Every King and Rook at home with all rights, the squares
            // between mostly cleared: castling on all eight sides.
            "yR2yK3yR/yP1yPyPyP1yNyP/8/bRbP10gPgR/1bP7bQ2gP1/1bP3yQ6gP1/1bP9gNgPgK/bKbP4rQ5gP1/1bP5gQ4gP1/1bP1bN8gP1/bRbP10gPgR/2rN5/rPrPrP1rPrPrPrP/rR3rK2rR r rKQbKQyKQgKQ - 0 1".to_string(),
            // Pawns one step from every promotion line, and pawns on their
            // pawn lines beside enemy pawns that can take them en passant
            // (Blue's b11-d11 skips c11, on Red's promotion rank); some
            // castling rights.
            start(
                &[
                    "rK@h1", "rR@k1", "rP@f2", "rP@g2", "rP@d5", "rP@d10", "rP@e10", "rP@j9", "rP@k8", //
                    "bK@a7", "bR@a11", "bP@b6", "bP@b8", "bP@b11", "bP@e4", "bP@j5", "bP@i9", "bP@g11", //
                    "yK@g14", "yR@d14", "yP@h13", "yP@d7", "yP@k10", "yP@e5", "yP@i6", //
                    "gK@n8", "gR@n4", "gP@m9", "gP@h4", "gP@i11", "gP@e9", "gP@f6",
                ],
                'r',
                "rKbQyKgQ",
            ),
            // Heavy pieces around open Kings: checks, mates and King
            // captures; Blue to move.
            start(
                &[
                    "rK@h1", "rQ@e6", "rR@k3", "rB@f1", "rP@g2", "rP@h2", //
                    "bK@a7", "bQ@c8", "bR@j7", "bN@b5", "bP@b7", //
                    "yK@g14", "yQ@i10", "yR@d12", "yB@h12", "yP@g13", //
                    "gK@n8", "gQ@l6", "gR@f9", "gN@m10", "gP@m8",
                ],
                'b',
                "-",
            ),
            // A King can only be taken by the seat before it, after the
            // victim's partner (or the taker's) opened a line. Here each
            // King is shielded from the seat before it by a man of that
            // seat's other enemy: Red's Rook f7 against Blue's a7 behind
            // Green's Knight c7, Blue's Rook d14 against g14 behind Red's
            // Bishop e14, Yellow's Queen k8 against n8 behind Blue's
            // Knight l8, Green's Rook h5 against h1 behind Yellow's h3.
            start(
                &[
                    "rK@h1", "rR@f7", "rB@e14", "rP@e2", "rP@f2", //
                    "bK@a7", "bR@d14", "bN@l8", "bP@b5", "bP@b9", //
                    "yK@g14", "yQ@k8", "yN@h3", "yP@e13", "yP@j13", //
                    "gK@n8", "gR@h5", "gN@c7", "gP@m5", "gP@m10",
                ],
                'r',
                "-",
            ),
        ]
    }

    /// The fast side's legal moves with their tokens, sorted by token.
    fn moves_of(p: &TeamChess) -> Vec<(String, Move)> {
        let mut l = <TeamChess as Rules>::Actions::default();
        p.legal_actions(&mut l);
        let mut t: Vec<(String, Move)> = l
            .iter()
            .map(|&m| {
                let mut s = String::new();
                p.write_action(m, &mut s);
                (s, m)
            })
            .collect();
        t.sort();
        t
    }

    #[test]
    fn the_starts_are_valid_and_read_alike() {
        for s in starts() {
            let p = pos(&s);
            assert_eq!(p.position_string(), s);
            assert_eq!(Naive::parse(&s).position_string(), s);
        }
    }

    /// Seeded random games from the starts above: at every position the
    /// simple implementation reads the fast one's position string and
    /// agrees on the legal moves (sorted tokens) and on the outcome; after
    /// every move both agree on the position string (men, castling rights,
    /// en-passant entries, clocks). The games do reach every rule: counted
    /// and required below.
    #[test]
    fn random_games_agree_with_naive() {
        let mut rng = 0x7EA3_C4E5_u64;
        let mut moves = 0u64;
        // What the games went through, counted (and required at the end).
        let mut seen = std::collections::BTreeMap::<String, u32>::new();
        let mut count = |what: &str, yes: bool| *seen.entry(what.to_string()).or_default() += u32::from(yes);
        let starts = starts();
        for game in 0..240 {
            let start = &starts[game % starts.len()];
            let mut p = pos(start);
            let mut line = vec![];
            for _ in 0..120 {
                let s = p.position_string();
                let naive = Naive::parse(&s);
                assert_eq!(naive.position_string(), s);
                let fast = moves_of(&p);
                let tokens: Vec<&String> = fast.iter().map(|m| &m.0).collect();
                assert_eq!(tokens, naive.tokens().iter().collect::<Vec<_>>(), "{s}\n(game {game} from {start}, moves {line:?})");
                let outcome = p.outcome().map(|o| o.to_string());
                assert_eq!(outcome, naive.outcome(), "{s}");
                moves += fast.len() as u64;
                let takes_king = |m: &&(String, Move)| p.piece_at(m.1.to()).is_some_and(|(_, ty)| ty == KING);
                count("positions", true);
                count("in check", naive.in_check(p.to_move()));
                count("castling available", fast.iter().any(|m| m.1.is_castle()));
                count("en passant available", fast.iter().any(|m| m.1.is_ep()));
                count("King capture available", fast.iter().any(|m| takes_king(&m)));
                if let Some(o) = outcome {
                    count(&o, true);
                }
                if fast.is_empty() {
                    break;
                }
                rng = crate::zobrist::splitmix64(rng);
                // Half the time a King capture or an en-passant capture if
                // there is one: both are rare in uniform play.
                let (t, m) = match fast.iter().find(|m| takes_king(m) || m.1.is_ep()) {
                    Some(m) if rng >> 32 & 1 == 0 => m,
                    _ => &fast[(rng % fast.len() as u64) as usize],
                };
                let m = *m;
                count("castling played", m.is_castle());
                count("en passant played", m.is_ep());
                count("promotion played", m.promotion().is_some());
                let nm = naive.legal().into_iter().find(|nm| &nm.token() == t).unwrap();
                let after = naive.play(&nm);
                p.make(m);
                line.push(t.clone());
                assert_eq!(p.position_string(), after.position_string(), "after {t} from {s}");
            }
        }
        eprintln!("{moves} moves compared; {seen:#?}");
        for (what, at_least) in [
            ("positions", 20_000),
            ("in check", 500),
            ("castling played", 30),
            ("en passant available", 30),
            ("en passant played", 30),
            ("promotion played", 100),
            ("win 1 3 checkmate", 5),
            ("win 2 4 checkmate", 5),
            ("win 1 3 kingcapture", 5),
            ("win 2 4 kingcapture", 5),
        ] {
            assert!(seen.get(what).is_some_and(|&n| n >= at_least), "{what}: {seen:?}");
        }
    }

    /// Perft (§12) of the simple implementation: from the start position
    /// the spec's counts (which agree with 4pchess's own generator) and the
    /// fast side's; from the other starts, the fast side's.
    #[test]
    fn naive_perft_agrees() {
        let spec = [20, 395, 7800];
        let naive = Naive::parse(START);
        for (d, &n) in spec.iter().enumerate() {
            let d = d as u32 + 1;
            let mut p = pos(START);
            assert_eq!(naive.perft(d), n, "naive, depth {d}");
            assert_eq!(perft(&mut p, d), n, "fast, depth {d}");
        }
        for s in &starts()[1..] {
            let mut p = pos(s);
            let d = 3;
            assert_eq!(Naive::parse(s).perft(d), perft(&mut p, d), "{s}");
        }
    }

    /// Depths 4 and 5 of the naive perft against §12: depth 5 is where the
    /// en-passant entry's lasting until its owner moves again matters
    /// (§6.3.2 note: 3,452,310 with it, 3,451,520 if only the next seat
    /// could use it). Slow: `--ignored`.
    #[test]
    #[ignore]
    fn naive_perft_depth_4_and_5() {
        let naive = Naive::parse(START);
        assert_eq!(naive.perft(4), 152_050);
        assert_eq!(naive.perft(5), 3_452_310);
    }
}

//! Perft from the spec's tables (§12), every worked example of §11,
//! hand-built checks of the special cases, errors, and properties on random
//! positions against the simple implementation in `naive`.

use super::naive::Naive;
use super::*;
use crate::game::{GameResult, SeatSet};
use crate::turns::{legal_turns, parse_turn, perft, perft_bulk, play_turn};

fn opts_of(variant: &str) -> Options {
    assert!(VARIANTS.contains(&variant), "{variant}");
    Options::for_variant(variant)
}

fn pos_with(opts: Options, s: &str) -> QueensKings {
    QueensKings::from_position_string(s, &opts).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pos(variant: &str, s: &str) -> QueensKings {
    pos_with(opts_of(variant), s)
}

fn turns_of(p: &QueensKings) -> Vec<String> {
    legal_turns(p).into_iter().map(|t| t.0).collect()
}

fn play(p: &mut QueensKings, t: &str) {
    let acts = parse_turn(p, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    play_turn(p, &acts);
}

fn after(p: &QueensKings, t: &str) -> QueensKings {
    let mut q = p.clone();
    play(&mut q, t);
    q
}

fn piece(p: &QueensKings, name: &str) -> Option<(usize, u8)> {
    let (f, r) = p.geo.parse_cell(name).unwrap();
    p.piece_at(board::sq(f, r))
}

fn with(variant: &str, f: impl FnOnce(&mut Options)) -> Options {
    let mut o = opts_of(variant);
    f(&mut o);
    o
}

// ---- start positions and perft (§7.5, §12) ----------------------------------

#[test]
fn start_positions_round_trip() {
    for v in VARIANTS {
        let o = opts_of(v);
        let p = QueensKings::startpos(&o);
        assert_eq!(p.position_string(), notation::start_string(&o), "{v}");
        assert_eq!(p.key(), p.key_from_scratch());
        let seats = if v.ends_with("-duel") { 2 } else { 4 };
        assert_eq!(p.seats(), seats);
        assert_eq!(p.to_move(), 0);
        assert_eq!(p.outcome(), None);
    }
}

const PERFT: [(&str, [u64; 6]); 6] = [
    ("queenskings", [14, 157, 1769, 15193, 138069, 1281376]),
    ("queenskings-teams", [14, 157, 1769, 15193, 138069, 1281376]),
    ("queenskings-duel", [14, 196, 3024, 46656, 775872, 12902464]),
    ("queenskings9", [10, 82, 676, 4416, 30920, 222157]),
    ("queenskings9-teams", [10, 82, 676, 4416, 30920, 222157]),
    ("queenskings9-duel", [10, 100, 1120, 12544, 149632, 1784896]),
];

/// Deeper figures, to compare with other implementations: run with
/// `--ignored --nocapture`.
#[test]
#[ignore]
fn perft_start_deeper() {
    for (v, _) in PERFT {
        let mut p = QueensKings::startpos(&opts_of(v));
        let t = std::time::Instant::now();
        let n = perft_bulk(&mut p, 7);
        println!("{v} perft 7 = {n} ({:.1} s)", t.elapsed().as_secs_f64());
    }
}

/// Speed benchmark (not a test of rules): `cargo test --release -p
/// tetrarch-core queenskings_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn queenskings_speed() {
    for (v, d) in [("queenskings-duel", 7), ("queenskings", 7), ("queenskings9-duel", 8)] {
        let mut p = QueensKings::startpos(&opts_of(v));
        let t = std::time::Instant::now();
        let n = perft_bulk(&mut p, d);
        let s = t.elapsed().as_secs_f64();
        println!("{v} perft {d} = {n}: {:.2} s, {:.1} M nodes/s (bulk)", s, n as f64 / s / 1e6);
        let t = std::time::Instant::now();
        let n = perft(&mut p, d - 1);
        let s = t.elapsed().as_secs_f64();
        println!("{v} perft {} = {n}: {:.2} s, {:.1} M nodes/s (every leaf made)", d - 1, s, n as f64 / s / 1e6);
    }
}

// ---- worked examples (§11) ----------------------------------------------------

#[test]
fn e1_capture_compulsory_men_not_backward() {
    let p = pos("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1");
    assert_eq!(turns_of(&p), ["c5xe7"]);
}

#[test]
fn e2_crowning_ends_the_capture() {
    let s = "13/13/2nm10/13/13/7nm5/13/5nm7/4sm8/13/13/13/13 s sn 0 1";
    let p = pos("queenskings9-duel", s);
    assert_eq!(turns_of(&p), ["e5xg7"]);
    let q = after(&p, "e5xg7");
    assert_eq!(q.position_string(), "13/13/2nm10/13/13/7nm5/6sk6/13/13/13/13/13/13 n sn 0 2");
    assert_eq!(turns_of(&q), ["h8xf6"]);

    let o = with("queenskings9-duel", |o| o.crown = CrownInCapture::Continue);
    let p = pos_with(o, s);
    assert_eq!(turns_of(&p), ["e5xg7xi9"]);
    assert_eq!(piece(&after(&p, "e5xg7xi9"), "i9"), Some((0, KING)));

    let o = with("queenskings9-duel", |o| o.crown = CrownInCapture::Final);
    let p = pos_with(o, s);
    assert_eq!(turns_of(&p), ["e5xg7xi9"]);
    assert_eq!(piece(&after(&p, "e5xg7xi9"), "i9"), Some((0, MAN)));
}

#[test]
fn e3_king_circle_two_directions() {
    let p = pos("queenskings9-duel", "nm12/13/13/13/13/3nm1nm7/13/3nm1nm7/4sk8/13/13/13/13 s sn 0 1");
    assert_eq!(turns_of(&p), ["e5xc7xe9xg7xe5", "e5xg7xe9xc7xe5"]);
    let q = after(&p, "e5xc7xe9xg7xe5");
    assert_eq!(q.position_string(), "nm12/13/13/13/13/13/13/13/4sk8/13/13/13/13 n sn 0 2");
}

#[test]
fn e4_queen_landing_rule_and_options() {
    let s = "13/13/13/13/13/13/13/13/13/1nm3nm7/2nm10/5nm7/sq12 s sn 0 1";
    let p = pos("queenskings9-duel", s);
    assert_eq!(turns_of(&p), ["a1xd4xg1", "a1xe5xg3xe1"]);
    let o = with("queenskings9-duel", |o| o.queen_landing_free = true);
    assert_eq!(
        turns_of(&pos_with(o, s)).join(" "),
        "a1xd4xg1 a1xe5xg3xe1 a1xe5xh2 a1xe5xi1 a1xf6 a1xg7 a1xh8 a1xi9 a1xj10 a1xk11 a1xl12 a1xm13"
    );
    let o = with("queenskings9-duel", |o| o.immediate_removal = true);
    assert_eq!(turns_of(&pos_with(o, s)), ["a1xd4xg1", "a1xe5xg3xe1xa5"]);
    // The Queen passes the centre g7 without any change.
    let o = with("queenskings9-duel", |o| o.queen_landing_free = true);
    let q = after(&pos_with(o, s), "a1xg7");
    assert_eq!(piece(&q, "g7"), Some((0, QUEEN)));
}

#[test]
fn e5_teammate_hop_chain() {
    let p = pos("queenskings9-teams", "13/13/13/1em9wm1/13/3nm9/13/3nm1nm7/13/3nm9/2sm10/13/13 s swne 0 1");
    assert_eq!(turns_of(&p), ["c3b4", "c3e5", "c3e5c7", "c3e5c7e9", "c3e5g7"]);
    let q = after(&p, "c3e5g7");
    assert_eq!(piece(&q, "g7"), Some((0, KING)));
    assert_eq!(piece(&q, "f6"), Some((2, MAN)), "the partner piece stays");
    // The same board in free-for-all: N's men are enemies to capture.
    let p = pos("queenskings9", "13/13/13/1em9wm1/13/3nm9/13/3nm1nm7/13/3nm9/2sm10/13/13 s swne 0 1");
    assert_eq!(turns_of(&p), ["c3xe5xc7xe9", "c3xe5xg7"]);
}

const E6: &str = "10nm2/13/13/13/13/13/13/13/4sm8/13/2sm10/1sm11/wm11em s swne 0 1";

#[test]
fn e6_elimination_free_for_all() {
    let p = pos("queenskings9", E6);
    assert_eq!(turns_of(&p), ["b2a3", "c3b4", "c3d4", "e5d6", "e5f6"]);
    let q = after(&p, "e5d6");
    assert_eq!(q.position_string(), "10nm2/13/13/13/13/13/13/3sm9/13/13/2sm10/1sm11/12em n sne 0 2");
    let q = after(&p, "c3d4");
    assert_eq!(q.to_move(), 1);
    assert_eq!(turns_of(&q), ["a1xc3"]);
    // With `keep` W's man stays, belongs to nobody playing and is an enemy.
    let o = with("queenskings9", |o| o.keep_eliminated = true);
    let q = after(&pos_with(o, E6), "e5d6");
    assert_eq!(q.position_string(), "10nm2/13/13/13/13/13/13/3sm9/13/13/2sm10/1sm11/wm11em n sne 0 2");
}

#[test]
fn e7_elimination_teams() {
    let p = pos("queenskings9-teams", E6);
    assert_eq!(turns_of(&p), ["b2a3", "c3b4", "c3d4", "e5d6", "e5f6"]);
    let q = after(&p, "e5d6");
    assert_eq!(q.position_string(), "10nm2/13/13/13/13/13/13/3sm9/13/13/2sm10/1sm11/wm11em n sne 0 2");
    assert_eq!(q.outcome(), None);
}

#[test]
fn e8_duel_won_by_capturing_the_last_piece() {
    let p = pos("queenskings9-duel", "13/13/13/13/13/13/13/3nm9/2sm10/13/13/13/13 s sn 0 1");
    assert_eq!(turns_of(&p), ["c5xe7"]);
    let mut q = after(&p, "c5xe7");
    assert_eq!(q.position_string(), "13/13/13/13/13/13/4sm8/13/13/13/13/13/13 s s 0 2");
    assert_eq!(q.outcome().map(|o| o.to_string()), Some("win 1 elimination".into()));
    for d in 1..4 {
        assert_eq!(perft(&mut q, d), 0);
    }
    let mut p = p;
    assert_eq!([perft(&mut p, 1), perft(&mut p, 2)], [1, 0]);
}

#[test]
fn e9_draw_counter() {
    let s = "nk12/13/13/13/13/13/13/13/4sk8/13/13/13/13 s sn 98 160";
    let mut p = pos("queenskings9-duel", s);
    assert_eq!(turns_of(&p), ["e5d4", "e5d6", "e5f4", "e5f6"]);
    let q = after(&p, "e5f6");
    assert_eq!(q.position_string(), "nk12/13/13/13/13/13/13/5sk7/13/13/13/13/13 n sn 99 161");
    assert_eq!(turns_of(&q), ["a13b12"]);
    let r = after(&q, "a13b12");
    assert_eq!(r.outcome().map(|o| o.to_string()), Some("draw rounds".into()));
    assert_eq!(r.outcome().unwrap().result, GameResult::Draw(SeatSet(0b11)));
    assert_eq!([perft(&mut p, 1), perft(&mut p, 2), perft(&mut p, 3)], [4, 4, 0]);
    assert_eq!([perft_bulk(&mut p, 1), perft_bulk(&mut p, 2), perft_bulk(&mut p, 3)], [4, 4, 0]);
    // QK_DrawRounds = 0 switches the rule off.
    let mut p = pos_with(with("queenskings9-duel", |o| o.draw_rounds = 0), s);
    assert_eq!(perft(&mut p, 3), 16);
    // A string at the limit describes a drawn game.
    let p = pos("queenskings9-duel", "nk12/13/13/13/13/13/13/13/4sk8/13/13/13/13 s sn 100 160");
    assert!(p.outcome().is_some() && turns_of(&p).is_empty());
    // Three seats in the game: 150.
    let s3 = "10nm2/13/13/13/13/13/13/13/4sk8/13/13/13/12ek s sne 149 9";
    assert!(pos("queenskings9", s3).outcome().is_none());
    let p = pos("queenskings9", &s3.replace(" 149 ", " 150 "));
    assert_eq!(p.outcome().map(|o| o.to_string()), Some("draw rounds".into()));
    assert_eq!(p.outcome().unwrap().result, GameResult::Draw(SeatSet(0b1101)));
}

// ---- special cases, hand-built --------------------------------------------------

#[test]
fn man_crowned_queen_mid_capture() {
    // S man e11 jumps f12 onto the top rank: a Queen, and the move ends
    // although she could take h12 next.
    let s = "13/5nm1nm5/4sm8/13/13/13/13/13/13/13/13/13/12nk s sn 0 1";
    let p = pos("queenskings9-duel", s);
    assert_eq!(turns_of(&p), ["e11xg13"]);
    assert_eq!(piece(&after(&p, "e11xg13"), "g13"), Some((0, QUEEN)));
    let o = with("queenskings9-duel", |o| o.crown = CrownInCapture::Continue);
    assert_eq!(turns_of(&pos_with(o, s)).join(" "), "e11xg13xi11 e11xg13xj10 e11xg13xk9 e11xg13xl8 e11xg13xm7");
    let o = with("queenskings9-duel", |o| o.crown = CrownInCapture::Final);
    let p = pos_with(o, s);
    assert_eq!(turns_of(&p), ["e11xg13"]);
    assert_eq!(piece(&after(&p, "e11xg13"), "g13"), Some((0, QUEEN)));
}

#[test]
fn jumping_the_centre_crowns_nothing() {
    // S man f6 jumps N's King on the centre g7 and lands on h8: still a man.
    let p = pos("queenskings9-duel", "13/13/13/13/13/13/6nk6/5sm7/13/13/13/13/13 s sn 0 1");
    assert_eq!(turns_of(&p), ["f6xh8"]);
    let q = after(&p, "f6xh8");
    assert_eq!(piece(&q, "h8"), Some((0, MAN)));
    assert_eq!(q.outcome().map(|o| o.to_string()), Some("win 1 elimination".into()));
    // A King stepping onto the Queen edge stays a King; a Queen stepping
    // onto the centre stays a Queen.
    let p = pos("queenskings9-duel", "nk12/1sk11/13/13/13/13/13/5sq7/13/13/13/13/13 s sn 0 1");
    assert_eq!(piece(&after(&p, "b12c13"), "c13"), Some((0, KING)));
    assert_eq!(piece(&after(&p, "f6g7"), "g7"), Some((0, QUEEN)));
    // A man stepping onto the centre is a King, onto its Queen edge a Queen.
    let p = pos("queenskings9-duel", "nk12/1sm11/13/13/13/13/13/5sm7/13/13/13/13/13 s sn 0 1");
    assert_eq!(piece(&after(&p, "b12c13"), "c13"), Some((0, QUEEN)));
    assert_eq!(piece(&after(&p, "f6g7"), "g7"), Some((0, KING)));
}

#[test]
fn king_hop_chain_never_revisits() {
    // S King e5 among four N men (teams): chains round the diamond stop
    // before returning to e5.
    let s = "wm16/17/17/17/17/17/17/17/17/3nm1nm11/17/3nm1nm11/4sk12/17/17/17/16em s swne 0 1";
    let p = pos("queenskings-teams", s);
    assert_eq!(turns_of(&p), ["e5c7", "e5c7e9", "e5c7e9g7", "e5d4", "e5f4", "e5g7", "e5g7e9", "e5g7e9c7"]);
    // In free-for-all the same King must capture, round the diamond both ways.
    let p = pos("queenskings", s);
    assert_eq!(turns_of(&p), ["e5xc7xe9xg7xe5", "e5xg7xe9xc7xe5"]);
}

#[test]
fn elimination_ends_teams_and_free_for_all() {
    // Teams: S takes E's last man; W is already out. E is visited only when
    // its turn comes (after N's move): then E is out and S + N win.
    let s = "13/9nm3/13/13/13/13/13/13/13/3em9/2sm10/13/13 s sne 0 7";
    let p = pos("queenskings9-teams", s);
    assert_eq!(turns_of(&p), ["c3xe5"]);
    let q = after(&p, "c3xe5");
    assert_eq!(q.position_string(), "13/9nm3/13/13/13/13/13/13/4sm8/13/13/13/13 n sne 0 8");
    let r = after(&q, "j12i11");
    assert_eq!(r.position_string(), "13/13/8nm4/13/13/13/13/13/4sm8/13/13/13/13 n sn 0 9");
    assert_eq!(r.outcome().map(|o| o.to_string()), Some("win 1 3 elimination".into()));
    assert!(turns_of(&r).is_empty());
    // Free-for-all: E goes out, S and N play on.
    let r = after(&after(&pos("queenskings9", s), "c3xe5"), "j12i11");
    assert_eq!(r.position_string(), "13/13/8nm4/13/13/13/13/13/4sm8/13/13/13/13 s sn 0 9");
    assert_eq!(r.outcome(), None);
    // Two seats go out in one end-of-turn procedure (W and N blocked): E
    // is to move.
    let s = "nm12/1sm11/2sm10/13/13/13/12em/13/13/13/2sm10/1sm11/wm9sm2 s swne 0 3";
    let r = after(&pos("queenskings9", s), "k1l2");
    assert_eq!(r.position_string(), "13/1sm11/2sm10/13/13/13/12em/13/13/13/2sm10/1sm9sm1/13 e se 0 4");
    let keep = with("queenskings9", |o| o.keep_eliminated = true);
    let r = after(&pos_with(keep, s), "k1l2");
    assert_eq!(r.position_string(), "nm12/1sm11/2sm10/13/13/13/12em/13/13/13/2sm10/1sm9sm1/wm12 e se 0 4");
    let r = after(&pos("queenskings9-teams", s), "k1l2");
    assert_eq!(r.position_string(), "nm12/1sm11/2sm10/13/13/13/12em/13/13/13/2sm10/1sm9sm1/wm12 e se 0 4");
    assert_eq!(r.outcome(), None);
}

#[test]
fn queen_multi_capture_two_enemy_seats() {
    // Free-for-all: S's Queen takes W's man c3, must land on g7 (the centre,
    // nothing happens), the only square with a further jump, and takes N's
    // man f8; then any landing square. W, left without pieces, is out.
    let s = "10nm2/13/13/13/13/5nm7/13/13/13/13/2wm10/13/sq11em s swne 0 1";
    let p = pos("queenskings9", s);
    let t = turns_of(&p);
    assert_eq!(t, ["a1xg7xa13", "a1xg7xb12", "a1xg7xc11", "a1xg7xd10", "a1xg7xe9"]);
    let q = after(&p, "a1xg7xe9");
    assert_eq!(q.position_string(), "10nm2/13/13/13/4sq8/13/13/13/13/13/13/13/12em n sne 0 2");
}

#[test]
fn repetition_is_a_history_rule() {
    let mut p = pos("queenskings9-duel", "nk12/13/13/13/13/13/13/13/4sk8/13/13/13/13 s sn 0 1");
    let mut history = vec![];
    for t in ["e5f6", "a13b12", "f6e5", "b12a13"].repeat(2) {
        history.push(p.key());
        play(&mut p, t);
    }
    assert_eq!(p.history_outcome(&history).map(|o| o.to_string()), Some("draw repetition".into()));
    assert_eq!(p.history_outcome(&history[..4]), None);
    assert!(!turns_of(&p).is_empty(), "perft and moves ignore repetition");
    let o = with("queenskings9-duel", |o| o.repetition_draw = false);
    let q = pos_with(o, &p.position_string());
    assert_eq!(q.history_outcome(&history), None);
}

#[test]
fn options_parse() {
    let mut o = opts_of("queenskings");
    assert_eq!(QueensKings::option_specs("queenskings").len(), 6);
    QueensKings::set_option(&mut o, "QK_CrownInCapture", "continue").unwrap();
    QueensKings::set_option(&mut o, "qk_queenlanding", "free").unwrap();
    QueensKings::set_option(&mut o, "QK_CapturedRemoval", "immediate").unwrap();
    QueensKings::set_option(&mut o, "QK_EliminatedPieces", "keep").unwrap();
    QueensKings::set_option(&mut o, "QK_DrawRounds", "0").unwrap();
    QueensKings::set_option(&mut o, "QK_RepetitionDraw", "false").unwrap();
    assert_eq!(
        o,
        Options {
            crown: CrownInCapture::Continue,
            queen_landing_free: true,
            immediate_removal: true,
            keep_eliminated: true,
            draw_rounds: 0,
            repetition_draw: false,
            ..opts_of("queenskings")
        }
    );
    let before = o;
    for (n, v) in
        [("QK_CrownInCapture", "never"), ("QK_DrawRounds", "1001"), ("QK_DrawRounds", "-1"), ("QK_RepetitionDraw", "yes")]
    {
        assert!(QueensKings::set_option(&mut o, n, v).is_err(), "{n} {v}");
    }
    assert_eq!(o, before);
    assert_eq!(opts_of("queenskings9-teams").size, 13);
    assert_eq!(opts_of("queenskings9-teams").mode, Mode::Teams);
    assert_eq!(opts_of("queenskings-duel").mode, Mode::Duel);
}

#[test]
fn seats_and_sides() {
    let duel = QueensKings::startpos(&opts_of("queenskings-duel"));
    assert_eq!((duel.seats(), duel.side_of(1), duel.seat_name(1)), (2, 1, "North"));
    let teams = QueensKings::startpos(&opts_of("queenskings-teams"));
    assert_eq!((0..4).map(|s| teams.side_of(s)).collect::<Vec<_>>(), [0, 1, 0, 1]);
    let ffa = QueensKings::startpos(&opts_of("queenskings9"));
    assert_eq!((0..4).map(|s| ffa.side_of(s)).collect::<Vec<_>>(), [0, 1, 2, 3]);
    // Turn order S W N E; in a duel S N.
    let mut p = ffa.clone();
    for expect in [1, 2, 3, 0] {
        let mut l = MoveList::default();
        p.legal_actions(&mut l);
        p.make(l[0]);
        assert_eq!(p.to_move(), expect);
    }
    let mut p = duel.clone();
    let mut l = MoveList::default();
    p.legal_actions(&mut l);
    p.make(l[0]);
    assert_eq!(p.to_move(), 1);
    assert_eq!(p.position_string().split(' ').nth(1), Some("n"));
}

// ---- errors ------------------------------------------------------------------------

#[test]
fn bad_position_strings() {
    let ok = "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1";
    assert!(QueensKings::from_position_string(ok, &opts_of("queenskings9-duel")).is_ok());
    // with tabs and extra spaces
    assert!(QueensKings::from_position_string(&ok.replace(' ', " \t "), &opts_of("queenskings9-duel")).is_ok());
    let e6_w_out = E6.replace("swne", "sne");
    let cases = [
        ("queenskings9-duel", "", "5 fields"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0", "5 fields"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/10sm2 s sn 0 1", "13 ranks"),
        ("queenskings-duel", ok, "17 ranks"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13//10sm2 s sn 0 1", "empty"),
        ("queenskings9-duel", "13/13/4nm9/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "rank 11"),
        ("queenskings9-duel", "13/13/4nm7/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "rank 11"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm02 s sn 0 1", "leading zero"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/010sm2 s sn 0 1", "leading zero"),
        ("queenskings9-duel", "13/13/4nX8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "followed by m, k or q"),
        ("queenskings9-duel", "13/13/4Nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "not a seat letter"),
        ("queenskings9-duel", "13/13/4km8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "without a seat"),
        ("queenskings9-duel", "13/13/4wm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "does not play"),
        ("queenskings9-duel", "13/13/3nm9/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "unplayable"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/6nm6/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "centre"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/nm9sm2 s sn 0 1", "Queen edge"),
        ("queenskings9-duel", "sm12/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "Queen edge"),
        ("queenskings9-duel", "nk1nk1nk1nk1nk1nk1nk1/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1", "rank 13"),
        (
            "queenskings9-duel",
            "nk1nk1nk1nk1nk1nk1nk/1nk1nk1nk7/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1",
            "more than the 9",
        ),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 w sn 0 1", "seat to move"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 sn sn 0 1", "seat to move"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s n 0 1", "not in the game"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s ns 0 1", "turn order"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s ss 0 1", "repeated"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s swn 0 1", "seats in the game"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn -1 1", "draw counter"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 01 1", "draw counter"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 0", "turn number"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 +1", "turn number"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 99999999999", "turn number"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 4294967295", "at most 1000000000"),
        ("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 1000000001 1", "at most 1000000000"),
        // W is out in free-for-all but still has a piece
        ("queenskings9", e6_w_out.as_str(), "out of the game"),
        // the seat to move has no move: it would already be out
        ("queenskings9-duel", "13/13/13/13/13/13/13/13/13/13/2nm10/1nm11/sm12 s sn 0 1", "no legal move"),
    ];
    for (v, s, why) in cases {
        let e = QueensKings::from_position_string(s, &opts_of(v)).expect_err(s);
        assert!(
            matches!(&e, PositionError::Field { field, reason } if field.contains(why) || reason.contains(why)),
            "{s}: `{e}` should be a field error mentioning `{why}`"
        );
    }
    // ...the same strings are fine where the rule does not apply
    assert!(QueensKings::from_position_string(&E6.replace("swne", "sne"), &with("queenskings9", |o| o.keep_eliminated = true))
        .is_ok());
    assert!(QueensKings::from_position_string(&E6.replace("swne", "sne"), &opts_of("queenskings9-teams")).is_ok());
    // a finished game: all seats in the game on one side, no move needed
    let p = pos("queenskings9-duel", "13/13/13/13/13/13/13/13/13/13/13/1nm11/sm12 s s 0 1");
    assert!(p.outcome().is_some());
}

#[test]
fn bad_tokens() {
    let p = pos("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1");
    let q = pos("queenskings9-duel", "13/13/13/13/13/13/13/13/13/1nm3nm7/2nm10/5nm7/sq12 s sn 0 1");
    let start = QueensKings::startpos(&opts_of("queenskings-duel"));
    for (g, t, illegal) in [
        (&p, "c5xe7", None),
        (&p, "k1j2", Some(true)),  // capture compulsory
        (&p, "c5xa3", Some(true)), // not a legal jump
        (&p, "c5e7", Some(true)),  // a capture written without x
        (&p, "0000", Some(true)),
        (&p, "c5", Some(false)),
        (&p, "c5xe7x", Some(false)),
        (&p, "xc5e7", Some(false)),
        (&p, "c5xe7f8", Some(false)),
        (&p, "C5xE7", Some(false)),
        (&p, "c05xe7", Some(false)),
        (&p, "c5xq7", Some(false)), // off the 13×13 board
        (&p, "c5xe14", Some(false)),
        (&p, "c4xe6", Some(false)), // light squares
        (&p, "", Some(false)),
        (&p, "c5-e7", Some(false)),
        (&q, "a1xd4xg1", None),
        (&q, "a1xd4", Some(true)),    // not maximal
        (&q, "a1xe5xg3", Some(true)), // not maximal
        (&q, "a1xf6", Some(true)),    // landing rule
        (&q, "a1xb2", Some(true)),    // impossible path
        (&start, "e3f4", None),
        (&start, "e3f4g5", Some(true)),
        (&start, "e3xf4", Some(true)),
        (&start, "e3d4", None),
        (&start, "e3e5", Some(true)),
        (&start, "e3e4", Some(false)), // a light square
    ] {
        match (g.parse_action(t), illegal) {
            (Ok(m), None) => assert_eq!(crate::game::action_string(g, m), t),
            (Err(TokenError::Illegal(_)), Some(true)) | (Err(TokenError::Malformed(_)), Some(false)) => {}
            (r, _) => panic!("{t}: {r:?}"),
        }
    }
    match q.parse_action("a1xd4") {
        Err(TokenError::Illegal(m)) => assert!(m.contains("not complete"), "{m}"),
        r => panic!("{r:?}"),
    }
    match p.parse_action("k1j2") {
        Err(TokenError::Illegal(m)) => assert!(m.contains("compulsory"), "{m}"),
        r => panic!("{r:?}"),
    }
    // nothing is legal in a finished game
    let over = pos("queenskings9-duel", "13/13/13/13/13/13/4sm8/13/13/13/13/13/13 s s 0 2");
    assert!(matches!(over.parse_action("g7f8"), Err(TokenError::Illegal(_))));
}

#[test]
fn eval_is_symmetric_and_named() {
    for v in VARIANTS {
        let p = QueensKings::startpos(&opts_of(v));
        for seat in 0..p.seats() {
            let terms = crate::game::eval_terms_of(&p, seat);
            assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), crate::game::eval_value(&p, seat));
        }
        if v.ends_with("-duel") || v.ends_with("-teams") {
            assert_eq!(crate::game::eval_value(&p, 0), 0, "{v}");
        }
    }
    let p = pos("queenskings9-duel", "13/13/4nm8/13/13/13/13/3nm9/2sm10/1nm11/13/13/10sm2 s sn 0 1");
    assert_eq!(crate::game::eval_value(&p, 0), -crate::game::eval_value(&p, 1));
    let mut l = MoveList::default();
    p.legal_actions(&mut l);
    assert!(p.is_tactical(l[0]) && p.order_hint(l[0]) > 0);
}

#[test]
fn eval_back_rank_guards_the_opposite_queen_edge() {
    let back = |p: &QueensKings, seat| crate::game::eval_term(p, seat, "back_rank");
    // The weight in force in each variant (a tuned set in some).
    let weight = |v: &str| QueensKings::default_weights(v).values[eval::w::BACK_RANK];
    // Duel: South keeps c1 and e1 at home, North g13; one man each besides.
    let p = pos("queenskings9-duel", "6nm6/13/13/13/13/13/13/13/13/3nm9/13/13/2sm1sm8 s sn 0 1");
    assert_eq!(back(&p, 0), weight("queenskings9-duel"));
    assert_eq!(back(&p, 1), -weight("queenskings9-duel"));
    // No North man is left to crown: South's home men guard nothing.
    let p = pos("queenskings9-duel", "6nk6/13/13/13/13/13/13/13/13/13/13/13/2sm1sm8 s sn 0 1");
    assert_eq!(back(&p, 0), 0);
    // Teams: the opposite colour is the partner, so no colour scores it.
    let p = QueensKings::startpos(&opts_of("queenskings9-teams"));
    for seat in 0..4 {
        assert_eq!(back(&p, seat), 0);
    }
    // Free-for-all: each colour guards against the colour opposite it.
    let p = QueensKings::startpos(&opts_of("queenskings9"));
    assert_eq!(back(&p, 0), 5 * weight("queenskings9") - 3 * 5 * weight("queenskings9"));
}

// ---- properties on random positions ------------------------------------------------

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// A random position: 2..=24 pieces on random playable squares, random
    /// types, a random seat to move and set of seats in the game; `None`
    /// when the parser rejects it (e.g. the seat to move is blocked).
    fn random_position(opts: &Options, seed: u64) -> Option<String> {
        let mut x = seed | 1;
        let mut rnd = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        let n = opts.size as usize;
        let colours: Vec<usize> = (0..4).filter(|c| opts.colours() >> c & 1 != 0).collect();
        let mut cells = vec![None; n * n];
        let count = 2 + rnd(23) as usize;
        let mut per = [0u32; 4];
        let g = opts.geo();
        for _ in 0..count {
            let (f, r) = (rnd(n as u64) as usize, rnd(n as u64) as usize);
            if (f + r) % 2 != 0 || cells[r * n + f].is_some() {
                continue;
            }
            let c = colours[rnd(colours.len() as u64) as usize];
            let mut ty = match rnd(6) {
                0..=2 => MAN,
                3..=4 => KING,
                _ => QUEEN,
            };
            if ty == MAN && g.crown_at(c, board::sq(f, r)).is_some() {
                ty = KING;
            }
            if per[c] < opts.start_count() {
                per[c] += 1;
                cells[r * n + f] = Some((c, ty));
            }
        }
        let mut in_game: Vec<usize> = colours.iter().copied().filter(|_| rnd(5) != 0).collect();
        if in_game.len() < 2 {
            in_game = colours.clone();
        }
        let keep = opts.mode != Mode::FreeForAll || opts.keep_eliminated;
        let mut board = String::new();
        for r in (0..n).rev() {
            let mut run = 0;
            for f in 0..n {
                match cells[r * n + f] {
                    Some((c, t)) if keep || in_game.contains(&c) => {
                        if run > 0 {
                            board += &run.to_string();
                        }
                        run = 0;
                        board.push(notation::SEAT_LETTERS[c]);
                        board.push(notation::TYPE_LETTERS[t as usize]);
                    }
                    _ => run += 1,
                }
            }
            if run > 0 {
                board += &run.to_string();
            }
            if r > 0 {
                board.push('/');
            }
        }
        let to_move = in_game[rnd(in_game.len() as u64) as usize];
        let seats: String = in_game.iter().map(|&c| notation::SEAT_LETTERS[c]).collect();
        let s = format!("{board} {} {seats} {} {}", notation::SEAT_LETTERS[to_move], rnd(20), 1 + rnd(300));
        QueensKings::from_position_string(&s, opts).ok().map(|_| s)
    }

    fn options(variant: usize, crown: usize, free: bool, immediate: bool, keep: bool) -> Options {
        let mut o = Options::for_variant(VARIANTS[variant]);
        o.crown = [CrownInCapture::End, CrownInCapture::Continue, CrownInCapture::Final][crown];
        o.queen_landing_free = free;
        o.immediate_removal = immediate;
        o.keep_eliminated = keep;
        o
    }

    fn fast_tokens(p: &QueensKings) -> Vec<String> {
        let mut l = MoveList::default();
        p.legal_actions(&mut l);
        let mut v: Vec<String> = l.iter().map(|&m| crate::game::action_string(p, m)).collect();
        v.sort();
        v
    }

    /// Plays a random game from `start`, checking at every turn: the fast
    /// generator equals the simple one (as sorted token lists), tokens parse
    /// back to the same move, make/unmake restores the position and key,
    /// the incremental key equals the key from scratch, the string
    /// round-trips, and the position after each move (eliminations,
    /// crowning, counters) equals the simple implementation's.
    /// Positions with more legal moves end a random game.
    const MANY: usize = 20_000;

    fn check_game(opts: Options, start: &str, picks: &[u16]) -> Result<(), TestCaseError> {
        let mut p = QueensKings::from_position_string(start, &opts).unwrap();
        let mut naive = Naive::parse(start, opts);
        for &pick in picks {
            let s = p.position_string();
            prop_assert_eq!(&naive.string(), &s);
            let q = QueensKings::from_position_string(&s, &opts).unwrap();
            prop_assert_eq!(q.position_string(), s.clone());
            prop_assert_eq!(q.key(), p.key());
            prop_assert_eq!(p.key(), p.key_from_scratch());
            let mut l = MoveList::default();
            if !p.generate_with(p.st.to_move as usize, &mut l, moves::Paths::AtMost(MANY)) {
                // A flying Queen's hundreds of thousands of paths (or
                // more): the simple generator would take minutes (such
                // positions have their own tests above).
                break;
            }
            l.clear();
            p.legal_actions(&mut l);
            let got = fast_tokens(&p);
            prop_assert_eq!(&got, &naive.tokens(), "{}", s);
            if got.is_empty() {
                break;
            }
            let mut search = MoveList::default();
            p.search_actions(&mut search);
            if l.len() <= INLINE_MOVES {
                prop_assert_eq!(&search[..], &l[..], "the search lists the legal moves: {}", s);
            }
            let mut seen = std::collections::HashSet::new();
            for &m in l.iter() {
                prop_assert!(seen.insert(m), "duplicate {:?} in {}", m, s);
                prop_assert!(p.is_legal(m), "{:?} in {}", m, s);
                if m.len() > 2 {
                    let cut: Vec<_> = m.squares().take(m.len() - 1).collect();
                    let cut = Move::new(m.kind(), &cut);
                    prop_assert_eq!(p.is_legal(cut), l.contains(&cut), "{:?} in {}", cut, s);
                }
                let t = crate::game::action_string(&p, m);
                prop_assert_eq!(p.parse_action(&t), Ok(m));
                let before = p.st;
                let u = p.make(m);
                prop_assert_eq!(p.key(), p.key_from_scratch(), "after {} in {}", t, s);
                p.unmake(m, u);
                prop_assert_eq!(p.st, before);
            }
            let m = l[pick as usize % l.len()];
            let t = crate::game::action_string(&p, m);
            p.make(m);
            naive = naive.play_token(&t);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

        #[test]
        fn random_positions_agree_with_naive(
            variant in 0usize..6, crown in 0usize..3, free in any::<bool>(), immediate in any::<bool>(),
            keep in any::<bool>(), seed in any::<u64>(),
            picks in proptest::collection::vec(any::<u16>(), 1..60),
        ) {
            let opts = options(variant, crown, free, immediate, keep);
            let Some(start) = (0..20).find_map(|i| random_position(&opts, seed.wrapping_add(i * 0x9E37_79B9))) else {
                return Ok(());
            };
            check_game(opts, &start, &picks)?;
        }

        #[test]
        fn random_games_from_start_agree_with_naive(
            variant in 0usize..6, crown in 0usize..3, free in any::<bool>(), immediate in any::<bool>(),
            keep in any::<bool>(),
            picks in proptest::collection::vec(any::<u16>(), 1..150),
        ) {
            let opts = options(variant, crown, free, immediate, keep);
            check_game(opts, notation::start_string(&opts), &picks)?;
        }
    }

    /// Random positions do reach the special cases: multi-jump captures,
    /// Queen captures, hop chains longer than one hop, eliminations.
    #[test]
    fn random_positions_reach_special_cases() {
        let (mut multi, mut queen, mut chains, mut elims) = (0, 0, 0, 0);
        let mut hops = 0;
        for i in 0..400u64 {
            let opts = options((i % 6) as usize, 0, false, false, false);
            let Some(s) = random_position(&opts, i * 7919 + 13) else { continue };
            let p = pos_with(opts, &s);
            let mut l = MoveList::default();
            p.legal_actions(&mut l);
            for &m in l.iter() {
                multi += (m.kind() == MoveKind::Capture && m.len() > 2) as u32;
                queen += (m.kind() == MoveKind::Capture && p.type_at(m.from()) == QUEEN) as u32;
                chains += (m.kind() == MoveKind::Hop && m.len() > 2) as u32;
                hops += (m.kind() == MoveKind::Hop) as u32;
                let mut q = p.clone();
                q.make(m);
                elims += (q.in_game() != p.in_game()) as u32;
            }
        }
        println!("multi-captures {multi}, Queen captures {queen}, hops {hops}, chains {chains}, eliminations {elims}");
        assert!(multi > 0 && queen > 0 && hops > 0 && elims > 0);
    }
}

mod no_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

        /// Arbitrary text never panics the parsers.
        #[test]
        fn arbitrary_strings(s in "\\PC{0,60}", v in 0usize..6) {
            let o = Options::for_variant(VARIANTS[v]);
            let _ = QueensKings::from_position_string(&s, &o);
            let p = QueensKings::startpos(&o);
            let _ = p.parse_action(&s);
        }

        /// Mutations of a valid string either fail cleanly or round-trip.
        #[test]
        fn mutated_strings(i in 0usize..120, c in "[0-9swnemkq/ x]", v in 0usize..6) {
            let o = Options::for_variant(VARIANTS[v]);
            let mut chars: Vec<char> = notation::start_string(&o).chars().collect();
            let i = i % chars.len();
            chars[i] = c.chars().next().unwrap();
            let s: String = chars.into_iter().collect();
            if let Ok(p) = QueensKings::from_position_string(&s, &o) {
                let t = p.position_string();
                let q = QueensKings::from_position_string(&t, &o).unwrap();
                prop_assert_eq!(q.position_string(), t);
            }
        }

        #[test]
        fn token_like_strings(t in "[a-r0-9x]{0,14}", v in 0usize..6) {
            let o = Options::for_variant(VARIANTS[v]);
            let p = QueensKings::startpos(&o);
            if let Ok(m) = p.parse_action(&t) {
                prop_assert_eq!(crate::game::action_string(&p, m), t);
            }
        }
    }
}

/// queenskings9-duel and queenskings9-teams play with their committed tuned
/// sets, the 17x17 boards with the 9x9 sets (they load, and they are not
/// the hand-set table); every other variant keeps the table; material keeps
/// its order (man < King < Queen).
#[test]
fn the_nine_by_nine_variants_play_with_their_tuned_weights() {
    for v in super::VARIANTS {
        let d = super::QueensKings::default_weights(v);
        let hand = crate::eval::Weights::defaults(d.variant, d.table);
        assert_eq!(d.variant, *v);
        let tuned = matches!(*v, "queenskings9-duel" | "queenskings9-teams" | "queenskings-duel" | "queenskings-teams");
        assert_eq!(d.values != hand.values, tuned, "{v}");
        let m = [super::eval::w::MAN, super::eval::w::KING, super::eval::w::QUEEN].map(|i| d.values[i]);
        assert!(m[0] < m[1] && m[1] < m[2], "{v}: {m:?}");
    }
    let (nine, big) =
        (super::QueensKings::default_weights("queenskings9-duel"), super::QueensKings::default_weights("queenskings-duel"));
    assert_eq!(nine.values, big.values);
}

// ---- positions with very many capture paths -------------------------------------------

/// Free-for-all, 17x17, `QK_QueenLanding = free`, `QK_CapturedRemoval =
/// immediate`, `QK_CrownInCapture = continue`: E's Queen on a7 has a few
/// hundred thousand capture paths (every landing square of every jump is a
/// choice) ending in tens of thousands of positions. Reached by a random
/// game from the start (the property test met a worse one).
const MANY_PATHS: &str = "17/15wm1/2wm14/17/2wm3wm10/17/6wm3nm3em2/1wm1wm13/2wm7nk1nm3em/5wm11/eq16/11sm3em1/wm1wm3sm1sm3sm4/7sm5em1em1/2sm7sm6/7sm1sm1sm1em3/17 e swne 1 144";

fn many_paths_options(crown: CrownInCapture) -> Options {
    let mut o = opts_of("queenskings");
    o.crown = crown;
    o.queen_landing_free = true;
    o.immediate_removal = true;
    o
}

/// The positions `list`'s moves lead to.
fn reached(p: &mut QueensKings, list: &MoveList) -> std::collections::BTreeSet<String> {
    let mut keys = std::collections::BTreeSet::new();
    for &m in list.iter() {
        let u = p.make(m);
        keys.insert(p.position_string());
        p.unmake(m, u);
    }
    keys
}

/// Below the bound on capture states, the search's list keeps one path per
/// distinct outcome: every position the legal list reaches, each once.
#[test]
fn the_search_lists_one_capture_path_per_outcome() {
    // E's Queen on a15, the same rules but `QK_CrownInCapture = end`:
    // 141,993 paths, 5,834 positions after them (both counted here).
    let s = "17/17/eq7nm8/5nm11/17/3wm5nm7/2wm3wm10/17/wm1wm7em5em/1wm5sm5em1em1/2wm3sm10/3wm11em1/wm5wm7em2/9sm7/14wm2/7sm1sm1sm5/17 e swne 0 120";
    let mut p = pos_with(many_paths_options(CrownInCapture::End), s);
    let (mut all, mut few) = (MoveList::default(), MoveList::default());
    p.legal_actions(&mut all);
    p.search_actions(&mut few);
    let (from_all, from_few) = (reached(&mut p, &all), reached(&mut p, &few));
    assert!(all.len() > 20 * from_all.len(), "{} paths, {} positions", all.len(), from_all.len());
    assert!(from_few == from_all, "{} positions from the search's list, {} from the legal list", from_few.len(), from_all.len());
    assert_eq!(few.len(), from_few.len(), "no two moves of the search's list reach one position");
    assert!(few.iter().all(|&m| p.is_legal(m)));
}

/// Past the bound the search's list is cut: bounded, never empty, every
/// move legal and leading to a position a legal move leads to.
#[test]
fn the_search_list_of_a_flying_queen_is_bounded() {
    let mut p = pos_with(many_paths_options(CrownInCapture::Continue), MANY_PATHS);
    let (mut all, mut few) = (MoveList::default(), MoveList::default());
    p.legal_actions(&mut all);
    p.search_actions(&mut few);
    assert!(all.len() > 300_000, "{} paths", all.len());
    assert!(!few.is_empty() && few.len() <= DISTINCT_CAPTURE_STATES, "{} moves", few.len());
    let (from_all, from_few) = (reached(&mut p, &all), reached(&mut p, &few));
    assert!(from_few.is_subset(&from_all));
    assert_eq!(few.len(), from_few.len());
    assert!(few.iter().all(|&m| p.is_legal(m)));
}

/// `is_legal` follows the move's own path: it accepts every legal path and
/// refuses a path cut short, one that goes on past its end, and a step.
#[test]
fn is_legal_follows_one_capture_path() {
    let p = pos_with(many_paths_options(CrownInCapture::Continue), MANY_PATHS);
    let mut all = MoveList::default();
    p.legal_actions(&mut all);
    let mut refused = 0;
    for (i, &m) in all.iter().enumerate().step_by(97) {
        assert!(p.is_legal(m), "{:?}", m);
        let squares: Vec<_> = m.squares().collect();
        let cut = Move::new(MoveKind::Capture, &squares[..squares.len() - 1]);
        if squares.len() > 2 && !all.contains(&cut) {
            assert!(!p.is_legal(cut), "{:?}", cut);
            refused += 1;
        }
        let longer = [&squares[..], &[squares[i % squares.len()]]].concat();
        assert!(!p.is_legal(Move::new(MoveKind::Capture, &longer)));
    }
    assert!(refused > 100, "{refused}");
}

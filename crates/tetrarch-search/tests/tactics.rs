//! The search on hand-built tactics of the two-action games: Quattuor Reges
//! (`quattuor`) and Quadranj (`quadranj`, `quadranj4`). Every position is
//! written by hand in the spec's position-string format
//! (`shared/spec/quattuor.md` §9, `shared/spec/quadranj.md` §7) and comes with
//! the answer the rules force, justified in a comment from the rules alone;
//! where it is cheap the claim itself is checked with the rules (every reply
//! of the opponent, the result of the alternative) so that a wrong position
//! cannot pass for a right engine. The search counts depth in actions: a
//! whole turn is two plies, so a mate in one turn needs depth 2 to be seen by
//! the main search (at depth 1 only quiescence can see the second action).

use std::sync::atomic::AtomicBool;
use tetrarch_core::game::{Game, Notation, Rules, Seat};

use tetrarch_core::games::quadranj::Quadranj;
use tetrarch_core::games::quattuor::Quattuor;
use tetrarch_core::turns::{legal_turns, parse_turn, play_turn, turn_string};
use tetrarch_search::{Config, Limits, Score, SearchResult, Searcher, Strategy};

fn pos<G: Game>(variant: &str, s: &str) -> G {
    let g = G::from_position_string(s, &G::default_options(variant)).unwrap_or_else(|e| panic!("{s}: {e}"));
    assert_eq!(g.position_string(), s, "the hand-written string is canonical");
    assert!(g.outcome().is_none(), "{s} is not over");
    g
}

fn search<G: Game>(g: &G, history: &[u64], depth: u32, strategy: Strategy) -> SearchResult<G::Action> {
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let config = Config { strategy, ..Config::default() };
    Searcher::new(4).search(g, history, &limits, &config, &AtomicBool::new(false), &mut |_| {})
}

/// The engine's turn token and score at `depth` (default strategy).
fn best<G: Game>(g: &G, depth: u32) -> (String, Score) {
    let r = search(g, &[], depth, Strategy::Paranoid);
    (turn_string(g, &r.best), r.score)
}

/// The position after the turn `token`.
fn after<G: Game>(g: &G, token: &str) -> G {
    let mut p = g.clone();
    let acts = parse_turn(&p, token).unwrap_or_else(|e| panic!("{token}: {e}"));
    play_turn(&mut p, &acts);
    p
}

fn result<G: Game>(g: &G) -> Option<String> {
    g.outcome().map(|o| o.to_string())
}

/// Whether `token` is a legal turn of `g` that wins at once for `seat`.
fn wins_with<G: Game>(g: &G, token: &str, seat: Seat) -> bool {
    parse_turn(g, token).is_ok_and(|acts| {
        let mut p = g.clone();
        play_turn(&mut p, &acts);
        p.outcome().and_then(|o| o.for_seat(seat)) == Some(true)
    })
}

/// The legal turns of `g` for which `keep` holds, sorted.
fn turns_where<G: Game>(g: &G, keep: impl Fn(&G) -> bool) -> Vec<String> {
    legal_turns(g)
        .into_iter()
        .filter(|(_, acts)| {
            let mut p = g.clone();
            play_turn(&mut p, acts);
            keep(&p)
        })
        .map(|(t, _)| t)
        .collect()
}

/// The legal turns of `g` that win the game at once for `seat`.
fn winning_turns<G: Game>(g: &G, seat: Seat) -> Vec<String> {
    turns_where(g, |p| p.outcome().and_then(|o| o.for_seat(seat)) == Some(true))
}

// ===========================================================================
// Quattuor Reges. Red (seat 0, suits d h) moves towards rank 15, Black
// (seat 1, suits c s) towards rank 1. Turn 3 everywhere (turn 1 allows one
// action only). Hex neighbours (§2.2): on an odd rank (r, f) touches
// (r, f±1), (r±1, f−1), (r±1, f); on an even rank (r, f±1), (r±1, f),
// (r±1, f+1). Captures (§3.3): A takes A K Q J; K takes Q T 9 8 7; Q takes
// J T 9 8 7; J takes K T 9 8; T takes A 9 8 7; 9 takes A 8 7; 8 takes A 7;
// 7 takes A J. Ranges: 8 → 4, 7 and 9 → 3, others 2. A 7–Q moves only
// while its suit's King is on the board. §7.1: a side without King and Ace
// on the board loses (annihilation); a Q, K or A on the goal rank wins.
// ===========================================================================

/// Red: dK h7, dT j7 (hearts all captured: one diamond action per turn).
/// Black: sA h8, sQ g6, sK a15 (all spades: one action per turn).
/// The Ace on h8 touches h7 (SW of h8) and threatens `h8h7`: A takes K, and
/// dK is Red's only King or Ace, so that is annihilation. The King taking
/// the Queen (`h7g6`, g6 is SW of h7) is met by `h8g6` (h8→h7→g6 once h7
/// is empty): Red loses. `j7h8` (j7→i7→h8, T takes A) removes the threat
/// and wins the Ace; afterwards Black can take nothing (sQ takes only
/// J T 9 8 7 and is 3 steps from h8; sK is far). Of the turns that do not
/// lose at once (`j7h8` and the King's flights) it is the only one that
/// wins material: the best turn.
const QR_TEN_TAKES_ACE: &str =
    "sK16/16/17/16/17/16/17/7sA8/7dK1dT7/6sQ9/17/16/17/16/17 r - d7d8d9dJdQdAh7h8h9hThJhQhKhAc7c8c9cTcJcQcKcAs7s8s9sTsJ - 3";

#[test]
fn quattuor_ten_takes_the_ace_that_threatens_the_king() {
    let g: Quattuor = pos("quattuor", QR_TEN_TAKES_ACE);
    // The rules: taking the Queen loses at once, taking the Ace leaves Black
    // no winning turn.
    let greedy = after(&g, "h7g6");
    let wins = winning_turns(&greedy, 1);
    assert!(wins.contains(&"h8g6".to_string()), "{wins:?}");
    assert!(winning_turns(&after(&g, "j7h8"), 1).is_empty());
    let black_pieces = |p: &Quattuor| {
        let s = p.position_string();
        s.split(' ').next().unwrap().chars().filter(|&c| c == 'c' || c == 's').count()
    };
    assert_eq!(black_pieces(&g), 3);
    let safe_gains = turns_where(&g, |p| black_pieces(p) < 3 && winning_turns(p, 1).is_empty());
    assert_eq!(safe_gains, ["j7h8"]);
    for d in [1, 2, 4] {
        let (t, score) = best(&g, d);
        assert_eq!(t, "j7h8", "depth {d}");
        assert!(matches!(score, Score::Cp(_)), "depth {d}: {score:?}");
    }
}

/// Red: dA h13 (Aces move without their King). Black: sT g14, s9 i15, sQ
/// h12, sK a11. The Ace (range 2) reaches rank 15 only through g14 or h14
/// (the rank-14 neighbours of h13); g14 holds a Ten (an Ace cannot take a
/// T), and from h14 the goal cells are h15 (empty) and i15 (a 9: no). So
/// `h13h15` is the only winning action (§6.4.3: an Ace on the goal rank
/// wins). The Queen on h12 (A takes Q) is the tempting capture; sK on a11
/// is out of the Ace's reach (no annihilation).
const QR_ACE_REACHES: &str =
    "8s98/6sT9/7dA9/7sQ8/sK16/16/17/16/17/16/17/16/17/16/17 r - d7d8d9dTdJdQdKh7h8h9hThJhQhKhAc7c8c9cTcJcQcKcAs7s8sJsA - 3";

#[test]
fn quattuor_ace_reaches_the_goal_rank() {
    let g: Quattuor = pos("quattuor", QR_ACE_REACHES);
    assert_eq!(winning_turns(&g, 0), ["h13h15"]);
    for d in [1, 2, 4] {
        assert_eq!(best(&g, d), ("h13h15".to_string(), Score::Mate(1)), "depth {d}");
    }
}

/// Red: dA h13, h7 h14, hK q1. Black: sQ h15, s9 i15, sT g14, s8 i14, c8
/// j13, c9 h12, cT i12, sK a11.
/// The Ace's way to rank 15 is through h14 (g14 is a Ten, and from g13 the
/// Ace's second step only reaches rank 14), and h14 holds Red's own 7.
/// Every neighbour of h14 but i13 is occupied (g14 sT, i14 s8, h15 sQ,
/// i15 s9, h13 dA) by pieces a 7 cannot take (it takes only A and J), and
/// every neighbour of i13 is occupied (h13, j13 c8, h14, i14, h12 c9, i12
/// cT), so the 7's one action is `h14i13`. After it the Ace goes h13→h14→h15
/// and takes the Queen there (A takes Q) on the goal rank: Red wins. The
/// hearts King moving instead leaves the 7 no action, and the Ace cannot
/// win first, so the only winning turn is `h14i13,h13h15` (two actions:
/// depth 2).
const QR_CLEAR_THEN_REACH: &str =
    "7sQs98/6sTh7s87/7dA1c87/7c9cT7/sK16/16/17/16/17/16/17/16/17/16/16hK r - d7d8d9dTdJdQdKh8h9hThJhQhAc7cJcQcKcAs7sJsA - 3";

#[test]
fn quattuor_clears_the_way_then_reaches() {
    let g: Quattuor = pos("quattuor", QR_CLEAR_THEN_REACH);
    assert_eq!(winning_turns(&g, 0), ["h14i13,h13h15"]);
    assert_eq!(best(&g, 1).0, "h14i13,h13h15");
    for d in [2, 3, 4] {
        assert_eq!(best(&g, d), ("h14i13,h13h15".to_string(), Score::Mate(1)), "depth {d}");
    }
}

/// Red: hJ i7, hK a1, dK e5. Black: sK i9 (its only King or Ace), sQ e6.
/// `i7i9` (i7→i8→i9, J takes K) leaves Black without King and Ace: Red
/// wins by annihilation at once. `e5e6` (K takes Q) is the distraction
/// (and no other Red piece can take a King: only A and J do).
const QR_JACK_TAKES_KING: &str =
    "17/16/17/16/17/16/8sK8/16/8hJ8/4sQ11/4dK12/16/17/16/hK16 r - d7d8d9dTdJdQdAh7h8h9hThQhAc7c8c9cTcJcQcKcAs7s8s9sTsJsA - 3";

#[test]
fn quattuor_jack_takes_the_last_king() {
    let g: Quattuor = pos("quattuor", QR_JACK_TAKES_KING);
    assert_eq!(result(&after(&g, "i7i9")).as_deref(), Some("win 1 annihilation"));
    for d in [1, 2, 4] {
        assert_eq!(best(&g, d), ("i7i9".to_string(), Score::Mate(1)), "depth {d}");
    }
}

/// Red: hT j3, hJ d6, hK q1 (diamonds all captured: one hearts action).
/// Black: sA h3, cK d8 (Black's only King and Ace).
/// The Ace on h3 threatens to reach rank 1 next turn (h3→g2/h2→g1/h1/i1).
/// One Red action cannot block both g2 and h2, and only the Ten can take
/// an Ace: `j3h3` (j3→i3→h3) is the only turn that does not lose at once.
/// `d6d8` (J takes K, d6→d7→d8) wins the bigger piece but loses to
/// `h3h1`. Seeing that takes depth 3 (Red's action, Red's end of turn,
/// Black's action).
const QR_STOP_THE_ACE: &str =
    "17/16/17/16/17/16/17/3cK12/17/3hJ12/17/16/7sA1hT7/16/16hK r - d7d8d9dTdJdQdKdAh7h8h9hQhAc7c8c9cTcJcQcAs7s8s9sTsJsQsK - 3";

#[test]
fn quattuor_ten_stops_the_ace_before_it_reaches() {
    let g: Quattuor = pos("quattuor", QR_STOP_THE_ACE);
    let greedy = after(&g, "d6d8");
    let wins = winning_turns(&greedy, 1);
    assert!(wins.contains(&"h3h1".to_string()), "{wins:?}");
    // From Black's side the greedy line is a mate in one (g1, h1 or i1).
    let (t, score) = best(&greedy, 2);
    assert!(["h3g1", "h3h1", "h3i1"].contains(&t.as_str()) && score == Score::Mate(1), "{t} {score:?}");
    assert!(winning_turns(&after(&g, "j3h3"), 1).is_empty());
    // Every other Red turn lets the Ace reach.
    let safe = turns_where(&g, |p| !["h3g1", "h3h1", "h3i1"].iter().any(|t| wins_with(p, t, 1)));
    assert_eq!(safe, ["j3h3"]);
    for d in [3, 4] {
        let (t, score) = best(&g, d);
        assert_eq!(t, "j3h3", "depth {d}");
        assert!(matches!(score, Score::Cp(_)), "depth {d}: {score:?}");
    }
}

// ===========================================================================
// Quadranj, 2 seats (8×8). Red (seat 0) home h8, Keep g7 g8 h7 h8; Blue
// (seat 1) home a1, Keep a1 a2 b1 b2. A turn is exactly two actions and a
// unit moves at most once a turn (§4.2), so a royal makes one slide a turn.
// `X` is an empty blocker: it blocks slides and may not stand in a Keep.
// Burglars `-` (none) so that no lone pilot can enter a Keep (§2.6).
// ===========================================================================

/// Red: rK h2, lone pilot rP h5. Blue: bK e8, bG b8.
/// The royal's file h3..h8 is blocked only by its own pilot on h5. The
/// pilot steps orthogonally (§5.3): h4 and h6 keep the file blocked, g5
/// clears it; then `h2h8` is a home arrival (§6.1). The royal, once moved,
/// cannot act again (marked), so the only winning turn is `h5g5,h2h8`.
const QJ_CLEAR_THEN_HOME: &str = "1bG2bK3/8/8/7rP/8/8/7rK/8 r 0 - rb 0/0 -/- 0 1";
/// The same with the file open and a lone pilot to capture (`c5xc6`): the
/// royal must go home with its first action, `h2h8` (a win at ply 1 is
/// preferred to the capture followed by the same run).
const QJ_HOME_NOW: &str = "1bG2bK3/8/2bP5/2rP5/8/8/7rK/8 r 0 - rb 0/0 -/- 0 1";

#[test]
fn quadranj_royal_goes_home() {
    let g: Quadranj = pos("quadranj", QJ_CLEAR_THEN_HOME);
    assert_eq!(winning_turns(&g, 0), ["h5g5,h2h8"]);
    assert_eq!(best(&g, 1).0, "h5g5,h2h8");
    for d in [2, 3, 4] {
        assert_eq!(best(&g, d), ("h5g5,h2h8".to_string(), Score::Mate(1)), "depth {d}");
    }
    let g: Quadranj = pos("quadranj", QJ_HOME_NOW);
    assert_eq!(result(&after(&g, "h2h8")).as_deref(), Some("win 1 home"));
    for d in [1, 2, 4] {
        assert_eq!(best(&g, d), ("h2h8".to_string(), Score::Mate(1)), "depth {d}");
    }
}

/// Red: rK a6, rG d8, rG d1, lone pilots rP c4, rP e4. Blue: bK h2, bG d4,
/// bG h4. Walls: f8 f7 g6 h6 (no Red royal run home), a3 b3 c1 c2 (no Blue
/// royal run home).
/// §6.2: the Blue guard on d4 is bracketed E–W by the pilots (½ + ½ = 1),
/// below its threshold 2 × 2 = 4. One guard beside it (`d8d5` or `d1d3`,
/// the only squares next to d4 that either guard can slide to) makes 3: not
/// enough. Both make 5 (and bracket N–S on their own, 2 + 2 = 4): captured
/// at the end of Red's turn, tally 2. The royal cannot get next to d4 (its
/// slides stay on rank 6 and the a-file); a pilot climbing into a wall and
/// driving it next to d4 (`c4:c2d3`, `c4:b3c4`) adds a single (1) but
/// leaves c4 or adds nothing beside a guard: at most 3.5. So the capturing
/// turns are exactly `d1d3,d8d5` and `d8d5,d1d3`.
const QJ_CUSTODIAN: &str = "3rG1X2/5X2/rK5XX/8/2rPbGrP2bG/XX6/2X4bK/2XrG4 r 0 - rb 0/0 -/- 0 1";

#[test]
fn quadranj_custodian_capture_by_value() {
    let g: Quadranj = pos("quadranj", QJ_CUSTODIAN);
    let captured = after(&g, "d8d5,d1d3");
    assert_eq!(captured.position_string(), "5X2/5X2/rK5XX/3rG4/2rP1rP2bG/XX1rG4/2X4bK/2X5 b 0 - rb 2/0 -/- 0 2");
    // One guard is not enough (½ + ½ + 2 < 4): no capture, tally 0.
    assert!(after(&g, "d8d5,a6a5").position_string().contains(" rb 0/0 "));
    let capturing = turns_where(&g, |p| p.position_string().contains(" rb 2/0 "));
    assert_eq!(capturing, ["d1d3,d8d5", "d8d5,d1d3"]);
    for d in [2, 4] {
        let (t, score) = best(&g, d);
        assert!(t == "d1d3,d8d5" || t == "d8d5,d1d3", "depth {d}: {t}");
        assert!(matches!(score, Score::Cp(x) if x > 0), "depth {d}: {score:?}");
    }
}

/// Red: rK h1, rG e4; walls g1, h3 (the royal's only action is `h1h2`).
/// Blue: bK a5, bG e8.
/// Blue threatens `a5a1` (a4 a3 a2 a1 empty: home arrival). The guard
/// must block the a-file, and from e4 (rank 4 and the e-file) the only
/// a-file square it can slide to is a4. Both Red units must act, so the
/// turn is `e4a4,h1h2` or `h1h2,e4a4`; every other turn lets `a5a1` win.
/// After the block Blue cannot win next turn: a charge needs a square
/// between, and the royal moves once a turn.
const QJ_BLOCK: &str = "4bG3/8/8/bK7/4rG3/7X/8/6XrK r 0 - rb 0/0 -/- 0 1";

#[test]
fn quadranj_blocks_the_royal_run_home() {
    let g: Quadranj = pos("quadranj", QJ_BLOCK);
    // The threat is real: Blue to move on the same board wins at once.
    let blue: Quadranj = pos("quadranj", "4bG3/8/8/bK7/4rG3/7X/8/6XrK b 0 - rb 0/0 -/- 0 1");
    assert_eq!(best(&blue, 2), ("a5a1".to_string(), Score::Mate(1)));
    assert!(winning_turns(&after(&g, "e4e5,h1h2"), 1).contains(&"a5a1".to_string()));
    assert!(winning_turns(&after(&g, "e4a4,h1h2"), 1).is_empty());
    assert!(winning_turns(&after(&g, "h1h2,e4a4"), 1).is_empty());
    assert_eq!(turns_where(&g, |p| !wins_with(p, "a5a1", 1)), ["e4a4,h1h2", "h1h2,e4a4"]);
    for d in [2, 4] {
        let (t, score) = best(&g, d);
        assert!(t == "e4a4,h1h2" || t == "h1h2,e4a4", "depth {d}: {t}");
        assert!(matches!(score, Score::Cp(_)), "depth {d}: {score:?}");
    }
}

/// §6.7 (a seat repeating its arrangement loses in `quadranj`).
/// Start: Red rK d1, rG d3; Blue bK a8, bG h6; walls a3 b3 (no Blue royal
/// run home). Red shuffles between A = (royal d1, guard d3) and
/// B = (c1, c3); Blue's royal shuffles a8/b8 while its guard walks
/// h6 h5 h4 h3 h2 d2, so every Blue arrangement is new. Red's recordings:
/// t1 B (new), t3 A (new), t5 B, t7 A, t9 B: after ten turns Red, in B, is
/// to move, and returning to A (`c1d1,c3d3` in either order) records A a
/// third time since the last new arrangement (t3, t7, t11) while Blue did
/// not repeat: Red loses (`win 2 arrangement`).
/// The bait: the Blue guard stands on d2, between d1 and d3. A is the only
/// arrangement that brackets it (royal 4 + guard 2 ≥ 4): the brackets are
/// d1+d3 and c2+e2, and no Red unit can slide to e2 (the royal moves along
/// rank 1 and the c-file, the guard along rank 3 and the c-file; there is
/// no swap or charge). Without §6.7 that turn captures Blue's last unit
/// besides its royal, after which Blue's royal has no second action and
/// Blue loses (§6.3), so a search that ignored §6.7 would play it with a
/// mate score (checked below with the rule switched off).
const QJ_SHUFFLE: &str = "bK7/8/7bG/8/8/XX1rG4/8/3rK4 r 0 - rb 0/0 -/- 0 1";

#[test]
fn quadranj_arrangement_repetition_is_avoided() {
    let mut g: Quadranj = pos("quadranj", QJ_SHUFFLE);
    let red = ["d1c1,d3c3", "c1d1,c3d3"];
    let blue = ["a8b8,h6h5", "b8a8,h5h4", "a8b8,h4h3", "b8a8,h3h2", "a8b8,h2d2"];
    let mut history = Vec::new();
    for i in 0..10 {
        let t = if i % 2 == 0 { red[(i / 2) % 2] } else { blue[i / 2] };
        history.push(g.key());
        let acts = parse_turn(&g, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        play_turn(&mut g, &acts);
        assert_eq!(result(&g), None, "after {t}");
    }
    assert_eq!(g.position_string(), "1bK6/8/8/8/8/XXrG5/3bG4/2rK5 r 0 - rb 0/0 -/- 20 11");
    let repeat = ["c1d1,c3d3", "c3d3,c1d1"];
    for t in repeat {
        assert_eq!(result(&after(&g, t)).as_deref(), Some("win 2 arrangement"), "{t}");
    }
    // Without §6.7 the repeating turn is the capture that wins the game.
    let mut off = g.clone();
    off.set_history_rules(false);
    let p = after(&off, "c1d1,c3d3");
    assert_eq!(result(&p), None);
    assert!(p.position_string().contains(" rb 2/0 "), "{}", p.position_string());
    // Blue is left with its royal alone: whatever it moves, it has no
    // second action and loses (§6.3).
    let replies = legal_turns(&p);
    assert!(!replies.is_empty());
    for (t, acts) in replies {
        let mut q = p.clone();
        play_turn(&mut q, &acts);
        assert_eq!(q.outcome().and_then(|o| o.for_seat(0)), Some(true), "{t}");
    }
    let r = search(&off, &history, 4, Strategy::Paranoid);
    assert!(repeat.contains(&turn_string(&off, &r.best).as_str()), "{}", turn_string(&off, &r.best));
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
    // With §6.7 (the default) the engine must find another turn.
    for d in [2, 4] {
        for hist in [&history[..], &[]] {
            let r = search(&g, hist, d, Strategy::Paranoid);
            let t = turn_string(&g, &r.best);
            assert!(!repeat.contains(&t.as_str()), "depth {d}: {t}");
            assert_eq!(result(&after(&g, &t)), None, "depth {d}: {t}");
            assert!(!matches!(r.score, Score::Mate(n) if n < 0), "depth {d}: {t} {:?}", r.score);
        }
    }
}

// ===========================================================================
// Quadranj, 4 seats free-for-all (10×10), seats Green Blue Yellow Red in
// turn order. Homes: Green j1 (Keep i1 i2 j1 j2), Blue a1 (a1 a2 b1 b2),
// Yellow a10 (a9 a10 b9 b10), Red j10 (i9 i10 j9 j10).
// ===========================================================================

/// Green: gK j6, lone pilot gP j4, gG c5. Blue bK e10, Yellow yK e5, Red rK
/// e3, Red lone pilot rP c7.
/// As in `QJ_CLEAR_THEN_HOME`: the pilot's only step off the j-file is
/// i4, then `j6j1` arrives home. `c5xc7` (the guard takes the Red pilot)
/// is the distraction. Under paranoid and brs the score is a mate in one;
/// under maxn a win gives Green all 10000 shares, reported as
/// (10000·4 − 10000)/16 = 1875.
const QJ4_CLEAR_THEN_HOME: &str = "4bK5/10/10/2rP7/9gK/2gG1yK5/9gP/4rK5/10/10 g 0 - gbyr 0/0/0/0 -/-/-/- 0 1";

#[test]
fn quadranj4_royal_goes_home_under_every_strategy() {
    let g: Quadranj = pos("quadranj4", QJ4_CLEAR_THEN_HOME);
    assert_eq!(winning_turns(&g, 0), ["j4i4,j6j1"]);
    for strategy in [Strategy::Paranoid, Strategy::Brs, Strategy::MaxN] {
        for d in [2, 4] {
            let r = search(&g, &[], d, strategy);
            assert_eq!(turn_string(&g, &r.best), "j4i4,j6j1", "{strategy:?} depth {d}");
            let want = if strategy == Strategy::MaxN { Score::Cp(1875) } else { Score::Mate(1) };
            assert_eq!(r.score, want, "{strategy:?} depth {d}");
        }
    }
}

/// Green: gK e8, gG e4. Blue (next to move): bK a6, bG g10. Yellow: yK f6,
/// yG h5. Red: rK c3, rG f1.
/// Blue threatens `a6a1` (a5..a1 empty). Green's guard is the only Green
/// unit that can reach the a-file between a6 and a1, and only on a4 (it
/// slides along rank 4 or the e-file; the royal on e8 reaches only a8).
/// After `e4a4` Blue's royal can charge it (a5 between, pushed to a3, not a
/// Keep) but then has moved and cannot slide again: no Blue win next turn,
/// and Yellow's and Red's royals are not on a line to their homes. A
/// Blue win leaves Green nothing under every strategy, so every strategy
/// must play `e4a4` (with any second action).
const QJ4_BLOCK: &str = "6bG3/10/4gK5/10/bK4yK4/7yG2/4gG5/2rK7/10/5rG4 g 0 - gbyr 0/0/0/0 -/-/-/- 0 1";

#[test]
fn quadranj4_blocks_the_next_seats_royal_under_every_strategy() {
    let g: Quadranj = pos("quadranj4", QJ4_BLOCK);
    assert!(winning_turns(&after(&g, "e8d8,e4e5"), 1).contains(&"a6a1".to_string()));
    let blocked = after(&g, "e8d8,e4a4");
    assert_eq!(blocked.to_move(), 1);
    assert!(winning_turns(&blocked, 1).is_empty());
    for t in turns_where(&g, |p| !wins_with(p, "a6a1", 1)) {
        assert!(t.split(',').any(|a| a == "e4a4"), "{t}");
    }
    for strategy in [Strategy::Paranoid, Strategy::Brs, Strategy::MaxN] {
        for d in [3, 4] {
            let r = search(&g, &[], d, strategy);
            let t = turn_string(&g, &r.best);
            assert!(t.split(',').any(|a| a == "e4a4"), "{strategy:?} depth {d}: {t}");
            assert!(winning_turns(&after(&g, &t), 1).is_empty(), "{strategy:?} depth {d}: {t}");
        }
    }
}

// ===========================================================================
// Mate distances past the principal variation.
// ===========================================================================

/// At depth 1 a win on the second action of the root's own turn is found
/// by quiescence, which does not extend the PV; the ply past the PV only
/// finishes the current turn, so the score is `Mate(1)` (it was `Mate(2)`
/// before `to_score` counted that ply as the end of the turn).
#[test]
fn one_turn_mate_at_depth_one_is_mate_1() {
    let g: Quattuor = pos("quattuor", QR_CLEAR_THEN_REACH);
    assert_eq!(best(&g, 1), ("h14i13,h13h15".to_string(), Score::Mate(1)));
    let g: Quadranj = pos("quadranj", QJ_CLEAR_THEN_HOME);
    assert_eq!(best(&g, 1), ("h5g5,h2h8".to_string(), Score::Mate(1)));
}

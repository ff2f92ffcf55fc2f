//! Unit tests of the line handler through the library API (no process).

use proptest::prelude::*;
use tetrarch_core::eval::WeightsError;
use tetrarch_core::game::{Evaluation, TokenError};

use crate::go::GoError;
use crate::options::{OptionError, ReadError};
use crate::{Captured, CommandError, Control, Engine, Out};

pub(crate) fn engine(variant: &str) -> (Engine, Captured) {
    let (out, cap) = Out::buffer();
    let mut e = Engine::new(out);
    if variant != "fourchess" {
        e.handle_line(&format!("setoption name UCI_Variant value {variant}"));
    }
    assert!(cap.take_lines().is_empty());
    (e, cap)
}

/// Sends a line, waits for a job it started, returns the output.
pub(crate) fn run(e: &mut Engine, cap: &Captured, line: &str) -> Vec<String> {
    assert_eq!(e.handle_line(line), Control::Continue, "{line}");
    e.wait();
    cap.take_lines()
}

pub(crate) fn one(e: &mut Engine, cap: &Captured, line: &str) -> String {
    let v = run(e, cap, line);
    assert_eq!(v.len(), 1, "{line}: {v:?}");
    v.into_iter().next().unwrap()
}

pub(crate) fn is_error(l: &str) -> bool {
    l.starts_with("info string error: ")
}

#[test]
fn handshake() {
    let (mut e, cap) = engine("fourchess");
    let v = run(&mut e, &cap, "uci");
    assert!(v[0].starts_with("id name Tetrarch "));
    assert!(v[1].starts_with("id author "));
    assert_eq!(v.last().unwrap(), "uciok");
    assert!(v.iter().any(|l| l.starts_with("option name UCI_Variant type combo default fourchess var fourchess")));
    assert!(v.contains(&"option name Hash type spin default 64 min 1 max 65536".to_string()));
    assert!(v.contains(&"option name Threads type spin default 1 min 1 max 256".to_string()));
    assert!(v.contains(&"option name MultiPV type spin default 1 min 1 max 256".to_string()));
    assert!(v.contains(&"option name Move Overhead type spin default 100 min 0 max 5000".to_string()));
    assert!(v.contains(&"option name Clear Hash type button".to_string()));
    assert!(v.contains(&"option name FC_Layout type combo default A var A var B".to_string()));
    // fourchess is a team game: no Strategy.
    assert!(!v.iter().any(|l| l.contains("Strategy")));
    assert_eq!(run(&mut e, &cap, "ugi").last().unwrap(), "ugiok");
    assert_eq!(one(&mut e, &cap, "isready"), "readyok");
}

#[test]
fn strategy_default_is_per_variant_until_set() {
    let (mut e, cap) = engine("queenskings9");
    let line = |v: &[String]| v.iter().find(|l| l.starts_with("option name Strategy")).cloned();
    assert_eq!(
        line(&run(&mut e, &cap, "uci")).as_deref(),
        Some("option name Strategy type combo default paranoid var paranoid var brs var maxn")
    );
    assert!(run(&mut e, &cap, "setoption name UCI_Variant value quadranj4").is_empty());
    assert_eq!(
        line(&run(&mut e, &cap, "uci")).as_deref(),
        Some("option name Strategy type combo default brs var brs var paranoid var maxn")
    );
    assert_eq!(e.settings().strategy, None);
    // A strategy once set holds in every variant, like the other engine options.
    assert!(run(&mut e, &cap, "setoption name Strategy value Paranoid").is_empty());
    assert_eq!(e.settings().strategy, Some("paranoid"));
    assert!(run(&mut e, &cap, "setoption name UCI_Variant value queenskings").is_empty());
    assert_eq!(e.settings().strategy, Some("paranoid"));
    // The search follows the default: the same tree as brs set by name.
    let nodes = |set: &str| {
        let out = crate::run_script(&format!("setoption name UCI_Variant value quadranj4\n{set}position startpos\ngo depth 3\n"));
        let info = out.iter().find(|l| l.starts_with("info depth 3 ")).cloned().unwrap_or_default();
        info.split_whitespace().skip_while(|w| *w != "nodes").nth(1).map(str::to_owned)
    };
    let default = nodes("");
    assert!(default.is_some());
    assert_eq!(default, nodes("setoption name Strategy value brs\n"));
    assert_ne!(default, nodes("setoption name Strategy value paranoid\n"));
}

#[test]
fn empty_and_blank_lines_are_silent() {
    let (mut e, cap) = engine("toy");
    for l in ["", "   ", "\t", "\r", "\r\n", " \t \r\n"] {
        assert!(run(&mut e, &cap, l).is_empty(), "{l:?}");
    }
}

#[test]
fn unknown_and_malformed_lines() {
    let (mut e, cap) = engine("toy");
    let before = run(&mut e, &cap, "d");
    for l in [
        "foo",
        "UCI",
        "position",
        "position nowhere",
        "position startpos 3",
        "position fen",
        "position fen 3",
        "position fen x 1",
        "go depth x",
        "go depth 0",
        "go depth",
        "go foo",
        "go perft",
        "go perft -1",
        "query",
        "query what",
        "query turn now",
        "d now",
        "moves 3",
        "eval x",
        "bench depth",
        "bench depth 0",
        "setoption",
        "setoption name",
        "setoption Hash value 3",
        "isready\u{7}x",
    ] {
        let v = run(&mut e, &cap, l);
        assert_eq!(v.len(), 1, "{l:?}: {v:?}");
        assert!(is_error(&v[0]), "{l:?}: {v:?}");
    }
    assert_eq!(run(&mut e, &cap, "d"), before);
}

#[test]
fn error_lines_escape_control_characters() {
    let (mut e, cap) = engine("toy");
    let l = one(&mut e, &cap, "fo\u{1b}o");
    assert!(l.contains("\\u{1b}"), "{l}");
    let long = "é".repeat(500);
    let l = one(&mut e, &cap, &long);
    assert!(l.chars().count() < 120, "{l}");
}

#[test]
fn position_and_moves() {
    let (mut e, cap) = engine("toy");
    assert_eq!(one(&mut e, &cap, "moves"), "moves 1 2 3");
    assert!(run(&mut e, &cap, "position startpos moves 3 3").is_empty());
    let d = run(&mut e, &cap, "d");
    assert!(d.contains(&"Position: 4 1".to_string()), "{d:?}");
    assert!(d.contains(&"To move: p1 (First)".to_string()), "{d:?}");
    assert!(d.contains(&"Legal turns: 3".to_string()), "{d:?}");
    assert!(d.iter().any(|l| l.starts_with("Key: ") && l.len() == 5 + 16));
    assert!(run(&mut e, &cap, "position fen 7  \t 2 moves 1").is_empty());
    assert_eq!(one(&mut e, &cap, "query turn"), "response p1");
    assert!(run(&mut e, &cap, "position fen 7 2 moves").is_empty());
    assert_eq!(one(&mut e, &cap, "query turn"), "response p2");
}

#[test]
fn bad_turn_names_token_and_index_and_keeps_position() {
    let (mut e, cap) = engine("toy");
    run(&mut e, &cap, "position startpos moves 1");
    let before = run(&mut e, &cap, "d");
    let refused = |e: &mut Engine, args: &str| {
        let err = e.session.check("position", &args.split(' ').collect::<Vec<_>>()).unwrap_err();
        assert!(is_error(&one(e, &cap, &format!("position {args}"))), "{args}");
        err
    };
    let err = refused(&mut e, "startpos moves 3 3 x 1");
    assert!(matches!(&err, CommandError::Turn { turn: 3, token, source: TokenError::Malformed(_) } if token == "x"), "{err:?}");
    let err = refused(&mut e, "startpos moves 3 3 3 5");
    assert!(matches!(&err, CommandError::Turn { turn: 4, token, source: TokenError::Illegal(_) } if token == "5"), "{err:?}");
    // A turn after the game ended.
    let err = refused(&mut e, "fen 3 1 moves 3 1");
    assert!(matches!(&err, CommandError::AfterEnd { turn: 2, token, .. } if token == "1"), "{err:?}");
    let err = refused(&mut e, "fen 3 x moves 3");
    assert!(matches!(&err, CommandError::InvalidPosition(p) if p.field_name() == Some("side")), "{err:?}");
    assert_eq!(run(&mut e, &cap, "d"), before);
}

#[test]
fn queries_and_game_over() {
    let (mut e, cap) = engine("toy");
    assert_eq!(one(&mut e, &cap, "query gameover"), "response false");
    assert_eq!(one(&mut e, &cap, "query result"), "response none");
    run(&mut e, &cap, "position fen 3 2 moves 3");
    assert_eq!(one(&mut e, &cap, "query gameover"), "response true");
    assert_eq!(one(&mut e, &cap, "query result"), "response win 2 laststone");
    assert_eq!(one(&mut e, &cap, "query turn"), "response p1");
    assert_eq!(one(&mut e, &cap, "moves"), "moves");
    assert_eq!(one(&mut e, &cap, "go depth 3"), "bestmove (none)");
    assert!(run(&mut e, &cap, "d").contains(&"Legal turns: 0".to_string()));
    let v = run(&mut e, &cap, "go perft 2");
    assert_eq!(v, vec!["", "Nodes searched: 0"]);
}

/// Words of the last `bestmove` line of a search.
pub(crate) fn bestmove_words(v: &[String]) -> Vec<String> {
    let l = v.iter().rev().find(|l| l.starts_with("bestmove")).expect("a bestmove");
    l.split(' ').map(str::to_owned).collect()
}

#[test]
fn ugi_handshake_answers_result_in_ugi_words() {
    let (mut e, cap) = engine("toy");
    // Before any handshake: the full form, as after `uci`.
    run(&mut e, &cap, "position fen 3 2 moves 3");
    assert_eq!(one(&mut e, &cap, "query result"), "response win 2 laststone");
    assert_eq!(one(&mut e, &cap, "query reason"), "response laststone");
    assert_eq!(run(&mut e, &cap, "ugi").last().unwrap(), "ugiok");
    assert_eq!(one(&mut e, &cap, "query result"), "response p2win");
    assert_eq!(one(&mut e, &cap, "query reason"), "response laststone");
    assert_eq!(one(&mut e, &cap, "query gameover"), "response true");
    run(&mut e, &cap, "position fen 3 1 moves 3");
    assert_eq!(one(&mut e, &cap, "query result"), "response p1win");
    run(&mut e, &cap, "position startpos");
    assert_eq!(one(&mut e, &cap, "query result"), "response none");
    assert_eq!(one(&mut e, &cap, "query reason"), "response none");
    assert_eq!(one(&mut e, &cap, "query p1turn"), "response true");
    run(&mut e, &cap, "position startpos moves 1");
    assert_eq!(one(&mut e, &cap, "query p1turn"), "response false");
    // `uci` again: the full form again.
    run(&mut e, &cap, "uci");
    run(&mut e, &cap, "position fen 3 2 moves 3");
    assert_eq!(one(&mut e, &cap, "query result"), "response win 2 laststone");
    for bad in ["query p1turn x", "query reason now"] {
        assert!(is_error(&one(&mut e, &cap, bad)), "{bad}");
    }
}

#[test]
fn ugi_result_keeps_the_full_form_in_four_seat_games() {
    let (mut e, cap) = engine("fourchess");
    run(&mut e, &cap, "ugi");
    assert_eq!(one(&mut e, &cap, "query p1turn"), "response true");
    // fourchess.md E5b: a stalemate draw.
    run(&mut e, &cap, "position fen yK6bR/yPyP6/8/14/14/14/13rK/bK13/14/14/14/1rQ6/8/wK7 w y 0 1");
    assert_eq!(one(&mut e, &cap, "query result"), "response draw stalemate");
    assert_eq!(one(&mut e, &cap, "query reason"), "response stalemate");
    run(&mut e, &cap, "position startpos moves e2e3");
    assert_eq!(one(&mut e, &cap, "query p1turn"), "response false");
}

#[test]
fn ponder_turn_after_ugi_only_with_the_ponder_option() {
    let (mut e, cap) = engine("toy");
    // After `uci` (and before any handshake) `bestmove` names a ponder turn
    // when the search has one.
    let w = bestmove_words(&run(&mut e, &cap, "go depth 4"));
    assert_eq!(w.len(), 4, "{w:?}");
    assert_eq!(w[2], "ponder");
    run(&mut e, &cap, "ugi");
    let w = bestmove_words(&run(&mut e, &cap, "go depth 4"));
    assert_eq!(w.len(), 2, "{w:?}");
    run(&mut e, &cap, "setoption name Ponder value true");
    assert!(e.settings().ponder);
    assert_eq!(bestmove_words(&run(&mut e, &cap, "go depth 4")).len(), 4);
    run(&mut e, &cap, "setoption name Ponder value false");
    assert_eq!(bestmove_words(&run(&mut e, &cap, "go depth 4")).len(), 2);
    // `uci`: the ponder turn whatever the option says.
    run(&mut e, &cap, "uci");
    assert_eq!(bestmove_words(&run(&mut e, &cap, "go depth 4")).len(), 4);
}

#[test]
fn uginewgame_is_ucinewgame() {
    let (mut e, cap) = engine("toy");
    run(&mut e, &cap, "position startpos moves 2");
    assert_eq!(e.position_string(), "8 2");
    assert!(run(&mut e, &cap, "uginewgame").is_empty());
    assert_eq!(e.position_string(), "10 1");
    run(&mut e, &cap, "position startpos moves 2");
    assert!(is_error(&one(&mut e, &cap, "uginewgame now")));
    assert_eq!(e.position_string(), "8 2");
}

#[test]
fn turn_cap_draws_after_that_many_turns() {
    let (mut e, cap) = engine("toy");
    let s0 = e.settings().clone();
    for bad in [
        "setoption name TurnCap value -1",
        "setoption name TurnCap value 1000001",
        "setoption name TurnCap value x",
        "setoption name TurnCap",
    ] {
        assert!(is_error(&one(&mut e, &cap, bad)), "{bad}");
    }
    assert_eq!(e.settings(), &s0);
    assert!(run(&mut e, &cap, "setoption name turncap value 2").is_empty());
    assert_eq!(e.settings().turn_cap, 2);
    run(&mut e, &cap, "position startpos moves 1");
    assert_eq!(one(&mut e, &cap, "query gameover"), "response false");
    assert!(!bestmove_words(&run(&mut e, &cap, "go depth 2"))[1].contains("none"));
    run(&mut e, &cap, "position startpos moves 1 1");
    assert_eq!(one(&mut e, &cap, "query gameover"), "response true");
    assert_eq!(one(&mut e, &cap, "query result"), "response draw turncap");
    assert_eq!(one(&mut e, &cap, "query reason"), "response turncap");
    assert_eq!(run(&mut e, &cap, "go depth 2"), vec!["bestmove (none)"]);
    // The cap is no rule: the position still lists its moves and a runner
    // may send turns past it.
    assert_eq!(one(&mut e, &cap, "moves"), "moves 1 2 3");
    assert!(run(&mut e, &cap, "position startpos moves 1 1 1").is_empty());
    assert_eq!(one(&mut e, &cap, "query reason"), "response turncap");
    run(&mut e, &cap, "ugi");
    assert_eq!(one(&mut e, &cap, "query result"), "response draw");
    // Counted from the `position` command's start, not from the start position.
    run(&mut e, &cap, "position fen 8 1 moves 1");
    assert_eq!(one(&mut e, &cap, "query gameover"), "response false");
    // The rules' ending on the capping turn wins over the cap.
    run(&mut e, &cap, "position fen 2 1 moves 1 1");
    assert_eq!(one(&mut e, &cap, "query result"), "response p2win");
    assert_eq!(one(&mut e, &cap, "query reason"), "response laststone");
    // An engine option: it survives a change of variant; 0 turns it off.
    run(&mut e, &cap, "setoption name UCI_Variant value fourchess");
    assert_eq!(e.settings().turn_cap, 2);
    run(&mut e, &cap, "position startpos moves e2e3 b5c5");
    assert_eq!(one(&mut e, &cap, "query result"), "response draw turncap");
    run(&mut e, &cap, "setoption name TurnCap value 0");
    assert_eq!(one(&mut e, &cap, "query result"), "response none");
}

#[test]
fn turn_cap_option_is_listed_in_every_variant() {
    for v in crate::variants() {
        let (mut e, cap) = engine(v);
        let lines = run(&mut e, &cap, "uci");
        assert!(lines.contains(&"option name TurnCap type spin default 0 min 0 max 1000000".to_string()), "{v}: {lines:?}");
    }
}

#[test]
fn start_variant_is_uci_variants_default() {
    let (out, cap) = Out::buffer();
    let mut e = Engine::with_variant(out, "queenskings9-duel").unwrap();
    assert_eq!(e.variant(), "queenskings9-duel");
    let v = run(&mut e, &cap, "uci");
    assert!(v.iter().any(|l| l.starts_with("option name UCI_Variant type combo default queenskings9-duel var ")), "{v:?}");
    assert!(Engine::with_variant(Out::buffer().0, "chess").is_none());
}

#[test]
fn perft_divide_format() {
    let (mut e, cap) = engine("toy");
    let v = run(&mut e, &cap, "go perft 2");
    assert_eq!(v, vec!["1: 3", "2: 3", "3: 3", "", "Nodes searched: 9"]);
    assert_eq!(run(&mut e, &cap, "go perft 0"), vec!["", "Nodes searched: 1"]);
    let v = run(&mut e, &cap, "go perft 2 actions");
    assert_eq!(v.last().unwrap(), "Nodes searched: 9");
}

/// A Quadranj position two turns from the start, with a 5-high column, has
/// 282,910,438 legal turns: `d` says "more than" the list limit, and `moves`
/// refuses with one error, at once and without gigabytes of memory (it used
/// to build the whole list). A turn-level divide past the limit prints the
/// total only (here on a lone 5-high column, 1.7 million turns).
#[test]
fn too_many_turns_to_list() {
    let (mut e, cap) = engine("quadranj");
    let tall = "bK7/8/8/8/3r5B4/8/8/7rK r 0 - rb 0/0 ?/? 0 1";
    run(&mut e, &cap, &format!("position fen {tall}"));
    let v = run(&mut e, &cap, "go perft 1");
    let opts = <tetrarch_core::games::quadranj::Quadranj as tetrarch_core::game::Rules>::default_options("quadranj");
    let mut p =
        <tetrarch_core::games::quadranj::Quadranj as tetrarch_core::game::Notation>::from_position_string(tall, &opts).unwrap();
    let n = tetrarch_core::turns::perft(&mut p, 1);
    assert!(n > 1_000_000);
    assert_eq!(v.len(), 3, "{v:?}");
    assert!(v[0].starts_with("info string perft: ") && v[0].contains("more than 1000000 legal turns"), "{v:?}");
    assert_eq!(v[1..], ["".to_string(), format!("Nodes searched: {n}")]);
    run(&mut e, &cap, "position startpos moves d2b3d3b4c4+c2,a1b1 f5g5e6e7f7+g6,f8f7");
    let d = run(&mut e, &cap, "d");
    assert_eq!(d.last().unwrap(), "Legal turns: more than 1000000", "{d:?}");
    assert!(matches!(e.session.moves(e.out()), Err(CommandError::TooManyTurns)));
    assert!(is_error(&one(&mut e, &cap, "moves")));
    // The position itself is intact: a search still answers with a legal turn.
    let v = run(&mut e, &cap, "go depth 1");
    let best = v.last().unwrap().strip_prefix("bestmove ").unwrap().split(' ').next().unwrap().to_string();
    assert!(run(&mut e, &cap, &format!("position startpos moves d2b3d3b4c4+c2,a1b1 f5g5e6e7f7+g6,f8f7 {best}")).is_empty());
}

/// Every `info` pv is a line of whole turns that `position … moves` replays
/// (depth counts actions, so an iteration can end mid-turn), and the last
/// one starts with the `bestmove` turn.
#[test]
fn info_pv_is_whole_turns() {
    for (variant, go) in [("quadranj4", "go depth 3"), ("quadranj", "go depth 3"), ("quattuor", "go depth 3")] {
        let (mut e, cap) = engine(variant);
        // Quattuor's first turn has one action: start at the second.
        let start = if variant == "quattuor" { "position startpos moves 0000" } else { "position startpos moves" };
        run(&mut e, &cap, start.trim_end_matches(" moves"));
        let v = run(&mut e, &cap, go);
        let pvs: Vec<&str> = v.iter().filter_map(|l| l.split_once(" pv ").map(|(_, pv)| pv)).collect();
        assert!(!pvs.is_empty(), "{variant}: {v:?}");
        for pv in &pvs {
            let l = run(&mut e, &cap, &format!("{start} {pv}"));
            assert!(l.is_empty(), "{variant}: pv `{pv}`: {l:?}");
        }
        let best = v.last().unwrap().strip_prefix("bestmove ").unwrap().split(' ').next().unwrap();
        assert_eq!(pvs.last().unwrap().split(' ').next().unwrap(), best, "{variant}: {v:?}");
    }
}

#[test]
fn fourchess_perft() {
    let (mut e, cap) = engine("fourchess");
    let v = run(&mut e, &cap, "go perft 2");
    assert_eq!(v.len(), 14);
    assert_eq!(v[0], "d2d3: 12");
    assert_eq!(v[12], "");
    assert_eq!(v[13], "Nodes searched: 144");
    let mut sorted = v[..12].to_vec();
    sorted.sort();
    assert_eq!(sorted, v[..12].to_vec());
    assert_eq!(run(&mut e, &cap, "go perft 3").last().unwrap(), "Nodes searched: 1728");
}

#[test]
fn setoption_generic_and_errors() {
    let (mut e, cap) = engine("toy");
    let s0 = e.settings().clone();
    for l in [
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Hash value big",
        "setoption name Hash",
        "setoption name Threads value 257",
        "setoption name MultiPV value 0",
        "setoption name Move Overhead value -1",
        "setoption name Strategy value brs",
        "setoption name NoSuch value 1",
        "setoption name UCI_Variant value chess",
        "setoption name UCI_Variant",
        "setoption name Toy_MaxTake value 9",
        "setoption name Toy_Big value maybe",
        "setoption name Ponder value 2",
    ] {
        let v = run(&mut e, &cap, l);
        assert_eq!(v.len(), 1, "{l}: {v:?}");
        assert!(is_error(&v[0]), "{l}: {v:?}");
    }
    assert_eq!(e.settings(), &s0);
    assert_eq!(e.variant(), "toy");
    for l in [
        "setoption name hash value 2",
        "setoption name THREADS value 2",
        "setoption name multipv value 3",
        "setoption name move overhead value 0",
        "setoption name clear hash",
        "setoption name Ponder value true",
    ] {
        assert!(run(&mut e, &cap, l).is_empty(), "{l}");
    }
    assert_eq!((e.settings().hash_mb, e.settings().threads, e.settings().multipv), (2, 2, 3));
    assert_eq!(e.settings().move_overhead_ms, 0);
}

/// The hidden options `Search_<Name>`: not listed, any case, checked like
/// spins (an error line and no change), kept across a change of variant,
/// and what the searches use.
#[test]
fn search_parameter_options() {
    let (mut e, cap) = engine("fourchess");
    assert!(!run(&mut e, &cap, "uci").iter().any(|l| l.to_ascii_lowercase().contains("search_")));
    let s0 = e.settings().clone();
    for (l, err) in [
        ("setoption name Search_FutMargin value 2001", "setoption: option Search_FutMargin: `2001` is out of range 0..2000"),
        ("setoption name Search_FutMargin value -1", "setoption: option Search_FutMargin: `-1` is out of range 0..2000"),
        ("setoption name search_null value 2", "setoption: option Search_Null: `2` is out of range 0..1"),
        ("setoption name Search_Null value off", "setoption: option Search_Null: `off` is not an integer"),
        ("setoption name Search_LmpD1", "setoption: option Search_LmpD1 needs a value"),
        ("setoption name Search_Nope value 1", "setoption: unknown option `Search_Nope` for variant fourchess"),
        ("setoption name Search_ value 1", "setoption: unknown option `Search_` for variant fourchess"),
        ("setoption name FutMargin value 100", "setoption: unknown option `FutMargin` for variant fourchess"),
    ] {
        assert_eq!(run(&mut e, &cap, l), [format!("info string error: {err}")], "{l}");
    }
    assert_eq!(e.settings(), &s0);
    for l in [
        "setoption name Search_FutMargin value 300",
        "setoption name SEARCH_futmargin value 200",
        "setoption name search_Null value 0",
    ] {
        assert!(run(&mut e, &cap, l).is_empty(), "{l}");
    }
    assert_eq!(e.settings().search_params, [("FutMargin", 200), ("Null", 0)]);
    assert!(run(&mut e, &cap, "setoption name UCI_Variant value teamchess").is_empty());
    assert_eq!(e.settings().search_params, [("FutMargin", 200), ("Null", 0)]);
    assert!(run(&mut e, &cap, "setoption name Search_Null value 1").is_empty());
    assert_eq!(e.settings().search_params, [("FutMargin", 200), ("Null", 1)]);

    // The searches use them: late-move pruning without its quiet checks
    // misses this mate at depth 4 (the search crate's test
    // `teamchess_late_move_pruning_without_checks_misses_the_mate_at_depth_4`).
    let mate = "position fen 1yK4yR1/8/8/4yP9/14/12gN1/14/1bK10gPgK/14/14/11gP1gR/8/5gR1rP/1bRrNrK4 r - - 0 1";
    let score = |e: &mut Engine| {
        // A fresh table: the last search's mate would cut the next one short.
        assert!(run(e, &cap, "ucinewgame").is_empty());
        assert!(run(e, &cap, mate).is_empty());
        let v = run(e, &cap, "go depth 4");
        let info = v.iter().rev().find(|l| l.starts_with("info depth 4 ")).unwrap_or_else(|| panic!("{v:?}")).clone();
        info.split(" score ").nth(1).unwrap().split(" nodes").next().unwrap().to_string()
    };
    assert_eq!(score(&mut e), "mate -1");
    assert!(run(&mut e, &cap, "setoption name Search_LmpChk value 0").is_empty());
    assert!(score(&mut e).starts_with("cp "));
    assert!(run(&mut e, &cap, "setoption name Search_LmpChk value 1").is_empty());
    assert_eq!(score(&mut e), "mate -1");
}

#[test]
fn search_off_names_switches() {
    use crate::options::search_off;
    assert_eq!(search_off(""), (vec![], vec![]));
    assert_eq!(
        search_off("null,LMPCHK, tm,null,,bogus"),
        (vec![("Null", 0), ("LmpChk", 0), ("Tm", 0)], vec!["bogus".to_string()])
    );
    // Only switches: a number is not turned off by name.
    assert_eq!(search_off("futmargin"), (vec![], vec!["futmargin".to_string()]));
    let all = "ext,null,lmr,evade,qtt,fut,lmp,forced,cm,lmpchk,tm";
    assert_eq!(search_off(all).0.len(), 11);
}

#[test]
fn game_options() {
    let (mut e, cap) = engine("toy");
    assert!(run(&mut e, &cap, "setoption name toy_maxtake value 5").is_empty());
    assert_eq!(one(&mut e, &cap, "moves"), "moves 1 2 3 4 5");
    assert!(run(&mut e, &cap, "setoption name Toy_Big value TRUE").is_empty());
    assert_eq!(e.position_string(), "10 1"); // only at the next startpos
    run(&mut e, &cap, "position startpos");
    assert_eq!(e.position_string(), "21 1");
    // Same variant again: nothing is reset.
    run(&mut e, &cap, "setoption name UCI_Variant value TOY");
    assert_eq!(e.position_string(), "21 1");
    // Another variant and back: defaults again.
    run(&mut e, &cap, "setoption name UCI_Variant value fourchess");
    assert_eq!(e.variant(), "fourchess");
    run(&mut e, &cap, "setoption name UCI_Variant value toy");
    assert_eq!(one(&mut e, &cap, "moves"), "moves 1 2 3");
}

#[test]
fn fourchess_layout_option() {
    let (mut e, cap) = engine("fourchess");
    run(&mut e, &cap, "setoption name fc_layout value b");
    run(&mut e, &cap, "position startpos");
    assert!(e.position_string().ends_with("wRwNwBwQwKwBwNwR w - 0 1"), "{}", e.position_string());
}

#[test]
fn ucinewgame_resets() {
    let (mut e, cap) = engine("toy");
    run(&mut e, &cap, "position startpos moves 2 2");
    assert!(run(&mut e, &cap, "ucinewgame").is_empty());
    assert_eq!(e.position_string(), "10 1");
}

#[test]
fn go_gives_one_legal_bestmove() {
    let (mut e, cap) = engine("fourchess");
    run(&mut e, &cap, "position startpos moves e2e3");
    let legal = one(&mut e, &cap, "moves");
    let v = run(&mut e, &cap, "go depth 2");
    let best: Vec<&String> = v.iter().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(best.len(), 1, "{v:?}");
    assert_eq!(best[0], v.last().unwrap());
    let tok = best[0].split(' ').nth(1).unwrap();
    assert!(legal.split(' ').skip(1).any(|t| t == tok), "{tok} not in {legal}");
    for l in v.iter().filter(|l| l.starts_with("info ")) {
        assert!(l.starts_with("info depth "), "{l}");
        for w in ["seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time"] {
            assert!(l.split(' ').any(|x| x == w), "{w} missing in {l}");
        }
    }
}

#[test]
fn go_infinite_waits_for_stop() {
    let (mut e, cap) = engine("toy");
    e.handle_line("go infinite");
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(!cap.take_lines().iter().any(|l| l.starts_with("bestmove")));
    assert!(e.busy());
    e.handle_line("isready");
    assert!(cap.take_lines().contains(&"readyok".to_string()));
    e.handle_line("stop");
    let v = cap.take_lines();
    assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{v:?}");
    assert!(!e.busy());
    // A second stop prints nothing.
    assert!(run(&mut e, &cap, "stop").is_empty());
}

#[test]
fn state_change_during_search_stops_it_first() {
    let (mut e, cap) = engine("toy");
    e.handle_line("go infinite");
    e.handle_line("position startpos moves 1");
    let v = cap.take_lines();
    assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{v:?}");
    assert_eq!(e.position_string(), "9 2");
}

/// A line that is rejected changes nothing, a running search included: one
/// error line each, the search goes on, and `stop` then gives its bestmove.
#[test]
fn rejected_lines_leave_a_search_running() {
    let (mut e, cap) = engine("fourchess");
    e.handle_line("go infinite");
    for line in [
        "position foo",
        "position startpos moves e2e4",
        "setoption name Hash value 0",
        "setoption name Foo value 1",
        "setoption name UCI_Variant value chess",
        "setoption name FC_Layout value Z",
        "go depth x",
        "go searchmoves e2e4",
        "go setup seat 9",
        "bench depth 0",
        "ucinewgame x",
        "isready now",
        "stop please",
        "ponderhit x",
        "uci x",
        "quit x",
    ] {
        assert_eq!(e.handle_line(line), Control::Continue, "{line}");
        // The running search's own `info depth` lines may come in between.
        let v: Vec<String> = cap.take_lines().into_iter().filter(|l| !l.starts_with("info depth ")).collect();
        assert_eq!(v.len(), 1, "{line}: {v:?}");
        assert!(is_error(&v[0]), "{line}: {v:?}");
        assert!(e.busy(), "{line} ended the search");
    }
    e.handle_line("stop");
    let v = cap.take_lines();
    assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{v:?}");
    assert_eq!(e.variant(), "fourchess");
    assert_eq!(run(&mut e, &cap, "d").iter().filter(|l| l.starts_with("Position: ")).count(), 1);
}

#[test]
fn ponder_then_ponderhit() {
    let (mut e, cap) = engine("toy");
    e.handle_line("go ponder depth 2");
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert!(!cap.take_lines().iter().any(|l| l.starts_with("bestmove")));
    e.handle_line("ponderhit");
    e.wait();
    let v = cap.take_lines();
    assert_eq!(v.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{v:?}");
}

#[test]
fn quit_returns_quit() {
    let (mut e, _cap) = engine("toy");
    e.handle_line("go infinite");
    assert_eq!(e.handle_line("quit"), Control::Quit);
}

#[test]
fn eval_lists_terms_and_total() {
    let (mut e, cap) = engine("toy");
    let v = run(&mut e, &cap, "eval");
    assert_eq!(v, vec!["Eval for p1 (First), centipawns for its side:", "parity: 100", "Total: 100"]);
}

#[test]
fn go_setup_without_setup() {
    let (mut e, cap) = engine("fourchess");
    let (settings, out) = (e.settings().clone(), e.out().clone());
    assert!(matches!(e.session.go(&["setup"], &settings, &out), Err(CommandError::Go(GoError::NoSetup))));
    assert!(is_error(&one(&mut e, &cap, "go setup")));
    let err = e.session.check("go", &["setup", "seat", "9"]);
    assert!(matches!(err, Err(CommandError::Go(GoError::NoSuchSeat { seat: 9, seats: 4 }))), "{err:?}");
    assert!(is_error(&one(&mut e, &cap, "go setup seat 9")));
}

#[test]
fn searchmoves_are_checked_before_the_search() {
    let (mut e, cap) = engine("toy");
    let err = e.session.check("go", &["depth", "1", "searchmoves", "1", "7"]).unwrap_err();
    assert!(matches!(&err, CommandError::Go(GoError::Searchmove { index: 2, token, .. }) if token == "7"), "{err:?}");
    assert!(is_error(&one(&mut e, &cap, "go depth 1 searchmoves 1 7")));
}

#[test]
fn run_script_is_deterministic() {
    let s = "uci\nposition startpos moves e2e3\ngo depth 2\ngo perft 2 actions\nd\nbench\ngo infinite\nquit\nd";
    let strip = |v: Vec<String>| -> Vec<String> { v.into_iter().filter(|l| !l.starts_with("info depth")).collect() };
    let a = strip(crate::run_script(s));
    assert_eq!(a, strip(crate::run_script(s)));
    assert!(a.iter().any(|l| l == "Nodes searched: 144"), "{a:?}");
    assert_eq!(a.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{a:?}");
    assert!(a.last().unwrap().starts_with("Legal turns: "), "{a:?}");
}

/// The fuzz harness skips perft by turns (one Quadranj turn can be millions
/// of unstacking chains: a perft 1 ran for minutes inside the fuzzer) and
/// perft deeper than two actions: those lines print nothing, the shallow
/// ones by actions still count.
#[test]
fn run_script_skips_deep_perft() {
    let nodes = |script: &str| -> Vec<String> {
        crate::run_script(&format!("setoption name UCI_Variant value quadranj\nposition startpos\n{script}"))
            .into_iter()
            .filter(|l| l.starts_with("Nodes searched"))
            .collect()
    };
    assert!(nodes("go perft 1").is_empty());
    assert_eq!(nodes("go perft 2 actions"), ["Nodes searched: 9076"]);
    assert!(nodes("go perft 2").is_empty());
    assert!(nodes("go perft 3 actions").is_empty());
}

const WORDS: &[&str] = &[
    "uci",
    "isready",
    "position",
    "startpos",
    "fen",
    "moves",
    "go",
    "depth",
    "1",
    "2",
    "3",
    "0",
    "-1",
    "x",
    "stop",
    "ponderhit",
    "setoption",
    "name",
    "value",
    "Hash",
    "Threads",
    "UCI_Variant",
    "toy",
    "fourchess",
    "Toy_MaxTake",
    "d",
    "query",
    "result",
    "turn",
    "gameover",
    "eval",
    "perft",
    "actions",
    "infinite",
    "ponder",
    "wtime",
    "p3time",
    "movetime",
    "nodes",
    "searchmoves",
    "ucinewgame",
    "setup",
    "seat",
    "e2e3",
    "d2d3",
    "0000",
    "é",
    "\u{0}",
    "setoption name Hash value 2",
    "ugi",
    "uginewgame",
    "p1turn",
    "reason",
    "TurnCap",
    "Ponder",
    "true",
    "p1time",
    "p2time",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random lines never panic and leave the engine answering.
    #[test]
    fn random_lines_never_panic(lines in prop::collection::vec(prop::collection::vec(0..WORDS.len(), 0..8), 1..8)) {
        let (mut e, cap) = engine("toy");
        for l in &lines {
            let line: Vec<&str> = l.iter().map(|&i| WORDS[i]).collect();
            let line = line.join(" ");
            if line.trim_start().starts_with("quit") { continue; }
            e.handle_line(&line);
        }
        e.stop_job();
        cap.take_lines();
        e.handle_line("isready");
        prop_assert_eq!(cap.take_lines(), vec!["readyok".to_string()]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Arbitrary text (any characters, odd whitespace) never panics, and the
    /// engine answers `isready` afterwards.
    #[test]
    fn arbitrary_text_never_panics(lines in prop::collection::vec("(go |position |setoption name |query |d|moves|\\PC){0,6}\\PC{0,30}", 1..6)) {
        prop_assume!(!lines.iter().any(|l| l.split([' ', '\t']).find(|w| !w.is_empty()) == Some("quit")));
        let mut script = lines.join("\n");
        script.push_str("\nisready");
        let out = crate::run_script(&script);
        prop_assert_eq!(out.last().map(String::as_str), Some("readyok"));
    }
}

/// The line `name: value` of `eval`'s output.
fn eval_line(e: &mut Engine, cap: &Captured, name: &str) -> String {
    let v = run(e, cap, "eval");
    v.into_iter().find(|l| l.starts_with(&format!("{name}: "))).unwrap_or_else(|| panic!("no {name} in eval"))
}

#[test]
fn eval_file_loads_weights_and_refuses_bad_files() {
    use tetrarch_core::games::teamchess::TeamChess;
    let dir = std::env::temp_dir().join(format!("tetrarch-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (mut e, cap) = engine("teamchess");
    // The `tempo` term goes to the team to move: Red at the start.
    let d = TeamChess::default_weights("teamchess").clone();
    let t0 = d.values[d.table.names().iter().position(|n| n == "tempo.move").unwrap()];
    let (before, after) = (format!("tempo: {t0}"), format!("tempo: {}", t0 + 40));
    assert_eq!(eval_line(&mut e, &cap, "tempo"), before);
    let w = d.with(&[("tempo.move", t0 + 40)]).unwrap();
    let good = dir.join("good.weights");
    std::fs::write(&good, w.to_text()).unwrap();
    assert!(run(&mut e, &cap, &format!("setoption name EvalFile value {}", good.display())).is_empty());
    assert_eq!(eval_line(&mut e, &cap, "tempo"), after);
    // A truncated file, another variant's file, a missing file: one error
    // line each, and the loaded weights stay.
    let text = w.to_text();
    let cut = dir.join("cut.weights");
    let half = text[..text.len() / 2].rfind('\n').unwrap() + 1;
    std::fs::write(&cut, &text[..half]).unwrap();
    let foreign = dir.join("foreign.weights");
    let four = tetrarch_core::games::fourchess::FourChess::default_weights("fourchess");
    std::fs::write(&foreign, four.to_text()).unwrap();
    let truncated =
        |e: &OptionError| matches!(e, OptionError::EvalFile { source: WeightsError::Missing { .. } | WeightsError::NoEnd, .. });
    let foreign_variant = |e: &OptionError| matches!(e, OptionError::EvalFile { source: WeightsError::WrongVariant { found, .. }, .. } if found == "fourchess");
    let unreadable = |e: &OptionError| matches!(e, OptionError::EvalFileRead { source: ReadError::Io(_), .. });
    type Why<'a> = &'a dyn Fn(&OptionError) -> bool;
    let cases: [(_, Why); 3] = [(&cut, &truncated), (&foreign, &foreign_variant), (&dir.join("none"), &unreadable)];
    for (path, why) in cases {
        let err = e.session.eval_file(path.to_str(), false).unwrap_err();
        assert!(why(&err), "{err:?}");
        let v = run(&mut e, &cap, &format!("setoption name EvalFile value {}", path.display()));
        assert_eq!(v.len(), 1, "{v:?}");
        assert!(is_error(&v[0]), "{v:?}");
        assert_eq!(eval_line(&mut e, &cap, "tempo"), after);
    }
    // An empty value goes back to the compiled-in weights.
    assert!(run(&mut e, &cap, "setoption name EvalFile value").is_empty());
    assert_eq!(eval_line(&mut e, &cap, "tempo"), before);
    // A file is for one variant: switching variants drops it.
    run(&mut e, &cap, &format!("setoption name EvalFile value {}", good.display()));
    run(&mut e, &cap, "setoption name UCI_Variant value fourchess");
    run(&mut e, &cap, "setoption name UCI_Variant value teamchess");
    assert_eq!(eval_line(&mut e, &cap, "tempo"), before);
    assert!(run(&mut e, &cap, "uci").contains(&"option name EvalFile type string default <empty>".to_string()));
    std::fs::remove_dir_all(&dir).ok();
}

/// With `Notation` `fen4`, `info` scores are Red/Yellow's, as 4pchess
/// gives them: Blue to move with Red's Queen gone is good for Blue, bad for
/// Red/Yellow.
#[test]
fn fen4_notation_reports_scores_from_red_and_yellows_side() {
    let (mut e, cap) = engine("teamchess");
    let start = tetrarch_core::games::teamchess::START.replace("rRrNrBrQrKrBrNrR r ", "rRrNrB1rKrBrNrR b ");
    let score = |e: &mut Engine| -> i32 {
        let v = run(e, &cap, "go depth 2");
        let l = v.iter().rev().find(|l| l.starts_with("info depth 2 ")).expect("info").clone();
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "cp").expect("cp");
        w[i + 1].parse().unwrap()
    };
    run(&mut e, &cap, &format!("position fen {start}"));
    let mover = score(&mut e);
    assert!(mover > 300, "Blue, to move, is a Queen up: {mover}");
    run(&mut e, &cap, "setoption name Notation value fen4");
    let red = score(&mut e);
    assert!(red < -300, "from Red/Yellow's side: {red}");
}

/// A `position` command that extends the current one (a match sends the
/// whole game every turn) plays only the new turns (issue 26: replaying
/// 1,500 turns twice cost 6 ms a move, more than a 10 ms increment); the
/// result, errors and repetition history are those of a full replay.
#[test]
fn an_extended_position_command_gives_what_a_full_replay_gives() {
    let (mut inc, cap) = engine("fourchess");
    let round = "e1f3 a5c6 e14f12 n5l6";
    let back = "f3e1 c6a5 f12e14 l6n5";
    let mut line = String::from("position startpos moves");
    for (i, t) in [round, back, round, back].iter().enumerate() {
        line.push(' ');
        line.push_str(t);
        assert!(run(&mut inc, &cap, &line).is_empty(), "{i}");
        let (mut full, fcap) = engine("fourchess");
        assert!(run(&mut full, &fcap, &line).is_empty());
        assert_eq!(run(&mut inc, &cap, "d"), run(&mut full, &fcap, "d"));
        assert_eq!(run(&mut inc, &cap, "query result"), run(&mut full, &fcap, "query result"));
    }
    // The start position came back a third time: over by repetition, and
    // the error names the turn by its index in the whole command.
    let words = format!("{line} e1f3");
    let err = inc.session.check("position", &words.split(' ').skip(1).collect::<Vec<_>>()).unwrap_err();
    assert!(matches!(&err, CommandError::AfterEnd { turn: 17, outcome, .. } if outcome.reason == "repetition"), "{err:?}");
    assert!(is_error(&one(&mut inc, &cap, &words)));
    // A rejected line changed nothing; another start is a full replay.
    assert_eq!(one(&mut inc, &cap, "query turn"), "response p1");
    assert!(run(&mut inc, &cap, "position startpos moves e2e3").is_empty());
    assert_eq!(one(&mut inc, &cap, "query turn"), "response p2");
    // A game option in between invalidates what was played.
    assert!(run(&mut inc, &cap, "setoption name FC_RepetitionDraw value false").is_empty());
    assert!(run(&mut inc, &cap, &line).is_empty());
    assert!(run(&mut inc, &cap, &format!("{line} e1f3")).is_empty());
}

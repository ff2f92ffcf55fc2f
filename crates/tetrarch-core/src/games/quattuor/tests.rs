//! Perft figures of §10.3, the worked examples of §11, special-rule divides,
//! notation and set-up errors, and properties against the simple rules.

use super::*;
use crate::game::{action_string, Game};
use crate::turns::{divide, legal_turns, parse_turn, perft, perft_actions, play_turn};

fn pos(s: &str) -> Quattuor {
    Quattuor::from_position_string(s, &Options).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn actions_of(p: &Quattuor) -> Vec<String> {
    let mut l = <Quattuor as Game>::Actions::default();
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

#[test]
fn perft_start_depth_1_2() {
    let mut p = Quattuor::startpos(&Options);
    assert_eq!(perft(&mut p, 1), 349);
    assert_eq!(perft_actions(&mut p, 1), 349);
    assert_eq!(perft_actions(&mut p, 2), 121_747);
    play(&mut p, "0000");
    assert_eq!(perft(&mut p, 1), 61_017);
}

#[test]
fn perft_start_actions_3() {
    let mut p = Quattuor::startpos(&Options);
    assert_eq!(perft_actions(&mut p, 3), 21_396_895);
}

/// About as long as depth 3 in actions; run with `--ignored` if slow.
#[test]
fn perft_start_turns_2() {
    let mut p = Quattuor::startpos(&Options);
    assert_eq!(perft(&mut p, 2), 21_276_361);
}

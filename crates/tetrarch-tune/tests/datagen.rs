//! `tetrarch datagen` end to end, in-process: determinism, labels, resume.

use std::path::PathBuf;
use tetrarch_core::game::{Evaluation, Game};

use tetrarch_core::games::{quadranj::Quadranj, queenskings::QueensKings, teamchess::TeamChess};
use tetrarch_tune::data::{self, DataFile};
use tetrarch_tune::{datagen_main, DatagenArgs};

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-datagen-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn args(variant: &str, games: u64, out: PathBuf, concurrency: usize) -> DatagenArgs {
    DatagenArgs {
        variant: variant.into(),
        games,
        nodes: 400,
        out,
        seed: 3,
        concurrency,
        random_plies: 4,
        resume: false,
        shard: None,
        hash_mb: 1,
        skip_turns: 0,
        max_turns: 120,
        weights: None,
        progress: false,
    }
}

/// Every sample parses, and its labels are its game's end line: 1 for the
/// winners' seats, 0 for the others, ½ each in a draw (two sides); in
/// free-for-all the points of the places, the winner's 1.
fn check_labels<G: Game>(d: &DataFile) {
    let opts = G::default_options(&d.header.variant);
    assert!(!d.samples.is_empty());
    for s in &d.samples {
        let p = G::from_position_string(&s.pos, &opts).unwrap_or_else(|e| panic!("{}: {e}", s.pos));
        assert_eq!(p.to_move(), s.seat);
        assert!(p.outcome().is_none() && !p.in_check(), "{}", s.pos);
        let end = &d.ends.iter().find(|e| e.game == s.game).unwrap().end;
        let n = s.result.len();
        assert_eq!(n, p.seats());
        let words: Vec<&str> = end.split_whitespace().collect();
        let winners: Vec<usize> = if words[0] == "win" {
            words[1..].iter().filter_map(|w| w.parse::<usize>().ok()).map(|x| x - 1).collect()
        } else {
            vec![]
        };
        let free_for_all = (0..n).all(|a| (0..a).all(|b| p.side_of(a) != p.side_of(b))) && n > 2;
        if free_for_all {
            assert!((s.result.iter().sum::<f64>() - n as f64 / 2.0).abs() < 1e-9, "{end}: {:?}", s.result);
            for w in &winners {
                assert_eq!(s.result[*w], 1.0, "{end}");
            }
        } else {
            for seat in 0..n {
                let want = if winners.is_empty() {
                    0.5
                } else if winners.contains(&seat) {
                    1.0
                } else {
                    0.0
                };
                assert_eq!(s.result[seat], want, "{end}: seat {seat}");
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_file_and_labels_match_results() {
    let d = dir("same");
    for (variant, games) in [("teamchess", 3), ("queenskings9-duel", 3), ("quadranj4", 2)] {
        let a = d.join(format!("{variant}-a.jsonl"));
        let b = d.join(format!("{variant}-b.jsonl"));
        datagen_main(&args(variant, games, a.clone(), 2), None).unwrap();
        datagen_main(&args(variant, games, b.clone(), 1), None).unwrap();
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "{variant}");
        let f = data::read(&a).unwrap();
        assert_eq!(f.ends.len() as u64, games);
        match variant {
            "teamchess" => check_labels::<TeamChess>(&f),
            "quadranj4" => check_labels::<Quadranj>(&f),
            _ => check_labels::<QueensKings>(&f),
        }
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn an_interrupted_file_resumes_to_the_same_file() {
    let d = dir("resume");
    let whole = d.join("whole.jsonl");
    datagen_main(&args("queenskings9-duel", 4, whole.clone(), 1), None).unwrap();
    let bytes = std::fs::read(&whole).unwrap();
    let cut = d.join("cut.jsonl");
    // Cut in the middle of the third game's lines.
    let ends: Vec<usize> = bytes.windows(7).enumerate().filter(|(_, w)| w == b"\"end\":\"").map(|(i, _)| i).collect();
    std::fs::write(&cut, &bytes[..ends[1] + 40]).unwrap();
    let mut a = args("queenskings9-duel", 4, cut.clone(), 2);
    // Without --resume an existing file is refused.
    assert!(matches!(datagen_main(&a, None), Err(tetrarch_tune::DatagenError::Args(_))));
    a.resume = true;
    datagen_main(&a, None).unwrap();
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    // Other settings: refused, the file untouched.
    let mut other = a.clone();
    other.nodes = 500;
    assert!(matches!(datagen_main(&other, None), Err(tetrarch_tune::DatagenError::Resume(_))));
    assert_eq!(std::fs::read(&cut).unwrap(), bytes);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn shards_play_disjoint_games_that_make_up_the_whole() {
    let d = dir("shards");
    let whole = d.join("whole.jsonl");
    datagen_main(&args("queenskings9-duel", 5, whole.clone(), 2), None).unwrap();
    let w = data::read(&whole).unwrap();
    let mut got = Vec::new();
    for k in 1..=2 {
        let p = d.join(format!("s{k}.jsonl"));
        let mut a = args("queenskings9-duel", 5, p.clone(), 1);
        a.shard = Some(format!("{k}/2").parse().unwrap());
        datagen_main(&a, None).unwrap();
        got.extend(data::read(&p).unwrap().samples);
    }
    got.sort_by_key(|s| s.game);
    let mut want = w.samples.clone();
    want.sort_by_key(|s| s.game);
    assert_eq!(got, want);
    std::fs::remove_dir_all(&d).ok();
}

/// datagen → tune → a weights file the engine's `EvalFile` accepts, with a
/// training and a held-out loss printed per epoch.
#[test]
fn tune_writes_a_weights_file_that_loads() {
    let d = dir("tune");
    let data = d.join("d.jsonl");
    datagen_main(&args("queenskings9-duel", 6, data.clone(), 2), None).unwrap();
    let out = d.join("w.txt");
    let targs = tetrarch_tune::TuneArgs {
        variant: "queenskings9-duel".into(),
        data: vec![data.clone()],
        out: out.clone(),
        start: None,
        fit: tetrarch_tune::tune::FitArgs { epochs: 2, batch: 64, ..Default::default() },
        command: "tetrarch tune (test)".into(),
    };
    let mut lines = Vec::new();
    tetrarch_tune::tune_main(&targs, &mut |l| lines.push(l.to_string())).unwrap();
    assert!(lines.iter().any(|l| l.starts_with("K = ")), "{lines:?}");
    for e in 1..=2 {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("epoch {e}: train loss ")) && l.contains("held-out loss")),
            "{lines:?}"
        );
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let table = QueensKings::default_weights("queenskings9-duel").table;
    let w = tetrarch_core::eval::Weights::from_text(&text, "queenskings9-duel", table).unwrap();
    assert_eq!(w.values.len(), table.len);
    // Data of another variant is refused.
    let mut wrong = targs.clone();
    wrong.variant = "queenskings-duel".into();
    let e = tetrarch_tune::tune_main(&wrong, &mut |_| {}).unwrap_err();
    assert!(matches!(&e, tetrarch_tune::TuneError::OtherVariant { found, .. } if found == "queenskings9-duel"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}

/// `--start hand` starts from the game's hand-set table, not from the
/// compiled-in (tuned) set; with a step of 0 the file written is that start.
#[test]
fn tune_can_start_from_the_hand_set_table() {
    let d = dir("tune-hand");
    let data = d.join("d.jsonl");
    datagen_main(&args("teamchess", 2, data.clone(), 1), None).unwrap();
    let run = |start: Option<PathBuf>, name: &str| {
        let out = d.join(name);
        let targs = tetrarch_tune::TuneArgs {
            variant: "teamchess".into(),
            data: vec![data.clone()],
            out: out.clone(),
            start,
            fit: tetrarch_tune::tune::FitArgs { epochs: 1, batch: 64, lr: 0.0, ..Default::default() },
            command: "tetrarch tune (test)".into(),
        };
        tetrarch_tune::tune_main(&targs, &mut |_| {}).unwrap();
        let table = TeamChess::default_weights("teamchess").table;
        tetrarch_core::eval::Weights::from_text(&std::fs::read_to_string(&out).unwrap(), "teamchess", table).unwrap()
    };
    let compiled = TeamChess::default_weights("teamchess");
    let hand = tetrarch_core::eval::Weights::defaults("teamchess", compiled.table);
    assert_eq!(run(Some("hand".into()), "hand.txt").values, hand.values);
    assert_eq!(run(None, "compiled.txt").values, compiled.values);
    assert_ne!(hand.values, compiled.values);
    std::fs::remove_dir_all(&d).ok();
}

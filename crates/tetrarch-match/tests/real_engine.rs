//! Short matches between two Tetrarch engine processes (`depth=1`) in each
//! kind of game; every record must replay legally and end by the rules or the
//! runner's turn cap, never by a forfeit.
//!
//! The engine binary: `$TETRARCH_ENGINE` if set, else the newest of
//! `target/debug/tetrarch` and `target/release/tetrarch` (the target directory
//! of this workspace, or `$CARGO_TARGET_DIR`). Build it first:
//! `cargo build -p tetrarch` (these tests do not run cargo themselves, which
//! would wait on the build lock of the `cargo test` that runs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tetrarch_core::game::{Notation, Rules};

use tetrarch_core::games::queenskings::QueensKings;
use tetrarch_core::turns::{parse_turn, play_turn};
use tetrarch_match::openings::Opening;
use tetrarch_match::record::{read_records, Decided, GameRecord};

const RUNNER: &str = env!("CARGO_BIN_EXE_tetrarch-match");

fn engine() -> PathBuf {
    if let Some(p) = std::env::var_os("TETRARCH_ENGINE") {
        return PathBuf::from(p);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = ["debug", "release"]
        .iter()
        .map(|p| target.join(p).join("tetrarch"))
        .filter_map(|p| std::fs::metadata(&p).and_then(|m| m.modified()).ok().map(|t| (t, p)))
        .collect();
    found.sort();
    found.pop().map(|f| f.1).expect("no tetrarch engine binary: run `cargo build -p tetrarch` first (or set TETRARCH_ENGINE)")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-match-real-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A match of `engines` Tetrarch processes; returns the records (checked to
/// replay legally) and the log of the engine dialogue.
fn real_match(variant: &str, engines: usize, games: u32, extra: &[&str]) -> (Vec<GameRecord>, String) {
    let rec = tmp(&format!("{variant}.jsonl"));
    let log = tmp(&format!("{variant}.log"));
    let pgn = tmp(&format!("{variant}.pgn"));
    let cmd = format!("cmd={}", engine().display());
    let games = games.to_string();
    let mut args: Vec<String> = [
        "--variant",
        variant,
        "--games",
        &games,
        "--seed",
        "11",
        "--random-plies",
        "2",
        "--records",
        rec.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
        "--pgnout",
        pgn.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for e in 0..engines {
        args.extend(["--engine".into(), cmd.clone(), format!("name=T{}", e + 1)]);
    }
    args.extend(["--each", "depth=1", "option.Hash=8"].iter().map(|s| s.to_string()));
    args.extend(extra.iter().map(|s| s.to_string()));
    let o = Command::new(RUNNER).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let recs = read_records(&rec).unwrap();
    assert_eq!(recs.len().to_string(), games);
    assert_eq!(tetrarch_match::verify_records(&rec).unwrap(), recs.len());
    for r in &recs {
        assert_ne!(r.decided, Decided::Forfeit, "{r:?}");
        assert_eq!(r.variant, variant);
        assert_eq!(r.times_ms.len(), r.turns.len() - r.opening_turns);
    }
    let p = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(p.matches("[Event ").count(), recs.len());
    (recs, std::fs::read_to_string(&log).unwrap())
}

#[test]
fn fourchess_teams_with_clocks() {
    let (recs, log) = real_match("fourchess", 2, 2, &["tc=30+0.5", "--maxturns", "60"]);
    // One process per seat: each engine plays its team's two seats.
    assert_eq!(recs[0].seats, vec!["T1", "T2", "T1", "T2"]);
    assert_eq!(recs[1].seats, vec!["T2", "T1", "T2", "T1"]);
    assert_eq!(recs[0].turns[..2], recs[1].turns[..2]);
    assert!(log.contains("setoption name UCI_Variant value fourchess"));
    assert!(log.contains("ucinewgame"));
    assert!(log.contains(" p1time ") && log.contains(" p4inc 500"), "four-seat clocks");
    assert!(log.contains("depth 1"));
    assert!(log.contains("position startpos moves "));
    for r in &recs {
        assert!(r.reason == "adjudication: turn cap" || r.decided == Decided::Rules, "{r:?}");
    }
}

#[test]
fn queenskings9_duel() {
    let (recs, log) = real_match("queenskings9-duel", 2, 2, &["tc=30+0.5"]);
    assert!(log.contains(" wtime ") && log.contains(" binc 500"), "two-seat clocks");
    for r in &recs {
        assert_eq!(r.decided, Decided::Rules, "{r:?}");
        assert_eq!(r.seats.len(), 2);
    }
}

#[test]
fn quattuor_random_setups() {
    let (recs, log) = real_match("quattuor", 2, 2, &["st=0.5"]);
    assert!(recs[0].start.starts_with("setup "), "{}", recs[0].start);
    assert_eq!(recs[0].start, recs[1].start);
    assert!(log.contains("position setup "));
    assert!(log.contains("movetime 500"));
    for r in &recs {
        assert!(r.decided == Decided::Rules || r.reason == "adjudication: turn cap");
        assert!(r.turns.len() <= 400);
    }
}

#[test]
fn queenskings9_teams() {
    let (recs, _) = real_match("queenskings9-teams", 2, 2, &[]);
    assert_eq!(recs[0].seats, vec!["T1", "T2", "T1", "T2"]);
}

/// Free-for-all with four engines: the seats rotate, and the ranks agree with
/// the order in which the position strings drop seats from the game.
#[test]
fn queenskings9_free_for_all_ranks() {
    let (recs, _) = real_match("queenskings9", 4, 4, &[]);
    for (k, r) in recs.iter().enumerate() {
        let want: Vec<String> = (0..4).map(|s| format!("T{}", (s + k) % 4 + 1)).collect();
        assert_eq!(r.seats, want);
        let opts = QueensKings::default_options("queenskings9");
        let start = Opening::from_start_string(&r.start).unwrap();
        let mut g = Opening { start, turns: vec![] }.start_position::<QueensKings>(&opts).unwrap();
        let in_game = |g: &QueensKings| g.position_string().split(' ').nth(2).unwrap().to_string();
        let letters = ['s', 'w', 'n', 'e'];
        let mut out: Vec<usize> = Vec::new();
        for t in &r.turns {
            let mover = g.to_move();
            let before = in_game(&g);
            let a = parse_turn(&g, t).unwrap();
            play_turn(&mut g, &a);
            let after = in_game(&g);
            // Seats that went out, in visiting order from the mover.
            for i in 1..4 {
                let s = (mover + i) % 4;
                if before.contains(letters[s]) && !after.contains(letters[s]) {
                    out.push(s);
                }
            }
        }
        if r.reason == "elimination" {
            assert_eq!(out.len(), 3, "{r:?}");
            let winner = (0..4).find(|s| !out.contains(s)).unwrap();
            assert_eq!(r.ranks[winner], 1, "{r:?}");
            for (i, &s) in out.iter().enumerate() {
                assert_eq!(r.ranks[s] as usize, 4 - i, "seat {s} out as {i}: {r:?}");
            }
        } else {
            for (i, &s) in out.iter().enumerate() {
                assert_eq!(r.ranks[s] as usize, 4 - i, "{r:?}");
            }
        }
        assert!((r.points.iter().sum::<f64>() - 2.0).abs() < 1e-9);
    }
}

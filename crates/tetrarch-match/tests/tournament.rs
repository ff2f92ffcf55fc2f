//! `--tournament round-robin|gauntlet` with more than two engines: fake
//! engines (`src/bin/fake_engine.rs`) for the schedule, the tables, forfeits,
//! `--resume` and bad input; depth-limited Tetrarch engines for real games.
//!
//! The real games need the engine binary, found as in `real_engine.rs`:
//! `$TETRARCH_ENGINE`, else the newest of `target/{debug,release}/tetrarch`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tetrarch_match::record::{read_records, Decided, GameRecord};

const RUNNER: &str = env!("CARGO_BIN_EXE_tetrarch-match");
const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-match-tournament-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn run(args: &[String]) -> Output {
    Command::new(RUNNER).args(args).output().expect("run the runner")
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// `--engine` words of fake engines: `name` and its extra `arg=` words.
fn fakes(engines: &[(&str, &[&str])]) -> Vec<String> {
    let mut v = Vec::new();
    for (name, args) in engines {
        v.extend(["--engine".to_string(), format!("cmd={FAKE}"), format!("name={name}")]);
        v.extend(args.iter().map(|a| format!("arg={a}")));
    }
    v
}

/// The row of engine `name` in the final table: its words.
fn table_row(out: &str, name: &str) -> Vec<String> {
    let start = out.find("Tournament (").unwrap_or_else(|| panic!("no tournament table: {out}"));
    let line = out[start..]
        .lines()
        .find(|l| l.split_whitespace().next() == Some(name))
        .unwrap_or_else(|| panic!("no row {name}: {out}"));
    line.split_whitespace().map(str::to_owned).collect()
}

/// The cell of the pair table, row `a`, column `b` (engines in order `names`).
fn pair_cell(out: &str, names: &[&str], a: &str, b: &str) -> String {
    let start = out.find("Pairs (").unwrap_or_else(|| panic!("no pair table: {out}"));
    let line = out[start..]
        .lines()
        .skip(2)
        .find(|l| l.split_whitespace().next() == Some(a))
        .unwrap_or_else(|| panic!("no pair row {a}: {out}"));
    let w: Vec<&str> = line.split_whitespace().collect();
    w[1 + names.iter().position(|n| *n == b).unwrap()].to_string()
}

/// Points of engine `e` in a record (mean over its seats).
fn points_of(r: &GameRecord, e: usize) -> Option<f64> {
    let seats: Vec<usize> = (0..r.seats.len()).filter(|&s| r.seat_engines[s] == e).collect();
    (!seats.is_empty()).then(|| seats.iter().map(|&s| r.points[s]).sum::<f64>() / seats.len() as f64)
}

/// Checks the table against the records: games and points per engine, and
/// every cell of the pair table (two sides: wins-losses-draws).
fn check_tables(out: &str, recs: &[GameRecord], names: &[&str]) {
    for (e, name) in names.iter().enumerate() {
        let games = recs.iter().filter(|r| r.seat_engines.contains(&e)).count();
        let points: f64 = recs.iter().filter_map(|r| points_of(r, e)).sum();
        let row = table_row(out, name);
        assert_eq!(row[1], games.to_string(), "{name}: {row:?}");
        assert!((row[2].parse::<f64>().unwrap() - points).abs() < 1e-9, "{name}: {row:?} vs {points}");
        for (f, other) in names.iter().enumerate() {
            if e == f {
                continue;
            }
            let (mut w, mut l, mut d) = (0, 0, 0);
            for r in recs.iter().filter(|r| r.seat_engines.contains(&e) && r.seat_engines.contains(&f)) {
                let p = points_of(r, e).unwrap();
                if p == 1.0 {
                    w += 1
                } else if p == 0.0 {
                    l += 1
                } else {
                    d += 1
                }
            }
            let want = if w + l + d == 0 { ".".to_string() } else { format!("{w}-{l}-{d}") };
            assert_eq!(pair_cell(out, names, name, other), want, "{name} against {other}");
        }
    }
}

fn tournament(
    name: &str,
    variant: &str,
    kind: &str,
    games: u32,
    engines: Vec<String>,
    extra: &[&str],
) -> (Output, Vec<GameRecord>, PathBuf) {
    let rec = tmp(&format!("{name}.jsonl"));
    let mut args = strings(&["--variant", variant, "--tournament", kind, "--games", &games.to_string(), "--seed", "5"]);
    args.extend(strings(&["--records", rec.to_str().unwrap()]));
    args.extend(engines);
    args.extend(strings(extra));
    let o = run(&args);
    let recs = if rec.exists() { read_records(&rec).unwrap() } else { Vec::new() };
    (o, recs, rec)
}

#[test]
fn round_robin_plays_every_pair_on_the_same_openings_with_sides_swapped() {
    let names = ["A", "B", "C"];
    let engines = fakes(&[("A", &["seed=1"]), ("B", &["seed=2"]), ("C", &["seed=3"])]);
    let (o, recs, rec) = tournament(
        "rr3",
        "queenskings9-duel",
        "round-robin",
        4,
        engines,
        &["--random-plies", "2", "--maxturns", "30", "--each", "depth=1"],
    );
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(recs.len(), 12, "3 pairings × 4 games: {out}");
    assert_eq!(tetrarch_match::verify_records(&rec).unwrap(), 12);
    assert!(out.contains("round-robin tournament of A, B, C (3 pairings × 4 games)"), "{out}");
    assert!(out.contains("Tournament (round-robin, 3 engines, 12 games):"), "{out}");
    // Every pair: 2 openings, each once with either engine as seat 1.
    let mut by_pair: HashMap<(usize, usize), Vec<&GameRecord>> = HashMap::new();
    for r in &recs {
        let (a, b) = (r.seat_engines[0], r.seat_engines[1]);
        assert_ne!(a, b);
        by_pair.entry((a.min(b), a.max(b))).or_default().push(r);
    }
    assert_eq!(by_pair.len(), 3);
    for games in by_pair.values() {
        assert_eq!(games.len(), 4);
        for o in 0..2 {
            let pair: Vec<&&GameRecord> = games.iter().filter(|r| r.opening_index == o).collect();
            assert_eq!(pair.len(), 2);
            assert_eq!(pair[0].seat_engines[0], pair[1].seat_engines[1], "sides swapped");
        }
    }
    // The same openings in every pairing.
    for o in 0..2 {
        let starts: Vec<&[String]> = recs.iter().filter(|r| r.opening_index == o).map(|r| &r.turns[..2]).collect();
        assert!(starts.windows(2).all(|w| w[0] == w[1]), "opening {o}: {starts:?}");
    }
    check_tables(&out, &recs, &names);
    assert_eq!(table_row(&out, "A")[4..6], ["0", "(reference)"]);
    for name in ["B", "C"] {
        let elo = table_row(&out, name)[4].clone();
        assert!(elo.starts_with('+') || elo.starts_with('-') || elo == "?", "{name}: {elo}");
    }
}

#[test]
fn gauntlet_plays_the_first_engine_against_each_other() {
    let names = ["A", "B", "C", "D"];
    let engines = fakes(&[("A", &["seed=1"]), ("B", &["seed=2"]), ("C", &["seed=3"]), ("D", &["seed=4"])]);
    let (o, recs, _) = tournament("g4", "quattuor", "gauntlet", 2, engines, &["--maxturns", "12", "--each", "depth=1"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(recs.len(), 6, "{out}");
    assert!(recs.iter().all(|r| r.seat_engines.contains(&0)), "{recs:?}");
    for other in 1..4 {
        assert_eq!(recs.iter().filter(|r| r.seat_engines.contains(&other)).count(), 2);
    }
    check_tables(&out, &recs, &names);
    assert_eq!(pair_cell(&out, &names, "B", "C"), ".");
}

#[test]
fn an_engine_that_always_forfeits_scores_nothing_and_rates_minus_infinity() {
    let names = ["A", "B", "C"];
    let engines = fakes(&[("A", &["seed=1"]), ("B", &["seed=2"]), ("C", &["mode=illegal"])]);
    let (o, recs, _) =
        tournament("forfeit", "queenskings9-duel", "round-robin", 2, engines, &["--maxturns", "20", "--each", "depth=1"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(recs.len(), 6);
    for r in &recs {
        let c_plays = r.seat_engines.contains(&2);
        assert_eq!(r.decided == Decided::Forfeit, c_plays, "{r:?}");
    }
    check_tables(&out, &recs, &names);
    assert_eq!(table_row(&out, "C")[2], "0");
    assert_eq!(table_row(&out, "C")[4], "-inf", "{out}");
    assert!(out.contains("illegal turn (C): 4"), "{out}");
}

#[test]
fn free_for_all_round_robin_seats_every_four_engines_in_turn() {
    let names = ["A", "B", "C", "D", "E"];
    let engines = fakes(&[("A", &["seed=1"]), ("B", &["seed=2"]), ("C", &["seed=3"]), ("D", &["seed=4"]), ("E", &["seed=5"])]);
    let (o, recs, _) = tournament("ffa5", "queenskings9", "round-robin", 4, engines, &["--maxturns", "24", "--each", "depth=1"]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(recs.len(), 20, "5 groups of four × 4 games: {out}");
    assert!(out.contains("Tournament (round-robin, 5 engines, 20 games, free-for-all):"), "{out}");
    for r in &recs {
        let mut e = r.seat_engines.clone();
        e.sort_unstable();
        e.dedup();
        assert_eq!(e.len(), 4, "four different engines: {r:?}");
        assert!((r.points.iter().sum::<f64>() - 2.0).abs() < 1e-9);
    }
    // In each group every engine takes every seat once (per opening).
    let mut seats: HashMap<(Vec<usize>, usize), Vec<usize>> = HashMap::new();
    for r in &recs {
        let mut g = r.seat_engines.clone();
        g.sort_unstable();
        for (s, &e) in r.seat_engines.iter().enumerate() {
            seats.entry((g.clone(), e)).or_default().push(s);
        }
    }
    assert_eq!(seats.len(), 20);
    for v in seats.values_mut() {
        v.sort_unstable();
        assert_eq!(v, &vec![0, 1, 2, 3]);
    }
    for (e, name) in names.iter().enumerate() {
        let row = table_row(&out, name);
        assert_eq!(row[1], "16", "{row:?}");
        let points: f64 = recs.iter().filter_map(|r| points_of(r, e)).sum();
        assert!((row[2].parse::<f64>().unwrap() - points).abs() < 0.01, "{row:?} vs {points}");
    }
    // Every pair of engines shares 3 groups: 12 games; the cell counts them.
    let cell = pair_cell(&out, &names, "B", "E");
    let n: u64 = cell.split('-').map(|x| x.parse::<u64>().unwrap()).sum();
    assert_eq!(n, 12, "{cell}");
}

#[test]
fn resume_continues_a_tournament_and_more_games_extend_it() {
    let engines = || fakes(&[("A", &["seed=1"]), ("B", &["seed=2"]), ("C", &["seed=3"])]);
    let extra = ["--maxturns", "16", "--each", "depth=1"];
    let (o, first, rec) = tournament("resume", "queenskings9-duel", "round-robin", 2, engines(), &extra);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(first.len(), 6);
    let mut args = strings(&["--variant", "queenskings9-duel", "--tournament", "round-robin", "--games", "4", "--seed", "5"]);
    args.extend(strings(&["--records", rec.to_str().unwrap(), "--resume"]));
    args.extend(engines());
    args.extend(strings(&extra));
    let o = run(&args);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("12 games (6 to play)"), "{out}");
    let all = read_records(&rec).unwrap();
    assert_eq!(all.len(), 12);
    for r in &first {
        assert_eq!(all.iter().find(|x| x.game == r.game), Some(r), "earlier games stay as they were");
    }
    let mut games: Vec<u64> = all.iter().map(|r| r.game).collect();
    games.sort_unstable();
    assert_eq!(games, (0..12).collect::<Vec<_>>());
    // The table counts the earlier games too.
    assert!(out.contains("Tournament (round-robin, 3 engines, 12 games):"), "{out}");
    check_tables(&out, &all, &["A", "B", "C"]);
    // Another kind of tournament cannot continue this file.
    let gauntlet: Vec<String> =
        args.iter().map(|a| if a == "round-robin" { "gauntlet".to_string() } else { a.clone() }).collect();
    let o = run(&gauntlet);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("another match"), "{}", text(&o));
}

#[test]
fn bad_tournament_input_exits_2_before_any_game() {
    let three = || fakes(&[("A", &[]), ("B", &[]), ("C", &[])]);
    for (variant, kind, games, engines, extra, want) in [
        ("queenskings9-duel", "round-robin", 3, three(), &[][..], "multiple of 2"),
        ("queenskings9", "round-robin", 4, three(), &[][..], "at least 4 engines"),
        ("queenskings9", "gauntlet", 6, fakes(&[("A", &[]), ("B", &[]), ("C", &[]), ("D", &[])]), &[][..], "multiple of 4"),
        ("queenskings9-duel", "round-robin", 2, fakes(&[("A", &[])]), &[][..], "at least two"),
        ("queenskings9-duel", "swiss", 2, three(), &[][..], "round-robin or gauntlet"),
        ("queenskings9-duel", "gauntlet", 2, three(), &["--sprt", "elo0=0", "elo1=5"][..], "not a --tournament"),
    ] {
        let mut x = strings(extra);
        x.extend(strings(&["--each", "depth=1"]));
        let xs: Vec<&str> = x.iter().map(String::as_str).collect();
        let (o, recs, _) = tournament("bad", variant, kind, games, engines, &xs);
        assert_eq!(o.status.code(), Some(2), "{variant} {kind} {games}: {}", text(&o));
        assert!(text(&o).contains(want), "want {want}: {}", text(&o));
        assert!(recs.is_empty());
    }
}

/// The Tetrarch engine binary (see the module comment).
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

#[test]
fn depth_limited_tetrarch_engines_in_a_round_robin_and_a_gauntlet() {
    let cmd = format!("cmd={}", engine().display());
    let engines = || {
        let mut v = Vec::new();
        for (name, depth) in [("d1", 1), ("d2", 2), ("d3", 3)] {
            v.extend([
                "--engine".to_string(),
                cmd.clone(),
                format!("name={name}"),
                format!("depth={depth}"),
                "option.Hash=8".into(),
            ]);
        }
        v
    };
    for (kind, games) in [("round-robin", 6), ("gauntlet", 4)] {
        let (o, recs, rec) = tournament(
            &format!("real-{kind}"),
            "queenskings9-duel",
            kind,
            2,
            engines(),
            &["--random-plies", "2", "--maxturns", "120"],
        );
        let out = text(&o);
        assert!(o.status.success(), "{out}");
        assert_eq!(recs.len(), games, "{out}");
        assert_eq!(tetrarch_match::verify_records(&rec).unwrap(), games);
        for r in &recs {
            assert_ne!(r.decided, Decided::Forfeit, "{r:?}");
        }
        check_tables(&out, &recs, &["d1", "d2", "d3"]);
        assert_eq!(table_row(&out, "d1")[4..6], ["0", "(reference)"]);
    }
}

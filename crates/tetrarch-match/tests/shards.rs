//! Matches in shards (`--shard K/N`, `--records-dir DIR`) and `tetrarch
//! match report`, with the fake engine (`src/bin/fake_engine.rs`; a good
//! fake plays the same game for the same game number in any process, so a
//! shard's games are the whole match's). The depth-limited Tetrarch
//! engines and the GNU parallel recipes are in
//! `crates/tetrarch/tests/distributed.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use tetrarch_match::record::{read_records, GameRecord};

const RUNNER: &str = env!("CARGO_BIN_EXE_tetrarch-match");
const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-match-shards-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

fn spawn(args: &[String]) -> Child {
    Command::new(RUNNER).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start the runner")
}

fn run(args: &[String]) -> Output {
    spawn(args).wait_with_output().expect("run the runner")
}

/// The shards `1..=n` at once (one process each), with `args(k)`.
fn shards_at_once(n: u64, args: impl Fn(u64) -> Vec<String>) -> Vec<Output> {
    let children: Vec<Child> = (1..=n).map(|k| spawn(&args(k))).collect();
    children.into_iter().map(|c| c.wait_with_output().unwrap()).collect()
}

/// A match of two good fakes (A, B) in queenskings9-duel.
fn fake_duel(games: u32, seed: u32, extra: &[&str]) -> Vec<String> {
    let mut v = strings(&[
        "--variant",
        "queenskings9-duel",
        "--games",
        &games.to_string(),
        "--seed",
        &seed.to_string(),
        "--random-plies",
        "2",
        "--maxturns",
        "30",
    ]);
    v.extend(strings(&["--engine", &format!("cmd={FAKE}"), "name=A", "--engine", &format!("cmd={FAKE}"), "name=B"]));
    v.extend(strings(&["--each", "depth=1"]));
    v.extend(strings(extra));
    v
}

fn by_game(files: &[PathBuf]) -> BTreeMap<u64, GameRecord> {
    let mut m = BTreeMap::new();
    for f in files {
        for r in read_records(f).unwrap() {
            assert!(m.insert(r.game, r).is_none(), "a game twice in {files:?}");
        }
    }
    m
}

/// What must be equal game by game between the whole match and its shards.
fn same_game(a: &GameRecord, b: &GameRecord) {
    assert_eq!(
        (a.opening_index, a.round, &a.start, &a.seats, &a.seat_engines, &a.turns, &a.result, &a.reason, &a.match_id),
        (b.opening_index, b.round, &b.start, &b.seats, &b.seat_engines, &b.turns, &b.result, &b.reason, &b.match_id),
        "game {}",
        a.game
    );
}

/// The match's own final table: from the line starting with `from` to the
/// endings.
fn match_table(o: &Output, from: &str) -> Vec<String> {
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<String> = out.lines().skip_while(|l| !l.starts_with(from)).map(String::from).collect();
    let end = lines.iter().position(|l| l.starts_with("  Endings:")).map_or(0, |i| i + 1);
    lines[..end].to_vec()
}

/// The report's table without its first line (which names the files).
fn report_table(files: &[&Path], extra: &[&str]) -> (Output, Vec<String>) {
    let mut args = strings(&["report"]);
    args.extend(strings(extra));
    args.extend(files.iter().map(|p| p.display().to_string()));
    let o = run(&args);
    let lines = String::from_utf8_lossy(&o.stdout).lines().skip(1).map(String::from).collect();
    (o, lines)
}

#[test]
fn report_refuses_mixed_matches_and_ignores_a_duplicated_shard_file() {
    let d = dir("mixed");
    let whole = d.join("whole.jsonl");
    let o = run(&[fake_duel(12, 5, &[]), strings(&["--records", whole.to_str().unwrap()])].concat());
    assert!(o.status.success(), "{}", text(&o));
    let own = match_table(&o, "Results of");
    let outs = shards_at_once(3, |k| {
        [fake_duel(12, 5, &[]), strings(&["--shard", &format!("{k}/3"), "--records-dir", d.join("s").to_str().unwrap()])].concat()
    });
    for o in &outs {
        assert!(o.status.success(), "{}", text(o));
    }
    let files: Vec<PathBuf> = (1..=3).map(|k| d.join(format!("s/shard-{k}.jsonl"))).collect();
    let shards = by_game(&files);
    let all = by_game(std::slice::from_ref(&whole));
    assert_eq!(shards.keys().collect::<Vec<_>>(), all.keys().collect::<Vec<_>>());
    for (g, r) in &all {
        same_game(r, &shards[g]);
    }
    let (o, t_whole) = report_table(&[&whole], &[]);
    assert!(o.status.success(), "{}", text(&o));
    let (o, t_dir) = report_table(&[&d.join("s")], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(t_whole, t_dir);
    assert!(t_whole.iter().any(|l| l.starts_with("Results of A vs B (12 games)")), "{t_whole:?}");
    // The report prints the match's own table (after a line naming the match).
    assert!(own.len() > 5, "{own:?}");
    assert_eq!(t_whole[1..], own[..]);
    // A copy of a shard's file (a shard run twice): the same table, the
    // copy's games counted once.
    std::fs::copy(&files[1], d.join("s/shard-2-again.jsonl")).unwrap();
    let (o, t_copy) = report_table(&[&d.join("s")], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(t_copy, t_whole);
    let first = String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string();
    assert!(first.contains("16 records, 4 duplicates ignored, 12 games (numbers 0-11, none missing)"), "{first}");
    // A glob the shell did not expand.
    let (o, t_glob) = report_table(&[&d.join("s/shard-*.jsonl")], &[]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(t_glob, t_whole);
    // JSON: the same figures.
    let (o, _) = report_table(&[&d.join("s")], &["--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let j = String::from_utf8_lossy(&o.stdout);
    for want in ["\"games\": 12", "\"duplicates\": 4", "\"kind\": \"two sides\"", "\"pentanomial\": [", "\"missing\": []"] {
        assert!(j.contains(want), "{want}: {j}");
    }

    // Another match: a shard of another seed, of another time control.
    let other_seed = d.join("other-seed.jsonl");
    let o = run(&[fake_duel(2, 6, &[]), strings(&["--records", other_seed.to_str().unwrap()])].concat());
    assert!(o.status.success(), "{}", text(&o));
    let mut other_limit = fake_duel(2, 5, &[]);
    let pos = other_limit.iter().position(|a| a == "depth=1").unwrap();
    other_limit[pos] = "depth=2".into();
    let other_tc = d.join("other-tc.jsonl");
    let o = run(&[other_limit, strings(&["--records", other_tc.to_str().unwrap()])].concat());
    assert!(o.status.success(), "{}", text(&o));
    for (file, want) in [(&other_seed, "seed: 5 vs 6"), (&other_tc, "time control / limits of engine 1 (A): depth:1 vs depth:2")]
    {
        let (o, _) = report_table(&[&files[0], file], &[]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let t = text(&o);
        assert!(t.contains("different matches") && t.contains(want), "want {want}: {t}");
        assert!(o.stdout.is_empty(), "{t}");
    }
    // Bad input: exit 2 with the reason, nothing printed on stdout.
    let garbage = d.join("garbage.jsonl");
    std::fs::write(&garbage, "not a record\n").unwrap();
    for (args, want) in [
        (vec![garbage.display().to_string()], "line 1"),
        (vec![d.join("none-*.jsonl").display().to_string()], "no file matches"),
        (vec![d.join("missing.jsonl").display().to_string()], "cannot read"),
        // A syntax error: clap's words (docs/match.md, "Shards and reports").
        (vec!["--bogus".into(), whole.display().to_string()], "unexpected argument '--bogus'"),
        (vec![], "give records files"),
        (vec!["--sprt".into(), "elo0=3".into(), "elo1=1".into(), whole.display().to_string()], "elo0 < elo1"),
    ] {
        let o = run(&[vec!["report".to_string()], args.clone()].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{args:?}: want {want}: {}", text(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let empty = d.join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let o = run(&strings(&["report", empty.to_str().unwrap()]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no game records"), "{}", text(&o));
}

/// B crashes after 5 to 20 of its turns: A wins or the turn cap draws. Three
/// shards on one shared folder stop together once the SPRT over all of
/// them decides, each after a whole pair.
#[test]
fn the_shared_folder_sprt_stops_every_shard() {
    let d = dir("sprt");
    let folder = d.join("shared");
    let args = |k: u64| {
        let mut v = strings(&[
            "--variant",
            "queenskings9-duel",
            "--games",
            "600",
            "--seed",
            "3",
            "--random-plies",
            "3",
            "--maxturns",
            "30",
            "--engine",
            &format!("cmd={FAKE}"),
            "name=A",
            "--engine",
            &format!("cmd={FAKE}"),
            "name=B",
            "arg=mode=crash",
            "arg=after=5-20",
            "--each",
            "depth=1",
            "--sprt",
            "elo0=0",
            "elo1=20",
        ]);
        v.extend(strings(&["--shard", &format!("{k}/3"), "--records-dir", folder.to_str().unwrap()]));
        v
    };
    let outs = shards_at_once(3, args);
    let mut games = 0;
    for (k, o) in outs.iter().enumerate() {
        let t = text(o);
        assert!(o.status.success(), "{t}");
        assert!(t.contains("SPRT over all shards stopped this shard: H1 accepted"), "shard {}: {t}", k + 1);
        let recs = read_records(&folder.join(format!("shard-{}.jsonl", k + 1))).unwrap();
        // Whole pairs only, all of them this shard's.
        let mut by_opening: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
        for r in &recs {
            assert_eq!((r.game / 2) % 3, k as u64, "game {} in shard {}", r.game, k + 1);
            by_opening.entry(r.opening_index).or_default().push(r.round);
        }
        assert!(by_opening.values().all(|v| v.len() == 2), "shard {}: a pair cut: {by_opening:?}", k + 1);
        games += recs.len();
    }
    assert!(games < 600, "{games} games: the SPRT did not stop the shards");
    let decision = std::fs::read_to_string(folder.join("sprt-decision.txt")).unwrap();
    assert!(decision.lines().nth(1).is_some_and(|l| l.starts_with("H1 accepted")), "{decision}");
    // The report over the folder: the SPRT of the records' fingerprint.
    let o = run(&strings(&["report", folder.to_str().unwrap()]));
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains(&format!("({games} games)")), "{t}");
    assert!(t.contains("SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05"), "{t}");
    // A shard run again after the decision plays nothing.
    let before = read_records(&folder.join("shard-2.jsonl")).unwrap().len();
    let o = run(&[args(2), strings(&["--resume"])].concat());
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("SPRT over all shards stopped this shard"), "{t}");
    assert_eq!(read_records(&folder.join("shard-2.jsonl")).unwrap().len(), before);
}

/// A shard that died loses only its current game; `--resume` plays the
/// rest, and the shard's file of another shard is refused.
#[test]
fn a_dead_shard_resumes_and_a_wrong_shard_file_is_refused() {
    let d = dir("resume");
    let folder = d.join("f");
    let args = |k: u64, extra: &[&str]| {
        [
            fake_duel(16, 8, &[]),
            strings(&["--shard", &format!("{k}/2"), "--records-dir", folder.to_str().unwrap()]),
            strings(extra),
        ]
        .concat()
    };
    let o = run(&args(1, &[]));
    assert!(o.status.success(), "{}", text(&o));
    let full = by_game(&[folder.join("shard-1.jsonl")]);
    assert_eq!(full.keys().copied().collect::<Vec<_>>(), vec![0, 1, 4, 5, 8, 9, 12, 13]);
    // The shard "died" in game 9: its file ends in a torn line.
    let text1 = std::fs::read_to_string(folder.join("shard-1.jsonl")).unwrap();
    let lines: Vec<&str> = text1.lines().collect();
    let cut = format!("{}\n{}", lines[..5].join("\n"), &lines[5][..40]);
    std::fs::write(folder.join("shard-1.jsonl"), cut).unwrap();
    // Without --resume the file is not overwritten.
    let o = run(&args(1, &[]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = run(&args(1, &["--resume"]));
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("(3 to play)"), "{}", text(&o));
    let again = by_game(&[folder.join("shard-1.jsonl")]);
    assert_eq!(again.len(), full.len());
    for (g, r) in &full {
        same_game(r, &again[g]);
    }
    // Shard 2 resumed on shard 1's file: refused before any game.
    let wrong = d.join("wrong.jsonl");
    std::fs::copy(folder.join("shard-1.jsonl"), &wrong).unwrap();
    let o =
        run(&[fake_duel(16, 8, &[]), strings(&["--shard", "2/2", "--records", wrong.to_str().unwrap(), "--resume"])].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("shard 1/2's, not this shard's (2/2)"), "{}", text(&o));
    // A folder holding another match's shard: refused before any game.
    let o = run(&[fake_duel(16, 9, &[]), strings(&["--shard", "2/2", "--records-dir", folder.to_str().unwrap()])].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("another match (seed: 9 vs 8)"), "{}", text(&o));
    assert!(!folder.join("shard-2.jsonl").exists());
    // An engine that does not start: exit 2, and the folder is not made.
    let new = d.join("never");
    let mut args = fake_duel(16, 8, &[]);
    let p = args.iter().position(|a| a.starts_with("cmd=")).unwrap();
    args[p] = "cmd=/no/such/engine".into();
    let o = run(&[args, strings(&["--shard", "1/2", "--records-dir", new.to_str().unwrap()])].concat());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(!new.exists());
}

/// A round-robin of three fakes in two shards: the same games as whole.
#[test]
fn a_tournament_in_shards_is_the_whole_tournament() {
    let d = dir("tournament");
    let base = |extra: &[&str]| {
        let mut v = strings(&[
            "--variant",
            "queenskings9-duel",
            "--tournament",
            "round-robin",
            "--games",
            "4",
            "--seed",
            "2",
            "--random-plies",
            "2",
            "--maxturns",
            "24",
            "--each",
            "depth=1",
        ]);
        for (name, seed) in [("X", "1"), ("Y", "2"), ("Z", "3")] {
            v.extend(strings(&["--engine", &format!("cmd={FAKE}"), &format!("name={name}"), &format!("arg=seed={seed}")]));
        }
        v.extend(strings(extra));
        v
    };
    let whole = d.join("whole.jsonl");
    let o = run(&base(&["--records", whole.to_str().unwrap()]));
    assert!(o.status.success(), "{}", text(&o));
    let own = match_table(&o, "Tournament (");
    let outs = shards_at_once(2, |k| base(&["--shard", &format!("{k}/2"), "--records-dir", d.join("s").to_str().unwrap()]));
    for o in &outs {
        assert!(o.status.success(), "{}", text(o));
    }
    let all = by_game(std::slice::from_ref(&whole));
    let shards = by_game(&[d.join("s/shard-1.jsonl"), d.join("s/shard-2.jsonl")]);
    assert_eq!(all.len(), 12);
    assert_eq!(shards.keys().collect::<Vec<_>>(), all.keys().collect::<Vec<_>>());
    for (g, r) in &all {
        same_game(r, &shards[g]);
    }
    let (o, t_whole) = report_table(&[&whole], &[]);
    assert!(o.status.success(), "{}", text(&o));
    let (_, t_shards) = report_table(&[&d.join("s")], &[]);
    assert_eq!(t_whole, t_shards);
    assert!(t_whole.iter().any(|l| l.starts_with("Tournament (round-robin, 3 engines, 12 games)")), "{t_whole:?}");
    // The tournament's own table at the end of the whole run is the report's.
    assert!(own.len() > 5, "{own:?}");
    assert_eq!(t_whole[1..], own[..]);
}

//! The runner against misbehaving fake engines (`src/bin/fake_engine.rs`):
//! it survives each, scores the game for the other side with the reason,
//! restarts the process, and rejects bad input before any game (exit 2).

use std::path::PathBuf;
use std::process::{Command, Output};

use tetrarch_match::record::{read_records, Decided, GameRecord};

const RUNNER: &str = env!("CARGO_BIN_EXE_tetrarch-match");
const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-match-fake-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn run(args: &[&str]) -> Output {
    Command::new(RUNNER).args(args).output().expect("run the runner")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A match of a good fake (engine A) against a fake with `b_args`, in
/// `variant`; returns the records.
fn fake_match(name: &str, variant: &str, games: u32, b_args: &[&str], extra: &[&str]) -> (Output, Vec<GameRecord>) {
    let rec = tmp(&format!("{name}.jsonl"));
    let cmd_a = format!("cmd={FAKE}");
    let games = games.to_string();
    let mut args = vec![
        "--variant",
        variant,
        "--games",
        &games,
        "--seed",
        "5",
        "--records",
        rec.to_str().unwrap(),
        "--engine",
        &cmd_a,
        "name=A",
        "--engine",
        &cmd_a,
        "name=B",
    ];
    let b: Vec<String> = b_args.iter().map(|a| format!("arg={a}")).collect();
    args.extend(b.iter().map(|s| s.as_str()));
    args.extend_from_slice(extra);
    let has_limit = extra.iter().any(|a| a.contains("st=") || a.contains("tc=") || a.contains("depth="));
    if !has_limit {
        args.extend(["--each", "depth=1"]);
    }
    let out = run(&args);
    let recs = if rec.exists() { read_records(&rec).unwrap() } else { Vec::new() };
    (out, recs)
}

/// Every game B played lost by forfeit with a reason containing `why`.
fn assert_b_forfeits(out: &Output, recs: &[GameRecord], games: usize, why: &str) {
    assert!(out.status.success(), "{}", text(out));
    assert_eq!(recs.len(), games, "{}", text(out));
    for r in recs {
        assert_eq!(r.decided, Decided::Forfeit, "{r:?}");
        assert!(r.reason.contains(why), "reason {:?}, want {why}", r.reason);
        let culprit = r.culprit.unwrap();
        assert_eq!(r.seats[culprit], "B");
        for (s, name) in r.seats.iter().enumerate() {
            assert_eq!(r.points[s], if name == "A" { 1.0 } else { 0.0 }, "{r:?}");
        }
    }
}

#[test]
fn crash_mid_game_loses_and_restarts() {
    let (out, recs) = fake_match("crash", "queenskings9-duel", 4, &["mode=crash", "after=3"], &[]);
    assert_b_forfeits(&out, &recs, 4, "crashed");
    // B crashed after 3 good turns in every game: its process was started
    // again for the next game.
    for r in &recs {
        let b_turns = (r.opening_turns..r.turns.len()).filter(|&i| r.seats[i % 2] == "B").count();
        assert_eq!(b_turns, 3, "{r:?}");
    }
}

#[test]
fn hang_is_a_time_forfeit() {
    let t = std::time::Instant::now();
    let (out, recs) = fake_match("hang", "fourchess", 2, &["mode=hang", "after=2"], &["--each", "st=0.2", "--margin", "100"]);
    assert_b_forfeits(&out, &recs, 2, "time forfeit");
    assert!(t.elapsed().as_secs() < 20);
}

#[test]
fn late_answer_is_a_time_forfeit() {
    let (out, recs) =
        fake_match("late", "queenskings9-duel", 2, &["mode=late", "delay=1500", "after=1"], &["--each", "tc=0.5+0.05"]);
    assert_b_forfeits(&out, &recs, 2, "time forfeit");
}

/// Issue 26, defect 6: an engine writing megabytes without a line end drove
/// the runner's memory up without bound. A line is capped at 1 MiB: past
/// it the engine forfeits with that reason and the match goes on.
#[test]
fn an_overlong_line_is_a_forfeit() {
    let t = std::time::Instant::now();
    let (out, recs) =
        fake_match("longline", "queenskings9-duel", 2, &["mode=longline", "lines=3", "after=1"], &["--each", "st=5"]);
    assert_b_forfeits(&out, &recs, 2, "line longer than 1 MiB");
    // Forfeited when the line passed the cap, not at the end of its time.
    assert!(t.elapsed().as_secs() < 9, "{:?}", t.elapsed());
}

/// Is `s` free of control characters but the line end?
fn printable(s: &str) -> bool {
    !s.chars().any(|c| c.is_control() && c != '\n')
}

/// Issue 26, defect 8: `bestmove \x1b[2J…` reached the terminal (the
/// progress line) and the PGN raw. Control characters are escaped there.
#[test]
fn engine_text_is_escaped_in_the_output_and_the_pgn() {
    for (name, mode) in [("escape", "mode=escape"), ("garbage2", "mode=garbage")] {
        let pgn = tmp(&format!("{name}.pgn"));
        let pgn_arg = pgn.to_str().unwrap().to_string();
        let (out, recs) = fake_match(name, "queenskings9-duel", 2, &[mode, "after=1"], &["--pgnout", &pgn_arg]);
        assert_b_forfeits(&out, &recs, 2, "illegal turn");
        let o = text(&out);
        assert!(printable(&o), "{o:?}");
        let p = std::fs::read_to_string(&pgn).unwrap();
        assert!(printable(&p), "{p:?}");
        if mode == "mode=escape" {
            assert!(p.contains("\\x1b[2J") && o.contains("\\x1b[2J"), "{p}");
        }
    }
}

/// Whether process `pid` runs (a zombie waiting for init does not).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|st| st.rsplit(')').next().and_then(|r| r.split_whitespace().next()) != Some("Z"))
}

/// The processes of `list` (one pid a line) still running after up to 3 s;
/// they are killed, so a failing test leaves nothing behind.
fn still_running_after_3s(list: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while list.lines().any(alive) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let left: Vec<String> = list.lines().filter(|p| alive(p)).map(String::from).collect();
    for p in &left {
        let _ = Command::new("kill").arg("-9").arg(p).status();
    }
    left
}

/// Issue 26, defect 7: an engine started through a shell wrapper (without
/// `exec`) that hangs left its real process alive after its forfeit and
/// after the runner exited. Each engine gets its own process group, and the
/// whole group is killed.
#[test]
fn a_wrapped_engine_is_killed_with_its_process_group() {
    let pids = tmp("wrapped.pids");
    let script = tmp("wrapped.sh");
    std::fs::write(&script, format!("#!/bin/sh\n'{FAKE}' mode=stuck after=1 pidfile='{}'\necho done\n", pids.display())).unwrap();
    Command::new("chmod").arg("+x").arg(&script).status().unwrap();
    let rec = tmp("wrapped.jsonl");
    let cmd_a = format!("cmd={FAKE}");
    let cmd_b = format!("cmd={}", script.display());
    let out = run(&[
        "--variant",
        "queenskings9-duel",
        "--games",
        "2",
        "--seed",
        "5",
        "--records",
        rec.to_str().unwrap(),
        "--engine",
        &cmd_a,
        "name=A",
        "--engine",
        &cmd_b,
        "name=B",
        "--each",
        "st=0.3",
    ]);
    let recs = read_records(&rec).unwrap();
    let list = std::fs::read_to_string(&pids).unwrap_or_default();
    // The stuck processes (one per game).
    let left = still_running_after_3s(&list);
    assert!(list.lines().count() >= 2, "{list:?} {}", text(&out));
    assert!(left.is_empty(), "engine processes left running: {left:?}");
    assert_b_forfeits(&out, &recs, 2, "time forfeit");
}

#[test]
fn illegal_turn_loses() {
    let (out, recs) = fake_match("illegal", "fourchess", 2, &["mode=illegal", "after=2"], &[]);
    assert_b_forfeits(&out, &recs, 2, "illegal turn");
}

#[test]
fn garbage_loses() {
    let (out, recs) = fake_match("garbage", "queenskings9-duel", 2, &["mode=garbage"], &[]);
    assert_b_forfeits(&out, &recs, 2, "illegal turn");
    // The runner's own record stays one valid line per game.
    assert!(recs.iter().all(|r| r.reason.contains("malformed")), "{recs:?}");
}

#[test]
fn none_and_empty_bestmove_lose() {
    let (out, recs) = fake_match("none", "quattuor", 2, &["mode=none", "after=1"], &[]);
    assert_b_forfeits(&out, &recs, 2, "illegal turn `(none)`");
    let (out, recs) = fake_match("empty", "quattuor", 2, &["mode=empty"], &[]);
    assert_b_forfeits(&out, &recs, 2, "malformed bestmove");
}

#[test]
fn free_for_all_forfeit_ranks_the_culprit_below_the_others() {
    let (out, recs) = fake_match("ffa", "queenskings9", 2, &["mode=illegal", "after=1"], &[]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(recs.len(), 2);
    for r in &recs {
        let c = r.culprit.unwrap();
        assert_eq!(r.seats[c], "B");
        assert_eq!(r.decided, Decided::Forfeit);
        // Nobody was out yet: the three others share places 1-3, the culprit is 4th.
        for s in 0..4 {
            assert_eq!(r.ranks[s], if s == c { 4 } else { 1 }, "{r:?}");
        }
        assert!((r.points.iter().sum::<f64>() - 2.0).abs() < 1e-9);
    }
}

#[test]
fn resign_and_draw_adjudication() {
    let rec = tmp("resign.jsonl");
    let fa = format!("cmd={FAKE}");
    let out = run(&[
        "--variant",
        "fourchess",
        "--games",
        "2",
        "--records",
        rec.to_str().unwrap(),
        "--engine",
        &fa,
        "name=A",
        "arg=score=-1000",
        "--engine",
        &fa,
        "name=B",
        "arg=score=1000",
        "--each",
        "depth=1",
        "--resign",
        "movecount=2",
        "score=500",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let recs = read_records(&rec).unwrap();
    for r in &recs {
        assert_eq!(r.reason, "adjudication: resign");
        assert_eq!(r.decided, Decided::Adjudication);
        // Two turns of each of the four seats.
        assert_eq!(r.turns.len(), 8);
        for (s, name) in r.seats.iter().enumerate() {
            assert_eq!(r.points[s], if name == "B" { 1.0 } else { 0.0 });
        }
    }
    let rec = tmp("draw.jsonl");
    let out = run(&[
        "--variant",
        "queenskings9-duel",
        "--games",
        "2",
        "--records",
        rec.to_str().unwrap(),
        "--engine",
        &fa,
        "--engine",
        &fa,
        "--each",
        "depth=1",
        "--draw",
        "movenumber=3",
        "movecount=2",
        "score=10",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let recs = read_records(&rec).unwrap();
    for r in &recs {
        assert_eq!(r.reason, "adjudication: draw");
        assert_eq!(r.turns.len(), 6);
        assert_eq!(r.result, "draw");
    }
}

#[test]
fn turn_cap() {
    let (out, recs) = fake_match("cap", "quattuor", 2, &[], &["--maxturns", "7"]);
    assert!(out.status.success(), "{}", text(&out));
    for r in &recs {
        assert_eq!(r.turns.len(), 7);
        assert_eq!(r.reason, "adjudication: turn cap");
        assert_eq!(r.points, vec![0.5, 0.5]);
    }
}

#[test]
fn resume_plays_only_the_missing_games() {
    let rec = tmp("resume.jsonl");
    let fa = format!("cmd={FAKE}");
    let base = |games: &'static str| {
        vec![
            "--variant".to_string(),
            "queenskings9-duel".into(),
            "--games".into(),
            games.into(),
            "--seed".into(),
            "9".into(),
            "--random-plies".into(),
            "2".into(),
            "--records".into(),
            rec.to_str().unwrap().into(),
            "--engine".into(),
            fa.clone(),
            "name=A".into(),
            "--engine".into(),
            fa.clone(),
            "name=B".into(),
            "--each".into(),
            "depth=1".into(),
            "--maxturns".into(),
            "30".into(),
        ]
    };
    let o = Command::new(RUNNER).args(base("3")).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    // Without --resume an existing records file is refused.
    let o = Command::new(RUNNER).args(base("5")).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let mut a = base("5");
    a.push("--resume".into());
    let o = Command::new(RUNNER).args(&a).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("(2 to play)"), "{}", text(&o));
    let recs = read_records(&rec).unwrap();
    let mut games: Vec<u64> = recs.iter().map(|r| r.game).collect();
    games.sort();
    assert_eq!(games, vec![0, 1, 2, 3, 4]);
    // Games 2 and 3 are a pair: the same opening, sides swapped.
    let g2 = recs.iter().find(|r| r.game == 2).unwrap();
    let g3 = recs.iter().find(|r| r.game == 3).unwrap();
    assert_eq!(g2.turns[..2], g3.turns[..2]);
    assert_eq!(g2.seats, vec!["A", "B"]);
    assert_eq!(g3.seats, vec!["B", "A"]);
    assert_eq!(tetrarch_match::verify_records(&rec).unwrap(), 5);
    // A different match (another seed) cannot resume this file.
    let mut a = base("6");
    a[5] = "10".into();
    a.push("--resume".into());
    let o = Command::new(RUNNER).args(&a).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("another match"), "{}", text(&o));
}

/// Issue 26, defect 9: a kill between writing a game's record and its PGN
/// text lost that game from the PGN for good (`--resume` skipped it, as its
/// record was there). `--resume` now cuts a torn last game off the PGN and
/// writes every recorded game the PGN lacks.
#[test]
fn resume_repairs_the_pgn() {
    let rec = tmp("pgnresume.jsonl");
    let pgn = tmp("pgnresume.pgn");
    let fa = format!("cmd={FAKE}");
    let args = |games: &str, resume: bool| {
        let mut a = vec![
            "--variant".to_string(),
            "queenskings9-duel".into(),
            "--games".into(),
            games.into(),
            "--seed".into(),
            "3".into(),
            "--records".into(),
            rec.to_str().unwrap().into(),
            "--pgnout".into(),
            pgn.to_str().unwrap().into(),
            "--engine".into(),
            fa.clone(),
            "name=A".into(),
            "--engine".into(),
            fa.clone(),
            "name=B".into(),
            "--each".into(),
            "depth=1".into(),
            "--maxturns".into(),
            "20".into(),
        ];
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let o = Command::new(RUNNER).args(args("3", false)).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let games = |t: &str| -> Vec<String> { t.split("[Event ").skip(1).map(|g| format!("[Event {g}")).collect() };
    let full = std::fs::read_to_string(&pgn).unwrap();
    let g = games(&full);
    assert_eq!(g.len(), 3);
    // Killed after the third record, halfway through its PGN text.
    let torn = &g[2][..g[2].len() / 2];
    std::fs::write(&pgn, format!("{}{}{torn}", g[0], g[1])).unwrap();
    let o = Command::new(RUNNER).args(args("4", true)).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let after = std::fs::read_to_string(&pgn).unwrap();
    let g = games(&after);
    let mut rounds: Vec<String> =
        g.iter().map(|t| t.lines().find(|l| l.starts_with("[Round ")).unwrap_or("").to_string()).collect();
    rounds.sort();
    assert_eq!(rounds, ["[Round \"1.1\"]", "[Round \"1.2\"]", "[Round \"2.1\"]", "[Round \"2.2\"]"], "{after}");
    for t in &g {
        assert!(t.ends_with("\n\n") && t.contains("[Result "), "torn game left: {t:?}");
    }
}

#[test]
fn sprt_stops_the_match() {
    // B crashes after 5 to 20 of its turns (random per game): before the turn
    // cap (about 14 turns of B) A wins, else the game is drawn by the cap.
    let (out, recs) = fake_match(
        "sprt",
        "queenskings9-duel",
        400,
        &["mode=crash", "after=5-20"],
        &["--random-plies", "3", "--maxturns", "30", "--sprt", "elo0=0", "elo1=20", "--concurrency", "2"],
    );
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("SPRT stopped the match: H1 accepted"), "{t}");
    assert!(recs.len() < 400);
}

#[test]
fn bad_input_exits_2_before_any_game() {
    let fa = format!("cmd={FAKE}");
    let rec = tmp("bad.jsonl");
    let missing = tmp("no-such-openings.txt");
    let bad_open = tmp("bad-openings.txt");
    std::fs::write(&bad_open, "startpos moves zz9\n").unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--engine".into(), "cmd=/no/such/engine".into(), "--engine".into(), fa.clone()], "cannot start"),
        (vec!["--engine".into(), fa.clone(), "arg=mode=silent".into(), "--engine".into(), fa.clone()], "no uciok"),
        (vec!["--engine".into(), fa.clone(), "arg=mode=exit".into(), "--engine".into(), fa.clone()], "exited"),
        (
            vec![
                "--engine".into(),
                fa.clone(),
                "arg=mode=badoption".into(),
                "option.Foo=1".into(),
                "--engine".into(),
                fa.clone(),
            ],
            "error",
        ),
        (vec!["--engine".into(), fa.clone(), "tc=1+x".into(), "--engine".into(), fa.clone()], "time control"),
        (
            vec![
                "--engine".into(),
                fa.clone(),
                "--engine".into(),
                fa.clone(),
                "--openings".into(),
                missing.to_str().unwrap().into(),
            ],
            "cannot read openings",
        ),
        (
            vec![
                "--engine".into(),
                fa.clone(),
                "--engine".into(),
                fa.clone(),
                "--openings".into(),
                bad_open.to_str().unwrap().into(),
            ],
            "line 1",
        ),
        (vec!["--engine".into(), fa.clone(), "--engine".into(), fa.clone(), "option.FC_Layout=Z".into()], "FC_Layout"),
        (vec!["--engine".into(), fa.clone(), "--engine".into(), fa.clone(), "--engine".into(), fa.clone()], "exactly two"),
    ];
    for (extra, want) in cases {
        let mut args: Vec<String> =
            vec!["--variant".into(), "fourchess".into(), "--records".into(), rec.to_str().unwrap().into()];
        args.extend(extra);
        args.extend(["--each".into(), "depth=1".into()]);
        let o = Command::new(RUNNER).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(text(&o).contains(want), "{args:?}: want {want}: {}", text(&o));
        assert!(!rec.exists() || std::fs::read_to_string(&rec).unwrap().is_empty(), "a game was played: {args:?}");
    }
    let o = run(&["--variant", "nosuchgame", "--engine", &fa, "depth=1", "--engine", &fa, "depth=1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("unknown variant"));
    let o = run(&["--help"]);
    assert!(o.status.success());
    assert!(text(&o).contains("--engine"));
}

/// A match of a Tetrarch-protocol fake (A) against a 4pchess-dialect fake (B)
/// in teamchess, from `opening` (a line of an openings file).
fn dialect_match(name: &str, b_args: &[&str], extra: &[&str], opening: &str) -> (Output, Vec<GameRecord>) {
    let rec = tmp(&format!("{name}.jsonl"));
    let book = tmp(&format!("{name}.txt"));
    std::fs::write(&book, format!("{opening}\n")).unwrap();
    let cmd = format!("cmd={FAKE}");
    let mut args = vec![
        "--variant",
        "teamchess",
        "--games",
        "2",
        "--seed",
        "3",
        "--records",
        rec.to_str().unwrap(),
        "--openings",
        book.to_str().unwrap(),
        "--engine",
        &cmd,
        "name=A",
        "--engine",
        &cmd,
        "name=B",
        "proto=4pchess",
        "arg=proto=4pchess",
    ];
    let b: Vec<String> = b_args.iter().map(|a| format!("arg={a}")).collect();
    let pos = args.iter().position(|a| *a == "arg=proto=4pchess").unwrap() + 1;
    for (i, s) in b.iter().enumerate() {
        args.insert(pos + i, s.as_str());
    }
    args.extend_from_slice(extra);
    let out = run(&args);
    let recs = if rec.exists() { read_records(&rec).unwrap() } else { Vec::new() };
    (out, recs)
}

/// Red's only moves are the four promotions of the pawn on e10.
const PROMOTION_ONLY: &str = "fen 3yK4/8/8/14/4rP9/14/13gK/bK13/14/14/14/yNyN6/rPrPyN5/rKrB6 r - - 0 1";

#[test]
fn dialect_engine_plays_with_its_clocks_and_notation() {
    let (out, recs) = dialect_match("dialect-good", &[], &["--each", "tc=20+0.2", "--maxturns", "24"], PROMOTION_ONLY);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(recs.len(), 2, "{}", text(&out));
    for r in &recs {
        // No forfeit: B understood rtime/btime/ytime/gtime (it would answer a
        // bad move to wtime or p1time) and wrote moves the referee accepted.
        assert_ne!(r.decided, Decided::Forfeit, "{r:?}");
        assert!(r.turns.iter().all(|t| !t.contains('-') && !t.contains('=')), "canonical tokens: {:?}", r.turns);
        assert!(r.turns[0].starts_with("e10e11"), "{:?}", r.turns);
        let opts = <tetrarch_core::games::teamchess::TeamChess as tetrarch_core::game::Rules>::default_options("teamchess");
        assert!(r.verify::<tetrarch_core::games::teamchess::TeamChess>(&opts).is_ok(), "{r:?}");
    }
}

/// 4pchess prints `score N` (no `cp`) from Red/Yellow's side: the records
/// keep it from the mover's side, so adjudication can use it.
#[test]
fn dialect_scores_are_read_from_red_and_yellows_side() {
    let (out, recs) = dialect_match("dialect-score", &["score=250"], &["--each", "depth=1", "--maxturns", "8"], "startpos");
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(recs.len(), 2, "{}", text(&out));
    for r in &recs {
        let b_seats: Vec<usize> = (0..4).filter(|s| r.seats[*s] == "B").collect();
        for (turn, sc) in r.scores.iter().enumerate() {
            let mover = turn % 4;
            if b_seats.contains(&mover) {
                let want = if mover % 2 == 0 { 250 } else { -250 };
                assert_eq!(*sc, Some(want), "turn {turn}: {:?}", r.scores);
            }
        }
    }
}

#[test]
fn dialect_engine_bad_move_crash_and_timeout_lose() {
    let (out, recs) = dialect_match("dialect-illegal", &["mode=illegal", "after=2"], &["--each", "depth=1"], "startpos");
    assert_b_forfeits(&out, &recs, 2, "illegal");
    let (out, recs) = dialect_match("dialect-crash", &["mode=crash", "after=1"], &["--each", "depth=1"], "startpos");
    assert_b_forfeits(&out, &recs, 2, "crash");
    let (out, recs) = dialect_match("dialect-hang", &["mode=hang", "after=1"], &["--each", "st=0.2"], "startpos");
    assert_b_forfeits(&out, &recs, 2, "time");
}

#[test]
fn dialect_needs_teamchess() {
    let o = run(&[
        "--variant",
        "fourchess",
        "--engine",
        &format!("cmd={FAKE}"),
        "proto=4pchess",
        "depth=1",
        "--engine",
        &format!("cmd={FAKE}"),
        "depth=1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("teamchess"), "{}", text(&o));
}

/// Engines lead process groups of their own, so a Ctrl-C at the terminal
/// or a `kill` of the runner does not reach them: an engine that does not
/// stop at the end of its input (4pchess's `cli` keeps running) was left
/// behind. Interrupted (SIGTERM here; SIGINT and SIGHUP alike), the runner
/// kills every engine group, writes no record for the game it cut short,
/// and dies of the signal.
#[test]
fn an_interrupted_runner_leaves_no_engine_and_no_false_record() {
    use std::os::unix::process::ExitStatusExt;
    let pids = tmp("interrupted.pids");
    let rec = tmp("interrupted.jsonl");
    let cmd_a = format!("cmd={FAKE}");
    let pidfile = format!("arg=pidfile={}", pids.display());
    let mut child = Command::new(RUNNER)
        .args([
            "--variant",
            "queenskings9-duel",
            "--games",
            "2",
            "--seed",
            "5",
            "--records",
            rec.to_str().unwrap(),
            "--engine",
            &cmd_a,
            "name=A",
            "--engine",
            &cmd_a,
            "name=B",
            "arg=mode=stuck",
            "arg=after=0",
            &pidfile,
            "--each",
            "st=30",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // B's process of the start check, then B's process of the game: wait
    // for the second, then let the game reach B's turn (B never answers).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::fs::read_to_string(&pids).unwrap_or_default().lines().count() < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let before = std::fs::read_to_string(&pids).unwrap_or_default();
    assert!(before.lines().any(alive), "B is not running: {before:?}");
    Command::new("kill").arg("-TERM").arg(child.id().to_string()).status().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(15), "{status:?}");
    let left = still_running_after_3s(&std::fs::read_to_string(&pids).unwrap());
    assert!(left.is_empty(), "engines left running: {left:?}");
    assert_eq!(read_records(&rec).unwrap_or_default().len(), 0);
}

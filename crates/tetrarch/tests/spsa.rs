//! `tetrarch spsa` end to end: two iterations of one pair each, the real
//! engine against itself at 200 nodes in queenskings9-duel, tuning a
//! harmless existing option (`Move Overhead`: no clock, no effect); then
//! the same command again (the run is finished: nothing is played) and
//! another seed in the same folder (refused).

use std::process::Command;

const TETRARCH: &str = env!("CARGO_BIN_EXE_tetrarch");

fn spsa(dir: &std::path::Path, seed: &str) -> std::process::Output {
    let engine = format!("cmd={TETRARCH}");
    Command::new(TETRARCH)
        .args(["spsa", "--params"])
        .arg(dir.join("params.json"))
        .args(["--variant", "queenskings9-duel", "--engine", &engine, "option.Hash=1", "--each", "nodes=200"])
        .args(["--iterations", "2", "--pairs-per-iteration", "1", "--concurrency", "2", "--seed", seed])
        .args(["--random-plies", "4", "--maxturns", "150", "--out"])
        .arg(dir.join("run"))
        .output()
        .expect("run tetrarch spsa")
}

#[test]
fn two_iterations_with_the_real_engine() {
    let dir = std::env::temp_dir().join(format!("tetrarch-spsa-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("params.json"),
        r#"[{"name": "Move Overhead", "value": 20, "min": 0, "max": 100, "c_end": 5, "r_end": 0.002}]"#,
    )
    .unwrap();
    let out = spsa(&dir, "3");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("iteration 1/2 ") && text.contains("iteration 2/2 "), "{text}");
    assert!(text.contains("as match options: 'option.Move Overhead="), "{text}");
    let run = dir.join("run");
    let traj = std::fs::read_to_string(run.join("trajectory.jsonl")).unwrap();
    assert_eq!(traj.lines().count(), 2, "{traj}");
    let state: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(run.join("state.json")).unwrap()).unwrap();
    assert_eq!(state["iteration"], 2);
    let s = &state["score"];
    let games = s["wins"].as_u64().unwrap() + s["losses"].as_u64().unwrap() + s["draws"].as_u64().unwrap();
    assert_eq!(games, 4, "{state}");
    let last: serde_json::Value = serde_json::from_str(traj.lines().last().unwrap()).unwrap();
    assert_eq!(last["theta"], state["theta"]);
    let fin = std::fs::read_to_string(run.join("final.json")).unwrap();
    // The same format as the parameters file, θ updated.
    assert!(fin.starts_with("[\n  {\"name\": \"Move Overhead\", \"value\": "), "{fin}");
    assert!(fin.contains(r#""min": 0, "max": 100, "c_end": 5, "r_end": 0.002}"#), "{fin}");

    // Again: the run is finished, the same final parameters, no games.
    let again = spsa(&dir, "3");
    let text = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success() && text.contains("continuing") && !text.contains("iteration 1/2"), "{text}");
    assert_eq!(std::fs::read_to_string(run.join("trajectory.jsonl")).unwrap(), traj);
    // Another seed in the same folder: refused, exit 2.
    let other = spsa(&dir, "4");
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("holds another run (seed 3 vs 4):"));
    let _ = std::fs::remove_dir_all(&dir);
}

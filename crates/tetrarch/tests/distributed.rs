//! Matches beyond one machine (docs/distributed.md): a depth-limited match
//! whole and in three shards at once is the same match game by game, and
//! the recipes of `docs/distributed/` run as documented (GNU parallel when
//! it is installed, which CI does; the Slurm and Kubernetes scripts' own
//! commands without their scheduler). Tetrarch is the runner and both
//! engines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use tetrarch_match::record::{read_records, GameRecord};

const TETRARCH: &str = env!("CARGO_BIN_EXE_tetrarch");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn recipe(name: &str) -> PathBuf {
    repo().join("docs/distributed").join(name)
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-distributed-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn wait(c: Child) -> Output {
    c.wait_with_output().expect("wait for a process")
}

fn spawn(cmd: &mut Command) -> Child {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start a process")
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

fn by_game(files: &[PathBuf]) -> BTreeMap<u64, GameRecord> {
    let mut m = BTreeMap::new();
    for f in files {
        for r in read_records(f).unwrap_or_else(|e| panic!("{e}")) {
            assert!(m.insert(r.game, r).is_none(), "a game twice in {files:?}");
        }
    }
    m
}

/// The same games by number: openings, seats, turns, results (the match
/// fingerprints are compared by the reports, which print them).
fn same_games(a: &BTreeMap<u64, GameRecord>, b: &BTreeMap<u64, GameRecord>) {
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (g, x) in a {
        let y = &b[g];
        assert_eq!(
            (x.opening_index, x.round, &x.start, &x.seats, &x.turns, &x.result, &x.reason),
            (y.opening_index, y.round, &y.start, &y.seats, &y.turns, &y.result, &y.reason),
            "game {g}"
        );
    }
}

/// `tetrarch match report ARGS`: its lines after the first (which names
/// the files).
fn report(args: &[&str]) -> Vec<String> {
    let o = Command::new(TETRARCH).arg("match").arg("report").args(args).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout).lines().skip(1).map(String::from).collect()
}

/// The match's own final table: from `Results of` to the endings.
fn match_table(o: &Output) -> Vec<String> {
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<String> = out.lines().skip_while(|l| !l.starts_with("Results of")).map(String::from).collect();
    let end = lines.iter().position(|l| l.starts_with("  Endings:")).map_or(0, |i| i + 1);
    lines[..end].to_vec()
}

/// The match of the tests: two Tetrarch processes at `depth`, in
/// queenskings9-duel.
fn depth_match(games: u32, depth: u32, extra: &[&str]) -> Vec<String> {
    let mut v = strings(&[
        "match",
        "--variant",
        "queenskings9-duel",
        "--games",
        &games.to_string(),
        "--seed",
        "21",
        "--random-plies",
        "2",
    ]);
    v.extend(strings(&["--engine", &format!("cmd={TETRARCH}"), "name=T1", "--engine", &format!("cmd={TETRARCH}"), "name=T2"]));
    v.extend(strings(&["--each", &format!("depth={depth}"), "option.Hash=8"]));
    v.extend(strings(extra));
    v
}

#[test]
fn a_match_whole_and_in_three_shards_at_once_is_the_same_game_by_game() {
    let d = dir("three");
    let whole = d.join("whole.jsonl");
    let o = Command::new(TETRARCH).args(depth_match(12, 2, &["--records", whole.to_str().unwrap()])).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let own = match_table(&o);
    let folder = d.join("shards");
    let children: Vec<Child> = (1..=3)
        .map(|k| {
            spawn(Command::new(TETRARCH).args(depth_match(
                12,
                2,
                &["--shard", &format!("{k}/3"), "--records-dir", folder.to_str().unwrap()],
            )))
        })
        .collect();
    for (k, c) in children.into_iter().enumerate() {
        let o = wait(c);
        assert!(o.status.success(), "shard {}: {}", k + 1, text(&o));
        // Shard K of 3 played the pairs K-1, K+2, …: 4 games of the 12.
        assert!(text(&o).contains(&format!("shard {}/3: 4 of them (4 to play)", k + 1)), "{}", text(&o));
    }
    let files: Vec<PathBuf> = (1..=3).map(|k| folder.join(format!("shard-{k}.jsonl"))).collect();
    let all = by_game(std::slice::from_ref(&whole));
    assert_eq!(all.len(), 12);
    same_games(&all, &by_game(&files));
    // Not every game a draw: the comparison compares something.
    assert!(all.values().any(|r| r.result != all[&0].result || r.reason != all[&0].reason), "{all:?}");
    let t_whole = report(&[whole.to_str().unwrap()]);
    let t_shards = report(&[folder.to_str().unwrap()]);
    assert_eq!(t_whole, t_shards);
    assert!(own.len() > 5, "{own:?}");
    assert_eq!(t_whole[1..], own[..]);
}

fn have(program: &str) -> bool {
    Command::new(program).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Runs a recipe script with `env` (and TETRARCH, NEW, OLD set to this
/// build) in `cwd`.
fn run_recipe(script: &Path, cwd: &Path, env: &[(&str, String)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(script).current_dir(cwd);
    for k in ["TETRARCH", "LOCAL_TETRARCH", "NEW", "OLD"] {
        c.env(k, TETRARCH);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run bash")
}

/// The settings every recipe run gets: a small, fast match or data run.
fn small(out: &Path, job: &str) -> Vec<(&'static str, String)> {
    vec![
        ("JOB", job.into()),
        ("VARIANT", "queenskings9-duel".into()),
        ("GAMES", if job == "match" { "8" } else { "4" }.into()),
        ("SEED", "21".into()),
        ("LIMITS", "depth=1".into()),
        ("OPTIONS", "option.Hash=8".into()),
        ("NODES", "300".into()),
        ("EPOCHS", "1".into()),
        ("OUT", out.display().to_string()),
    ]
}

/// `docs/distributed/parallel-local.sh` and `parallel-ssh.sh` as their
/// headers say to run them (the ssh one with `HOSTS=:`, this machine, as
/// parallel allows; sending the files to other hosts is parallel's part).
#[test]
fn gnu_parallel_recipes_run_as_documented() {
    if !have("parallel") {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "CI=true but GNU parallel is missing (.ci/run installs it)");
        eprintln!("GNU parallel is not installed (apt-get install parallel): recipe test skipped");
        return;
    }
    let d = dir("parallel");
    // The same match unsharded, for comparison.
    let whole = d.join("whole.jsonl");
    let mut args = depth_match(8, 1, &["--records", whole.to_str().unwrap()]);
    // The recipes name the engines new and old and play 4 random plies.
    for a in args.iter_mut() {
        match a.as_str() {
            "name=T1" => *a = "name=new".into(),
            "name=T2" => *a = "name=old".into(),
            _ => {}
        }
    }
    let p = args.iter().position(|a| a == "--random-plies").unwrap();
    args[p + 1] = "4".into();
    args.extend(strings(&["--sprt", "elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]));
    let o = Command::new(TETRARCH).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let all = by_game(std::slice::from_ref(&whole));
    let t_whole = report(&[whole.to_str().unwrap()]);

    // One machine, two shards, the shared folder's SPRT (no decision in 8 games).
    let out = d.join("local");
    let mut env = small(&out, "match");
    env.push(("SHARDS", "2".into()));
    let o = run_recipe(&recipe("parallel-local.sh"), &d, &env);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("shard 1\tMatch queenskings9-duel: 8 games, shard 1/2"), "{}", text(&o));
    same_games(&all, &by_game(&[out.join("shard-1.jsonl"), out.join("shard-2.jsonl")]));
    let t = String::from_utf8_lossy(&o.stdout);
    let printed: Vec<&str> = t.lines().skip_while(|l| !l.starts_with("Report over 2 files")).skip(1).collect();
    assert_eq!(printed, t_whole);
    // Run again: every shard resumes and plays nothing more.
    let o = run_recipe(&recipe("parallel-local.sh"), &d, &env);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("(0 to play)"), "{}", text(&o));
    assert_eq!(by_game(&[out.join("shard-1.jsonl"), out.join("shard-2.jsonl")]).len(), 8);

    // Over "ssh" to this machine: the files go with the shards.
    let out = d.join("ssh");
    let mut env = small(&out, "match");
    env.extend([("SHARDS", "2".into()), ("HOSTS", ":".into()), ("REMOTE_DIR", ".".into()), ("SPRT", String::new())]);
    let o = run_recipe(&recipe("parallel-ssh.sh"), &d, &env);
    assert!(o.status.success(), "{}", text(&o));
    same_games(&all, &by_game(&[out.join("shard-1.jsonl"), out.join("shard-2.jsonl")]));
    // With a shared folder.
    let shared = d.join("shared");
    env.push(("SHARED_DIR", shared.display().to_string()));
    let o = run_recipe(&recipe("parallel-ssh.sh"), &d, &env);
    assert!(o.status.success(), "{}", text(&o));
    same_games(&all, &by_game(&[shared.join("shard-1.jsonl"), shared.join("shard-2.jsonl")]));

    // Data in two shards, then the tuner over both files.
    let out = d.join("data");
    let mut env = small(&out, "datagen");
    env.push(("SHARDS", "2".into()));
    let o = run_recipe(&recipe("parallel-local.sh"), &d, &env);
    assert!(o.status.success(), "{}", text(&o));
    let weights = std::fs::read_to_string(out.join("queenskings9-duel.weights")).unwrap();
    assert!(weights.starts_with("tetrarch-weights 1") && weights.contains("data-1.jsonl"), "{weights}");
    for k in 1..=2 {
        let text = std::fs::read_to_string(out.join(format!("data-{k}.jsonl"))).unwrap();
        assert!(text.lines().next().unwrap().contains(&format!("\"shard\":\"{k}/2\"")), "{}", text.lines().next().unwrap());
    }
}

/// The Slurm scripts are shell scripts: each array task run with the
/// variables Slurm sets, then the combining job. The Kubernetes manifests'
/// commands run with `JOB_COMPLETION_INDEX` set, `/results` moved to a
/// temporary folder and `tetrarch` on the PATH. (Not sbatch or kubectl
/// themselves: they are not on this machine.)
#[test]
fn slurm_and_kubernetes_recipes_run_their_commands() {
    let d = dir("schedulers");
    let out = d.join("slurm");
    let mut env = small(&out, "match");
    env.push(("SLURM_ARRAY_TASK_COUNT", "2".into()));
    let tasks: Vec<Child> = (1..=2)
        .map(|k| {
            let mut c = Command::new("bash");
            c.arg(recipe("slurm-shards.sbatch")).current_dir(&d).env("SLURM_ARRAY_TASK_ID", k.to_string());
            for key in ["TETRARCH", "NEW", "OLD"] {
                c.env(key, TETRARCH);
            }
            for (key, v) in &env {
                c.env(key, v);
            }
            spawn(&mut c)
        })
        .collect();
    for t in tasks {
        let o = wait(t);
        assert!(o.status.success(), "{}", text(&o));
    }
    let o = run_recipe(&recipe("slurm-combine.sbatch"), &d, &env);
    assert!(o.status.success(), "{}", text(&o));
    let rep = std::fs::read_to_string(out.join("report.txt")).unwrap();
    assert!(rep.contains("Results of new vs old (8 games)") && rep.contains("SPRT elo0=0 elo1=5"), "{rep}");
    let json = std::fs::read_to_string(out.join("report.json")).unwrap();
    assert!(json.contains("\"games\": 8"), "{json}");

    // Kubernetes: the shell scripts of the two manifests.
    let script = |file: &str, results: &Path| -> String {
        let yaml = std::fs::read_to_string(recipe(file)).unwrap();
        let lines: Vec<&str> = yaml.lines().collect();
        let start = lines.iter().position(|l| l.trim() == "- |").expect("a `- |` block") + 1;
        let indent = lines[start].len() - lines[start].trim_start().len();
        let body: Vec<&str> = lines[start..]
            .iter()
            .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() >= indent)
            .map(|l| if l.len() >= indent { &l[indent..] } else { "" })
            .collect();
        body.join("\n").replace("/results", &results.display().to_string())
    };
    let results = d.join("k8s");
    std::fs::create_dir_all(&results).unwrap();
    let bin = d.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(TETRARCH, bin.join("tetrarch")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let k8s_env = |c: &mut Command| {
        c.env("PATH", &path).env("SHARDS", "2").env("VARIANT", "queenskings9-duel").env("GAMES", "8").env("SEED", "21");
        c.env("NEW", TETRARCH).env("OLD", TETRARCH).env("LIMITS", "depth=1").env("SPRT", "elo0=0 elo1=5").env("EPOCHS", "1");
        c.env("NODES", "300");
    };
    for job in ["match", "datagen"] {
        let pods: Vec<Child> = (0..2)
            .map(|i| {
                let mut c = Command::new("sh");
                c.arg("-c").arg(script("k8s-shards.yaml", &results)).env("JOB_COMPLETION_INDEX", i.to_string()).env("JOB", job);
                k8s_env(&mut c);
                spawn(&mut c)
            })
            .collect();
        for p in pods {
            let o = wait(p);
            assert!(o.status.success(), "{job}: {}", text(&o));
        }
        let mut c = Command::new("sh");
        c.arg("-c").arg(script("k8s-combine.yaml", &results)).env("JOB", job);
        k8s_env(&mut c);
        let o = c.output().unwrap();
        assert!(o.status.success(), "{job}: {}", text(&o));
    }
    let rep = std::fs::read_to_string(results.join("report.txt")).unwrap();
    assert!(rep.contains("Results of new vs old (8 games)"), "{rep}");
    assert!(std::fs::read_to_string(results.join("queenskings9-duel.weights")).unwrap().starts_with("tetrarch-weights 1"));
    assert!(results.join("data/data-2.jsonl").exists());
}

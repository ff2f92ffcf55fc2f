//! Matches beyond one machine (docs/distributed.md): a depth-limited match
//! whole and in three shards at once is the same match game by game, and
//! the recipes of `docs/distributed/` run as documented (GNU parallel when
//! it is installed, which CI does; the Slurm scripts under a real one-node
//! Slurm, which needs root and is run by `.ci/run`, and by `bash` alone;
//! the Kubernetes manifests' commands without a cluster). Tetrarch is the
//! runner and both engines.

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

/// The match that `small(_, "match")` makes a recipe play, unsharded, in
/// `d/whole.jsonl` (with the SPRT `sprt`, which is part of the match's
/// fingerprint): its games by number and its report's lines.
fn recipes_match_unsharded(d: &Path, sprt: &str) -> (BTreeMap<u64, GameRecord>, Vec<String>) {
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
    args.push("--sprt".into());
    args.extend(sprt.split(' ').map(String::from));
    args.extend(strings(&["alpha=0.05", "beta=0.05"]));
    let o = Command::new(TETRARCH).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    (by_game(std::slice::from_ref(&whole)), report(&[whole.to_str().unwrap()]))
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
    let (all, t_whole) = recipes_match_unsharded(&d, "elo0=0 elo1=10");

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
/// temporary folder and `tetrarch` on the PATH. (`sbatch` itself runs
/// them in `slurm_recipes_run_under_a_real_one_node_slurm`; no Kubernetes
/// cluster runs here: `.ci/run` validates the manifests against the API
/// schemas.)
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

/// A one-node Slurm started by `docs/distributed/slurm-local-cluster.sh`;
/// stopped when dropped if this test started it.
struct LocalSlurm {
    conf: String,
    started: bool,
}

impl LocalSlurm {
    fn start() -> LocalSlurm {
        let o = Command::new("bash").arg(recipe("slurm-local-cluster.sh")).arg("start").output().unwrap();
        assert!(o.status.success(), "slurm-local-cluster.sh start: {}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout);
        let conf = out.lines().find_map(|l| l.strip_prefix("export SLURM_CONF=")).expect("start prints SLURM_CONF").to_string();
        LocalSlurm { conf, started: !out.contains("already running") }
    }

    /// A Slurm client command (or a recipe that calls them) in `cwd`, with
    /// this cluster's configuration and the recipes' settings `env`.
    fn command(&self, program: &str, cwd: &Path, env: &[(&str, String)]) -> Command {
        let mut c = Command::new(program);
        c.current_dir(cwd).env("SLURM_CONF", &self.conf);
        for k in ["TETRARCH", "NEW", "OLD"] {
            c.env(k, TETRARCH);
        }
        for (k, v) in env {
            c.env(k, v);
        }
        c
    }

    /// Waits until none of `jobs` is pending or running (at most 5 minutes).
    fn wait(&self, jobs: &[&str]) {
        let start = std::time::Instant::now();
        loop {
            let o =
                self.command("squeue", Path::new("/"), &[]).args(["-h", "-o", "%i %T", "-j", &jobs.join(",")]).output().unwrap();
            let left = String::from_utf8_lossy(&o.stdout).trim().to_string();
            // A job Slurm has already forgotten (after `MinJobAge`) is gone too.
            let forgotten = String::from_utf8_lossy(&o.stderr).contains("Invalid job id");
            if (o.status.success() && left.is_empty()) || forgotten {
                return;
            }
            assert!(start.elapsed().as_secs() < 300, "jobs {jobs:?} still queued after 5 minutes: {left}");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }

    /// The state Slurm gives `job` (`COMPLETED`, `CANCELLED`, ...): its
    /// first task's for an array.
    fn state(&self, job: &str) -> String {
        let o = self.command("scontrol", Path::new("/"), &[]).args(["show", "job", "-o", job]).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        out.split_whitespace().find_map(|w| w.strip_prefix("JobState=")).unwrap_or("?").to_string()
    }
}

impl Drop for LocalSlurm {
    fn drop(&mut self) {
        if self.started {
            let _ = Command::new("bash").arg(recipe("slurm-local-cluster.sh")).arg("stop").output();
        }
    }
}

/// `slurm-submit.sh` in `cwd` with `env`: the array's and the combining
/// job's numbers, from the line it prints.
fn slurm_submit(slurm: &LocalSlurm, cwd: &Path, env: &[(&str, String)]) -> (String, String) {
    let o = slurm.command("bash", cwd, env).arg(recipe("slurm-submit.sh")).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let words: Vec<&str> = out.split_whitespace().collect();
    // "shards: job 12 (tasks 1-2); report/tune: job 13 after it"
    let jobs: Vec<&str> = words.iter().enumerate().filter(|(_, w)| **w == "job").map(|(i, _)| words[i + 1]).collect();
    assert_eq!(jobs.len(), 2, "{out}");
    (jobs[0].to_string(), jobs[1].to_string())
}

/// The Slurm recipes submitted to a real Slurm, as a cluster user does
/// (docs/distributed.md, "A Slurm of your own"): `slurm-submit.sh` for a
/// match in 2 shards and for data in 2 shards, each followed by its
/// combining job; a shard cancelled with `scancel` mid-run and resubmitted
/// alone resumes. Needs root (the script installs and starts Slurm and
/// munge): `.ci/run` runs it after `slurm-local-cluster.sh start`.
#[test]
#[ignore = "needs root and a one-node Slurm: .ci/run runs it (cargo test -p tetrarch --test distributed -- --ignored slurm)"]
fn slurm_recipes_run_under_a_real_one_node_slurm() {
    let slurm = LocalSlurm::start();
    let d = dir("slurm-real");
    let (all, t_whole) = recipes_match_unsharded(&d, "elo0=0 elo1=5");

    // 1. A match in 2 shards, then the report job after the array.
    let out = d.join("match");
    let mut env = small(&out, "match");
    env.push(("SHARDS", "2".into()));
    let (array, combine) = slurm_submit(&slurm, &d, &env);
    slurm.wait(&[&array, &combine]);
    assert_eq!(slurm.state(&combine), "COMPLETED");
    assert_eq!(slurm.state(&format!("{array}_1")), "COMPLETED");
    assert_eq!(slurm.state(&format!("{array}_2")), "COMPLETED");
    same_games(&all, &by_game(&[out.join("match/shard-1.jsonl"), out.join("match/shard-2.jsonl")]));
    let rep = std::fs::read_to_string(out.join("report.txt")).unwrap();
    assert_eq!(rep.lines().skip(1).map(String::from).collect::<Vec<_>>(), t_whole);
    assert!(std::fs::read_to_string(out.join("report.json")).unwrap().contains("\"games\": 8"));
    // The jobs' output files: in the folder sbatch was called from.
    let log = |name: &str| std::fs::read_to_string(d.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    for k in 1..=2 {
        assert!(log(&format!("tetrarch-shard-{k}.log")).contains(&format!("8 games, shard {k}/2: 4 of them (4 to play)")));
    }
    assert!(log("tetrarch-combine.log").contains("Results of new vs old (8 games)"));

    // 2. Data in 2 shards, then the tuner over both files.
    let data = d.join("data");
    let mut env = small(&data, "datagen");
    env.push(("SHARDS", "2".into()));
    let (array, combine) = slurm_submit(&slurm, &d, &env);
    slurm.wait(&[&array, &combine]);
    assert_eq!(slurm.state(&combine), "COMPLETED");
    let weights = std::fs::read_to_string(data.join("queenskings9-duel.weights")).unwrap();
    assert!(weights.starts_with("tetrarch-weights 1") && weights.contains("data-2.jsonl"), "{weights}");

    // 3. A shard cancelled mid-run, resubmitted alone: it plays only the
    // games it had not finished. Timed turns make a game last seconds.
    let out = d.join("cancel");
    let mut env = small(&out, "match");
    env.extend([("LIMITS", "st=0.02".into()), ("SPRT", String::new()), ("SHARDS", "2".into())]);
    let cwd = d.join("cancel-logs");
    std::fs::create_dir_all(&cwd).unwrap();
    let (array, combine) = slurm_submit(&slurm, &cwd, &env);
    let task = format!("{array}_2");
    let file = out.join("match/shard-2.jsonl");
    let start = std::time::Instant::now();
    while std::fs::read_to_string(&file).map_or(0, |t| t.lines().count()) == 0 {
        assert!(start.elapsed().as_secs() < 120, "no game of shard 2 after 2 minutes");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = slurm.command("scancel", &cwd, &[]).arg(&task).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    slurm.wait(&[&task]);
    assert_eq!(slurm.state(&task), "CANCELLED", "shard 2 ended before it could be cancelled: make its games longer");
    let before = std::fs::read_to_string(&file).unwrap();
    let done = before.lines().count();
    assert!(done < 4, "shard 2 finished its 4 games before it was cancelled");
    slurm.wait(&[&array, &combine]);
    // Resubmitted alone: `SHARDS` tells it the number of shards.
    let o = slurm
        .command("sbatch", &cwd, &env)
        .args(["--parsable", "--array=2"])
        .arg(recipe("slurm-shards.sbatch"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let again = String::from_utf8_lossy(&o.stdout).trim().to_string();
    slurm.wait(&[&again]);
    let after = std::fs::read_to_string(&file).unwrap();
    assert!(after.starts_with(&before), "the games played before the cancel were rewritten");
    let games = by_game(std::slice::from_ref(&file));
    assert_eq!(games.keys().copied().collect::<Vec<_>>(), [2, 3, 6, 7]);
    let log = std::fs::read_to_string(cwd.join("tetrarch-shard-2.log")).unwrap();
    assert!(log.contains("4 of them (4 to play)") && log.contains(&format!("4 of them ({} to play)", 4 - done)), "{log}");
    assert!(log.contains("CANCELLED"), "the first run's lines are kept in the log: {log}");
}

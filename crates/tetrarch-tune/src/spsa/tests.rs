//! The SPSA tuner: its gains, draws and updates, convergence on a toy
//! "engine" with a known optimum, resumption, and refused parameters.

use std::io::Write;
use std::path::{Path, PathBuf};

use tetrarch_match::openings::{mix, Rng};

use super::*;

fn param(name: &str, value: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> Param {
    Param { name: name.into(), value, min, max, c_end, r_end }
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn the_gains_are_openbench_s() {
    let s = Schedule::new(1000);
    assert_eq!((s.big_a, s.alpha, s.gamma), (100.0, 0.602, 0.101));
    let p = param("X", 50.0, 0.0, 100.0, 4.0, 0.002);
    // c = c_end · N^γ at k = 1, c_end at k = N; a_N / c_N² = r_end.
    assert!((s.c_k(&p, 1) - 4.0 * 1000f64.powf(0.101)).abs() < 1e-12);
    assert!((s.c_k(&p, 1000) - 4.0).abs() < 1e-12);
    assert!((s.a_k(&p, 1000) / 16.0 - 0.002).abs() < 1e-15);
    let a = 0.002 * 16.0 * 1100f64.powf(0.602);
    assert!((s.a_k(&p, 1) - a / 101f64.powf(0.602)).abs() < 1e-12);
    // The floor of half a unit.
    assert_eq!(s.c_k(&param("Y", 1.0, 0.0, 2.0, 0.1, 0.002), 1000), 0.5);
}

#[test]
fn a_perturbation_is_the_seed_s_and_rounds_without_bias() {
    let params = vec![param("A", 10.3, 0.0, 20.0, 2.0, 0.002), param("B", 0.0, 0.0, 5.0, 1.0, 0.002)];
    let s = Schedule::new(100);
    let p = Perturbation::draw(&params, &s, 9, 3);
    assert_eq!(p, Perturbation::draw(&params, &s, 9, 3));
    assert_ne!(p.flips, (1..=64).map(|k| Perturbation::draw(&params, &s, 9, k).flips).fold(p.flips.clone(), |_, f| f));
    for i in 0..2 {
        assert!(p.flips[i] == 1.0 || p.flips[i] == -1.0);
        // θ+ is above θ− when Δ is +1 (up to the clamp at B's min).
        assert!((p.plus[i] - p.minus[i]) as f64 * p.flips[i] >= 0.0, "{p:?}");
    }
    // B sits on its min: both sides clamped into [0, 5].
    assert!(p.plus[1] >= 0 && p.minus[1] >= 0);
    // Over many iterations the engine's value of θ + c·Δ averages θ + c·Δ.
    let (mut sum, mut want) = (0.0, 0.0);
    for k in 1..=20_000 {
        let q = Perturbation::draw(&params, &s, 9, k);
        sum += q.plus[0] as f64;
        want += 10.3 + q.c[0] * q.flips[0];
    }
    assert!((sum - want).abs() / 20_000.0 < 0.01, "{} vs {}", sum / 20_000.0, want / 20_000.0);
}

#[test]
fn an_update_moves_theta_along_the_flips_and_stays_in_range() {
    let mut params = vec![param("A", 10.0, 0.0, 20.0, 2.0, 0.01), param("B", 19.9, 0.0, 20.0, 2.0, 0.01)];
    let s = Schedule::new(10);
    let mut p = Perturbation::draw(&params, &s, 1, 10);
    p.flips = vec![1.0, 1.0];
    p.update(&mut params, &s, 3);
    // a_N / c_N = r_end · c_end = 0.02 a unit of result.
    assert!((params[0].value - 10.06).abs() < 1e-12, "{}", params[0].value);
    p.update(&mut params, &s, 1000);
    assert_eq!(params[1].value, 20.0);
}

/// A simulated engine: its strength in Elo falls with the square of the
/// distance of its values from a known optimum; a game between two
/// configurations is won, lost or drawn with the Elo model's
/// probabilities (a draw rate of 30%), drawn from a generator seeded with
/// the iteration, so a run is reproducible.
struct Toy {
    optimum: Vec<f64>,
    /// Elo lost per unit² of distance.
    curvature: Vec<f64>,
}

impl Toy {
    fn strength(&self, v: &[(&str, i64)]) -> f64 {
        v.iter().zip(self.optimum.iter().zip(&self.curvature)).map(|((_, x), (o, w))| -w * (*x as f64 - o).powi(2)).sum()
    }

    fn play(&self, g: &Games<'_>) -> Score {
        let d = self.strength(&g.plus) - self.strength(&g.minus);
        let e = 1.0 / (1.0 + 10f64.powf(-d / 400.0));
        let (pw, pl) = ((e - 0.15).max(0.0), (1.0 - e - 0.15).max(0.0));
        let mut rng = Rng(mix(77, g.k));
        let mut s = Score::default();
        for _ in 0..2 * g.pairs {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            if u < pw {
                s.wins += 1;
            } else if u < pw + pl {
                s.losses += 1;
            } else {
                s.draws += 1;
            }
        }
        s
    }
}

fn toy_setup(iterations: u64, seed: u64) -> (Setup, Toy) {
    let params = vec![param("Search_A", 20.0, 0.0, 200.0, 10.0, 0.005), param("Search_B", 250.0, 0.0, 400.0, 20.0, 0.005)];
    // 50 Elo lost 50 units from A's optimum, 100 units from B's.
    let toy = Toy { optimum: vec![100.0, 150.0], curvature: vec![0.02, 0.005] };
    (Setup { params, iterations, pairs: 8, seed, games: vec!["toy".into()] }, toy)
}

/// Runs the toy to the end in a new folder; returns the final state and
/// the trajectory file's text.
fn toy_run(name: &str, iterations: u64, seed: u64) -> (State, String) {
    let dir = tmp(name);
    let (setup, toy) = toy_setup(iterations, seed);
    let state = run(&dir, setup, &mut |g| Ok(toy.play(g)), &mut |_| {}).unwrap();
    let traj = std::fs::read_to_string(dir.join(TRAJECTORY_FILE)).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (state, traj)
}

/// The toy's optimum is (100, 150), the start (20, 250): 80 and 100 units
/// off, 128 + 50 Elo weaker; `c_end` 10 and 20 (a twentieth of the
/// ranges), `r_end` 0.005. After 2000 iterations of 8 pairs (32,000 games)
/// every seed of ten ends within 12 units of both optima (6% and 3% of the
/// ranges; 12 units cost the toy under 3 Elo), and the mean over the seeds
/// within 3 (seen: every seed within 10.1, means 101.4 and 148.9). With
/// OpenBench's default `r_end` 0.002 the same games leave the means at
/// 94.5 and 158.3: still on their way (docs/tuning.md, "SPSA").
#[test]
fn converges_on_a_toy_engine_with_a_known_optimum() {
    let mut mean = [0.0; 2];
    for seed in 1..=10 {
        // The loop of `run` without its files (a state file synced 2000
        // times a seed is slow); `run` itself is tested below.
        let (setup, toy) = toy_setup(2000, seed);
        let sched = Schedule::new(2000);
        let mut params = setup.params.clone();
        for k in 1..=2000 {
            iteration(&mut params, &sched, seed, setup.pairs, k, &mut |g| Ok(toy.play(g))).unwrap();
        }
        let (a, b) = (params[0].value, params[1].value);
        eprintln!("seed {seed}: A {a:.2} (optimum 100), B {b:.2} (optimum 150)");
        assert!((a - 100.0).abs() < 12.0 && (b - 150.0).abs() < 12.0, "seed {seed}: {a} {b}");

        mean[0] += a / 10.0;
        mean[1] += b / 10.0;
    }
    eprintln!("mean: A {:.2}, B {:.2}", mean[0], mean[1]);
    assert!((mean[0] - 100.0).abs() < 3.0 && (mean[1] - 150.0).abs() < 3.0, "{mean:?}");
}

#[test]
fn a_resumed_run_is_the_uninterrupted_run() {
    let (whole, whole_traj) = toy_run("whole", 60, 5);
    let dir = tmp("resumed");
    let (setup, toy) = toy_setup(60, 5);
    // Interrupted in iteration 26 (its games never end)…
    let e = run(
        &dir,
        setup.clone(),
        &mut |g| if g.k == 26 { Err(SpsaError::Games(RunError::Interrupted)) } else { Ok(toy.play(g)) },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(e, SpsaError::Games(RunError::Interrupted)));
    assert_eq!(load_state(&dir).unwrap().unwrap().iteration, 25);
    // …and, as a kill can, after iteration 26's trajectory line was begun.
    let traj = dir.join(TRAJECTORY_FILE);
    let mut f = std::fs::OpenOptions::new().append(true).open(&traj).unwrap();
    f.write_all(b"{\"iteration\":26,\"result\":").unwrap();
    drop(f);
    // A run of another setup is refused and changes nothing.
    let mut other = setup.clone();
    other.seed = 6;
    let e = run(&dir, other, &mut |g| Ok(toy.play(g)), &mut |_| {}).unwrap_err();
    assert!(matches!(&e, SpsaError::OtherRun { difference, .. } if difference == "seed 5 vs 6"), "{e}");
    // The same command continues from iteration 26.
    let mut first = None;
    let resumed = run(
        &dir,
        setup,
        &mut |g| {
            first.get_or_insert(g.k);
            Ok(toy.play(g))
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(first, Some(26));
    assert_eq!(resumed.theta, whole.theta);
    assert_eq!(resumed.score, whole.score);
    assert_eq!(std::fs::read_to_string(&traj).unwrap(), whole_traj);
    // A finished run run again plays nothing.
    let (setup, _) = toy_setup(60, 5);
    let again = run(&dir, setup, &mut |_| panic!("no games"), &mut |_| {}).unwrap();
    assert_eq!(again.theta, whole.theta);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_parameters_files_are_refused_with_the_reason() {
    let ok = r#"{"name": "Search_X", "value": 5, "min": 0, "max": 10, "c_end": 1, "r_end": 0.002}"#;
    let bad = |text: &str| parse_params(text).unwrap_err();
    assert!(matches!(bad("Search_X 5 0 10"), ParamsError::NotJson(_)));
    assert!(matches!(bad(ok), ParamsError::NotAList));
    assert!(matches!(bad("[]"), ParamsError::Empty));
    assert!(matches!(bad("[1]"), ParamsError::NotAnObject { index: 1 }));
    let e = bad(&format!("[{ok}, {}]", ok.replace("\"min\"", "\"minimum\"")));
    assert!(matches!(&e, ParamsError::UnknownField { index: 2, field } if field == "minimum"), "{e}");
    assert!(e.to_string().contains("unknown field `minimum`"), "{e}");
    let e = bad(&format!("[{}]", ok.replace(", \"r_end\": 0.002", "")));
    assert!(matches!(e, ParamsError::MissingField { index: 1, field: "r_end" }), "{e}");
    assert!(matches!(bad(&format!("[{}]", ok.replace("5,", "\"5\","))), ParamsError::WrongType { field: "value", .. }));
    assert!(matches!(bad(&format!("[{}]", ok.replace("\"Search_X\"", "7"))), ParamsError::WrongType { field: "name", .. }));
    let e = bad(&format!("[{}]", ok.replace("\"max\": 10", "\"max\": -1")));
    assert!(matches!(e, ParamsError::MinAboveMax { min: 0.0, max: -1.0, .. }), "{e}");
    let e = bad(&format!("[{}]", ok.replace("\"value\": 5", "\"value\": 11")));
    assert!(matches!(e, ParamsError::ValueOutside { value: 11.0, .. }), "{e}");
    assert_eq!(e.to_string(), "parameter `Search_X`: value 11 is outside [0, 10]");
    assert!(matches!(
        bad(&format!("[{}]", ok.replace("\"c_end\": 1", "\"c_end\": 0"))),
        ParamsError::NotPositive { field: "c_end", .. }
    ));
    assert!(matches!(
        bad(&format!("[{}]", ok.replace("\"max\": 10", "\"max\": 10.5"))),
        ParamsError::NotWhole { field: "max", .. }
    ));
    assert!(matches!(bad(&format!("[{ok}, {}]", ok.replace("Search_X", "search_x"))), ParamsError::DuplicateName(_)));
    assert!(matches!(bad(&format!("[{}]", ok.replace("Search_X", " X"))), ParamsError::BadName { .. }));
    assert!(matches!(bad(&format!("[{}]", ok.replace("Search_X", "A value B"))), ParamsError::BadName { .. }));
    // A name with a space inside is an option like `Move Overhead`.
    assert_eq!(parse_params(&format!("[{}]", ok.replace("Search_X", "Move Overhead"))).unwrap()[0].name, "Move Overhead");
}

#[test]
fn a_refused_file_writes_nothing() {
    let dir = tmp("refused");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("params.json");
    let out = dir.join("out");
    let args = |params: &Path| SpsaArgs {
        params: params.into(),
        variant: "queenskings9-duel".into(),
        engine: vec!["cmd=/nonexistent".into(), "nodes=100".into()],
        each: vec![],
        iterations: 2,
        pairs: 1,
        concurrency: 1,
        seed: 1,
        out: out.clone(),
        openings: None,
        random_plies: 0,
        maxturns: None,
    };
    for (text, want) in [
        ("not json", "not JSON"),
        (r#"[{"name": "X", "value": 1, "min": 2, "max": 1, "c_end": 1, "r_end": 0.002}]"#, "min 2 > max 1"),
        (r#"[{"name": "X", "value": 1, "min": 0, "max": 9, "c_end": 1, "r_end": 0.002, "step": 1}]"#, "unknown field `step`"),
    ] {
        std::fs::write(&file, text).unwrap();
        let e = spsa_main(&args(&file), &mut |_| {}).unwrap_err();
        assert!(matches!(e, SpsaError::Params { .. }) && e.to_string().contains(want), "{e}");
        assert_eq!(e.exit_code(), 2);
        assert!(!out.exists());
    }
    let e = spsa_main(&args(&dir.join("missing.json")), &mut |_| {}).unwrap_err();
    assert!(matches!(e, SpsaError::ReadParams { .. }), "{e}");
    // Good parameters, bad games: refused by the runner's checks, nothing written.
    std::fs::write(&file, r#"[{"name": "X", "value": 1, "min": 0, "max": 9, "c_end": 1, "r_end": 0.002}]"#).unwrap();
    let mut a = args(&file);
    a.engine = vec!["cmd=/bin/true".into()];
    let e = spsa_main(&a, &mut |_| {}).unwrap_err();
    assert!(matches!(e, SpsaError::Match(_)) && e.to_string().contains("no limit"), "{e}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_final_file_reads_back_and_the_options_paste() {
    let params = vec![param("Search_A", 81.236, 0.0, 200.0, 10.0, 0.002), param("Move Overhead", 9.6, 0.0, 50.0, 2.0, 0.002)];
    let back = parse_params(&params_text(&params)).unwrap();
    assert_eq!(back[0].value, 81.24);
    assert_eq!(back[1], Param { value: 9.6, ..params[1].clone() });
    assert_eq!(option_words(&params), "option.Search_A=81 'option.Move Overhead=10'");
    assert!(params_text(&params)
        .contains(r#"{"name": "Search_A", "value": 81.24, "min": 0, "max": 200, "c_end": 10, "r_end": 0.002}"#));
}

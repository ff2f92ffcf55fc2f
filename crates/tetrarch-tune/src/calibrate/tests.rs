//! The calibration: the table file and its interpolation, the Elo fit on
//! synthetic games, the ladder on a toy "engine" of known strengths
//! (resumed, and refused with another setup), the command's refusals, and
//! the plot.

use std::path::PathBuf;

use tetrarch_match::openings::{mix, Rng};

use super::*;
use crate::score::Score;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tetrarch-calibrate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn row(rung: Rung, elo: f64) -> Row {
    Row { rung, elo, error: 10.0, games: 40 }
}

fn table(variant: &str, rows: Vec<Row>) -> Table {
    Table {
        variant: variant.into(),
        reference: vec!["nodes=20000".into()],
        command: "tetrarch calibrate".into(),
        seed: 1,
        rows,
        neighbours: vec![],
    }
}

/// Random 0, L0 100, L10 500, full 900.
fn monotone() -> Table {
    table("toy", vec![row(Rung::Random, 0.0), row(Rung::Level(0), 100.0), row(Rung::Level(10), 500.0), row(Rung::Full, 900.0)])
}

// ---- the table -------------------------------------------------------

#[test]
fn a_table_writes_back_and_its_rungs_are_words_and_numbers() {
    let mut t = monotone();
    t.neighbours.push(Step { lower: Rung::Random, upper: Rung::Level(0), diff: 100.0, error: 30.5, score: 0.64, games: 40 });
    let text = t.to_json();
    assert!(
        text.contains("\"rung\": \"random\"") && text.contains("\"rung\": 10") && text.contains("\"rung\": \"full\""),
        "{text}"
    );
    // Fields in the struct's order.
    let order: Vec<usize> = ["\"variant\"", "\"reference\"", "\"command\"", "\"seed\"", "\"rows\"", "\"neighbours\""]
        .iter()
        .map(|f| text.find(f).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert_eq!(Table::parse(&text), Ok(t));
}

#[test]
fn bad_tables_are_refused_with_the_reason() {
    let good = monotone().to_json();
    assert!(matches!(Table::parse("{"), Err(TableError::Json(_))));
    assert!(matches!(Table::parse("[]"), Err(TableError::Json(_))));
    // NaN is not JSON; a level above 20 or a word that is no rung is no rung.
    assert!(matches!(Table::parse(&good.replace("500.0", "NaN")), Err(TableError::Json(_))));
    assert!(matches!(Table::parse(&good.replace("\"rung\": 10", "\"rung\": 21")), Err(TableError::Json(_))));
    assert!(matches!(Table::parse(&good.replace("\"full\"", "\"best\"")), Err(TableError::Json(_))));
    // Out of order, or a rung twice.
    let e = Table::parse(&good.replace("\"rung\": 10", "\"rung\": \"random\"")).unwrap_err();
    assert_eq!(e, TableError::Unsorted { index: 2, previous: Rung::Level(0), rung: Rung::Random });
    assert!(e.to_string().contains("row 2: `random` after `L0`"), "{e}");
    let e = Table::parse(&good.replace("\"rung\": 10", "\"rung\": 0")).unwrap_err();
    assert!(matches!(e, TableError::Unsorted { index: 2, .. }), "{e}");
    // Numbers out of range.
    let e = Table::parse(&good.replacen("\"error\": 10.0", "\"error\": -1.0", 1)).unwrap_err();
    assert!(matches!(&e, TableError::Number { what, .. } if what == "row 0 error"), "{e}");
    assert!(matches!(Table::parse(&good.replace("900.0", "1e300")), Err(TableError::Number { .. })));
    // Nothing to interpolate.
    let t = table("toy", vec![row(Rung::Random, 0.0)]);
    assert_eq!(Table::parse(&t.to_json()), Err(TableError::NoLevels));
    // A neighbour upside down.
    let mut t = monotone();
    t.neighbours.push(Step { lower: Rung::Full, upper: Rung::Level(0), diff: 1.0, error: 1.0, score: 0.5, games: 2 });
    assert!(matches!(Table::parse(&t.to_json()), Err(TableError::Step { index: 0, .. })));
    // Any bytes: no panic.
    for text in ["", "null", "{\"rows\": 5}", &good[..good.len() / 2]] {
        assert!(Table::parse(text).is_err());
        crate::fuzzing::table_parse(text.as_bytes());
    }
    crate::fuzzing::table_parse(good.as_bytes());
}

#[test]
fn the_interpolation_of_a_monotone_table() {
    let t = monotone();
    assert_eq!(t.elo_range(), (100, 900));
    assert_eq!(t.level_for_elo(300.0), 5.0);
    assert_eq!(t.level_for_elo(700.0), 15.0);
    assert_eq!(t.elo_of_level(5.0), 300.0);
    assert_eq!(t.elo_of_level(15.0), 700.0);
    assert_eq!(t.elo_of_level(20.0), 900.0);
    // Clamped: below the lowest level its level, above full 20.
    assert_eq!(t.level_for_elo(-50.0), 0.0);
    assert_eq!(t.level_for_elo(5000.0), 20.0);
    assert_eq!(t.elo_of_level(-3.0), 100.0);
    assert_eq!(t.elo_of_level(25.0), 900.0);
    // NaN: the lowest level.
    assert_eq!(t.level_for_elo(f64::NAN), 0.0);
    assert_eq!(t.elo_of_level(f64::NAN), 100.0);
    // Each is the other's inverse.
    for k in 0..=40 {
        let l = k as f64 / 2.0;
        assert!((t.level_for_elo(t.elo_of_level(l)) - l).abs() < 1e-9, "{l}");
    }
}

/// L5 is above L10: the curve is the running maximum (L10 counts as L5's
/// 400), so the answers are monotone and the flat stretch answers its
/// lowest level.
#[test]
fn a_non_monotone_table_takes_the_running_maximum() {
    let t = table(
        "toy",
        vec![
            row(Rung::Random, 0.0),
            row(Rung::Level(0), 100.0),
            row(Rung::Level(5), 400.0),
            row(Rung::Level(10), 300.0),
            row(Rung::Full, 900.0),
        ],
    );
    assert_eq!(t.curve(), vec![(0.0, 100.0), (5.0, 400.0), (10.0, 400.0), (20.0, 900.0)]);
    assert_eq!(t.elo_of_level(7.0), 400.0);
    assert_eq!(t.elo_of_level(15.0), 650.0);
    assert_eq!(t.level_for_elo(400.0), 5.0);
    assert!((t.level_for_elo(250.0) - 2.5).abs() < 1e-12);
    assert_eq!(t.level_for_elo(650.0), 15.0);
    // Fractional Elos: the range is rounded outwards, so its ends play
    // the lowest level and the full engine.
    let t = table("toy", vec![row(Rung::Random, 0.0), row(Rung::Level(0), 100.6), row(Rung::Full, 900.4)]);
    assert_eq!(t.elo_range(), (100, 901));
    assert_eq!(t.level_for_elo(100.0), 0.0);
    assert_eq!(t.level_for_elo(901.0), 20.0);
    assert!(t.level_for_elo(900.0) < 20.0);
    // A full below a level: the range ends at the curve's top.
    let t = table("toy", vec![row(Rung::Random, 0.0), row(Rung::Level(3), 500.0), row(Rung::Full, 450.0)]);
    assert_eq!(t.elo_range(), (500, 500));
    assert_eq!(t.level_for_elo(500.0), 3.0);
    assert_eq!(t.level_for_elo(501.0), 20.0);
    crate::fuzzing::table_parse(t.to_json().as_bytes());
}

// ---- the fit ----------------------------------------------------------

/// Games drawn with the model's probabilities: a draw rate of 40 % of the
/// less likely result's, taken half from each side, so the expected score
/// is the model's.
fn sample(rng: &mut Rng, elo_a: f64, elo_b: f64, games: u64) -> (u64, u64, u64) {
    let e = 1.0 / (1.0 + 10f64.powf(-(elo_a - elo_b) / 400.0));
    let d = 0.4 * e.min(1.0 - e);
    let (pw, pl) = (e - d / 2.0, 1.0 - e - d / 2.0);
    let (mut w, mut l, mut d) = (0, 0, 0);
    for _ in 0..games {
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if u < pw {
            w += 1;
        } else if u < pw + pl {
            l += 1;
        } else {
            d += 1;
        }
    }
    (w, l, d)
}

/// The ladder's pairs of `n` players: each against the one below and the
/// one two below.
fn ladder_pairs(n: usize) -> Vec<(usize, usize)> {
    (1..n).flat_map(|k| std::iter::once((k - 1, k)).chain((k >= 2).then(|| (k - 2, k)))).collect()
}

fn ladder_games(truth: &[f64], games: u64, seed: u64) -> Vec<PairGames> {
    let mut rng = Rng(mix(seed, 1));
    ladder_pairs(truth.len())
        .into_iter()
        .map(|(j, k)| {
            let (wins, losses, draws) = sample(&mut rng, truth[j], truth[k], games);
            PairGames { a: j, b: k, wins, losses, draws }
        })
        .collect()
}

/// Five players 0, 250, 450, 600, 800 Elo, neighbours and skip-one pairs
/// of 4000 games each: every fitted Elo is within 30 of the truth and
/// within its own 95 % error × 1.5 (seen: at most 5 off).
#[test]
fn the_fit_recovers_known_elos() {
    let truth = [0.0, 250.0, 450.0, 600.0, 800.0];
    let pairs = ladder_games(&truth, 4000, 7);
    assert_eq!(pairs.len(), 7);
    let f = fit(truth.len(), &pairs).unwrap();
    assert_eq!(f.elo[0], 0.0);
    assert_eq!(f.error(0), 0.0);
    for i in 1..truth.len() {
        let off = (f.elo[i] - truth[i]).abs();
        eprintln!("player {i}: {:.1} ± {:.1} (truth {})", f.elo[i], f.error(i), truth[i]);
        assert!(off < 30.0 && off < 1.5 * f.error(i), "player {i}: {} vs {}", f.elo[i], truth[i]);
        assert!(f.diff_error(i, i - 1) > 0.0 && f.diff_error(i, i - 1).is_finite());
    }
    // The order of a pair does not matter.
    let flipped: Vec<PairGames> =
        pairs.iter().map(|p| PairGames { a: p.b, b: p.a, wins: p.losses, losses: p.wins, draws: p.draws }).collect();
    let g = fit(truth.len(), &flipped).unwrap();
    for i in 0..truth.len() {
        assert!((f.elo[i] - g.elo[i]).abs() < 1e-6);
    }
}

/// 20 wins of 20: with the virtual draw the score is 20.5 of 21, so the
/// Elo is 400·log₁₀(41) ≈ 645.1, finite, with a finite error.
#[test]
fn a_perfect_score_stays_finite() {
    let f = fit(2, &[PairGames { a: 0, b: 1, wins: 0, losses: 20, draws: 0 }]).unwrap();
    assert!((f.elo[1] - 400.0 * 41f64.log10()).abs() < 1e-6, "{}", f.elo[1]);
    assert!(f.error(1).is_finite() && f.error(1) > 0.0);
    // A ladder of perfect scores (each rung wins everything against those
    // below): finite and ascending.
    let pairs: Vec<PairGames> =
        ladder_pairs(5).into_iter().map(|(j, k)| PairGames { a: j, b: k, wins: 0, losses: 40, draws: 0 }).collect();
    let f = fit(5, &pairs).unwrap();
    assert!(f.elo.windows(2).all(|w| w[1] > w[0] && w[1].is_finite()), "{:?}", f.elo);
}

/// Four times the games (the same proportions): about half the error.
#[test]
fn the_error_halves_with_four_times_the_games() {
    let p = |n: u64| [PairGames { a: 0, b: 1, wins: 10 * n, losses: 30 * n, draws: 10 * n }];
    let (e1, e4) = (fit(2, &p(1)).unwrap().error(1), fit(2, &p(4)).unwrap().error(1));
    let r = e4 / e1;
    assert!((0.47..0.53).contains(&r), "{e1} {e4} {r}");
    let t = [0.0, 200.0, 400.0];
    let (a, b) = (fit(3, &ladder_games(&t, 500, 3)).unwrap(), fit(3, &ladder_games(&t, 2000, 3)).unwrap());
    for i in 1..3 {
        let r = b.error(i) / a.error(i);
        assert!((0.4..0.6).contains(&r), "player {i}: {r}");
    }
}

#[test]
fn a_fit_is_refused_when_the_games_do_not_fix_the_elos() {
    assert_eq!(fit(1, &[]), Err(FitError::TooFewPlayers));
    assert_eq!(fit(3, &[PairGames { a: 0, b: 1, wins: 1, losses: 1, draws: 0 }]), Err(FitError::Disconnected(2)));
    assert_eq!(fit(2, &[PairGames { a: 0, b: 2, wins: 1, losses: 1, draws: 0 }]), Err(FitError::BadPair { a: 0, b: 2, n: 2 }));
    assert_eq!(fit(2, &[PairGames { a: 1, b: 1, wins: 1, losses: 1, draws: 0 }]), Err(FitError::BadPair { a: 1, b: 1, n: 2 }));
    // Zero games link nothing.
    assert_eq!(fit(2, &[PairGames { a: 0, b: 1, wins: 0, losses: 0, draws: 0 }]), Err(FitError::Disconnected(1)));
}

// ---- the ladder -------------------------------------------------------

/// The toy's strengths: random 0, L0 200, L5 450, full 800.
fn strength(r: &Rung) -> f64 {
    match r {
        Rung::Random => 0.0,
        Rung::Level(0) => 200.0,
        Rung::Level(5) => 450.0,
        Rung::Level(_) => f64::NAN,
        Rung::Full => 800.0,
    }
}

fn toy_play(b: &Batch) -> Score {
    let mut rng = Rng(b.seed);
    let (wins, losses, draws) = sample(&mut rng, strength(&b.a), strength(&b.b), 2 * b.pairs);
    Score { wins, losses, draws }
}

fn toy_ladder(setup: &str) -> Ladder {
    Ladder {
        variant: "toy".into(),
        levels: vec![0, 5],
        pairs: 200,
        seed: 3,
        setup: vec!["--variant".into(), "toy".into(), setup.into()],
        reference: vec!["nodes=20000".into()],
        command: "tetrarch calibrate --variant toy".into(),
        top_up: None,
    }
}

#[test]
fn the_ladder_plans_neighbours_and_skip_one_pairs() {
    let p = plan(&[0, 5], 20, 1);
    let pairs: Vec<(Rung, Rung, u64)> = p.iter().map(|b| (b.a, b.b, b.pairs)).collect();
    use Rung::*;
    assert_eq!(
        pairs,
        vec![
            (Random, Level(0), 20),
            (Level(0), Level(5), 20),
            (Random, Level(5), 10),
            (Level(5), Full, 20),
            (Level(0), Full, 10)
        ]
    );
    // A batch's seed is its rungs' and the ladder's: the same in a ladder
    // of other levels, another with another seed.
    assert_eq!(plan(&[0, 3, 5], 20, 1)[0].seed, p[0].seed);
    assert_ne!(plan(&[0, 5], 20, 2)[0].seed, p[0].seed);
    assert_eq!(plan(&[4], 1, 1)[2].pairs, 1);
}

#[test]
fn a_toy_ladder_comes_out_monotone_and_near_its_strengths() {
    let dir = tmp("toy");
    let mut played = 0;
    let mut lines = Vec::new();
    let t = run_ladder(
        &dir,
        &toy_ladder("a"),
        &mut |b| {
            played += 1;
            Ok(toy_play(b))
        },
        &mut |p| lines.push(progress_line(p)),
    )
    .unwrap();
    assert_eq!(played, 5);
    assert_eq!(lines.len(), 5);
    assert!(lines[0].starts_with("1/5 L0 vs random: ") && lines[0].contains("% for L0"), "{}", lines[0]);
    let rungs: Vec<Rung> = t.rows.iter().map(|r| r.rung).collect();
    assert_eq!(rungs, vec![Rung::Random, Rung::Level(0), Rung::Level(5), Rung::Full]);
    assert!(t.rows.windows(2).all(|w| w[1].elo > w[0].elo), "{t:?}");
    for r in &t.rows {
        eprintln!("{}: {:.1} ± {:.1} ({} games)", r.rung, r.elo, r.error, r.games);
        assert!((r.elo - strength(&r.rung)).abs() < 80.0, "{}: {}", r.rung, r.elo);
    }
    // random: 400 + 200 games; L0: 400 + 400 + 200.
    assert_eq!(t.rows[0].games, 600);
    assert_eq!(t.rows[1].games, 1000);
    assert_eq!(t.neighbours.len(), 3);
    assert!(t.neighbours.iter().all(|s| s.games == 400 && s.score > 0.5 && s.diff > 0.0 && s.error > 0.0));
    assert_eq!(t.reference, vec!["nodes=20000".to_string()]);
    let written = std::fs::read_to_string(table_path(&dir, "toy")).unwrap();
    assert_eq!(Table::parse(&written), Ok(t.clone()));
    let text = table_text(&t);
    assert!(text.contains("random") && text.contains("anchor") && text.contains("% vs L5"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ladder_resumes_from_its_batches_file() {
    let dir = tmp("resume");
    let ladder = toy_ladder("a");
    let t1 = run_ladder(&dir, &ladder, &mut |b| Ok(toy_play(b)), &mut |_| {}).unwrap();
    let file = std::fs::read_to_string(batches_path(&dir, "toy")).unwrap();
    assert_eq!(file.lines().count(), 5);
    // A rerun plays nothing and writes the same table.
    let mut played = 0;
    let t2 = run_ladder(
        &dir,
        &ladder,
        &mut |b| {
            played += 1;
            Ok(toy_play(b))
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((played, &t2), (0, &t1));
    assert_eq!(std::fs::read_to_string(batches_path(&dir, "toy")).unwrap(), file);
    // Killed after two batches, in the middle of the third line: the part
    // is cut off and the rest played, to the same table.
    let cut: String = file.lines().take(2).map(|l| format!("{l}\n")).collect::<String>() + &file.lines().nth(2).unwrap()[..20];
    std::fs::write(batches_path(&dir, "toy"), cut).unwrap();
    let mut played = 0;
    let t3 = run_ladder(
        &dir,
        &ladder,
        &mut |b| {
            played += 1;
            Ok(toy_play(b))
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((played, &t3), (3, &t1));
    assert_eq!(std::fs::read_to_string(batches_path(&dir, "toy")).unwrap(), file);
    // A line that is not a batch is refused.
    std::fs::write(batches_path(&dir, "toy"), "{\"a\": 1}\n").unwrap();
    let e = run_ladder(&dir, &ladder, &mut |b| Ok(toy_play(b)), &mut |_| {}).unwrap_err();
    assert!(matches!(&e, CalibrateError::BadBatches { reason, .. } if reason.starts_with("line 1:")), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A toy of a flat step: random 0, L0 600, L5 610 (ten Elo above L0),
/// full 1200.
fn flat_play(b: &Batch) -> Score {
    let elo = |r: &Rung| match r {
        Rung::Random => 0.0,
        Rung::Level(0) => 600.0,
        Rung::Level(_) => 610.0,
        Rung::Full => 1200.0,
    };
    let mut rng = Rng(b.seed);
    let (wins, losses, draws) = sample(&mut rng, elo(&b.a), elo(&b.b), 2 * b.pairs);
    Score { wins, losses, draws }
}

#[test]
fn a_top_up_plays_more_pairs_on_the_steps_short_of_the_target_only() {
    let dir = tmp("top-up");
    let ladder = Ladder { pairs: 10, top_up: Some(45), ..toy_ladder("a") };
    let mut batches = Vec::new();
    let mut lines = Vec::new();
    let t = run_ladder(
        &dir,
        &ladder,
        &mut |b| {
            batches.push(*b);
            Ok(flat_play(b))
        },
        &mut |p| lines.push(progress_line(p)),
    )
    .unwrap();
    // The plan's five batches, then top-ups of the flat step L0–L5 alone:
    // 10 + 10 + 10 + 10 + 5 pairs (cut to the cap of 45), each round with
    // openings of its own.
    assert_eq!(batches.len(), 9, "{lines:?}");
    let flat: Vec<&Batch> = batches.iter().filter(|b| b.a == Rung::Level(0) && b.b == Rung::Level(5)).collect();
    assert_eq!(flat.iter().map(|b| (b.round, b.pairs)).collect::<Vec<_>>(), vec![(0, 10), (1, 10), (2, 10), (3, 10), (4, 5)]);
    let mut seeds: Vec<u64> = flat.iter().map(|b| b.seed).collect();
    seeds.dedup();
    assert_eq!(seeds.len(), 5);
    assert!(batches[5..].iter().all(|b| b.round > 0 && b.a == Rung::Level(0)));
    assert!(lines[5].starts_with("6/5+ L5 vs L0: "), "{}", lines[5]);
    // The table counts every round's games of the step; the other steps
    // met the target on the plan's games, the flat one is at its cap.
    let step = |lower: Rung| t.neighbours.iter().find(|s| s.lower == lower).unwrap();
    assert_eq!(step(Rung::Level(0)).games, 90);
    assert!(!meets_target(step(Rung::Level(0))), "{:?}", step(Rung::Level(0)));
    assert!(meets_target(step(Rung::Random)) && meets_target(step(Rung::Level(5))), "{t:?}");
    // A rerun, and a rerun with a larger cap after it, play only what is
    // new: nothing, then one more round on the flat step.
    let mut again = 0;
    let t2 = run_ladder(
        &dir,
        &ladder,
        &mut |b| {
            again += 1;
            Ok(flat_play(b))
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((again, &t2), (0, &t));
    let mut more = Vec::new();
    let wider = Ladder { top_up: Some(55), ..ladder.clone() };
    run_ladder(
        &dir,
        &wider,
        &mut |b| {
            more.push((b.round, b.pairs));
            Ok(flat_play(b))
        },
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(more, vec![(5, 10)]);
    // Without --top-up the same folder gives the plan's table (the top-up
    // lines stay in the file, unused).
    let plain = run_ladder(&dir, &Ladder { top_up: None, ..ladder }, &mut |_| panic!("played"), &mut |_| {}).unwrap();
    assert_eq!(plain.neighbours.iter().map(|s| s.games).collect::<Vec<_>>(), vec![20, 20, 20]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_target_of_a_step() {
    let s = |score: f64, games: u64, diff: f64, error: f64| Step {
        lower: Rung::Level(0),
        upper: Rung::Level(3),
        diff,
        error,
        score,
        games,
    };
    assert!(meets_target(&s(0.60, 100, 70.0, 80.0)));
    assert!(!meets_target(&s(0.60, 99, 70.0, 80.0)));
    assert!(!meets_target(&s(0.59, 200, 70.0, 80.0)));
    assert!(meets_target(&s(0.55, 40, 90.0, 80.0)));
    assert!(!meets_target(&s(0.55, 40, 80.0, 80.0)));
}

#[test]
fn another_setup_is_refused_and_writes_nothing() {
    let dir = tmp("other");
    run_ladder(&dir, &toy_ladder("a"), &mut |b| Ok(toy_play(b)), &mut |_| {}).unwrap();
    let files = |d: &std::path::Path| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                (p.display().to_string(), std::fs::read_to_string(&p).unwrap())
            })
            .collect();
        v.sort();
        v
    };
    let before = files(&dir);
    let mut played = 0;
    let e = run_ladder(
        &dir,
        &toy_ladder("b"),
        &mut |b| {
            played += 1;
            Ok(toy_play(b))
        },
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(&e, CalibrateError::OtherSetup { .. }), "{e}");
    let msg = e.to_string();
    assert!(msg.contains("holds games of another setup") && msg.contains("(`toy a` there, `toy b` now)"), "{msg}");
    assert_eq!(e.exit_code(), 2);
    assert_eq!(played, 0);
    assert_eq!(files(&dir), before);
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- the command's arguments ------------------------------------------

#[test]
fn bad_levels_are_refused_clearly() {
    assert_eq!("0,3,6".parse::<Levels>(), Ok(Levels(vec![0, 3, 6])));
    assert_eq!(DEFAULT_LEVELS.parse::<Levels>().map(|l| l.0.len()), Ok(7));
    assert_eq!(" 19 ".parse::<Levels>(), Ok(Levels(vec![19])));
    let e = "0,x".parse::<Levels>().unwrap_err();
    assert_eq!(e, LevelsError::NotANumber("x".into()));
    assert_eq!(e.to_string(), "`x` is not a skill level (a whole number 0..=19)");
    let e = "5,3".parse::<Levels>().unwrap_err();
    assert_eq!(e, LevelsError::Unsorted { previous: 5, next: 3 });
    assert_eq!(e.to_string(), "levels must ascend, each once: 3 after 5");
    assert_eq!("3,3".parse::<Levels>(), Err(LevelsError::Unsorted { previous: 3, next: 3 }));
    let e = "0,20".parse::<Levels>().unwrap_err();
    assert_eq!(e, LevelsError::TooHigh(20));
    assert!(e.to_string().contains("above 19"), "{e}");
    assert_eq!("300".parse::<Levels>(), Err(LevelsError::TooHigh(300)));
    assert_eq!("".parse::<Levels>(), Err(LevelsError::NotANumber(String::new())));
    assert_eq!("-1".parse::<Levels>(), Err(LevelsError::NotANumber("-1".into())));
}

fn args(out: PathBuf) -> CalibrateArgs {
    CalibrateArgs {
        variant: "fourchess".into(),
        levels: vec![0, 3],
        pairs: 2,
        engine: vec!["cmd=/nonexistent/tetrarch".into()],
        each: vec!["nodes=20000".into()],
        concurrency: 2,
        seed: 1,
        out,
        openings: None,
        random_plies: 8,
        maxturns: None,
        top_up: None,
        command: String::new(),
    }
}

#[test]
fn the_command_refuses_bad_input_before_any_game() {
    let dir = tmp("refused");
    let refuse = |a: CalibrateArgs| {
        let e = calibrate_main(&a, &mut |l| panic!("said {l}")).unwrap_err();
        assert_eq!(e.exit_code(), 2, "{e}");
        assert!(!dir.exists(), "{e}: wrote {}", dir.display());
        e
    };
    let e = refuse(CalibrateArgs { pairs: 0, ..args(dir.clone()) });
    assert!(matches!(e, CalibrateError::Zero("--pairs")), "{e}");
    assert!(e.to_string().starts_with("--pairs must be at least 1"), "{e}");
    let e = refuse(CalibrateArgs { top_up: Some(0), ..args(dir.clone()) });
    assert!(e.to_string().starts_with("--top-up must be at least 1"), "{e}");
    let e = refuse(CalibrateArgs { levels: vec![5, 3], ..args(dir.clone()) });
    assert_eq!(e.to_string(), "--levels: levels must ascend, each once: 3 after 5");
    let e = refuse(CalibrateArgs { levels: vec![20], ..args(dir.clone()) });
    assert!(matches!(e, CalibrateError::Levels(LevelsError::TooHigh(20))), "{e}");
    let e = refuse(CalibrateArgs { variant: "toy".into(), ..args(dir.clone()) });
    assert!(e.to_string().starts_with("unknown variant `toy`"), "{e}");
    let e = refuse(CalibrateArgs { each: vec!["nodes=20000".into(), "option.skill level=3".into()], ..args(dir.clone()) });
    assert!(matches!(&e, CalibrateError::RungWord(w) if w == "option.skill level=3"), "{e}");
    let e = refuse(CalibrateArgs { engine: vec!["cmd=x".into(), "arg=--random".into()], ..args(dir.clone()) });
    assert!(matches!(e, CalibrateError::RungWord(_)), "{e}");
    // The runner's refusals: no limit, a word it does not take.
    let e = refuse(CalibrateArgs { each: vec![], ..args(dir.clone()) });
    assert!(matches!(e, CalibrateError::Match(_)) && e.to_string().contains("no limit"), "{e}");
    let e = refuse(CalibrateArgs { each: vec!["foo=1".into()], ..args(dir.clone()) });
    assert!(matches!(e, CalibrateError::Match(_)), "{e}");
}

#[test]
fn a_batch_is_two_engines_for_the_runner() {
    let a = args(PathBuf::from("out"));
    let b = plan(&a.levels, a.pairs, a.seed);
    let words = batch_words(&a, &b[0]);
    let c = tetrarch_match::parse_args(&words).unwrap().unwrap();
    assert_eq!(c.games, Some(4));
    assert_eq!(c.seed, b[0].seed);
    assert_eq!(c.concurrency, 2);
    assert_eq!((c.engines[0].name.as_str(), c.engines[1].name.as_str()), ("random", "L0"));
    assert_eq!(c.engines[0].args, vec!["--random".to_string()]);
    assert!(c.engines[0].options.is_empty());
    assert_eq!(c.engines[1].options, vec![("Skill Level".to_string(), "0".to_string())]);
    assert_eq!(c.engines[1].nodes, Some(20000));
    let full = b.iter().find(|x| x.b == Rung::Full).unwrap();
    let c = tetrarch_match::parse_args(&batch_words(&a, full)).unwrap().unwrap();
    assert_eq!(c.engines[1].name, "full");
    assert!(c.engines[1].options.is_empty() && c.engines[1].args.is_empty());
    // The setup has no concurrency (it does not change the games).
    let s = setup_words(&a);
    assert!(!s.contains(&"--concurrency".to_string()) && s.contains(&"nodes=20000".to_string()), "{s:?}");
    assert_eq!(setup_words(&CalibrateArgs { concurrency: 1, ..a.clone() }), s);
}

// ---- the plot ---------------------------------------------------------

/// Checks that every tag is closed in order (`<a …>…</a>`, `<b …/>`), and
/// returns the tag names opened.
fn well_formed(svg: &str) -> Vec<String> {
    let mut stack: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = svg;
    while let Some(i) = rest.find('<') {
        let j = rest[i..].find('>').expect("a tag ends") + i;
        let tag = &rest[i + 1..j];
        assert!(!tag.contains('<'), "{tag}");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name), "closing {name}");
        } else {
            let name = tag.split_whitespace().next().unwrap().trim_end_matches('/').to_string();
            names.push(name.clone());
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        // Text between tags has no stray `&` (only entities).
        let text_end = rest[j..].find('<').map_or(rest.len(), |k| j + k);
        let text = &rest[j + 1..text_end];
        for (k, _) in text.match_indices('&') {
            assert!(["&amp;", "&lt;", "&gt;", "&quot;"].iter().any(|e| text[k..].starts_with(e)), "{text}");
        }
        rest = &rest[j + 1..];
    }
    assert!(stack.is_empty(), "unclosed {stack:?}");
    names
}

#[test]
fn the_plot_has_a_line_and_a_legend_entry_per_table() {
    let mut other = monotone();
    other.variant = "queens<kings>".into();
    other.rows[1].elo = -20.0;
    other.rows[1].error = 60.0;
    let s = svg(&[monotone(), other]);
    let names = well_formed(&s);
    assert_eq!(names[0], "svg");
    assert_eq!(s.matches("<polyline").count(), 2);
    assert!(s.contains(">toy</text>") && s.contains(">queens&lt;kings&gt;</text>"), "{s}");
    assert!(s.contains(">Skill Level</text>") && s.contains("Elo (0 = uniform random)") && s.contains(">20 (full)</text>"));
    assert!(!s.contains("NaN") && !s.contains("inf"), "{s}");
    // Every number in an attribute is finite and inside the picture.
    for attr in ["x1=\"", "y1=\"", "cx=\"", "cy=\""] {
        for (k, _) in s.match_indices(attr) {
            let v: f64 = s[k + attr.len()..].split('"').next().unwrap().parse().unwrap();
            assert!((0.0..=760.0).contains(&v), "{attr}{v}");
        }
    }
    // Three points and three error bars per table (L0, L10, full).
    assert_eq!(s.matches("<circle").count(), 6);
    // No table: still a picture.
    well_formed(&svg(&[]));
}

#[test]
fn the_plot_file_takes_every_table_of_the_folder() {
    let dir = tmp("plot");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("toy.json"), monotone().to_json()).unwrap();
    let mut t = monotone();
    t.variant = "duo".into();
    std::fs::write(dir.join("duo.json"), t.to_json()).unwrap();
    std::fs::write(dir.join("notes.json"), "{}").unwrap();
    std::fs::write(dir.join("toy.games.jsonl"), "{}\n").unwrap();
    let (path, skipped) = write_plot(&dir).unwrap();
    assert_eq!(path, dir.join(PLOT_FILE));
    assert_eq!(skipped.len(), 1);
    assert!(skipped[0].0.ends_with("notes.json"));
    let s = std::fs::read_to_string(&path).unwrap();
    assert_eq!(s.matches("<polyline").count(), 2);
    // In the order of the file names: duo first, in the first colour.
    assert!(s.find(">duo</text>").unwrap() < s.find(">toy</text>").unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_setup_difference_names_the_words_that_differ() {
    let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    let d = super::ladder::setup_difference;
    let base = "--variant fourchess --pairs 20 --seed 1 --engine cmd=t --each nodes=20000";
    assert_eq!(d(&w(base), &w(&base.replace("--pairs 20", "--pairs 10"))), "`--pairs 20` there, `--pairs 10` now");
    assert_eq!(d(&w(base), &w(&format!("{base} option.Hash=16"))), "`nodes=20000` there, `nodes=20000 option.Hash=16` now");
    assert_eq!(d(&w("a b"), &w("c")), "`a b` there, `c` now");
}

/// The fuzz target's invariants on random tables: random levels (20 and
/// `full` among them), Elos anywhere in range, dips and flat stretches.
#[test]
fn random_tables_keep_the_fuzz_target_s_invariants() {
    let mut rng = Rng(mix(41, 0));
    let mut unit = || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    for _ in 0..2000 {
        let mut rows = vec![row(Rung::Random, 0.0)];
        for k in 0..=20u8 {
            if unit() < 0.3 {
                let elo = if unit() < 0.1 { 1e6 * (2.0 * unit() - 1.0) } else { (3000.0 * unit()).round() };
                rows.push(row(Rung::Level(k), elo));
            }
        }
        if unit() < 0.7 || rows.len() == 1 {
            rows.push(row(Rung::Full, (3000.0 * unit()).round()));
        }
        let t = table("toy", rows);
        crate::fuzzing::table_parse(t.to_json().as_bytes());
    }
}

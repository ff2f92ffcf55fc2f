//! The strength options and the random player through the line handler.

use crate::options::Settings;
use crate::tests::{bestmove_words, engine, is_error, one, run};
use crate::{Captured, Engine, Out};

/// The info lines of a search without their times and speeds.
fn search_lines(e: &mut Engine, cap: &Captured, go: &str) -> Vec<String> {
    run(e, cap, go)
        .into_iter()
        .map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            let mut out = Vec::new();
            let mut i = 0;
            while i < w.len() {
                if matches!(w[i], "time" | "nps" | "hashfull") {
                    i += 2;
                } else {
                    out.push(w[i]);
                    i += 1;
                }
            }
            out.join(" ")
        })
        .collect()
}

#[test]
fn strength_options_are_listed_after_uci_and_ugi_in_every_variant() {
    for variant in crate::variants() {
        let (mut e, cap) = engine(variant);
        for hello in ["uci", "ugi"] {
            let v = run(&mut e, &cap, hello);
            let has = |l: &str| v.iter().any(|x| x == l);
            assert!(has("option name Skill Level type spin default 20 min 0 max 20"), "{variant} {hello}");
            assert!(has("option name SkillSeed type spin default 0 min 0 max 2147483647"), "{variant} {hello}");
            match crate::levels::table(variant) {
                Some(t) => {
                    let (lo, hi) = t.elo_range();
                    assert!(has("option name UCI_LimitStrength type check default false"), "{variant}");
                    assert!(has(&format!("option name UCI_Elo type spin default {lo} min {lo} max {hi}")), "{variant}");
                }
                None => assert!(!v.iter().any(|l| l.contains("UCI_Elo") || l.contains("UCI_LimitStrength")), "{variant}"),
            }
        }
    }
}

#[test]
fn bad_strength_values_are_refused_and_change_nothing() {
    let (mut e, cap) = engine("teamchess");
    run(&mut e, &cap, "setoption name Skill Level value 7");
    run(&mut e, &cap, "setoption name SkillSeed value 9");
    for bad in [
        "setoption name Skill Level value 21",
        "setoption name Skill Level value -1",
        "setoption name Skill Level value five",
        "setoption name Skill Level",
        "setoption name SkillSeed value -3",
        "setoption name SkillSeed value 2147483648",
    ] {
        let l = one(&mut e, &cap, bad);
        assert!(is_error(&l), "{bad}: {l}");
    }
    assert_eq!(e.settings().skill_level, 7);
    assert_eq!(e.settings().skill_seed, 9);
    let l = one(&mut e, &cap, "setoption name Skill Level value 21");
    assert_eq!(l, "info string error: setoption: option Skill Level: `21` is out of range 0..20");
    // Any case, as every option name.
    assert!(run(&mut e, &cap, "setoption name skill level value 3").is_empty());
    assert_eq!(e.settings().skill_level, 3);
}

#[test]
fn full_strength_again_is_the_same_search() {
    let (mut plain, cap) = engine("teamchess");
    run(&mut plain, &cap, "position startpos");
    let reference = search_lines(&mut plain, &cap, "go depth 5");

    let (mut e, cap) = engine("teamchess");
    run(&mut e, &cap, "position startpos");
    run(&mut e, &cap, "setoption name Skill Level value 4");
    let weak = search_lines(&mut e, &cap, "go depth 5");
    assert_ne!(weak, reference, "a weakened search is another search");
    assert!(weak.iter().any(|l| l.contains(" multipv 4 ")), "{weak:?}");
    run(&mut e, &cap, "setoption name Skill Level value 20");
    run(&mut e, &cap, "ucinewgame");
    run(&mut e, &cap, "position startpos");
    assert_eq!(search_lines(&mut e, &cap, "go depth 5"), reference);
}

/// The turns a level plays in the first `n` turns of a game against
/// itself, with `SkillSeed` `seed`.
fn self_play(variant: &str, level: u8, seed: u64, n: usize) -> Vec<String> {
    let (mut e, cap) = engine(variant);
    run(&mut e, &cap, &format!("setoption name Skill Level value {level}"));
    run(&mut e, &cap, &format!("setoption name SkillSeed value {seed}"));
    let mut turns: Vec<String> = Vec::new();
    for _ in 0..n {
        let pos = if turns.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", turns.join(" "))
        };
        run(&mut e, &cap, &pos);
        let v = run(&mut e, &cap, "go nodes 1000000");
        turns.push(bestmove_words(&v)[1].clone());
    }
    turns
}

#[test]
fn a_seeded_level_plays_the_same_game_and_another_seed_another() {
    let a = self_play("teamchess", 2, 7, 10);
    assert_eq!(a, self_play("teamchess", 2, 7, 10));
    assert_ne!(a, self_play("teamchess", 2, 8, 10));
}

/// A weak level keeps to its node budget whatever `go` allows (512 nodes
/// at level 0).
#[test]
fn a_weak_level_searches_within_its_budget() {
    let (mut e, cap) = engine("queenskings9-duel");
    run(&mut e, &cap, "setoption name Skill Level value 0");
    run(&mut e, &cap, "position startpos");
    let v = run(&mut e, &cap, "go nodes 5000000");
    let nodes = max_nodes(&v);
    assert!(nodes > 0 && nodes <= 512, "{nodes}");
}

/// The games that spread their levels over a wider range of budgets
/// (docs/levels.md, "A scale of each game's own") get their own scale, a
/// variant that shares another's table shares its scale, and the rest keep
/// the default; a level's search keeps to its variant's budget, also one
/// below the 256 nodes between two checks of the node count.
#[test]
fn a_variant_s_levels_use_its_own_node_budgets() {
    use crate::levels::scale;
    use tetrarch_search::Scale;
    for v in ["fourchess", "teamchess", "quadranj", "queenskings9-duel", "queenskings-teams"] {
        assert_eq!(scale(v), Scale::DEFAULT, "{v}");
    }
    assert_eq!(scale("quadranj4"), Scale::new(64, 65_536).unwrap());
    assert_eq!(scale("queenskings"), Scale::new(32, 65_536).unwrap());
    assert_eq!(scale("queenskings9"), scale("queenskings"));
    assert_eq!(scale("quattuor"), Scale::new(64, 262_144).unwrap());
    // Level 10 of the free-for-all Queens & Kings: 32 x 2048^(1/2) nodes.
    let budget = scale("queenskings").nodes(10.0);
    assert_eq!(budget, 1448);
    for (level, cap) in [(0, 32), (10, budget)] {
        let (mut e, c) = engine("queenskings");
        run(&mut e, &c, &format!("setoption name Skill Level value {level}"));
        run(&mut e, &c, "position startpos");
        let v = run(&mut e, &c, "go nodes 5000000");
        let nodes = max_nodes(&v);
        assert!(nodes <= cap, "level {level}: {nodes} nodes over {cap}: {v:?}");
        assert!(bestmove_words(&v).len() >= 2, "{v:?}");
    }
}

fn random_engine(variant: &str, seed: u64) -> (Engine, Captured) {
    let (out, cap) = Out::buffer();
    let settings = Settings { random: true, skill_seed: seed, ..Settings::default() };
    let e = Engine::with_settings(out, variant, settings).expect("a variant");
    (e, cap)
}

/// The random player: legal turns, the seed's, and a new seed a new game.
#[test]
fn the_random_player_plays_seeded_legal_turns() {
    let game = |seed: u64| {
        let (mut e, cap) = random_engine("quattuor", seed);
        let mut turns: Vec<String> = Vec::new();
        for _ in 0..12 {
            let pos = if turns.is_empty() {
                "position startpos".to_string()
            } else {
                format!("position startpos moves {}", turns.join(" "))
            };
            let l = run(&mut e, &cap, &pos);
            assert!(l.is_empty(), "{l:?}");
            let w = bestmove_words(&run(&mut e, &cap, "go depth 1"));
            if w[1] == "(none)" {
                break;
            }
            turns.push(w[1].clone());
        }
        turns
    };
    let a = game(3);
    assert!(a.len() >= 4, "{a:?}");
    assert_eq!(a, game(3));
    assert_ne!(a, game(4));
}

#[test]
fn compiled_in_tables_parse_and_name_their_variant() {
    for v in crate::variants() {
        if let Some(t) = crate::levels::table(v) {
            assert_eq!(t.variant, crate::levels::table_variant(v));
            assert!(crate::variants().contains(&t.variant.as_str()));
            let (lo, hi) = t.elo_range();
            assert!(lo < hi, "{v}: {lo}..{hi}");
        }
    }
}

/// A player of the toy game (take 1..=5 stones, the last stone wins).
#[derive(Clone, Copy, Debug)]
enum ToyPlayer {
    Random,
    Level(f64),
}

/// One toy game from a pile of `pile`, `first` moving first; 1.0 if `first`
/// wins. Each player keeps its own searcher; the random numbers are
/// `seed`'s.
fn toy_game(first: ToyPlayer, second: ToyPlayer, pile: u32, seed: u64) -> f64 {
    use std::sync::atomic::AtomicBool;
    use tetrarch_core::game::Rules;
    use tetrarch_core::toy::{Cfg, Toy};
    use tetrarch_search::{Config, Limits, Searcher, Skill};
    let mut pos = Toy::startpos(&Cfg { max_take: 5, stones: pile, ..Cfg::default() });
    let mut searchers = [Searcher::<Toy>::new(1), Searcher::<Toy>::new(1)];
    let players = [first, second];
    let mut state = seed;
    let stop = AtomicBool::new(false);
    loop {
        if let Some(o) = pos.outcome() {
            return if o.for_seat(0) == Some(true) { 1.0 } else { 0.0 };
        }
        let seat = pos.to_move();
        let turn = match players[seat] {
            ToyPlayer::Random => tetrarch_core::turns::random_turn(&pos, |n| {
                state = tetrarch_core::zobrist::splitmix64(state);
                state % n
            })
            .expect("a turn"),
            ToyPlayer::Level(l) => {
                let config = Config { skill: Skill::new(l, seed ^ seat as u64), ..Config::default() };
                let limits = Limits { depth: Some(64), ..Limits::default() };
                searchers[seat].search(&pos, &[], &limits, &config, &stop, &mut |_| {}).best
            }
        };
        for a in turn {
            pos.make(a);
        }
    }
}

/// A ladder of three rungs in the toy game — the random player, level 0
/// and the full engine — comes out monotone with the calibration's fit,
/// each step's error bar excluding 0.
#[test]
fn a_toy_ladder_is_monotone_under_the_fit() {
    use tetrarch_tune::calibrate::{fit, PairGames};
    let rungs = [ToyPlayer::Random, ToyPlayer::Level(0.0), ToyPlayer::Level(20.0)];
    let mut pairs = Vec::new();
    for (a, b) in [(0usize, 1usize), (1, 2), (0, 2)] {
        let mut g = PairGames { a, b, wins: 0, losses: 0, draws: 0 };
        for k in 0..150u64 {
            // Piles where either seat may be the one to win; both orders.
            let pile = 40 + (k % 23) as u32;
            let s = tetrarch_core::zobrist::splitmix64(k * 31 + a as u64 * 7 + b as u64);
            let first = toy_game(rungs[a], rungs[b], pile, s);
            let second = 1.0 - toy_game(rungs[b], rungs[a], pile, s ^ 1);
            for r in [first, second] {
                if r > 0.5 {
                    g.wins += 1;
                } else {
                    g.losses += 1;
                }
            }
        }
        pairs.push(g);
    }
    let f = fit(3, &pairs).expect("a fit");
    assert_eq!(f.elo[0], 0.0);
    for i in 0..2 {
        let d = f.elo[i + 1] - f.elo[i];
        assert!(d > f.diff_error(i, i + 1), "rung {} over rung {i}: {d:.0} ± {:.0} ({pairs:?})", i + 1, f.diff_error(i, i + 1));
    }
}

/// The highest `nodes` of a search's info lines.
fn max_nodes(v: &[String]) -> u64 {
    v.iter().filter_map(|l| l.split(' ').skip_while(|w| *w != "nodes").nth(1).and_then(|n| n.parse().ok())).max().unwrap_or(0)
}

/// `UCI_Elo` plays at the table's level for that Elo while
/// `UCI_LimitStrength` is on, over `Skill Level`; off, full strength again;
/// a value out of the table's range is refused and changes nothing.
#[test]
fn uci_elo_plays_at_the_table_s_level() {
    let variant = "queenskings9-duel";
    let t = crate::levels::table(variant).expect("a calibrated variant");
    let (lo, hi) = t.elo_range();
    let (mut e, cap) = engine(variant);
    run(&mut e, &cap, "position startpos");
    let full = search_lines(&mut e, &cap, "go depth 4");
    run(&mut e, &cap, &format!("setoption name UCI_Elo value {lo}"));
    // Without UCI_LimitStrength the Elo does nothing.
    run(&mut e, &cap, "ucinewgame");
    run(&mut e, &cap, "position startpos");
    assert_eq!(search_lines(&mut e, &cap, "go depth 4"), full);
    run(&mut e, &cap, "setoption name UCI_LimitStrength value true");
    let weak = run(&mut e, &cap, "go nodes 1000000");
    assert!(weak.iter().any(|l| l.contains(" multipv 4 ")), "{weak:?}");
    assert!(max_nodes(&weak) <= 512 + 256, "the lowest Elo is level 0: {weak:?}");
    // The full engine's Elo is the full engine.
    run(&mut e, &cap, &format!("setoption name UCI_Elo value {hi}"));
    assert!(!run(&mut e, &cap, "go depth 3").iter().any(|l| l.contains(" multipv 2 ")));
    for bad in [format!("setoption name UCI_Elo value {}", hi + 1), format!("setoption name UCI_Elo value {}", lo - 1)] {
        assert!(is_error(&one(&mut e, &cap, &bad)), "{bad}");
    }
    assert_eq!(e.settings().uci_elo, Some(hi));
    assert!(is_error(&one(&mut e, &cap, "setoption name UCI_LimitStrength value maybe")));
    run(&mut e, &cap, "setoption name UCI_LimitStrength value false");
    run(&mut e, &cap, "ucinewgame");
    run(&mut e, &cap, "position startpos");
    assert_eq!(search_lines(&mut e, &cap, "go depth 4"), full);
}

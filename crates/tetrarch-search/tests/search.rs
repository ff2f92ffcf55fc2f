//! Behaviour of the search on a toy game with known perfect play
//! (`tetrarch_core::toy`, the workspace's test game).

use tetrarch_core::game::Rules;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tetrarch_core::toy::{Cfg, Toy};
use tetrarch_core::turns::legal_turns;
use tetrarch_search::{Config, Info, Limits, Score, SearchResult, Searcher};

fn run(g: &Toy, limits: &Limits, config: &Config) -> (SearchResult<u8>, Vec<Info<u8>>) {
    let mut s = Searcher::<Toy>::new(4);
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let r = s.search(g, &[], limits, config, &stop, &mut |i| infos.push(i.clone()));
    (r, infos)
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Limits::default() }
}

fn assert_legal_turn(g: &Toy, turn: &[u8]) {
    let turns = legal_turns(g);
    assert!(turns.iter().any(|(_, acts)| acts.as_slice() == turn), "{turn:?} is not a legal turn of {g:?}; legal: {turns:?}");
}

/// The toy in the shape `f` makes of the plain one: 2 seats, take 1 to 3,
/// one action a turn, and no evaluation (every unfinished line is worth 0;
/// the draws by repetition below are exactly 0).
fn game(f: impl FnOnce(&mut Cfg)) -> Toy {
    let mut c = Cfg { parity: false, ..Cfg::default() };
    f(&mut c);
    Toy::new(c)
}

#[test]
fn finds_the_winning_move_two_seats() {
    for stones in [5u32, 6, 7, 9, 10, 11, 13, 14, 15] {
        let g = game(|c| c.stones = stones);
        let (r, infos) = run(&g, &depth(16), &Config::default());
        assert_eq!(r.best, vec![(stones % 4) as u8], "stones {stones}");
        assert!(matches!(r.score, Score::Mate(n) if n > 0), "stones {stones}: {:?}", r.score);
        assert_eq!(r.depth, 16);
        assert!(!infos.is_empty());
        assert_legal_turn(&g, &r.best);
    }
}

#[test]
fn mate_distances_count_own_turns() {
    let score = |stones| run(&game(|c| c.stones = stones), &depth(12), &Config::default()).0.score;
    assert_eq!(score(3), Score::Mate(1));
    assert_eq!(score(5), Score::Mate(2));
    assert_eq!(score(9), Score::Mate(3));
    // Lost positions: mated after one (two) of our own turns.
    assert_eq!(score(4), Score::Mate(-1));
    assert_eq!(score(8), Score::Mate(-2));
}

#[test]
fn team_game_with_alternating_teams() {
    for stones in [6u32, 10, 11] {
        let g = game(|c| {
            c.seats = 4;
            c.teams = true;
            c.stones = stones;
        });
        let (r, _) = run(&g, &depth(16), &Config::default());
        assert_eq!(r.best, vec![(stones % 4) as u8]);
        assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
    }
    let g = game(|c| {
        c.seats = 4;
        c.teams = true;
        c.stones = 12;
    });
    assert!(matches!(run(&g, &depth(16), &Config::default()).0.score, Score::Mate(n) if n < 0));
}

#[test]
fn free_for_all_is_paranoid() {
    let ffa = |stones| {
        game(|c| {
            c.seats = 4;
            c.stones = stones;
        })
    };
    let (r, _) = run(&ffa(3), &depth(8), &Config::default());
    assert_eq!(r.best, vec![3]);
    assert_eq!(r.score, Score::Mate(1));
    // Against a coalition of three, any position with more than 3 stones is lost.
    let (r, _) = run(&ffa(5), &depth(8), &Config::default());
    assert!(matches!(r.score, Score::Mate(n) if n < 0), "{:?}", r.score);
    assert_legal_turn(&ffa(5), &r.best);
}

#[test]
fn two_actions_per_turn() {
    let two = |stones| {
        game(|c| {
            c.apt = 2;
            c.stones = stones;
        })
    };
    // A turn removes 1..=6 stones: leave a multiple of 7.
    for stones in [6u32, 9, 12, 13, 15] {
        let g = two(stones);
        let (r, _) = run(&g, &depth(12), &Config::default());
        assert_legal_turn(&g, &r.best);
        let taken: u32 = r.best.iter().map(|&a| a as u32).sum();
        assert_eq!(taken, stones % 7, "stones {stones}: {:?}", r.best);
        assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
    }
    assert_eq!(run(&two(6), &depth(12), &Config::default()).0.score, Score::Mate(1));
    assert_eq!(run(&two(12), &depth(12), &Config::default()).0.score, Score::Mate(2));
    assert!(matches!(run(&two(14), &depth(12), &Config::default()).0.score, Score::Mate(n) if n < 0));
}

#[test]
fn best_is_always_a_complete_legal_turn() {
    let shapes: Vec<Toy> = vec![
        game(|c| c.stones = 30),
        game(|c| {
            c.apt = 2;
            c.stones = 40;
        }),
        game(|c| {
            c.apt = 2;
            c.stones = 40;
            c.path_keys = true;
            c.max_take = 6;
        }),
        game(|c| {
            c.seats = 4;
            c.stones = 40;
            c.path_keys = true;
        }),
        game(|c| {
            c.seats = 4;
            c.teams = true;
            c.apt = 2;
            c.stones = 40;
        }),
    ];
    for g in &shapes {
        for d in 1..=5 {
            let (r, _) = run(g, &depth(d), &Config::default());
            assert_legal_turn(g, &r.best);
            if let Some(p) = &r.ponder {
                let mut after = *g;
                for &a in &r.best {
                    after.make(a);
                }
                assert_legal_turn(&after, p);
            }
        }
        // Stopped before the first iteration completes.
        let mut s = Searcher::<Toy>::new(1);
        let stop = AtomicBool::new(true);
        let r = s.search(g, &[], &Limits::default(), &Config::default(), &stop, &mut |_| {});
        assert_legal_turn(g, &r.best);
        assert_eq!(r.depth, 0);
    }
}

#[test]
fn game_over_gives_no_move() {
    let g = game(|c| c.stones = 0);
    let (r, infos) = run(&g, &depth(5), &Config::default());
    assert!(r.best.is_empty());
    assert!(r.ponder.is_none());
    assert!(infos.is_empty());
}

fn big() -> Toy {
    game(|c| {
        c.stones = 100_000;
        c.max_take = 8;
        c.path_keys = true;
    })
}

#[test]
fn single_thread_is_deterministic() {
    for g in [
        big(),
        game(|c| {
            c.apt = 2;
            c.max_take = 5;
            c.stones = 1000;
            c.path_keys = true;
        }),
    ] {
        let (a, ia) = run(&g, &depth(6), &Config::default());
        let (b, ib) = run(&g, &depth(6), &Config::default());
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.best, b.best);
        assert_eq!(a.score, b.score);
        assert_eq!(ia.len(), ib.len());
        assert!(a.nodes > 1000);
        // Node counts grow with depth.
        assert!(ia.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    }
}

#[test]
fn threads_return_legal_turns() {
    let g = big();
    let (r, _) = run(&g, &depth(6), &Config { threads: 3, multipv: 1, ..Config::default() });
    assert_legal_turn(&g, &r.best);
    assert_eq!(r.depth, 6);
    let (one, _) = run(&g, &depth(6), &Config::default());
    assert!(r.nodes >= one.nodes / 2);
    // Perfect play is still found with helpers.
    let g = game(|c| c.stones = 11);
    let (r, _) = run(&g, &depth(16), &Config { threads: 2, multipv: 1, ..Config::default() });
    assert_eq!(r.best, vec![3]);
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    for threads in [1, 2] {
        let g = big();
        let stop = AtomicBool::new(false);
        let mut s = Searcher::<Toy>::new(4);
        let limits = Limits { infinite: true, ..Limits::default() };
        let config = Config { threads, multipv: 1, ..Config::default() };
        let (r, stopped_at) = std::thread::scope(|sc| {
            let h = sc.spawn(|| {
                std::thread::sleep(Duration::from_millis(60));
                let t = Instant::now();
                stop.store(true, Ordering::SeqCst);
                t
            });
            let r = s.search(&g, &[], &limits, &config, &stop, &mut |_| {});
            (r, h.join().unwrap())
        });
        let late = stopped_at.elapsed();
        assert!(late < Duration::from_millis(100), "returned {late:?} after stop");
        assert_legal_turn(&g, &r.best);
    }
}

#[test]
fn infinite_waits_for_stop_even_when_the_tree_is_exhausted() {
    let g = game(|c| c.stones = 5);
    let stop = AtomicBool::new(false);
    let mut s = Searcher::<Toy>::new(1);
    let limits = Limits { infinite: true, ..Limits::default() };
    let start = Instant::now();
    let r = std::thread::scope(|sc| {
        sc.spawn(|| {
            std::thread::sleep(Duration::from_millis(50));
            stop.store(true, Ordering::SeqCst);
        });
        s.search(&g, &[], &limits, &Config::default(), &stop, &mut |_| {})
    });
    assert!(start.elapsed() >= Duration::from_millis(50));
    assert_eq!(r.best, vec![1]);
}

#[test]
fn node_and_time_limits() {
    let g = big();
    let (r, _) = run(&g, &Limits { nodes: Some(20_000), ..Limits::default() }, &Config::default());
    assert!(r.nodes <= 20_000 + 2048, "{} nodes", r.nodes);
    assert!(r.nodes >= 10_000, "{} nodes", r.nodes);
    assert_legal_turn(&g, &r.best);

    let start = Instant::now();
    let (r, _) = run(&g, &Limits { movetime: Some(Duration::from_millis(80)), ..Limits::default() }, &Config::default());
    let t = start.elapsed();
    assert!(t >= Duration::from_millis(70) && t < Duration::from_millis(400), "{t:?}");
    assert_legal_turn(&g, &r.best);

    let clock = tetrarch_search::Clock { time_ms: 3000, inc_ms: 0, movestogo: None };
    let start = Instant::now();
    let (r, _) = run(&g, &Limits { clock: Some(clock), ..Limits::default() }, &Config::default());
    // Budget 100 ms, hard limit 750 ms.
    assert!(start.elapsed() < Duration::from_millis(800), "{:?}", start.elapsed());
    assert_legal_turn(&g, &r.best);
}

#[test]
fn multipv_lines_have_distinct_first_actions() {
    let g = game(|c| {
        c.stones = 30;
        c.max_take = 5;
    });
    let (r, infos) = run(&g, &depth(8), &Config { multipv: 3, threads: 1, ..Config::default() });
    let last: Vec<&Info<u8>> = infos.iter().filter(|i| i.depth == 8).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(last.iter().map(|i| i.multipv).collect::<Vec<_>>(), vec![1, 2, 3]);
    let mut firsts: Vec<u8> = last.iter().map(|i| i.pv[0]).collect();
    assert_eq!(firsts[0], r.best[0]);
    // 30 = 6 * 5: the winning take is 30 % 6 = 0... so every line loses; still distinct.
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
    // More lines than actions: capped.
    let g = game(|c| c.stones = 2);
    let (_, infos) = run(&g, &depth(3), &Config { multipv: 5, threads: 1, ..Config::default() });
    assert!(infos.iter().all(|i| i.multipv <= 2));
}

#[test]
fn multipv_best_line_is_the_winning_one() {
    let g = game(|c| c.stones = 10);
    let (r, infos) = run(&g, &depth(14), &Config { multipv: 3, threads: 1, ..Config::default() });
    assert_eq!(r.best, vec![2]);
    let last: Vec<&Info<u8>> = infos.iter().filter(|i| i.depth == 14).collect();
    assert!(matches!(last[0].score, Score::Mate(n) if n > 0));
    assert!(matches!(last[1].score, Score::Mate(n) if n < 0));
}

#[test]
fn repetition_is_a_draw() {
    // With passes allowed, whoever would lose passes: a draw by repetition,
    // except where the mover can take every stone at once.
    let passing = |stones| {
        game(|c| {
            c.stones = stones;
            c.allow_pass = true;
        })
    };
    for stones in [8u32, 9, 10] {
        let (r, _) = run(&passing(stones), &depth(12), &Config::default());
        assert_eq!(r.score, Score::Cp(0), "stones {stones}");
        // Without passes, 9 and 10 are wins.
        let (r, _) = run(&game(|c| c.stones = stones), &depth(12), &Config::default());
        assert!(matches!(r.score, Score::Mate(_)), "stones {stones}");
    }
    let (r, _) = run(&passing(3), &depth(12), &Config::default());
    assert_eq!((r.best, r.score), (vec![3], Score::Mate(1)));
}

#[test]
fn history_keys_and_history_outcome() {
    // A rule where repeating a position loses for the seat to move in it.
    let g = game(|c| {
        c.stones = 8;
        c.allow_pass = true;
        c.rep_loses = true;
    });
    let mut after_pass = g;
    after_pass.make(0);
    let mut s = Searcher::<Toy>::new(1);
    let stop = AtomicBool::new(false);
    // With the position after a pass in the history, passing wins at once.
    let r = s.search(&g, &[after_pass.key()], &depth(8), &Config::default(), &stop, &mut |_| {});
    assert_eq!((r.best, r.score), (vec![0], Score::Mate(1)));
    // Without it, passing lets the opponent pass back into our repetition.
    s.clear();
    let r = s.search(&g, &[], &depth(8), &Config::default(), &stop, &mut |_| {});
    assert_ne!(r.best, vec![0]);
    assert_legal_turn(&g, &r.best);
}

#[test]
fn ponder_is_the_next_turn() {
    let g = game(|c| c.stones = 9);
    let (r, _) = run(&g, &depth(12), &Config::default());
    assert_eq!(r.best, vec![1]);
    let p = r.ponder.expect("a ponder turn");
    let mut after = g;
    after.make(1);
    assert_legal_turn(&after, &p);
}

#[test]
fn searcher_is_reusable() {
    let mut s = Searcher::<Toy>::new(2);
    let stop = AtomicBool::new(false);
    let g = big();
    let a = s.search(&g, &[], &depth(5), &Config::default(), &stop, &mut |_| {});
    let b = s.search(&g, &[], &depth(5), &Config::default(), &stop, &mut |_| {});
    // The second search profits from the table.
    assert!(b.nodes <= a.nodes);
    s.clear();
    let c = s.search(&g, &[], &depth(5), &Config::default(), &stop, &mut |_| {});
    assert_eq!(a.nodes, c.nodes);
    assert_eq!(a.best, c.best);
    s.resize(1);
    let d = s.search(&g, &[], &depth(5), &Config::default(), &stop, &mut |_| {});
    assert_legal_turn(&g, &d.best);
}

#[test]
fn searcher_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<Searcher<Toy>>();
    send::<SearchResult<u8>>();
}

//! Move generation and make/unmake benchmarks, per game.
//!
//! `cargo bench -p tetrarch-benches` (add `-- fourchess` to filter).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use criterion::{black_box, criterion_main, Criterion};
use tetrarch_core::game::{Game, Notation, Rules};
use tetrarch_core::games::fourchess::{FourChess, Options};
use tetrarch_core::games::quadranj::Quadranj;
use tetrarch_core::games::quattuor::Quattuor;
use tetrarch_core::games::queenskings::QueensKings;
use tetrarch_core::games::teamchess::TeamChess;
use tetrarch_core::turns::{perft, perft_actions, perft_bulk};

/// A crowded Four-handed Chess middle game (§13 E7 of the spec).
const FC_MIDDLE: &str =
    "7bK/yP7/1yK1wK3rP/5rKyQ1bP5/2yp5yQ1yP3/14/14/11rB2/3wR10/1bP1rP6rPrPyR1/1bP1wP7yP1rQ/2bpyP4/3wP4/6bR1 b r 1 1";

fn generation<G: Game>(c: &mut Criterion, name: &str, pos: &G) {
    c.bench_function(&format!("{name}/legal_actions"), |b| {
        let mut list = G::Actions::default();
        b.iter(|| {
            list = G::Actions::default();
            black_box(pos).legal_actions(&mut list);
            black_box(list.len())
        })
    });
    // What quiescence asks before it stands pat: the chess variants answer
    // it without listing every action (at the start, from their shortcut);
    // the other games answer no at once (their rows time nothing) and
    // quiescence lists their actions instead.
    c.bench_function(&format!("{name}/has_quiet_action"), |b| b.iter(|| black_box(pos).has_quiet_action()));
    c.bench_function(&format!("{name}/make_unmake_all"), |b| {
        let mut p = pos.clone();
        let mut list = G::Actions::default();
        p.legal_actions(&mut list);
        b.iter(|| {
            for &a in list.iter() {
                let u = p.make(a);
                black_box(p.key());
                p.unmake(a, u);
            }
        })
    });
}

fn fourchess(c: &mut Criterion) {
    let opts = Options::default();
    let start = FourChess::startpos(&opts);
    let middle = FourChess::from_position_string(FC_MIDDLE, &opts).unwrap();
    generation(c, "fourchess/start", &start);
    generation(c, "fourchess/middle", &middle);
    let mut group = c.benchmark_group("fourchess/perft");
    group.sample_size(10);
    group.bench_function("start_depth4", |b| {
        let mut p = start.clone();
        b.iter(|| assert_eq!(perft(&mut p, 4), 20_736))
    });
    group.bench_function("start_depth5_bulk", |b| {
        let mut p = start.clone();
        b.iter(|| assert_eq!(perft_bulk(&mut p, 5), 333_228))
    });
    group.finish();
}

fn teamchess(c: &mut Criterion) {
    let opts = <TeamChess as Rules>::default_options("teamchess");
    let start = TeamChess::startpos(&opts);
    generation(c, "teamchess/start", &start);
    let mut group = c.benchmark_group("teamchess/perft");
    group.sample_size(10);
    group.bench_function("start_depth4", |b| {
        let mut p = start.clone();
        b.iter(|| assert_eq!(perft(&mut p, 4), 152_050))
    });
    group.finish();
}

fn quattuor(c: &mut Criterion) {
    let opts = <Quattuor as Rules>::default_options("quattuor");
    let start = Quattuor::startpos(&opts);
    generation(c, "quattuor/start", &start);
    // Black's first turn: two actions allowed (61,017 turns).
    let mut black = start.clone();
    let acts = tetrarch_core::turns::parse_turn(&black, "0000").unwrap();
    tetrarch_core::turns::play_turn(&mut black, &acts);
    generation(c, "quattuor/black_turn2", &black);
    let mut group = c.benchmark_group("quattuor/perft");
    group.sample_size(10);
    group.bench_function("start_actions2", |b| {
        let mut p = start.clone();
        b.iter(|| assert_eq!(perft_actions(&mut p, 2), 121_747))
    });
    group.finish();
}

fn queenskings(c: &mut Criterion) {
    for (variant, d4) in [("queenskings", 15_193u64), ("queenskings9-duel", 12_544)] {
        let opts = <QueensKings as Rules>::default_options(variant);
        let start = QueensKings::startpos(&opts);
        generation(c, &format!("{variant}/start"), &start);
        let mut group = c.benchmark_group(format!("{variant}/perft"));
        group.sample_size(10);
        group.bench_function("start_depth4", |b| {
            let mut p = start.clone();
            b.iter(|| assert_eq!(perft(&mut p, 4), d4))
        });
        group.finish();
    }
}

fn quadranj(c: &mut Criterion) {
    for (variant, a2) in [("quadranj", 9_076u64), ("quadranj4", 4_556)] {
        let opts = <Quadranj as Rules>::default_options(variant);
        let start = Quadranj::startpos(&opts);
        generation(c, &format!("{variant}/start"), &start);
        let mut group = c.benchmark_group(format!("{variant}/perft"));
        group.sample_size(10);
        group.bench_function("start_actions2", |b| {
            let mut p = start.clone();
            b.iter(|| assert_eq!(perft_actions(&mut p, 2), a2))
        });
        group.finish();
    }
}

// criterion_group! defines an undocumented `pub fn`; a private module keeps it
// out of the crate's public items that `missing_docs` asks to document.
mod group {
    use super::{fourchess, quadranj, quattuor, queenskings, teamchess};
    use criterion::criterion_group;
    criterion_group!(benches, fourchess, teamchess, quattuor, queenskings, quadranj);
}
criterion_main!(group::benches);

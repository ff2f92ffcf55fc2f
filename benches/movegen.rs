//! Move generation and make/unmake benchmarks, per game.
//!
//! `cargo bench -p tetrarch-benches` (add `-- fourchess` to filter).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tetrarch_core::game::Game;
use tetrarch_core::games::fourchess::{FourChess, Options};
use tetrarch_core::turns::{perft, perft_bulk};

/// A crowded Four-handed Chess middle game (§13 E7 of the spec).
const FC_MIDDLE: &str = "7bK/yP7/1yK1wK3rP/5rKyQ1bP5/2yp5yQ1yP3/14/14/11rB2/3wR10/1bP1rP6rPrPyR1/1bP1wP7yP1rQ/2bpyP4/3wP4/6bR1 b r 1 1";

fn generation<G: Game>(c: &mut Criterion, name: &str, pos: &G) {
    c.bench_function(&format!("{name}/legal_actions"), |b| {
        let mut list = G::Actions::default();
        b.iter(|| {
            list = G::Actions::default();
            black_box(pos).legal_actions(&mut list);
            black_box(list.len())
        })
    });
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

criterion_group!(benches, fourchess);
criterion_main!(benches);

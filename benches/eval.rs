//! Static evaluation benchmarks, per game: the value the search asks for
//! at every quiescence node and at the frontier.
//!
//! `cargo bench -p tetrarch-benches --bench eval` (add `-- teamchess` to
//! filter). Two positions a variant: the start, and the position after 24
//! actions chosen by a fixed rule (a middle game with men developed and
//! lines open). The rule picks by index among the legal actions, so a
//! change to the order of the move generator changes that position:
//! compare runs whose move generation is the same.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use criterion::{black_box, criterion_main, Criterion};
use tetrarch_core::game::Game;
use tetrarch_core::games::fourchess::FourChess;
use tetrarch_core::games::quadranj::Quadranj;
use tetrarch_core::games::quattuor::Quattuor;
use tetrarch_core::games::queenskings::QueensKings;
use tetrarch_core::games::teamchess::TeamChess;

/// `start` after `plies` actions, each time the legal action at index
/// `(7 × ply + 3)` modulo their number (0-based); fewer if the game ends
/// first.
fn developed<G: Game>(start: &G, plies: usize) -> G {
    let mut p = start.clone();
    for ply in 0..plies {
        let mut list = G::Actions::default();
        p.legal_actions(&mut list);
        if list.is_empty() {
            break;
        }
        let a = list[(7 * ply + 3) % list.len()];
        p.make(a);
    }
    p
}

fn evaluation<G: Game>(c: &mut Criterion, variant: &str) {
    let start = G::startpos(&G::default_options(variant));
    let w = G::default_weights(variant);
    for (name, pos) in [("start", start.clone()), ("developed", developed(&start, 24))] {
        c.bench_function(&format!("{variant}/eval/{name}"), |b| {
            let seat = pos.to_move();
            b.iter(|| black_box(&pos).evaluate(black_box(seat), w))
        });
    }
}

fn games(c: &mut Criterion) {
    evaluation::<FourChess>(c, "fourchess");
    evaluation::<TeamChess>(c, "teamchess");
    evaluation::<Quattuor>(c, "quattuor");
    evaluation::<QueensKings>(c, "queenskings");
    evaluation::<QueensKings>(c, "queenskings9-duel");
    evaluation::<Quadranj>(c, "quadranj");
    evaluation::<Quadranj>(c, "quadranj4");
}

// criterion_group! defines an undocumented `pub fn`; a private module keeps it
// out of the crate's public items that `missing_docs` asks to document.
mod group {
    use super::games;
    use criterion::criterion_group;
    criterion_group!(benches, games);
}
criterion_main!(group::benches);

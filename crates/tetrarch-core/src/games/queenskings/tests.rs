use super::*;
use crate::turns::perft;

#[test]
fn perft_smoke() {
    for v in VARIANTS {
        let mut p = QueensKings::startpos(&Options::for_variant(v));
        println!("{v}: {}", (1..=4).map(|d| perft(&mut p, d).to_string()).collect::<Vec<_>>().join(" "));
    }
}

//! Criterion benchmarks of move generation and perft for every game live in
//! `movegen.rs` beside this file; run them with `cargo bench -p tetrarch-benches`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

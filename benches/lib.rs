//! Criterion benchmarks of every game live beside this file: move generation
//! and perft in `movegen.rs`, the static evaluation in `eval.rs`; run them
//! with `cargo bench -p tetrarch-benches`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

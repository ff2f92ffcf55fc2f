//! Criterion benchmarks live beside this file (see `movegen.rs`).

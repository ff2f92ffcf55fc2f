//! Position strings (§7), action tokens (§8) and the text board of `d`:
//! `read.rs` parses and checks position strings, `write.rs` writes them
//! and the board, `action.rs` reads and writes action tokens.

mod action;
mod read;
mod write;

pub use action::{parse_action, write_action};
pub use read::parse_position;
pub use write::{render, write_position};

/// A decimal number without sign or leading zeros, at most 10^9 (capped
/// far below u32::MAX, as every game's counters are, so that playing on can
/// never overflow a counter).
fn decimal(t: &str) -> Option<u32> {
    if t.is_empty() || t.len() > 10 || !t.bytes().all(|c| c.is_ascii_digit()) || (t.len() > 1 && t.starts_with('0')) {
        return None;
    }
    t.parse().ok().filter(|&n| n <= 1_000_000_000)
}

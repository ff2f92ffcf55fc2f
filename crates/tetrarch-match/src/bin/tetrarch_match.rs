//! The match runner as its own program: `tetrarch-match ARGS` is
//! `tetrarch match ARGS`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(tetrarch_match::main_with_args(&args));
}

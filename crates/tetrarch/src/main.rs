//! The `tetrarch` binary: the protocol loop (no sub-command), `perft`,
//! `bench`, `record` and `match`. It parses its arguments and hands over to the library.

use std::io::BufRead;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tetrarch::tools::{self, PerftArgs};
use tetrarch::{Control, Engine, Out};

/// Tetrarch: an engine for unusual board games. Without a sub-command it
/// speaks the line protocol (UCI-style) on standard input and output.
#[derive(Parser)]
#[command(name = "tetrarch", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the legal turns to a depth (perft), single-threaded.
    Perft {
        /// The variant (`fourchess`, …).
        variant: String,
        /// Depth in turns (in single actions with --actions).
        depth: u32,
        /// Start from this position string instead of the start position.
        #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
        fen: Option<String>,
        /// Play these turns first.
        #[arg(long, num_args = 1.., value_name = "TURN")]
        moves: Vec<String>,
        /// Print the count below every legal turn of the root.
        #[arg(long)]
        divide: bool,
        /// Count paths of single actions (games with several actions per turn).
        #[arg(long)]
        actions: bool,
        /// Count the last level without making its turns (one-action games).
        #[arg(long)]
        bulk: bool,
    },
    /// Plays an engine-vs-engine match (`tetrarch match --help`, docs/match.md).
    #[command(disable_help_flag = true)]
    Match {
        /// The match options (cutechess style), passed on unchanged.
        #[arg(num_args = 0.., trailing_var_arg = true, allow_hyphen_values = true, value_name = "ARGS")]
        args: Vec<String>,
    },
    /// Reads a game record (PGN4 for teamchess) and prints the `position`
    /// command that replays it. (The protocol command `record` writes one.)
    Record {
        /// The variant (`teamchess`).
        variant: String,
        /// The record file.
        file: String,
    },
    /// Serves a page to play and analyse in a browser on 127.0.0.1 (prints
    /// its address; opens nothing).
    Gui {
        /// The port (0: any free port).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// The variant the page starts with.
        #[arg(long, default_value = tetrarch::DEFAULT_VARIANT)]
        variant: String,
        /// Serve without an access token (any local user or program can then
        /// drive the page); by default the printed address carries a random
        /// one, as Jupyter's does.
        #[arg(long)]
        no_token: bool,
    },
    /// Searches the built-in positions of every game to a fixed depth with one
    /// thread; the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Search depth in actions (default: a depth per variant).
        #[arg(long)]
        depth: Option<u32>,
        /// Only this variant.
        #[arg(long)]
        variant: Option<String>,
    },
}

fn protocol_loop() -> ExitCode {
    let mut engine = Engine::new(Out::stdout());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buf);
        if engine.handle_line(&line) == Control::Quit {
            // A running search has printed its bestmove, a perft its count.
            std::process::exit(0);
        }
    }
    engine.finish();
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let out = Out::stdout();
    match cli.command {
        None => protocol_loop(),
        Some(Command::Perft { variant, depth, fen, moves, divide, actions, bulk }) => {
            let args = PerftArgs { variant, depth, fen, moves, divide, actions, bulk };
            match tools::perft_cli(&args, &out) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Match { args }) => ExitCode::from(tetrarch_match::main_with_args(&args) as u8),
        Some(Command::Record { variant, file }) => match tools::record_cli(&variant, &file, &out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::Gui { port, variant, no_token }) => {
            if tetrarch::with_variant(&variant, tetrarch::gui::rules::FactsOf).is_none() {
                eprintln!("error: unknown variant `{variant}` (known: {})", tetrarch::variants().join(", "));
                return ExitCode::from(2);
            }
            match tetrarch::gui::bind(port) {
                Ok((listener, url)) => {
                    let token = (!no_token).then(tetrarch::gui::new_token);
                    match &token {
                        Some(t) => println!("{url}?token={t}"),
                        None => println!("{url}"),
                    }
                    match tetrarch::gui::serve(listener, &variant, token) {
                        Ok(()) => ExitCode::SUCCESS,
                        Err(e) => {
                            eprintln!("error: {e}");
                            ExitCode::from(2)
                        }
                    }
                }
                Err(e) => {
                    eprintln!("error: cannot listen on 127.0.0.1:{port}: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Bench { depth, variant }) => {
            if depth == Some(0) {
                eprintln!("error: --depth must be at least 1");
                return ExitCode::from(2);
            }
            match tools::bench(depth, variant.as_deref(), &out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            }
        }
    }
}

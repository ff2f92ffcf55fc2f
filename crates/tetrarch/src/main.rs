//! The `tetrarch` binary: the protocol loop (no sub-command), `perft`,
//! `bench`, `record`, `match`, `datagen`, `tune`, `spsa` and `calibrate`. It parses its arguments and hands over to the library.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::io::BufRead;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tetrarch::gui::GuiError;
use tetrarch::perft_bench::{self, PerftArgs, PerftBenchError};
use tetrarch::{Control, Engine, Out};

/// Tetrarch: an engine for unusual board games. Without a sub-command it
/// speaks the line protocol (UCI-style) on standard input and output.
#[derive(Parser)]
#[command(name = "tetrarch", version, about, long_about = None)]
struct Cli {
    /// The variant the protocol loop starts in (default: fourchess; also
    /// the environment variable TETRARCH_VARIANT), for tools that cannot
    /// send `setoption name UCI_Variant`. Sub-commands take their own.
    #[arg(long, value_name = "VARIANT")]
    variant: Option<String>,
    /// The random player: every `go` plays a legal turn drawn uniformly
    /// among all legal turns (the zero of the Elo scale, docs/levels.md),
    /// seeded by the option `SkillSeed` (0: a seed drawn at start-up).
    #[arg(long)]
    random: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

/// The environment variable that chooses the protocol loop's variant when
/// `--variant` is not given (empty = not set).
const VARIANT_ENV: &str = "TETRARCH_VARIANT";

/// `--variant` or `TETRARCH_VARIANT` names no variant.
#[derive(Debug, thiserror::Error)]
#[error("{from}: unknown variant `{name}` (known: {})", .known.join(", "))]
struct UnknownStartVariant {
    /// `--variant` or `TETRARCH_VARIANT`.
    from: &'static str,
    /// The name given.
    name: String,
    /// Every variant.
    known: Vec<&'static str>,
}

/// The protocol loop's variant: `--variant`, else `TETRARCH_VARIANT`, else
/// the default; an unknown name is an error listing the variants (any case
/// is accepted, as for `UCI_Variant`).
fn start_variant(flag: Option<&str>, env: Option<&str>) -> Result<&'static str, UnknownStartVariant> {
    let (name, from) = match (flag, env.filter(|v| !v.is_empty())) {
        (Some(v), _) => (v, "--variant"),
        (None, Some(v)) => (v, VARIANT_ENV),
        (None, None) => return Ok(tetrarch::DEFAULT_VARIANT),
    };
    let known = tetrarch::variants();
    known.iter().find(|v| v.eq_ignore_ascii_case(name)).copied().ok_or_else(|| UnknownStartVariant {
        from,
        name: name.into(),
        known: known.clone(),
    })
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
        /// The match options (cutechess style), passed on unchanged to
        /// `tetrarch_match::main_with_args`, whose clap parser
        /// (`tetrarch_match::MatchArgs`, shared with the `tetrarch-match`
        /// binary) checks them and writes the help; `report` is its own.
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
    /// Plays self-play games at a fixed node budget and writes their quiet
    /// positions with the games' results (JSON Lines, docs/tuning.md).
    Datagen(DatagenCommand),
    /// Fits the evaluation weights of a variant to datagen files and writes a
    /// weights file (`setoption name EvalFile` loads it; docs/tuning.md).
    Tune(TuneCommand),
    /// Tunes engine options (search parameters) by SPSA: game pairs between
    /// the engine with θ+c·Δ and with θ−c·Δ, θ moved towards the winner
    /// (docs/tuning.md, "SPSA"). Resumable: the same command continues.
    Spsa(SpsaCommand),
    /// Measures the Elo of the skill levels of a variant (uniform random =
    /// 0) on a ladder of games, random – levels – full, and writes the table
    /// UCI_Elo reads and a plot (docs/levels.md). Resumable: the same
    /// command continues.
    Calibrate(CalibrateCommand),
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

// The options of `tetrarch datagen` (the doc comment of
// `Command::Datagen` is its help).
#[derive(clap::Args)]
struct DatagenCommand {
    /// The variant.
    #[arg(long)]
    variant: String,
    /// Games to play.
    #[arg(long)]
    games: u64,
    /// Node budget per turn.
    #[arg(long)]
    nodes: u64,
    /// The data file to write.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Seed of the openings (the same seed and budget give the same file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games at once (one thread each).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Random legal turns after the start (and a random set-up where the
    /// game has one).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Turns after the opening that are not recorded.
    #[arg(long, default_value_t = 4)]
    skip_turns: u32,
    /// Turn cap, a draw (0: the game's default, else 600).
    #[arg(long, default_value_t = 0)]
    max_turns: u32,
    /// Hash per game, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Play with the weights of this file (default: compiled-in).
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
    /// Continue an interrupted file (same settings).
    #[arg(long)]
    resume: bool,
    /// Play only shard K of N (`K/N`): games K−1, K−1+N, …
    #[arg(long)]
    shard: Option<tetrarch_tune::Shard>,
    /// No progress lines.
    #[arg(long)]
    quiet: bool,
}

// The options of `tetrarch spsa`.
#[derive(clap::Args)]
struct SpsaCommand {
    /// The parameters: a JSON list of {"name", "value", "min", "max",
    /// "c_end", "r_end"}; each name is an engine option.
    #[arg(long, value_name = "FILE")]
    params: std::path::PathBuf,
    /// The variant.
    #[arg(long)]
    variant: String,
    /// The engine both sides play with, as `tetrarch match` takes one:
    /// cmd=PATH [arg=ARG]… [option.NAME=VALUE]… and a limit (nodes=N,
    /// depth=N, st=S or tc=…).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append, required = true)]
    engine: Vec<String>,
    /// More engine settings (the same keys; --engine's words win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    each: Vec<String>,
    /// Iterations of the run (N of the gains).
    #[arg(long)]
    iterations: u64,
    /// Game pairs each iteration (same opening, seats swapped).
    #[arg(long, default_value_t = 2)]
    pairs_per_iteration: u64,
    /// Games at once (at most 2 × the pairs of an iteration are used).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Seed of the flips and the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The run's folder: state.json, trajectory.jsonl, final.json.
    #[arg(long, value_name = "DIR")]
    out: std::path::PathBuf,
    /// Openings file (as `tetrarch match --openings`), in order.
    #[arg(long, value_name = "FILE")]
    openings: Option<std::path::PathBuf>,
    /// Random legal turns after the start or the file's opening.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Turn cap, a draw (as `tetrarch match --maxturns`).
    #[arg(long)]
    maxturns: Option<u32>,
}

// The options of `tetrarch calibrate`.
#[derive(clap::Args)]
struct CalibrateCommand {
    /// The variant.
    #[arg(long)]
    variant: String,
    /// The skill levels of the ladder, ascending, each 0..=19 (between the
    /// random anchor and full strength).
    #[arg(long, value_name = "K,K,…", default_value = tetrarch_tune::calibrate::DEFAULT_LEVELS)]
    levels: tetrarch_tune::calibrate::Levels,
    /// Game pairs of each rung against the next (same opening, seats
    /// swapped); against the rung two below, half as many (at least 1).
    #[arg(long, default_value_t = 20)]
    pairs: u64,
    /// The engine every rung runs, as `tetrarch match` takes one:
    /// cmd=PATH [arg=ARG]… [option.NAME=VALUE]… (default: cmd=this
    /// program).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    engine: Vec<String>,
    /// The reference every rung is given: its limit (nodes=N, depth=N,
    /// st=S or tc=…) and other settings (--engine's words win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., action = clap::ArgAction::Append)]
    each: Vec<String>,
    /// Games at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Seed of the batches' openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder: VARIANT.games.jsonl, VARIANT.json, levels.svg.
    #[arg(long, value_name = "DIR")]
    out: std::path::PathBuf,
    /// Openings file (as `tetrarch match --openings`), in order.
    #[arg(long, value_name = "FILE")]
    openings: Option<std::path::PathBuf>,
    /// Random legal turns after the start or the file's opening.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Turn cap, a draw (as `tetrarch match --maxturns`).
    #[arg(long)]
    maxturns: Option<u32>,
    /// After the planned games, play --pairs more pairs at a time on every
    /// step between neighbouring rungs that is short of the target (the
    /// upper rung at least 60 % over at least 100 direct games, or the
    /// fitted step's 95 % error bar above 0), until it meets it or has
    /// played PAIRS pairs.
    #[arg(long, value_name = "PAIRS")]
    top_up: Option<u64>,
}

// The options of `tetrarch tune`.
#[derive(clap::Args)]
struct TuneCommand {
    /// The variant.
    #[arg(long)]
    variant: String,
    /// Data files (from `tetrarch datagen` for this variant).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<std::path::PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Start from this weights file, or `hand` for the game's hand-set
    /// table (default: the compiled-in weights, tuned where a game has
    /// a committed tuned set).
    #[arg(long)]
    start: Option<std::path::PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    epochs: u32,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's step size (centipawns).
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Scale each weight's steps by the typical size of its feature, so a
    /// step moves the evaluation by about `--lr` for every weight (a
    /// mobility counted in tens of cells moves slower than a count of men).
    #[arg(long)]
    scaled: bool,
    /// Pull of each weight towards its start (L2).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Use this K instead of fitting it.
    #[arg(long)]
    k: Option<f64>,
    /// Leave these weights as they start: names, or prefixes ending in
    /// `.` (`--freeze pst.`), comma-separated.
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

/// The search switches `TETRARCH_SEARCH_OFF` turns off, for the protocol
/// loop and `bench` (A/B matches and the scripts that run them): read here,
/// in the binary only, and mapped onto the search parameters as
/// `setoption name Search_<switch> value 0` would (docs/search.md, "Search
/// parameters"). A word that names no switch is ignored with a warning.
fn search_off_from_env() -> Vec<(&'static str, i32)> {
    let text = std::env::var(tetrarch::options::SEARCH_OFF_ENV).unwrap_or_default();
    let (off, unknown) = tetrarch::options::search_off(&text);
    for w in unknown {
        eprintln!("warning: {}: `{w}` names no search switch (ignored)", tetrarch::options::SEARCH_OFF_ENV);
    }
    off
}

/// The protocol loop on standard input and output.
fn protocol_loop(variant: &str, random: bool) -> ExitCode {
    let settings = tetrarch::Settings { search_params: search_off_from_env(), random, ..tetrarch::Settings::default() };
    let mut engine = Engine::with_settings(Out::stdout(), variant, settings).expect("the variant was checked");
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

/// Why the command line cannot run: `error: …` on standard error, exit
/// status 2.
#[derive(Debug, thiserror::Error)]
enum CliError {
    /// `tetrarch --variant V <sub-command>`.
    #[error("--variant before a sub-command sets the protocol loop's variant; give the sub-command its own")]
    VariantBeforeSubcommand,
    /// `tetrarch --random <sub-command>`.
    #[error("--random makes the protocol loop a random player; sub-commands do not take it")]
    RandomBeforeSubcommand,
    /// The protocol loop's variant is unknown.
    #[error(transparent)]
    StartVariant(#[from] UnknownStartVariant),
    /// `perft`, `record` or `bench` failed.
    #[error(transparent)]
    PerftBench(#[from] PerftBenchError),
    /// `bench --depth 0`.
    #[error("--depth must be at least 1")]
    BenchDepth,
    /// `gui` cannot listen on its port.
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Listen {
        /// The port asked for.
        port: u16,
        /// The I/O error of binding the port (in use, no permission, …).
        source: std::io::Error,
    },
    /// The GUI cannot start or serve.
    #[error(transparent)]
    Gui(#[from] GuiError),
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs the protocol loop or the sub-command.
fn run(cli: Cli) -> Result<ExitCode, CliError> {
    let Some(command) = cli.command else { return protocol(cli.variant.as_deref(), cli.random) };
    if cli.variant.is_some() {
        return Err(CliError::VariantBeforeSubcommand);
    }
    if cli.random {
        return Err(CliError::RandomBeforeSubcommand);
    }
    match command {
        Command::Perft { variant, depth, fen, moves, divide, actions, bulk } => {
            perft(&PerftArgs { variant, depth, fen, moves, divide, actions, bulk })
        }
        Command::Match { args } => Ok(match_command(&args)),
        Command::Record { variant, file } => record(&variant, &file),
        Command::Gui { port, variant, no_token } => gui(port, &variant, no_token),
        Command::Datagen(args) => Ok(datagen(args)),
        Command::Tune(args) => Ok(tune(args)),
        Command::Spsa(args) => Ok(spsa(args)),
        Command::Calibrate(args) => Ok(calibrate(args)),
        Command::Bench { depth, variant } => bench(depth, variant.as_deref()),
    }
}

/// No sub-command: the protocol loop in `--variant`, `TETRARCH_VARIANT` or
/// the default variant.
fn protocol(flag: Option<&str>, random: bool) -> Result<ExitCode, CliError> {
    let env = std::env::var(VARIANT_ENV).ok();
    let variant = start_variant(flag, env.as_deref())?;
    Ok(protocol_loop(variant, random))
}

/// `tetrarch perft`.
fn perft(args: &PerftArgs) -> Result<ExitCode, CliError> {
    perft_bench::perft_cli(args, &Out::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrarch match`.
fn match_command(args: &[String]) -> ExitCode {
    ExitCode::from(tetrarch_match::main_with_args(args) as u8)
}

/// `tetrarch record`.
fn record(variant: &str, file: &str) -> Result<ExitCode, CliError> {
    perft_bench::record_cli(variant, file, &Out::stdout())?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrarch gui`: prints the address (with the access token unless
/// `--no-token`) and serves until killed.
fn gui(port: u16, variant: &str, no_token: bool) -> Result<ExitCode, CliError> {
    if tetrarch_core::handle::Variant::from_name(variant).is_none() {
        return Err(GuiError::UnknownVariant { name: variant.into(), known: tetrarch::variants() }.into());
    }
    let (listener, url) = tetrarch::gui::bind(port).map_err(|source| CliError::Listen { port, source })?;
    let token = (!no_token).then(tetrarch::gui::new_token);
    match &token {
        Some(t) => println!("{url}?token={t}"),
        None => println!("{url}"),
    }
    tetrarch::gui::serve(listener, variant, token)?;
    Ok(ExitCode::SUCCESS)
}

/// `tetrarch datagen`.
fn datagen(c: DatagenCommand) -> ExitCode {
    let args = tetrarch_tune::DatagenArgs {
        variant: c.variant,
        games: c.games,
        nodes: c.nodes,
        out: c.out,
        seed: c.seed,
        concurrency: c.concurrency,
        random_plies: c.random_plies,
        resume: c.resume,
        shard: c.shard,
        hash_mb: c.hash.max(1),
        skip_turns: c.skip_turns,
        max_turns: c.max_turns,
        weights: None,
        progress: !c.quiet,
    };
    match tetrarch_tune::datagen_main(&args, c.weights.as_deref()) {
        Ok(s) => {
            println!(
                "datagen {}: {} games, {} positions in {}; this run: {} games, {} positions in {:.1} s",
                args.variant,
                s.games,
                s.positions,
                args.out.display(),
                s.played,
                s.written,
                s.elapsed.as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `tetrarch tune`.
fn tune(command: TuneCommand) -> ExitCode {
    let TuneCommand { variant, data, out, start, epochs, batch, lr, scaled, l2, k, freeze } = command;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let fit = tetrarch_tune::tune::FitArgs { epochs, batch: batch.max(1), lr, scaled, l2, k, seed: 1, freeze };
    let args = tetrarch_tune::TuneArgs { variant, data, out, start, fit, command };
    match tetrarch_tune::tune_main(&args, &mut |l| println!("{l}")) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `tetrarch spsa`.
fn spsa(c: SpsaCommand) -> ExitCode {
    let args = tetrarch_tune::spsa::SpsaArgs {
        params: c.params,
        variant: c.variant,
        engine: c.engine,
        each: c.each,
        iterations: c.iterations,
        pairs: c.pairs_per_iteration,
        concurrency: c.concurrency,
        seed: c.seed,
        out: c.out,
        openings: c.openings,
        random_plies: c.random_plies,
        maxturns: c.maxturns,
    };
    match tetrarch_tune::spsa::spsa_main(&args, &mut |l| println!("{l}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// A command-line word as a shell reads it back: in single quotes when it
/// holds a space, a quote or another character the shell would split on
/// or expand (`option.Skill Level=3`).
fn shell_word(w: &str) -> String {
    if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,/=:+@%".contains(c)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

/// `tetrarch calibrate`; without `--engine`, the rungs run this program.
fn calibrate(c: CalibrateCommand) -> ExitCode {
    let engine = if c.engine.is_empty() {
        match std::env::current_exe() {
            Ok(p) => vec![format!("cmd={}", p.display())],
            Err(e) => {
                eprintln!("error: cannot find this program to run as the engine ({e}): give --engine cmd=PATH");
                return ExitCode::from(2);
            }
        }
    } else {
        c.engine
    };
    let args = tetrarch_tune::calibrate::CalibrateArgs {
        variant: c.variant,
        levels: c.levels.0,
        pairs: c.pairs,
        engine,
        each: c.each,
        concurrency: c.concurrency,
        seed: c.seed,
        out: c.out,
        openings: c.openings,
        random_plies: c.random_plies,
        maxturns: c.maxturns,
        top_up: c.top_up,
        command: std::env::args().map(|w| shell_word(&w)).collect::<Vec<_>>().join(" "),
    };
    match tetrarch_tune::calibrate::calibrate_main(&args, &mut |l| println!("{l}")) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code() as u8)
        }
    }
}

/// `tetrarch bench`.
fn bench(depth: Option<u32>, variant: Option<&str>) -> Result<ExitCode, CliError> {
    if depth == Some(0) {
        return Err(CliError::BenchDepth);
    }
    perft_bench::bench(depth, variant, &search_off_from_env(), &Out::stdout())?;
    Ok(ExitCode::SUCCESS)
}

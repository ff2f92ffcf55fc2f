//! `tetrarch spsa` itself: its arguments, the match runner's words for an
//! iteration's games, their score, and [`spsa_main`].

use std::path::PathBuf;

use tetrarch_match::engine_config::EngineSetting;
use tetrarch_match::ConfigError;

use super::params::{option_words, params_text, read_params, Param};
use super::run::{progress_line, run, Games};
use super::state::{final_params, load_state, write_atomically, Setup, State};
use super::{SpsaError, FINAL_FILE};
use crate::score::{score_of, Score};

/// What `tetrarch spsa` was asked.
#[derive(Clone, Debug)]
pub struct SpsaArgs {
    /// The parameters file.
    pub params: PathBuf,
    /// The variant.
    pub variant: String,
    /// `--engine` words (`cmd=…`, `option.X=…`, a limit, …): the engine
    /// both sides play with.
    pub engine: Vec<String>,
    /// `--each` words (the same keys).
    pub each: Vec<String>,
    /// `N`.
    pub iterations: u64,
    /// Game pairs an iteration.
    pub pairs: u64,
    /// Games at once.
    pub concurrency: usize,
    /// The seed of the flips and the openings.
    pub seed: u64,
    /// The output folder.
    pub out: PathBuf,
    /// An openings file for the runner.
    pub openings: Option<PathBuf>,
    /// Random turns after the start (or the file's opening).
    pub random_plies: u32,
    /// Turn cap (the runner's `--maxturns`).
    pub maxturns: Option<u32>,
}

/// The runner's words for the games of an iteration (two engines named
/// `plus` and `minus`), without `--concurrency` (it does not change the
/// games) and `--seed` (the setup has it).
fn runner_words(a: &SpsaArgs) -> Vec<String> {
    let mut w: Vec<String> = vec!["--variant".into(), a.variant.clone()];
    w.extend(["--games".into(), (2 * a.pairs).to_string()]);
    w.extend(["--random-plies".into(), a.random_plies.to_string()]);
    if let Some(f) = &a.openings {
        w.extend(["--openings".into(), f.display().to_string()]);
    }
    if let Some(m) = a.maxturns {
        w.extend(["--maxturns".into(), m.to_string()]);
    }
    for name in ["plus", "minus"] {
        w.push("--engine".into());
        w.extend(a.engine.iter().cloned());
        w.push(format!("name={name}"));
    }
    if !a.each.is_empty() {
        w.push("--each".into());
        w.extend(a.each.iter().cloned());
    }
    w
}

/// What `tetrarch spsa` ends with.
#[derive(Clone, Debug)]
pub struct SpsaOutcome {
    /// The final state.
    pub state: State,
    /// The final parameters.
    pub params: Vec<Param>,
}

/// `tetrarch spsa`: checks the parameters and the games' settings (nothing
/// is written when they are refused), then runs or continues the run in
/// `--out`, playing every iteration's pairs with the match runner. `say`
/// gets the progress and the final lines.
pub fn spsa_main(a: &SpsaArgs, say: &mut dyn FnMut(&str)) -> Result<SpsaOutcome, SpsaError> {
    let params = read_params(&a.params)?;
    if a.iterations == 0 {
        return Err(SpsaError::Zero("--iterations"));
    }
    if a.pairs == 0 || u32::try_from(2 * a.pairs).is_err() {
        return Err(SpsaError::Zero("--pairs-per-iteration"));
    }
    let words = runner_words(a);
    let mut all = words.clone();
    all.extend(["--concurrency".into(), a.concurrency.to_string(), "--seed".into(), a.seed.to_string()]);
    let base = match tetrarch_match::parse_args(&all) {
        Ok(Some(c)) => c,
        // `--help` among the words: clap in `tetrarch spsa` takes it first,
        // so this is a word the runner does not run with.
        Ok(None) => return Err(SpsaError::Match(ConfigError::TooFewEngines(0))),
        Err(e) => return Err(SpsaError::Match(e)),
    };
    let setup = Setup { params, iterations: a.iterations, pairs: a.pairs, seed: a.seed, games: words };
    if let Some(s) = load_state(&a.out)? {
        if s.setup == setup {
            say(&format!("continuing {} from iteration {}", a.out.display(), s.iteration));
        }
    }
    tetrarch_match::os::stop_engines_on_signals();
    let mut play = |g: &Games<'_>| -> Result<Score, SpsaError> {
        let mut cfg = base.clone();
        for (e, values) in [(0, &g.plus), (1, &g.minus)] {
            for (name, v) in values.iter() {
                cfg.engines[e].apply(&EngineSetting::Option(name.to_string(), v.to_string()));
            }
        }
        let records = tetrarch_match::play_games(cfg, g.first_opening)?;
        Ok(score_of(&records))
    };
    let state = run(&a.out, setup, &mut play, &mut |p| say(&progress_line(p)))?;
    let params = final_params(&state);
    write_atomically(&a.out.join(FINAL_FILE), &params_text(&params))?;
    say(&format!("final parameters ({}):", a.out.join(FINAL_FILE).display()));
    say(params_text(&params).trim_end());
    say(&format!("as match options: {}", option_words(&params)));
    Ok(SpsaOutcome { state, params })
}

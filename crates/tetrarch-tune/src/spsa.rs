//! `tetrarch spsa`: SPSA tuning of engine parameters by games, as
//! OpenBench and fishtest run it (docs/tuning.md, "SPSA").
//!
//! The parameters come from a JSON file ([`read_params`]) and reach the
//! engines as protocol options by name (`setoption name NAME value V`), so
//! the tuner knows nothing of what they mean. Every iteration `k` flips a
//! sign `Δᵢ = ±1` for each parameter, plays game pairs between the engine
//! with `θ + c_k·Δ` and the same engine with `θ − c_k·Δ`, and moves
//! `θ += a_k / c_k · (wins − losses) · Δ` (the result from `θ+`'s side).
//!
//! - [`Param`], [`parse_params`], [`read_params`]: the parameters file;
//! - [`Schedule`]: the gains `c_k`, `a_k` (OpenBench's formulas);
//! - [`Perturbation`]: an iteration's flips and the two engines' values,
//!   a function of the seed and `k` alone;
//! - [`run`]: the loop, with its state written after every iteration
//!   (resumable: [`STATE_FILE`], [`TRAJECTORY_FILE`]);
//! - [`spsa_main`]: the command, playing its games with the match runner
//!   ([`tetrarch_match::play_games`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tetrarch_match::engine_config::EngineSetting;
use tetrarch_match::openings::{mix, Rng};
use tetrarch_match::{ConfigError, GameRecord, RunError};

/// The state file in the output folder.
pub const STATE_FILE: &str = "state.json";
/// The trajectory: one JSON line per iteration.
pub const TRAJECTORY_FILE: &str = "trajectory.jsonl";
/// The final parameters, written at the end of the run.
pub const FINAL_FILE: &str = "final.json";
/// The first line of the state file's `format`.
pub const STATE_FORMAT: &str = "tetrarch-spsa 1";

/// `A` as a fraction of the iterations.
pub const A_RATIO: f64 = 0.1;
/// The learning rate's decay exponent.
pub const ALPHA: f64 = 0.602;
/// The perturbation's decay exponent.
pub const GAMMA: f64 = 0.101;
/// The least perturbation: the engine gets whole numbers, and below half
/// a unit `θ+` and `θ−` would mostly round to the same value (OpenBench's
/// floor for integer parameters).
pub const MIN_C: f64 = 0.5;

/// One parameter: its name (the engine's option), its value now, its range
/// and OpenBench's two gains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The option's name (`setoption name NAME value V`).
    pub name: String,
    /// The value (θ); the engine gets it rounded.
    pub value: f64,
    /// The least value (a whole number).
    pub min: f64,
    /// The greatest value (a whole number).
    pub max: f64,
    /// The perturbation at the last iteration (`c_end`).
    pub c_end: f64,
    /// The learning rate at the last iteration (`r_end`): the step is
    /// `r_k · c_k · (wins − losses)`, `r_k = a_k / c_k²`.
    pub r_end: f64,
}

/// The fields of a parameter, in the file's order.
const FIELDS: [&str; 6] = ["name", "value", "min", "max", "c_end", "r_end"];

/// What is wrong with a parameters file (the file is named by
/// [`SpsaError::Params`]).
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    /// Not JSON at all (serde's message has the line and column).
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// JSON, but not a list of parameters.
    #[error("expected a JSON list of parameters [{{\"name\": …, \"value\": …, \"min\": …, \"max\": …, \"c_end\": …, \"r_end\": …}}, …]")]
    NotAList,
    /// An empty list.
    #[error("no parameters")]
    Empty,
    /// An element of the list that is not an object (1-based).
    #[error("parameter {index}: not an object")]
    NotAnObject {
        /// 1-based.
        index: usize,
    },
    /// A field that is not one of [`FIELDS`].
    #[error("parameter {index}: unknown field `{field}` (fields: name, value, min, max, c_end, r_end)")]
    UnknownField {
        /// 1-based.
        index: usize,
        /// The field.
        field: String,
    },
    /// A field left out.
    #[error("parameter {index}: missing field `{field}`")]
    MissingField {
        /// 1-based.
        index: usize,
        /// The field.
        field: &'static str,
    },
    /// `name` not a string, or a number field not a (finite) number.
    #[error("parameter {index}: `{field}` must be {}", if *field == "name" { "a string" } else { "a number" })]
    WrongType {
        /// 1-based.
        index: usize,
        /// The field.
        field: &'static str,
    },
    /// An empty name, spaces around it, or a name that would break the
    /// `setoption` line.
    #[error("parameter {index}: bad name `{name}` (not empty, no spaces at its ends, no line break, not the word `value`)")]
    BadName {
        /// 1-based.
        index: usize,
        /// The name.
        name: String,
    },
    /// A name given twice (option names are not case-sensitive).
    #[error("parameter `{0}` given twice")]
    DuplicateName(String),
    /// `min` or `max` not a whole number.
    #[error("parameter `{name}`: {field} {value} is not a whole number (the engine gets whole numbers)")]
    NotWhole {
        /// The parameter.
        name: String,
        /// `min` or `max`.
        field: &'static str,
        /// Its value.
        value: f64,
    },
    /// `min > max`.
    #[error("parameter `{name}`: min {min} > max {max}")]
    MinAboveMax {
        /// The parameter.
        name: String,
        /// Its min.
        min: f64,
        /// Its max.
        max: f64,
    },
    /// `value` outside `[min, max]`.
    #[error("parameter `{name}`: value {value} is outside [{min}, {max}]")]
    ValueOutside {
        /// The parameter.
        name: String,
        /// Its value.
        value: f64,
        /// Its min.
        min: f64,
        /// Its max.
        max: f64,
    },
    /// `c_end` or `r_end` not positive.
    #[error("parameter `{name}`: {field} must be positive (got {value})")]
    NotPositive {
        /// The parameter.
        name: String,
        /// `c_end` or `r_end`.
        field: &'static str,
        /// Its value.
        value: f64,
    },
}

/// Parses and checks a parameters file's text: a JSON list of objects with
/// exactly the fields `name`, `value`, `min`, `max`, `c_end`, `r_end`.
pub fn parse_params(text: &str) -> Result<Vec<Param>, ParamsError> {
    let v: Value = serde_json::from_str(text).map_err(ParamsError::NotJson)?;
    let Value::Array(list) = v else { return Err(ParamsError::NotAList) };
    if list.is_empty() {
        return Err(ParamsError::Empty);
    }
    let mut params: Vec<Param> = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let index = i + 1;
        let Value::Object(obj) = item else { return Err(ParamsError::NotAnObject { index }) };
        if let Some(field) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(ParamsError::UnknownField { index, field: field.clone() });
        }
        let get = |field: &'static str| obj.get(field).ok_or(ParamsError::MissingField { index, field });
        let num =
            |field: &'static str| get(field)?.as_f64().filter(|x| x.is_finite()).ok_or(ParamsError::WrongType { index, field });
        let name = get("name")?.as_str().ok_or(ParamsError::WrongType { index, field: "name" })?.to_string();
        let p =
            Param { value: num("value")?, min: num("min")?, max: num("max")?, c_end: num("c_end")?, r_end: num("r_end")?, name };
        check_param(index, &p)?;
        if params.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            return Err(ParamsError::DuplicateName(p.name));
        }
        params.push(p);
    }
    Ok(params)
}

/// The checks of one parameter beyond its fields' types.
fn check_param(index: usize, p: &Param) -> Result<(), ParamsError> {
    let n = &p.name;
    if n.is_empty() || n.trim() != n || n.contains(['\n', '\r']) || n.split_whitespace().any(|w| w == "value") {
        return Err(ParamsError::BadName { index, name: n.clone() });
    }
    for (field, value) in [("min", p.min), ("max", p.max)] {
        if value.fract() != 0.0 {
            return Err(ParamsError::NotWhole { name: n.clone(), field, value });
        }
    }
    if p.min > p.max {
        return Err(ParamsError::MinAboveMax { name: n.clone(), min: p.min, max: p.max });
    }
    if !(p.min..=p.max).contains(&p.value) {
        return Err(ParamsError::ValueOutside { name: n.clone(), value: p.value, min: p.min, max: p.max });
    }
    for (field, value) in [("c_end", p.c_end), ("r_end", p.r_end)] {
        if value <= 0.0 {
            return Err(ParamsError::NotPositive { name: n.clone(), field, value });
        }
    }
    Ok(())
}

/// Reads and checks a parameters file.
pub fn read_params(path: &Path) -> Result<Vec<Param>, SpsaError> {
    let text = std::fs::read_to_string(path).map_err(|source| SpsaError::ReadParams { path: path.into(), source })?;
    parse_params(&text).map_err(|source| SpsaError::Params { path: path.into(), source })
}

/// The parameters as a parameters file (the values rounded to 1/100: the
/// engine gets whole numbers; the exact ones are in the state file).
pub fn params_text(params: &[Param]) -> String {
    // Rust writes an f64 without an exponent and a whole one without `.0`:
    // JSON numbers as a person writes them.
    let lines: Vec<String> = params
        .iter()
        .map(|p| {
            format!(
                "  {{\"name\": {}, \"value\": {}, \"min\": {}, \"max\": {}, \"c_end\": {}, \"r_end\": {}}}",
                serde_json::to_string(&p.name).expect("a string serialises"),
                (p.value * 100.0).round() / 100.0,
                p.min,
                p.max,
                p.c_end,
                p.r_end
            )
        })
        .collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// `option.NAME=V` words for a match command, with the values rounded
/// (a name with a space is quoted for the shell).
pub fn option_words(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| {
            let w = format!("option.{}={}", p.name, engine_value(p.value, p));
            if w.contains(' ') {
                format!("'{w}'")
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A value as the engine gets it: rounded, within the range.
pub fn engine_value(x: f64, p: &Param) -> i64 {
    x.round().clamp(p.min, p.max) as i64
}

/// The gains of a run of `iterations` iterations (OpenBench's form, from
/// `c_end` and `r_end`):
///
/// `c = c_end · N^γ`, `a = r_end · c_end² · (A + N)^α`, `A = 0.1 · N`;
/// at iteration `k` (1-based) `c_k = max(c / k^γ, 0.5)` and
/// `a_k = a / (A + k)^α`; so `c_N = c_end` and `a_N / c_N² = r_end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// `N`.
    pub iterations: u64,
    /// `A`.
    pub big_a: f64,
    /// `α`.
    pub alpha: f64,
    /// `γ`.
    pub gamma: f64,
}

impl Schedule {
    /// OpenBench's constants for `iterations` iterations.
    pub fn new(iterations: u64) -> Schedule {
        Schedule { iterations, big_a: A_RATIO * iterations as f64, alpha: ALPHA, gamma: GAMMA }
    }

    /// `c_k` of a parameter.
    pub fn c_k(&self, p: &Param, k: u64) -> f64 {
        let c = p.c_end * (self.iterations as f64).powf(self.gamma);
        (c / (k as f64).powf(self.gamma)).max(MIN_C)
    }

    /// `a_k` of a parameter.
    pub fn a_k(&self, p: &Param, k: u64) -> f64 {
        let a = p.r_end * p.c_end * p.c_end * (self.big_a + self.iterations as f64).powf(self.alpha);
        a / (self.big_a + k as f64).powf(self.alpha)
    }
}

/// One iteration's perturbation: a function of the seed, `k` and θ alone
/// (the flips and the rounding draws come from a generator seeded with
/// `(seed, k)`), so a resumed run draws what an uninterrupted one drew.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration (1-based).
    pub k: u64,
    /// `Δᵢ`: +1 or −1.
    pub flips: Vec<f64>,
    /// `c_k` of each parameter.
    pub c: Vec<f64>,
    /// The values of the engine with `θ + c_k·Δ`, as it gets them.
    pub plus: Vec<i64>,
    /// The values of the engine with `θ − c_k·Δ`.
    pub minus: Vec<i64>,
}

impl Perturbation {
    /// Draws iteration `k`'s flips and rounds `θ ± c_k·Δ` for the engines.
    /// The rounding is OpenBench's: `floor(x + u)` with one uniform `u` per
    /// parameter shared by both sides, so the engine's value is `x` on
    /// average; then clamped to `[min, max]`.
    pub fn draw(params: &[Param], sched: &Schedule, seed: u64, k: u64) -> Perturbation {
        let mut rng = Rng(mix(seed ^ 0x5B5A_5B5A_0000_0000, k));
        let mut out = Perturbation { k, flips: vec![], c: vec![], plus: vec![], minus: vec![] };
        for p in params {
            let flip = if rng.next_u64() >> 63 == 1 { 1.0 } else { -1.0 };
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let c = sched.c_k(p, k);
            let round = |x: f64| (x + u).floor().clamp(p.min, p.max) as i64;
            out.plus.push(round(p.value + c * flip));
            out.minus.push(round(p.value - c * flip));
            out.flips.push(flip);
            out.c.push(c);
        }
        out
    }

    /// θ after the iteration's games: `θᵢ += a_k / c_k · result · Δᵢ`,
    /// clamped to `[min, max]`; `result` is wins − losses of `θ+`.
    pub fn update(&self, params: &mut [Param], sched: &Schedule, result: i64) {
        for (i, p) in params.iter_mut().enumerate() {
            let step = sched.a_k(p, self.k) / self.c[i] * result as f64 * self.flips[i];
            p.value = (p.value + step).clamp(p.min, p.max);
        }
    }
}

/// The games of one iteration from `θ+`'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Games `θ+` won.
    pub wins: u64,
    /// Games it lost.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

impl Score {
    /// wins − losses.
    pub fn result(&self) -> i64 {
        self.wins as i64 - self.losses as i64
    }
    fn add(&mut self, o: &Score) {
        self.wins += o.wins;
        self.losses += o.losses;
        self.draws += o.draws;
    }
    /// The score of `θ+` in percent (50 with no games).
    pub fn percent(&self) -> f64 {
        let n = self.wins + self.losses + self.draws;
        if n == 0 {
            50.0
        } else {
            100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / n as f64
        }
    }
}

/// What fixes a run: the start, the gains, the seed and the games. A run
/// continues from its state file only with the same setup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    /// The parameters as they started.
    pub params: Vec<Param>,
    /// `N`.
    pub iterations: u64,
    /// Game pairs an iteration.
    pub pairs: u64,
    /// The seed of the flips and the openings.
    pub seed: u64,
    /// How the games are played (for `tetrarch spsa`: the runner's words
    /// but the concurrency, which does not change the games).
    pub games: Vec<String>,
}

/// The state after an iteration: `state.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// [`STATE_FORMAT`].
    pub format: String,
    /// The run.
    pub setup: Setup,
    /// Iterations done.
    pub iteration: u64,
    /// θ now, in the setup's order (exact: the file keeps every bit).
    pub theta: Vec<f64>,
    /// `θ+`'s games so far.
    pub score: Score,
    /// Seconds spent in iterations so far (all sessions).
    pub seconds: f64,
}

/// One line of `trajectory.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrajectoryLine {
    /// The iteration (1-based).
    pub iteration: u64,
    /// wins − losses of `θ+`.
    pub result: i64,
    /// Its games.
    pub score: Score,
    /// `Δ`.
    pub flips: Vec<f64>,
    /// `c_k`.
    pub c: Vec<f64>,
    /// The `θ+` engine's values.
    pub plus: Vec<i64>,
    /// The `θ−` engine's values.
    pub minus: Vec<i64>,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    /// The parameters file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    ReadParams {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The parameters file is wrong.
    #[error("{}: {source}", path.display())]
    Params {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ParamsError,
    },
    /// `--iterations 0` or `--pairs-per-iteration 0`.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// The games' settings, refused by the match runner.
    #[error("{0}")]
    Match(ConfigError),
    /// The state file cannot be read or is not one.
    #[error("{}: {reason}", path.display())]
    BadState {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The output folder holds another run.
    #[error("{} holds another run ({difference}): use another --out, or the command that started it", dir.display())]
    OtherRun {
        /// The folder.
        dir: PathBuf,
        /// What differs.
        difference: String,
    },
    /// A file of the output folder cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The games could not be played (an engine does not start or
    /// rejects an option, interrupted, …).
    #[error(transparent)]
    Games(#[from] RunError),
}

impl SpsaError {
    /// The exit code: 2 for input refused before any game, else 1.
    pub fn exit_code(&self) -> i32 {
        match self {
            SpsaError::Games(e) => e.exit_code(),
            SpsaError::Write { .. } => 1,
            _ => 2,
        }
    }
}

/// What an iteration's games are asked to play: the iteration, its first
/// opening (`(k − 1) · pairs`: every iteration new openings), and the two
/// engines' options.
#[derive(Clone, Debug)]
pub struct Games<'a> {
    /// The iteration (1-based).
    pub k: u64,
    /// The number of its first opening.
    pub first_opening: u64,
    /// Game pairs.
    pub pairs: u64,
    /// `(name, value)` of the `θ+` engine.
    pub plus: Vec<(&'a str, i64)>,
    /// `(name, value)` of the `θ−` engine.
    pub minus: Vec<(&'a str, i64)>,
}

/// What [`run`] reports after each iteration.
#[derive(Clone, Debug)]
pub struct Progress<'a> {
    /// The state just written.
    pub state: &'a State,
    /// The parameters with θ now.
    pub params: &'a [Param],
    /// The iteration's line.
    pub line: &'a TrajectoryLine,
    /// Time of all sessions.
    pub elapsed: Duration,
}

/// The progress line of an iteration.
pub fn progress_line(p: &Progress<'_>) -> String {
    let s = p.elapsed.as_secs();
    let theta: Vec<String> = p.params.iter().map(|q| format!("{} {:.2}", q.name, q.value)).collect();
    let t = &p.state.score;
    format!(
        "iteration {}/{} {}:{:02}:{:02} | {} | {:+} | total {}-{}-{} ({:.1}%)",
        p.state.iteration,
        p.state.setup.iterations,
        s / 3600,
        s / 60 % 60,
        s % 60,
        theta.join(", "),
        p.line.result,
        t.wins,
        t.losses,
        t.draws,
        t.percent()
    )
}

/// Iteration `k` of a run, without files: draws its perturbation, has
/// `play` play its games and updates θ (`params`' values). [`run`] is this
/// in a loop, with the state written after each.
pub fn iteration(
    params: &mut [Param],
    sched: &Schedule,
    seed: u64,
    pairs: u64,
    k: u64,
    play: &mut dyn FnMut(&Games<'_>) -> Result<Score, SpsaError>,
) -> Result<TrajectoryLine, SpsaError> {
    let pert = Perturbation::draw(params, sched, seed, k);
    let games = Games {
        k,
        first_opening: (k - 1) * pairs,
        pairs,
        plus: params.iter().zip(&pert.plus).map(|(p, &v)| (p.name.as_str(), v)).collect(),
        minus: params.iter().zip(&pert.minus).map(|(p, &v)| (p.name.as_str(), v)).collect(),
    };
    let score = play(&games)?;
    pert.update(params, sched, score.result());
    Ok(TrajectoryLine {
        iteration: k,
        result: score.result(),
        score,
        flips: pert.flips,
        c: pert.c,
        plus: pert.plus,
        minus: pert.minus,
        theta: params.iter().map(|p| p.value).collect(),
    })
}

/// Runs (or continues) an SPSA run in `dir`: from its state file when
/// there is one of the same setup, else from the start. `play` plays an
/// iteration's games; `progress` hears of each iteration after its state
/// is written. Returns the final state.
///
/// Files: after every iteration its line is appended to
/// [`TRAJECTORY_FILE`] (flushed), then [`STATE_FILE`] is replaced (a
/// temporary file, synced, renamed): a kill at any moment leaves a state
/// file of a whole iteration, and a trajectory line past it is cut off when
/// the run continues. The folder is made when the first iteration ends, so
/// a run refused before its first games leaves nothing.
pub fn run(
    dir: &Path,
    setup: Setup,
    play: &mut dyn FnMut(&Games<'_>) -> Result<Score, SpsaError>,
    progress: &mut dyn FnMut(&Progress<'_>),
) -> Result<State, SpsaError> {
    if setup.iterations == 0 {
        return Err(SpsaError::Zero("--iterations"));
    }
    if setup.pairs == 0 {
        return Err(SpsaError::Zero("--pairs-per-iteration"));
    }
    let mut state = match load_state(dir)? {
        Some(s) if s.setup == setup => s,
        Some(s) => return Err(SpsaError::OtherRun { dir: dir.into(), difference: setup_difference(&s.setup, &setup) }),
        None => State {
            format: STATE_FORMAT.into(),
            theta: setup.params.iter().map(|p| p.value).collect(),
            setup,
            iteration: 0,
            score: Score::default(),
            seconds: 0.0,
        },
    };
    repair_trajectory(dir, state.iteration)?;
    let sched = Schedule::new(state.setup.iterations);
    let mut params = state.setup.params.clone();
    for (p, &v) in params.iter_mut().zip(&state.theta) {
        p.value = v;
    }
    let session = Instant::now();
    let before = state.seconds;
    while state.iteration < state.setup.iterations {
        let k = state.iteration + 1;
        let line = iteration(&mut params, &sched, state.setup.seed, state.setup.pairs, k, play)?;
        state.iteration = k;
        state.theta = line.theta.clone();
        state.score.add(&line.score);
        state.seconds = before + session.elapsed().as_secs_f64();
        append_trajectory(dir, &line)?;
        write_state(dir, &state)?;
        progress(&Progress { state: &state, params: &params, line: &line, elapsed: Duration::from_secs_f64(state.seconds) });
    }
    Ok(state)
}

/// The parameters of a state: the setup's with θ.
pub fn final_params(state: &State) -> Vec<Param> {
    let mut params = state.setup.params.clone();
    for (p, &v) in params.iter_mut().zip(&state.theta) {
        p.value = v;
    }
    params
}

/// The state file of `dir`, if there is one.
pub fn load_state(dir: &Path) -> Result<Option<State>, SpsaError> {
    let path = dir.join(STATE_FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(SpsaError::BadState { path, reason: e.to_string() }),
    };
    let s: State = serde_json::from_str(&text).map_err(|e| SpsaError::BadState { path: path.clone(), reason: e.to_string() })?;
    if s.format != STATE_FORMAT {
        return Err(SpsaError::BadState { path, reason: format!("format `{}`, not `{STATE_FORMAT}`", s.format) });
    }
    if s.theta.len() != s.setup.params.len() || s.iteration > s.setup.iterations {
        return Err(SpsaError::BadState { path, reason: "θ or the iteration does not fit the run".into() });
    }
    Ok(Some(s))
}

/// In words, what differs between the run in the folder and this one.
fn setup_difference(old: &Setup, new: &Setup) -> String {
    let mut d = Vec::new();
    if old.params != new.params {
        d.push("parameters".to_string());
    }
    if old.iterations != new.iterations {
        d.push(format!("iterations {} vs {}", old.iterations, new.iterations));
    }
    if old.pairs != new.pairs {
        d.push(format!("pairs per iteration {} vs {}", old.pairs, new.pairs));
    }
    if old.seed != new.seed {
        d.push(format!("seed {} vs {}", old.seed, new.seed));
    }
    if old.games != new.games {
        d.push(format!("games `{}` vs `{}`", old.games.join(" "), new.games.join(" ")));
    }
    d.join(", ")
}

fn write_err(path: &Path) -> impl FnOnce(std::io::Error) -> SpsaError + '_ {
    move |source| SpsaError::Write { path: path.into(), source }
}

/// Writes `text` to `path` atomically: a temporary file beside it, synced,
/// then renamed over it.
fn write_atomically(path: &Path, text: &str) -> Result<(), SpsaError> {
    let tmp = path.with_extension("tmp");
    let r = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    r.map_err(write_err(path))
}

fn write_state(dir: &Path, state: &State) -> Result<(), SpsaError> {
    let text = serde_json::to_string_pretty(state).expect("the state serialises") + "\n";
    write_atomically(&dir.join(STATE_FILE), &text)
}

fn append_trajectory(dir: &Path, line: &TrajectoryLine) -> Result<(), SpsaError> {
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    let path = dir.join(TRAJECTORY_FILE);
    let text = serde_json::to_string(line).expect("a line serialises") + "\n";
    let r = std::fs::OpenOptions::new().create(true).append(true).open(&path).and_then(|mut f| {
        f.write_all(text.as_bytes())?;
        f.flush()
    });
    r.map_err(write_err(&path))
}

/// Keeps the trajectory's whole lines of iterations `1..=done` (a kill
/// after a line was written but before the state was, or in the middle of
/// a line, leaves more).
fn repair_trajectory(dir: &Path, done: u64) -> Result<(), SpsaError> {
    let path = dir.join(TRAJECTORY_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else { return Ok(()) };
    let keep: String = text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .filter(|l| serde_json::from_str::<TrajectoryLine>(l).is_ok_and(|t| t.iteration <= done))
        .collect();
    if keep != text {
        write_atomically(&path, &keep)?;
    }
    Ok(())
}

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

/// The score of engine 0 (`θ+`) in these games: a game is its win when its
/// seats take more points than engine 1's (in a game of two sides: it won).
pub fn score_of(records: &[GameRecord]) -> Score {
    let mut s = Score::default();
    for r in records {
        let mean = |e: usize| {
            let pts: Vec<f64> = (0..r.points.len()).filter(|&i| r.seat_engines[i] == e).map(|i| r.points[i]).collect();
            pts.iter().sum::<f64>() / pts.len().max(1) as f64
        };
        let (p, m) = (mean(0), mean(1));
        if p > m {
            s.wins += 1;
        } else if p < m {
            s.losses += 1;
        } else {
            s.draws += 1;
        }
    }
    s
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

#[cfg(test)]
mod tests;

//! Everything checked before the first game: the rule options, the
//! engines against the game, the schedule, the fingerprint ([`Plan`]); the
//! earlier records of `--resume`, every engine's start, the PGN file and
//! the first line.

use std::io::Write;
use std::sync::Arc;

use super::error::RunError;
use crate::config::Config;
use crate::engine::{EngineProc, Log};
use crate::games::{format_of, Format, GameInfo};
use crate::openings::{make_opening, read_openings, OpeningsFileError};
use crate::play::{Job, MatchCtx, HANDSHAKE};
use crate::record::{read_records, GameRecord};
use crate::shard::Shard;
use crate::tournament::Schedule;

/// The match as the checks before the first game leave it: the rules, the
/// format, the openings, the schedule and the fingerprint.
pub(super) struct Plan<G: GameInfo> {
    pub(super) variant: &'static str,
    /// The rule options (the referee's and every engine's).
    pub(super) opts: G::Options,
    /// The `setoption` pairs of every engine (rule options included).
    pub(super) engine_options: Vec<OptionPairs>,
    pub(super) fmt: Format,
    /// Side (0 or 1) of each seat: seat 1's side is 0.
    pub(super) sides: Vec<usize>,
    /// Seat names (`p1` …) for the PGN and the progress lines.
    pub(super) seat_names: Vec<&'static str>,
    /// The openings file's openings (`--openings`).
    pub(super) file_openings: Option<Vec<crate::openings::Opening>>,
    pub(super) schedule: Schedule,
    /// Games of the whole match (every shard).
    pub(super) total: u64,
    /// Turn cap in force (0: none).
    pub(super) maxturns: u32,
    /// The fingerprint the records carry.
    pub(super) match_id: String,
    /// This shard (the whole match without `--shard`).
    pub(super) shard: Shard,
    /// The number of the first opening: game `g` plays opening
    /// `first_opening + g / k` (0 for a match; [`crate::play_games`] moves
    /// it on).
    pub(super) first_opening: u64,
}

impl<G: GameInfo> Plan<G> {
    /// What every game of the match shares: the rules, the engines'
    /// options, the turn cap, the log and the fingerprint.
    pub(super) fn match_ctx(&self, cfg: Arc<Config>, log: Option<Arc<Log>>) -> MatchCtx<G> {
        MatchCtx {
            variant: self.variant,
            opts: self.opts.clone(),
            cfg,
            engine_options: self.engine_options.clone(),
            maxturns: self.maxturns,
            log,
            match_id: self.match_id.clone(),
        }
    }

    /// Whether the game has two sides (duel, teams).
    pub(super) fn two_sides(&self) -> bool {
        self.fmt != Format::FreeForAll
    }

    /// Engine index per seat of a game of `group` in rotation `round`:
    /// sides swapped in a pair, seats rotated in free-for-all.
    pub(super) fn seat_engines(&self, group: &[usize], round: u32) -> Vec<usize> {
        (0..self.sides.len())
            .map(|s| match self.fmt {
                Format::FreeForAll => group[(s + round as usize) % group.len()],
                _ => group[(self.sides[s] + round as usize) % 2],
            })
            .collect()
    }

    /// The game numbered `game`: its opening, rotation and engines.
    pub(super) fn job(&self, cfg: &Config, game: u64) -> Job {
        let slot = self.schedule.slot(game);
        let opening_index = self.first_opening + slot.opening;
        let opening = make_opening::<G>(
            self.file_openings.as_deref(),
            cfg.random_plies,
            cfg.random_setup,
            &self.opts,
            cfg.seed,
            opening_index,
        );
        Job {
            game,
            opening_index,
            round: slot.round,
            opening,
            seat_engines: self.seat_engines(&self.schedule.groups[slot.group], slot.round),
        }
    }
}

/// An engine's `setoption` pairs (name, value), in order.
pub(super) type OptionPairs = Vec<(String, String)>;

/// Rule options: an engine option that is one of the game's own options is
/// a rule; the referee plays by it and every engine gets it. Returns the
/// rule options and every engine's `setoption` pairs.
pub(super) fn rule_options<G: GameInfo>(cfg: &Config, variant: &'static str) -> Result<(G::Options, Vec<OptionPairs>), RunError> {
    let mut opts = G::default_options(variant);
    let specs = G::option_specs(variant);
    let mut rules: Vec<(String, String)> = Vec::new();
    for e in &cfg.engines {
        for (k, v) in &e.options {
            if let Some(spec) = specs.iter().find(|s| s.name.eq_ignore_ascii_case(k)) {
                match rules.iter().find(|r| r.0 == spec.name) {
                    Some(prev) if prev.1 != *v => {
                        return Err(RunError::RuleOptionDiffers {
                            name: spec.name.to_string(),
                            first: prev.1.clone(),
                            second: v.clone(),
                        })
                    }
                    Some(_) => {}
                    None => {
                        G::set_option(&mut opts, spec.name, v)
                            .map_err(|reason| RunError::RuleOption { name: spec.name.to_string(), reason })?;
                        rules.push((spec.name.to_string(), v.clone()));
                    }
                }
            }
        }
    }
    let engine_options = cfg
        .engines
        .iter()
        .map(|e| {
            let mut o = e.options.clone();
            if e.proto == crate::engine_config::Proto::FourPChess {
                return o; // that dialect knows only its own options
            }
            for r in &rules {
                if !o.iter().any(|x| x.0.eq_ignore_ascii_case(&r.0)) {
                    o.push(r.clone());
                }
            }
            o
        })
        .collect();
    Ok((opts, engine_options))
}

/// The number of engines fits the game (and the tournament), and the
/// flags of two sides are not given for free-for-all.
pub(super) fn check_engines_fit(cfg: &Config, variant: &'static str, fmt: Format, seats: usize) -> Result<(), RunError> {
    let n_eng = cfg.engines.len();
    match fmt {
        _ if cfg.tournament.is_some() => {
            let need = if fmt == Format::FreeForAll { seats } else { 2 };
            if n_eng < need {
                return Err(RunError::TournamentEngines { variant, need, got: n_eng, free_for_all: fmt == Format::FreeForAll });
            }
        }
        Format::Duel | Format::Teams if n_eng != 2 => return Err(RunError::TwoSides { variant, got: n_eng }),
        Format::FreeForAll if n_eng != 2 && n_eng != seats => {
            return Err(RunError::FreeForAllEngines { variant, seats, got: n_eng })
        }
        _ => {}
    }
    if fmt == Format::FreeForAll && cfg.sprt.is_some() {
        return Err(RunError::SprtFreeForAll);
    }
    if fmt == Format::FreeForAll && cfg.resign.is_some() {
        return Err(RunError::ResignFreeForAll);
    }
    Ok(())
}

/// The games: one group of every engine, or a tournament's groups; and
/// the number of games of the whole match.
pub(super) fn schedule(cfg: &Config, fmt: Format, seats: usize) -> Result<(Schedule, u64), RunError> {
    let n_eng = cfg.engines.len();
    let schedule = match cfg.tournament {
        Some(kind) => Schedule::tournament(kind, n_eng, if fmt == Format::FreeForAll { seats } else { 2 }),
        None => Schedule::single(n_eng, if fmt == Format::FreeForAll { n_eng as u64 } else { 2 }),
    };
    let per_opening = schedule.per_opening;
    let total = match cfg.tournament {
        Some(_) => {
            let per_group = cfg.games.map_or(per_opening, u64::from);
            if !per_group.is_multiple_of(per_opening) {
                return Err(RunError::TournamentGames { per_group, per_opening, free_for_all: fmt == Format::FreeForAll });
            }
            schedule.total(per_group)
        }
        None => cfg.games.map_or(per_opening, u64::from),
    };
    Ok((schedule, total))
}

/// Everything checked that needs no file but the openings: the rules, the
/// engines, the openings, the schedule; the fingerprint of the match.
pub(super) fn plan_match<G: GameInfo>(cfg: &Config, variant: &'static str) -> Result<Plan<G>, RunError> {
    let (opts, engine_options) = rule_options::<G>(cfg, variant)?;
    let start = G::startpos(&opts);
    let fmt = format_of(&start);
    let seats = start.seats();
    check_engines_fit(cfg, variant, fmt, seats)?;
    let file_openings = match &cfg.openings {
        Some(p) => Some(read_openings::<G>(p, &opts)?),
        None => None,
    };
    let (schedule, total) = schedule(cfg, fmt, seats)?;
    let maxturns = cfg.maxturns.unwrap_or_else(|| G::default_maxturns(variant));
    let book = match &cfg.openings {
        Some(p) => Some(std::fs::read(p).map_err(|source| OpeningsFileError::Read { path: p.clone(), source })?),
        None => None,
    };
    Ok(Plan {
        variant,
        engine_options,
        fmt,
        sides: (0..seats).map(|s| usize::from(start.side_of(s) != start.side_of(0))).collect(),
        seat_names: (0..seats).map(|s| start.seat_name(s)).collect(),
        file_openings,
        schedule,
        total,
        maxturns,
        match_id: crate::identity::fingerprint(cfg, variant, maxturns, book.as_deref()),
        shard: cfg.shard.unwrap_or(Shard::WHOLE),
        opts,
        first_opening: 0,
    })
}

/// The earlier records of `--resume`: every one of this match and shard,
/// and replaying with the rules. A file of the runner before the
/// fingerprint named limits and options goes on under its own fingerprint
/// (`plan.match_id` becomes it). Without `--resume` a records file must be
/// new or empty.
pub(super) fn earlier_records<G: GameInfo>(cfg: &Config, plan: &mut Plan<G>) -> Result<Vec<GameRecord>, RunError> {
    let Some(path) = &cfg.records else { return Ok(Vec::new()) };
    if !cfg.resume {
        if path.exists() && std::fs::metadata(path).map(|m| m.len() > 0).unwrap_or(false) {
            return Err(RunError::RecordsExist { path: path.clone() });
        }
        return Ok(Vec::new());
    }
    if !path.exists() {
        return Ok(Vec::new());
    }
    let earlier = read_records(path)?;
    let legacy = crate::identity::legacy_fingerprint(cfg, plan.variant);
    if earlier.first().is_some_and(|r| r.match_id == legacy) {
        println!("--resume: {} was written by an older runner; its games keep their fingerprint", path.display());
        plan.match_id = legacy;
    }
    let (shard, per_opening) = (plan.shard, plan.schedule.per_opening);
    for r in &earlier {
        if r.match_id != plan.match_id {
            return Err(RunError::ResumeOtherMatch {
                path: path.clone(),
                game: r.game,
                difference: crate::identity::difference(&plan.match_id, &r.match_id),
            });
        }
        if !shard.owns(r.game, per_opening) {
            return Err(RunError::ResumeOtherShard {
                path: path.clone(),
                game: r.game,
                owner: Shard::owner(r.game, per_opening, shard.n),
                shard,
            });
        }
        r.verify::<G>(&plan.opts).map_err(|source| RunError::ResumeReplay { game: r.game, source })?;
    }
    Ok(earlier)
}

/// Every engine once: it starts, knows the variant and takes its options.
pub(super) fn check_engines_start<G: GameInfo>(cfg: &Config, plan: &Plan<G>, log: &Option<Arc<Log>>) -> Result<(), RunError> {
    for (e, ecfg) in cfg.engines.iter().enumerate() {
        let mut p = EngineProc::spawn(ecfg, log.clone())?;
        let r = p.init(plan.variant, &plan.engine_options[e], ecfg.proto == crate::engine_config::Proto::Tetrarch, HANDSHAKE);
        p.shutdown();
        r.map_err(|source| RunError::EngineHandshake { name: ecfg.name.clone(), source })?;
    }
    Ok(())
}

/// The PGN file (`--pgnout`), opened for appending. On `--resume` a kill
/// between a game's record and its PGN text (or in the middle of that
/// text) is repaired from the records.
pub(super) fn open_pgn<G: GameInfo>(
    cfg: &Config,
    plan: &Plan<G>,
    earlier: &[GameRecord],
) -> Result<Option<std::fs::File>, RunError> {
    let Some(p) = &cfg.pgnout else { return Ok(None) };
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .map_err(|source| RunError::PgnOpen { path: p.clone(), source })?;
    if cfg.resume {
        let old = std::fs::read(p).map_err(|source| RunError::PgnRead { path: p.clone(), source })?;
        // Only the very end may be cut inside a character (a torn write);
        // invalid text elsewhere is not the runner's.
        let old = match std::str::from_utf8(&old) {
            Ok(t) => t,
            Err(e) if e.error_len().is_none() => std::str::from_utf8(&old[..e.valid_up_to()]).unwrap_or(""),
            Err(_) => return Err(RunError::PgnNotText { path: p.clone() }),
        };
        let (keep, add) = crate::pgn::repair(old, earlier, |r| crate::pgn::write(r, &plan.seat_names, plan.two_sides()));
        let repair = |source| RunError::PgnRepair { path: p.clone(), source };
        if keep < std::fs::metadata(p).map_or(0, |m| m.len() as usize) {
            f.set_len(keep as u64).map_err(repair)?;
        }
        f.write_all(add.as_bytes()).and_then(|_| f.flush()).map_err(repair)?;
    }
    Ok(Some(f))
}

/// The first line: the match, its games and how they are played.
pub(super) fn print_banner<G: GameInfo>(cfg: &Config, plan: &Plan<G>, to_play: usize, shard_games: u64) {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let total = plan.total;
    let engines_text = match cfg.tournament {
        Some(k) => format!(
            "{} tournament of {} ({} {} × {} games)",
            k.word(),
            names.join(", "),
            plan.schedule.groups.len(),
            if plan.two_sides() { "pairings" } else { "groups" },
            total / plan.schedule.groups.len().max(1) as u64
        ),
        None => format!("engines {}", names.join(" vs ")),
    };
    println!(
        "Match {}: {} games{} ({} to play), {engines_text}, seed {}, concurrency {}{}",
        plan.variant,
        total,
        cfg.shard.map_or(String::new(), |sh| format!(", shard {sh}: {shard_games} of them")),
        to_play,
        cfg.seed,
        cfg.concurrency,
        if plan.maxturns > 0 { format!(", turn cap {}", plan.maxturns) } else { String::new() }
    );
}

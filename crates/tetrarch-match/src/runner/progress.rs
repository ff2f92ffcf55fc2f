//! What the runner does with each finished game ([`Collector`]): the record
//! and PGN written, the tally, the progress line, the SPRT; and the final
//! table.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::error::RunError;
use super::workers::SharedSprt;
use crate::config::Config;
use crate::record::{GameRecord, RecordWriter};
use crate::shared::Decision;
use crate::stats::SprtState;
use crate::tally::Tally;
use crate::text::printable;

/// What the runner keeps as games finish: the files, the tally, the
/// progress display and the SPRT.
pub(super) struct Collector<'a> {
    pub(super) cfg: &'a Config,
    pub(super) writer: Option<RecordWriter>,
    pub(super) pgn: Option<std::fs::File>,
    pub(super) seat_names: &'a [&'static str],
    pub(super) two_sides: bool,
    pub(super) tally: Tally,
    /// Standard output is a terminal: one progress line, rewritten.
    pub(super) tty: bool,
    /// This shard's games (the progress line's `[done/total]`).
    pub(super) total: u64,
    pub(super) stop: &'a AtomicBool,
    pub(super) no_new_pairs: &'a AtomicBool,
    pub(super) shared_sprt: Option<SharedSprt<'a>>,
    /// Games played now.
    pub(super) played: u64,
    /// The SPRT's decision (this shard's own SPRT).
    pub(super) sprt_state: Option<SprtState>,
    /// The first file that could not be written.
    pub(super) fatal: Option<RunError>,
}

impl Collector<'_> {
    /// One finished game: written, counted, shown, and the SPRT asked.
    pub(super) fn take(&mut self, rec: &GameRecord) {
        self.played += 1;
        self.write(rec);
        self.tally.add(rec);
        self.show(rec);
        self.update_sprt();
    }

    /// The record and the PGN text; a write that fails stops the match.
    pub(super) fn write(&mut self, rec: &GameRecord) {
        if let Some(w) = &mut self.writer {
            if let Err(e) = w.write(rec) {
                self.fatal = Some(RunError::WriteRecords(e));
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        if let Some(f) = &mut self.pgn {
            let text = crate::pgn::write(rec, self.seat_names, self.two_sides);
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                self.fatal = Some(RunError::WritePgn(e));
                self.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// The progress: one line rewritten on a terminal, else a line a game.
    pub(super) fn show(&self, rec: &GameRecord) {
        // Engine text (a forfeit's reason quotes the engine) is escaped:
        // it must not reach the terminal as control sequences.
        let line = self.tally.short(self.cfg.sprt.as_ref());
        let line = printable(&line);
        if self.tty {
            print!("\r\x1b[K[{}/{}] {line}", self.tally.games, self.total);
        } else {
            let who: Vec<String> = rec.seats.iter().enumerate().map(|(s, n)| format!("{}={}", self.seat_names[s], n)).collect();
            println!(
                "Game {} [{}/{}] ({}): {} ({}) | {line}",
                rec.game + 1,
                self.tally.games,
                self.total,
                printable(&who.join(" ")),
                printable(&rec.result),
                printable(&rec.reason)
            );
        }
        let _ = std::io::stdout().flush();
    }

    /// Over shards, the SPRT of the shared folder (decided by the workers
    /// before each new pair) shows on the progress line from the next game
    /// on, and the folder's warnings are shown here; else this match's own
    /// SPRT stops new pairs once it decides.
    pub(super) fn update_sprt(&mut self) {
        if let Some((folder, s, _)) = self.shared_sprt {
            if let Ok(mut f) = folder.lock() {
                self.tally.all_shards = Some(f.state(s));
                for w in f.warnings.drain(..) {
                    eprintln!("warning: {w}");
                }
            }
        } else if let Some(s) = &self.cfg.sprt {
            let st = s.state(self.tally.llr(s));
            if st != SprtState::Continue && self.sprt_state.is_none() {
                self.sprt_state = Some(st);
                self.no_new_pairs.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The state of the SPRT over all shards now, for the final table (and
/// the shared folder's warnings shown).
pub(super) fn all_shards_line(cfg: &Config, (folder, s, _): SharedSprt<'_>) -> Option<String> {
    let mut f = folder.lock().ok()?;
    f.refresh();
    let (games, llr) = f.state(s);
    let state = match s.state(llr) {
        SprtState::Continue => "no decision yet",
        SprtState::H0 => "H0 accepted",
        SprtState::H1 => "H1 accepted",
    };
    let dir = cfg.records_dir.as_ref().map_or(String::new(), |d| d.display().to_string());
    let line = format!(
        "  All shards in {dir} now: {games} games, SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{:.2}, {:.2}], {state} (tetrarch match report {dir} for the table)",
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        s.lower(),
        s.upper(),
    );
    for w in f.warnings.drain(..) {
        eprintln!("warning: {w}");
    }
    Some(line)
}

/// The final table: the tally's, headed by what stopped the match, then
/// the state of all shards and the runner's own time. A decision of the
/// SPRT over all shards becomes the match's.
pub(super) fn final_table(cfg: &Config, c: &mut Collector<'_>, decision: Option<Decision>, wall: Instant) -> Vec<String> {
    let mut table = c.tally.table(if c.shared_sprt.is_some() { None } else { cfg.sprt.as_ref() });
    if let Some(st) = c.sprt_state {
        table.insert(0, format!("SPRT stopped the match: {}", if st == SprtState::H1 { "H1 accepted" } else { "H0 accepted" }));
    }
    if let Some(sh) = cfg.shard {
        table.insert(0, format!("Shard {sh}: {} of its {} games recorded", c.tally.games, c.total));
    }
    if let Some(shared) = c.shared_sprt {
        if let Some(d) = &decision {
            table.insert(0, format!("SPRT over all shards stopped this shard: {}", d.text));
            c.sprt_state = Some(d.state);
        }
        table.extend(all_shards_line(cfg, shared));
    }
    table.push(format!(
        "  Runner: {:.1} s wall, {} CPU (its own threads, not the engines)",
        wall.elapsed().as_secs_f64(),
        crate::os::cpu_seconds().map_or("?".to_string(), |c| format!("{c:.2} s"))
    ));
    table
}

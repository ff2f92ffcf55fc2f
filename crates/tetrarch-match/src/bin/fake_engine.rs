//! A fake engine for the runner's tests: a random mover that can misbehave.
//!
//! Arguments (`KEY=VALUE`):
//! - `mode=` what it does on `go` once `after=` good turns are played:
//!   `good` (a random legal turn), `crash` (exits), `hang` (never answers),
//!   `late` (answers after `delay=` ms, default 3000), `illegal` (a well-formed
//!   illegal turn), `garbage` (junk lines, then a malformed `bestmove`),
//!   `none` (`bestmove (none)`), `empty` (`bestmove` without a turn),
//!   `longline` (`lines=` MiB of text without a line end, default 3, then
//!   it hangs), `escape` (`bestmove` with terminal escape sequences),
//!   `stuck` (sleeps for ever without reading its input);
//!   and at start: `silent` (never `uciok`), `exit` (exits at once),
//!   `badoption` (rejects every `setoption` but the variant).
//! - `after=N`: good turns in each game before misbehaving (default 0);
//!   `after=LO-HI`: a random number in that range, drawn for every game.
//! - `score=CP`: the score of its `info` line (default 0).
//! - `seed=S`: seed of its random choices (default 1).
//! - `think=MS`: time a good turn takes (default 0).
//! - `proto=4pchess`: speak the 4pchess dialect (teamchess): `info … score
//!   N` with a bare score from Red/Yellow's side, answer
//!   `bestmove h2-h3` / `e10-e11=Q`, and treat a `go` with Tetrarch clock
//!   words (`wtime`, `p1time`) as a protocol error (answers a bad move).
//! - `pidfile=PATH`: append its process id to PATH at start.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::io::{BufRead, Write};
use std::time::Duration;

use tetrarch_core::turns::legal_turns;
use tetrarch_match::games::{with_variant, GameInfo, GameVisitor};
use tetrarch_match::openings::Opening;

struct Legal<'a>(&'a str, bool);

impl GameVisitor for Legal<'_> {
    type Output = Option<Vec<String>>;
    fn visit<G: GameInfo>(self, variant: &'static str) -> Self::Output {
        let opts = G::default_options(variant);
        let o = Opening::parse_line(self.0).ok()?;
        let (g, _) = o.replay::<G>(&opts).ok()?;
        let mut opts4 = opts.clone();
        let dialect = self.1 && G::set_option(&mut opts4, "Notation", "fen4").is_ok();
        Some(
            legal_turns(&g)
                .into_iter()
                .map(|(tok, acts)| if dialect { g.dialect_turn(&opts4, &acts).unwrap_or(tok) } else { tok })
                .collect(),
        )
    }
}

/// What the command line asks (see the module comment).
struct Settings {
    mode: String,
    /// Good turns in each game before misbehaving: a range drawn from.
    after_range: (u64, u64),
    score: i64,
    seed: u64,
    delay: u64,
    think: u64,
    /// `proto=4pchess`.
    dialect: bool,
    /// `lines=` MiB for `longline`.
    mib: u64,
}

impl Settings {
    /// The `KEY=VALUE` arguments; `pidfile=` is written at once.
    fn from_args(args: impl Iterator<Item = String>) -> Settings {
        let mut s = Settings {
            mode: "good".into(),
            after_range: (0, 0),
            score: 0,
            seed: 1,
            delay: 3000,
            think: 0,
            dialect: false,
            mib: 3,
        };
        for a in args {
            let (k, v) = a.split_once('=').unwrap_or((a.as_str(), ""));
            match k {
                "mode" => s.mode = v.to_string(),
                "after" => {
                    s.after_range = match v.split_once('-') {
                        Some((a, b)) => (a.parse().unwrap_or(0), b.parse().unwrap_or(0)),
                        None => (v.parse().unwrap_or(0), v.parse().unwrap_or(0)),
                    }
                }
                "score" => s.score = v.parse().unwrap_or(0),
                "seed" => s.seed = v.parse().unwrap_or(1),
                "delay" => s.delay = v.parse().unwrap_or(3000),
                "think" => s.think = v.parse().unwrap_or(0),
                "proto" => s.dialect = v == "4pchess",
                "lines" => s.mib = v.parse().unwrap_or(3),
                "pidfile" => {
                    if let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(v) {
                        let _ = writeln!(f, "{}", std::process::id());
                    }
                }
                _ => {}
            }
        }
        s
    }
}

/// Prints a line and flushes.
fn say(s: &str) {
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{s}");
    let _ = out.flush();
}

/// The engine's state between commands.
struct Fake {
    set: Settings,
    variant: String,
    position: String,
    rng: tetrarch_match::openings::Rng,
    /// Good turns before misbehaving in this game.
    after: u64,
    /// `go` commands in this game.
    gos: u64,
}

impl Fake {
    fn new(set: Settings) -> Fake {
        let variant = if set.dialect { "teamchess" } else { "fourchess" }.to_string();
        let rng = tetrarch_match::openings::Rng(set.seed ^ (std::process::id() as u64) << 20);
        let mut f = Fake { set, variant, position: "startpos".into(), rng, after: 0, gos: 0 };
        f.after = f.draw_after();
        f
    }

    /// A number of good turns from `after=`'s range.
    fn draw_after(&mut self) -> u64 {
        let (lo, hi) = self.set.after_range;
        lo + self.rng.next_u64() % (hi.saturating_sub(lo) + 1)
    }

    /// One command; `false` on `quit`.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") if self.set.mode != "silent" => {
                say("id name fake");
                say("id author the tests");
                say("uciok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") => {
                if words.len() >= 5 && words[2].eq_ignore_ascii_case("UCI_Variant") {
                    self.variant = words[4].to_string();
                } else if self.set.mode == "badoption" {
                    say("info string error: setoption: unknown option");
                }
            }
            Some("position") => self.position = words[1..].join(" "),
            Some("ucinewgame") => {
                self.gos = 0;
                self.after = self.draw_after();
            }
            Some("quit") => return false,
            Some("go") => return self.go(&words),
            _ => {}
        }
        true
    }

    /// `go`: a good turn, or the misbehaviour of `mode=` once `after=`
    /// good turns are played; `false` when the engine stops.
    fn go(&mut self, words: &[&str]) -> bool {
        self.gos += 1;
        let misbehave = self.gos > self.after;
        let legal = with_variant(&self.variant, Legal(&self.position, self.set.dialect)).flatten().unwrap_or_default();
        if self.set.dialect && words.iter().any(|w| *w == "wtime" || *w == "p1time") {
            say("bestmove a1-a2"); // not this dialect's clock words
            return true;
        }
        let good = if legal.is_empty() {
            "(none)".to_string()
        } else {
            legal[(self.set.seed as usize + self.gos as usize * 7919) % legal.len()].clone()
        };
        if !misbehave || self.set.mode == "good" || self.set.mode == "badoption" {
            if self.set.think > 0 {
                std::thread::sleep(Duration::from_millis(self.set.think));
            }
            let score = self.set.score;
            if self.set.dialect {
                // 4pchess's form: a bare score, from Red/Yellow's side.
                say(&format!("info depth 1 time 1 nodes 1 pv {good} score {score} nps 1"));
            } else {
                say(&format!("info depth 1 score cp {score} nodes 1 pv {good}"));
            }
            say(&format!("bestmove {good}"));
            return true;
        }
        self.misbehave(&legal, &good)
    }

    /// What `mode=` does instead of a good turn; `false` when the engine
    /// stops.
    fn misbehave(&self, legal: &[String], good: &str) -> bool {
        match self.set.mode.as_str() {
            "crash" => std::process::exit(3),
            "hang" => {}
            "late" => {
                std::thread::sleep(Duration::from_millis(self.set.delay));
                say(&format!("bestmove {good}"));
            }
            "illegal" => {
                let t = if self.set.dialect {
                    "d1-d9"
                } else if legal.iter().any(|t| t == "0000") {
                    "a1a1"
                } else {
                    "0000"
                };
                say(&format!("bestmove {t}"));
            }
            "garbage" => {
                for i in 0..50 {
                    say(&format!("\u{1}\u{7f}garbage {i} ÿÿ {{{{{{ bestmovex"));
                }
                say("info score cp banana");
                say("bestmove \u{2}!!garbage!!");
            }
            "none" => say("bestmove (none)"),
            "longline" => {
                let chunk = vec![b'x'; 1 << 20];
                let mut o = std::io::stdout();
                for _ in 0..self.set.mib {
                    if o.write_all(&chunk).and_then(|_| o.flush()).is_err() {
                        return false;
                    }
                }
                std::thread::sleep(Duration::from_secs(3600));
            }
            "escape" => say("bestmove \u{1b}[2J\u{1b}]0;pwned\u{7}\u{1b}[31mzz"),
            "stuck" => loop {
                std::thread::sleep(Duration::from_secs(3600));
            },
            "empty" => say("bestmove"),
            _ => {}
        }
        true
    }
}

fn main() {
    // 1. The settings; `mode=exit` exits at once.
    let set = Settings::from_args(std::env::args().skip(1));
    if set.mode == "exit" {
        std::process::exit(1);
    }
    // 2. Commands until `quit` or the end of the input.
    let mut fake = Fake::new(set);
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if !fake.command(&line) {
            return;
        }
    }
}

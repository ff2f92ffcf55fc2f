//! A toy game with known perfect play for the search tests: a subtraction
//! game (take 1..=`max_take` stones; whoever takes the last stone wins, with
//! its team) in several shapes: 2 seats, 4 seats in alternating teams, 4
//! seats free-for-all, up to 2 actions per turn with an end-of-turn `0000`,
//! optional passes (for repetitions), and a "path key" mode where every line
//! is a distinct position with a noisy evaluation (a big tree without
//! transpositions, for timing and determinism tests).

#![allow(dead_code)]

use arrayvec::ArrayVec;
use tetrarch_core::eval::{EvalSink, Weights};
use tetrarch_core::game::{
    Evaluation, Notation, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat, SeatSet, TokenError,
};
use tetrarch_core::zobrist::splitmix64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cfg {
    pub seats: u8,
    pub teams: bool,
    pub max_take: u8,
    /// Actions per turn (1 or 2).
    pub apt: u8,
    /// `0000` is legal at a turn start too (a pass).
    pub allow_pass: bool,
    /// Keys are hashes of the whole line (no transpositions), eval is noise.
    pub path_keys: bool,
    /// History rule: a repeated turn-start position loses for its mover.
    pub rep_loses: bool,
    pub stones: u32,
}

impl Default for Cfg {
    fn default() -> Self {
        Cfg { seats: 2, teams: false, max_take: 3, apt: 1, allow_pass: false, path_keys: false, rep_loses: false, stones: 21 }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Toy {
    pub cfg: Cfg,
    pub stones: u32,
    pub to_move: u8,
    pub acted: u8,
    pub last: u8,
    pub key: u64,
}

impl Toy {
    pub fn new(cfg: Cfg) -> Toy {
        let mut t = Toy { cfg, stones: cfg.stones, to_move: 0, acted: 0, last: 0, key: 0 };
        t.key = t.key_from_scratch();
        t
    }

    fn end_turn(&mut self) {
        self.acted = 0;
        self.to_move = (self.to_move + 1) % self.cfg.seats;
    }

    fn noise(&self, salt: u64) -> i32 {
        (splitmix64(self.key ^ salt) % 201) as i32 - 100
    }
}

const NAMES: [&str; 4] = ["P1", "P2", "P3", "P4"];

tetrarch_core::weights! {
    mod w for "toy" {
        NOISE: "noise.unit" = 1;
    }
}

impl Rules for Toy {
    type Action = u8;
    type Undo = Toy;
    type Actions = ArrayVec<u8, 32>;
    type Options = Cfg;
    const ONE_ACTION_PER_TURN: bool = false;
    const VARIANTS: &'static [&'static str] = &["toy"];

    fn default_options(_variant: &str) -> Cfg {
        Cfg::default()
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        Vec::new()
    }

    fn set_option(_opts: &mut Cfg, name: &str, _value: &str) -> Result<(), PositionError> {
        Err(PositionError::unknown_option(name))
    }

    fn startpos(opts: &Cfg) -> Self {
        Toy::new(*opts)
    }

    fn seats(&self) -> usize {
        self.cfg.seats as usize
    }

    fn to_move(&self) -> Seat {
        self.to_move as usize
    }

    fn side_of(&self, seat: Seat) -> usize {
        if self.cfg.teams {
            seat % 2
        } else {
            seat
        }
    }

    fn at_turn_start(&self) -> bool {
        self.acted == 0
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        out.clear();
        if self.stones == 0 {
            return;
        }
        if self.acted > 0 || self.cfg.allow_pass {
            out.push(0);
        }
        for t in 1..=(self.cfg.max_take as u32).min(self.stones) {
            out.push(t as u8);
        }
    }

    fn make(&mut self, a: u8) -> Toy {
        let u = *self;
        if a == 0 {
            self.end_turn();
        } else {
            self.stones -= a as u32;
            self.last = self.to_move;
            self.acted += 1;
            if self.acted >= self.cfg.apt && self.stones > 0 {
                self.end_turn();
            }
        }
        self.key = if self.cfg.path_keys {
            splitmix64(u.key ^ (a as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        } else {
            self.key_from_scratch()
        };
        u
    }

    fn unmake(&mut self, _a: u8, undo: Toy) {
        *self = undo;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.stones > 0 {
            return None;
        }
        let side = self.side_of(self.last as usize);
        let mut w = SeatSet::EMPTY;
        for s in 0..self.seats() {
            if self.side_of(s) == side {
                w = w.with(s);
            }
        }
        Some(Outcome::win(w, "last"))
    }

    fn history_outcome(&self, history: &[u64]) -> Option<Outcome> {
        if !self.cfg.rep_loses || !history.contains(&self.key) {
            return None;
        }
        let loser = self.side_of(self.to_move());
        let mut w = SeatSet::EMPTY;
        for s in 0..self.seats() {
            if self.side_of(s) != loser {
                w = w.with(s);
            }
        }
        Some(Outcome::win(w, "repetition"))
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn key_from_scratch(&self) -> u64 {
        if self.cfg.path_keys && self.key != 0 {
            return self.key;
        }
        splitmix64((self.stones as u64) << 16 | (self.to_move as u64) << 8 | self.acted as u64)
    }

    fn end_turn_action(&self) -> Option<u8> {
        (self.acted > 0 && self.stones > 0).then_some(0)
    }

    fn is_pass(&self, a: u8) -> bool {
        a == 0
    }
}

impl Notation for Toy {
    fn from_position_string(s: &str, opts: &Cfg) -> Result<Self, PositionError> {
        let mut t = Toy::new(*opts);
        let f: Vec<&str> = s.split_whitespace().collect();
        if f.len() != 3 {
            return Err(PositionError::field("position", "stones seat acted"));
        }
        let bad = |_| PositionError::field("position", "not a number");
        t.stones = f[0].parse().map_err(bad)?;
        t.to_move = f[1].parse().map_err(bad)?;
        t.acted = f[2].parse().map_err(bad)?;
        t.key = t.key_from_scratch();
        Ok(t)
    }

    fn position_string(&self) -> String {
        format!("{} {} {}", self.stones, self.to_move, self.acted)
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        NAMES[seat]
    }

    fn write_action(&self, a: u8, out: &mut String) {
        if a == 0 {
            out.push_str("0000");
        } else {
            out.push('t');
            out.push_str(&a.to_string());
        }
    }

    fn parse_action(&self, token: &str) -> Result<u8, TokenError> {
        let a = if token == "0000" {
            0
        } else {
            token.strip_prefix('t').and_then(|n| n.parse::<u8>().ok()).ok_or_else(|| TokenError::Malformed(token.into()))?
        };
        let mut l = ArrayVec::new();
        self.legal_actions(&mut l);
        if l.contains(&a) {
            Ok(a)
        } else {
            Err(TokenError::Illegal(token.into()))
        }
    }
}

impl Evaluation for Toy {
    fn default_weights(_: &str) -> &'static Weights {
        static W: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| Weights::defaults("toy", &w::TABLE));
        &W
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        if !self.cfg.path_keys {
            return;
        }
        let v = if self.cfg.seats == 2 || self.cfg.teams {
            let v = self.noise(0);
            if self.side_of(seat) == 0 {
                v
            } else {
                -v
            }
        } else {
            self.noise(seat as u64 + 1)
        };
        sink.add(w::NOISE, v);
    }
}

impl SearchHints for Toy {
    fn is_tactical(&self, a: u8) -> bool {
        a != 0 && a == self.cfg.max_take
    }

    fn order_hint(&self, a: u8) -> i32 {
        a as i32
    }
}

impl Presentation for Toy {
    fn render(&self) -> String {
        self.position_string()
    }
}

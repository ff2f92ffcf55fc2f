//! The toy game of the tests: take stones from a pile, whoever takes the
//! last stone wins (with its team). A test game with known perfect play,
//! compiled only with the cargo feature `toy`, which the crates enable for
//! their tests alone (`[dev-dependencies]`); it is never a game of the
//! registry, so no engine, runner or GUI built without the tests knows it.
//!
//! One type, [`Toy`], in the shapes its [`Cfg`] describes: 2 seats, 4 seats
//! in alternating teams or free-for-all, up to 2 actions per turn (a turn
//! then ends with `0000` after its first action, or after its second),
//! optional passes (for repetitions), a history rule (a repeated position
//! loses for its mover), and *path keys* (every line is a distinct position
//! with a noisy evaluation: a big tree without transpositions, for the
//! timing and determinism tests of the search). [`Cfg::default`] is the
//! variant `toy` as the engine's unit tests play it through the protocol:
//! 2 seats, take 1 to 3 of 10 stones, the parity evaluation, and the rule
//! options `Toy_MaxTake` (how many stones a take may remove, at once) and
//! `Toy_Big` (21 stones at the next start instead of 10).
//!
//! Notation: a position is `pile seat` (the seat to move, 1-based) with a
//! third field, the actions already played in the turn, in the middle of a
//! turn (`7 2 1`); an action is the number of stones taken (`3`), or `0000`
//! (a pass, or the end of a turn after its first action). When the last
//! stone is taken the turn ends, as in any game: the seat after the winner
//! is to move in the final position.
//!
//! Why here: the engine's unit tests (the line handler, the levels) and
//! the search's integration tests both need a small game with every trait
//! of a real one, and `tetrarch-core` is the one crate both depend on; a
//! feature rather than `#[cfg(test)]`, because a crate's `cfg(test)` code
//! is invisible to the tests of the crates that use it.

use arrayvec::ArrayVec;

use crate::eval::{EvalSink, Weights};
use crate::game::{
    Evaluation, GameInfo, Notation, OptionKind, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat,
    SeatSet, TokenError,
};
use crate::zobrist::splitmix64;

/// The most stones one action may take (the action list holds them and the
/// pass).
pub const MAX_TAKE: u8 = 31;

/// The shape of a toy game: its rules and its evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cfg {
    /// Seats, 2 or 4.
    pub seats: u8,
    /// With 4 seats: seats 1 and 3 against 2 and 4 (otherwise every seat
    /// for itself).
    pub teams: bool,
    /// The most stones one action takes (1 to [`MAX_TAKE`]).
    pub max_take: u8,
    /// Actions per turn, 1 or 2 (a turn may stop after its first with
    /// `0000`).
    pub apt: u8,
    /// `0000` is legal at a turn start too: a pass.
    pub allow_pass: bool,
    /// A position's key is the hash of the whole line that led to it (no
    /// transpositions), and the evaluation adds noise drawn from it.
    pub path_keys: bool,
    /// The history rule: a turn-start position that repeats one of the game
    /// loses for the side to move in it.
    pub rep_loses: bool,
    /// The evaluation knows the winning rule of two sides taking turns of
    /// one action: a pile that is a multiple of `max_take + 1` is lost for
    /// the side to move (−1 parity unit; +1 otherwise).
    pub parity: bool,
    /// The stones at the start.
    pub stones: u32,
}

impl Default for Cfg {
    /// The variant `toy` with its default options: 2 seats, take 1 to 3 of
    /// 10 stones, one action a turn, the parity evaluation.
    fn default() -> Self {
        Cfg {
            seats: 2,
            teams: false,
            max_take: 3,
            apt: 1,
            allow_pass: false,
            path_keys: false,
            rep_loses: false,
            parity: true,
            stones: 10,
        }
    }
}

/// A position of the toy game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toy {
    cfg: Cfg,
    stones: u32,
    to_move: u8,
    /// Actions played in the current turn.
    acted: u8,
    key: u64,
}

impl Toy {
    /// The start position of `cfg`.
    pub fn new(cfg: Cfg) -> Toy {
        let mut t = Toy { cfg, stones: cfg.stones, to_move: 0, acted: 0, key: 0 };
        t.key = t.position_key();
        t
    }

    /// The stones left.
    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// The shape it is played in.
    pub fn cfg(&self) -> &Cfg {
        &self.cfg
    }

    fn end_turn(&mut self) {
        self.acted = 0;
        self.to_move = (self.to_move + 1) % self.cfg.seats;
    }

    /// The hash of what the position is (without the line that led to it).
    fn position_key(&self) -> u64 {
        splitmix64((self.stones as u64) << 16 | (self.to_move as u64) << 8 | self.acted as u64)
    }

    /// A number in -100..=100 drawn from the key.
    fn noise(&self, salt: u64) -> i32 {
        (splitmix64(self.key ^ salt) % 201) as i32 - 100
    }

    /// Every seat of `side`.
    fn seats_of(&self, side: usize) -> SeatSet {
        (0..self.seats()).filter(|&s| self.side_of(s) == side).fold(SeatSet::EMPTY, SeatSet::with)
    }
}

crate::weights! {
    mod w for "toy" {
        // One group, so that `eval` prints one line (`parity: …`) in every shape.
        PARITY: "parity.unit" = 100;
        NOISE: "parity.noise" = 1;
    }
}

impl Rules for Toy {
    type Action = u8;
    type Undo = Toy;
    type Actions = ArrayVec<u8, { MAX_TAKE as usize + 1 }>;
    type Options = Cfg;
    const ONE_ACTION_PER_TURN: bool = false;
    const VARIANTS: &'static [&'static str] = &["toy"];

    fn default_options(_variant: &str) -> Cfg {
        Cfg::default()
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        vec![
            OptionSpec { name: "Toy_MaxTake", kind: OptionKind::Spin { default: 3, min: 1, max: 5 } },
            OptionSpec { name: "Toy_Big", kind: OptionKind::Check(false) },
        ]
    }

    fn set_option(o: &mut Cfg, name: &str, value: &str) -> Result<(), PositionError> {
        match name {
            "Toy_MaxTake" => {
                o.max_take =
                    value.parse().ok().filter(|k| (1..=5).contains(k)).ok_or_else(|| PositionError::option(name, "not 1 to 5"))?
            }
            "Toy_Big" => {
                o.stones = match value {
                    "true" => 21,
                    "false" => 10,
                    _ => return Err(PositionError::option(name, "not true or false")),
                }
            }
            _ => return Err(PositionError::unknown_option(name)),
        }
        Ok(())
    }

    /// `Toy_MaxTake` acts at once; the other options at the next start.
    fn apply_options(&mut self, o: &Cfg) {
        self.cfg.max_take = o.max_take;
    }

    fn startpos(o: &Cfg) -> Self {
        Toy::new(*o)
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
        if a > 0 {
            self.stones -= a as u32;
            self.acted += 1;
        }
        if a == 0 || self.acted >= self.cfg.apt || self.stones == 0 {
            self.end_turn();
        }
        self.key = if self.cfg.path_keys {
            splitmix64(u.key ^ (a as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        } else {
            self.position_key()
        };
        u
    }

    fn unmake(&mut self, _a: u8, undo: Toy) {
        *self = undo;
    }

    /// The seat before the one to move took the last stone: its side wins.
    fn outcome(&self) -> Option<Outcome> {
        if self.stones > 0 {
            return None;
        }
        let last = (self.to_move() + self.seats() - 1) % self.seats();
        Some(Outcome::win(self.seats_of(self.side_of(last)), "laststone"))
    }

    fn history_outcome(&self, history: &[u64]) -> Option<Outcome> {
        if !self.cfg.rep_loses || !history.contains(&self.key) {
            return None;
        }
        let loser = self.side_of(self.to_move());
        let winners = (0..self.seats()).filter(|&s| self.side_of(s) != loser).fold(SeatSet::EMPTY, SeatSet::with);
        Some(Outcome::win(winners, "repetition"))
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// With path keys the line's hash is the key: there is nothing else to
    /// compute it from.
    fn key_from_scratch(&self) -> u64 {
        if self.cfg.path_keys {
            self.key
        } else {
            self.position_key()
        }
    }

    fn end_turn_action(&self) -> Option<u8> {
        (self.acted > 0).then_some(0)
    }

    fn is_pass(&self, a: u8) -> bool {
        a == 0
    }
}

impl Notation for Toy {
    fn from_position_string(s: &str, o: &Cfg) -> Result<Self, PositionError> {
        let f: Vec<&str> = s.split_whitespace().collect();
        if !(2..=3).contains(&f.len()) {
            return Err(PositionError::field("position", format!("expected 2 or 3 fields, got {}", f.len())));
        }
        let mut t = Toy::new(*o);
        t.stones = f[0].parse().map_err(|_| PositionError::field("pile", "not a number"))?;
        let seat: u8 = f[1]
            .parse()
            .ok()
            .filter(|s| (1..=o.seats).contains(s))
            .ok_or_else(|| PositionError::field("side", format!("expected 1 to {}", o.seats)))?;
        t.to_move = seat - 1;
        if let Some(a) = f.get(2) {
            t.acted = a
                .parse()
                .ok()
                .filter(|&a| a < o.apt && t.stones > 0)
                .ok_or_else(|| PositionError::field("acted", format!("expected 0 to {} with stones left", o.apt - 1)))?;
        }
        t.key = t.position_key();
        Ok(t)
    }

    fn position_string(&self) -> String {
        let mut s = format!("{} {}", self.stones, self.to_move + 1);
        if self.acted > 0 {
            s.push_str(&format!(" {}", self.acted));
        }
        s
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["First", "Second", "Third", "Fourth"][seat]
    }

    fn write_action(&self, a: u8, out: &mut String) {
        if a == 0 {
            out.push_str("0000");
        } else {
            out.push_str(&a.to_string());
        }
    }

    fn parse_action(&self, token: &str) -> Result<u8, TokenError> {
        let a = match token {
            "0000" => 0,
            _ => token
                .parse::<u8>()
                .ok()
                .filter(|&k| k > 0)
                .ok_or_else(|| TokenError::Malformed("not a number of stones".into()))?,
        };
        if self.is_legal(a) {
            Ok(a)
        } else if a == 0 {
            Err(TokenError::Illegal("cannot pass".into()))
        } else {
            Err(TokenError::Illegal(format!("cannot take {a}")))
        }
    }
}

impl Evaluation for Toy {
    fn default_weights(_: &str) -> &'static Weights {
        static W: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| Weights::defaults("toy", &w::TABLE));
        &W
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        let ours = self.side_of(seat) == self.side_of(self.to_move());
        if self.cfg.parity {
            let lost = self.stones % (self.cfg.max_take as u32 + 1) == 0;
            sink.add(w::PARITY, if lost == ours { -1 } else { 1 });
        }
        if self.cfg.path_keys {
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
        format!("pile {}\n{}", self.stones, "|".repeat(self.stones.min(100) as usize))
    }
}

/// The defaults: no bench positions, depth 8, `paranoid`, no turn cap.
impl GameInfo for Toy {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::turns::perft;

    fn shapes() -> Vec<Cfg> {
        let d = Cfg { parity: false, stones: 13, ..Cfg::default() };
        vec![
            Cfg::default(),
            Cfg { seats: 4, teams: true, ..d },
            Cfg { seats: 4, ..d },
            Cfg { apt: 2, allow_pass: true, ..d },
            Cfg { apt: 2, path_keys: true, ..d },
        ]
    }

    /// Every line of every shape: `make`/`unmake` restore the position, the
    /// key is the key from scratch, the position string reads back (but
    /// for path keys, whose key is the line's), and the game ends only with
    /// the pile empty, won by the side of the seat that took the last stone.
    #[test]
    fn lines_restore_read_back_and_end_with_the_last_stone() {
        fn walk(t: &mut Toy, mover: Option<Seat>, depth: u32) {
            assert_eq!(t.key(), t.key_from_scratch());
            if !t.cfg.path_keys {
                assert_eq!(Toy::from_position_string(&t.position_string(), &t.cfg).as_ref(), Ok(&*t));
            }
            let mut l = <Toy as Rules>::Actions::default();
            t.legal_actions(&mut l);
            match t.outcome() {
                Some(o) => {
                    assert!(l.is_empty() && t.stones == 0 && t.at_turn_start());
                    assert_eq!(o.for_seat(mover.unwrap()), Some(true), "{t:?}");
                }
                None => assert!(!l.is_empty()),
            }
            for &a in l.iter().filter(|_| depth > 0) {
                let before = *t;
                let seat = t.to_move();
                let u = t.make(a);
                walk(t, Some(seat), depth - 1);
                t.unmake(a, u);
                assert_eq!(*t, before);
            }
        }
        for c in shapes() {
            walk(&mut Toy::new(Cfg { stones: 6, ..c }), None, 9);
        }
    }

    /// Two seats taking 1 to 3: 3 turns from a pile of 10, then 3 × 3.
    #[test]
    fn perft_counts_the_takes() {
        assert_eq!(perft(&mut Toy::new(Cfg::default()), 1), 3);
        assert_eq!(perft(&mut Toy::new(Cfg::default()), 2), 9);
    }

    #[test]
    fn tokens_and_positions() {
        let t = Toy::new(Cfg { apt: 2, ..Cfg::default() });
        assert_eq!(t.parse_action("3"), Ok(3));
        assert!(matches!(t.parse_action("4"), Err(TokenError::Illegal(_))));
        assert!(matches!(t.parse_action("0000"), Err(TokenError::Illegal(_))));
        assert!(matches!(t.parse_action("x"), Err(TokenError::Malformed(_))));
        let mut m = t;
        m.make(2);
        assert_eq!(m.position_string(), "8 1 1");
        assert_eq!(m.parse_action("0000"), Ok(0));
        let o = Cfg::default();
        let err = |s: &str| Toy::from_position_string(s, &o).unwrap_err().field_name().map(str::to_owned);
        assert_eq!(err("3 x").as_deref(), Some("side"));
        assert_eq!(err("3 3").as_deref(), Some("side"));
        assert_eq!(err("x 1").as_deref(), Some("pile"));
        assert_eq!(err("3 1 1").as_deref(), Some("acted"));
        assert_eq!(err("3").as_deref(), Some("position"));
    }
}

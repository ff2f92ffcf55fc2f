//! Quadranj (`quadranj`, `quadranj4`), exactly as `shared/spec/quadranj.md`
//! reads it.
//!
//! Module shape (the same for every game):
//! - [`board`]: the 8×8 and 10×10 boards on a [`Bb128`], step tables,
//!   homes and Keeps;
//! - `moves`: action encoding, legal generation (§5), make/unmake;
//! - `rules`: the end of the turn (§6.1–6.5), the end of the game, the
//!   repetition rules (§6.6, §6.7);
//! - `notation`: position strings (§7), action tokens (§8), set-up tokens
//!   (§9);
//! - [`setup`]: the start layouts as data (§3.4) and burglar proposals;
//! - `eval`: the static evaluation;
//! - `tests`: perft, worked examples, properties against `naive`.
//!
//! The provisional readings of the spec each live in one place:
//! 1. start layouts: [`setup::LAYOUT8`], [`setup::LAYOUT10`];
//! 2. the charge's push square: the rule option `QJ_ChargeLanding`
//!    ([`Options::charge_before`]);
//! 3. express lane geometry: `moves::lane_reach`;
//! 4. unstacking cascade and pilot exit: `moves::Gen::unstack`;
//! 5. who moves first: [`FIRST_SEAT`];
//! 6. repetition windows: `rules::repetition` (§6.6) and `Quadranj::record_arrangement` (§6.7).

pub mod board;
mod eval;
mod moves;
#[cfg(test)]
mod naive;
mod notation;
mod rules;
pub mod setup;
#[cfg(test)]
mod tests;
mod view;

use crate::bitboard::Bb128;
use crate::eval::{EvalSink, Weights};
use crate::game::{
    Evaluation, Notation, OptionKind, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat, SeatSet,
    TokenError,
};
use board::{Geo, Sq, GEO10, GEO8};
pub use moves::{Action, ActionVec, Undo};

/// Provisional (§1.2, §1.3): the seat that moves first from the start
/// position (Red in `quadranj`, Green in `quadranj4`: seat index 0 in both).
pub const FIRST_SEAT: usize = 0;

/// Cell codes: 0 empty, 1 empty blocker, `16·(seat+1) + t` for a unit of a
/// seat with `t` = [`T_ROYAL`], [`T_GUARD`], [`T_PILOT`] or `2 + h` for a
/// piloted column of height `h`.
pub(crate) mod cell {
    pub const EMPTY: u8 = 0;
    pub const WALL: u8 = 1;
    pub const T_ROYAL: u8 = 0;
    pub const T_GUARD: u8 = 1;
    pub const T_PILOT: u8 = 2;
    /// The highest column a cell code holds (13); positions never exceed 8.
    pub const MAX_HEIGHT: usize = 13;
    #[inline(always)]
    pub const fn unit(seat: usize, t: u8) -> u8 {
        16 * (seat as u8 + 1) + t
    }
    #[inline(always)]
    pub const fn column(seat: usize, h: usize) -> u8 {
        16 * (seat as u8 + 1) + 2 + h as u8
    }
    #[inline(always)]
    pub const fn owner(c: u8) -> usize {
        (c >> 4) as usize - 1
    }
    #[inline(always)]
    pub const fn kind(c: u8) -> u8 {
        c & 15
    }
    #[inline(always)]
    pub const fn is_unit(c: u8) -> bool {
        c >= 16
    }
    /// Height of a column code (0 for anything else).
    #[inline(always)]
    pub const fn height(c: u8) -> usize {
        if c >= 16 && c & 15 >= 3 {
            (c & 15) as usize - 2
        } else {
            0
        }
    }
    /// Value in half units (§3.3): royal 8, guard 4, column 2h, lone pilot 1.
    #[inline(always)]
    pub const fn value2(c: u8) -> u32 {
        if c < 16 {
            return 0;
        }
        match c & 15 {
            0 => 8,
            1 => 4,
            2 => 1,
            t => 2 * (t as u32 - 2),
        }
    }
}

/// What a seat's burglar is known to be (§3.5, §7.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Burglar {
    /// `-`: the seat has no burglar.
    None,
    /// `?`: not known to this position (§2.7).
    Unknown,
    /// The pilot on `sq`: a lone pilot (`level` 0) or the pilot of the
    /// `level`-th blocker from the bottom of the column there.
    Known {
        /// Its square.
        sq: u8,
        /// 0 for a lone pilot, else the blocker level (1 = bottom).
        level: u8,
        /// Whether it has revealed itself (`!`).
        revealed: bool,
    },
}

/// Reason words (§11.2), indexed by `State::res_reason`.
pub(crate) const REASONS: [&str; 9] =
    ["", "home", "burglar", "immobilised", "nomove", "elimination", "rounds", "repetition", "arrangement"];
pub(crate) mod reason {
    pub const HOME: u8 = 1;
    pub const BURGLAR: u8 = 2;
    pub const IMMOBILISED: u8 = 3;
    pub const NOMOVE: u8 = 4;
    pub const ELIMINATION: u8 = 5;
    pub const ROUNDS: u8 = 6;
    pub const REPETITION: u8 = 7;
    pub const ARRANGEMENT: u8 = 8;
}

/// The whole position (without the variant), copied as the undo record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct State {
    /// Cell code of every square ([`cell`]).
    pub cell: [u8; 100],
    /// Occupied squares (units and empty blockers).
    pub occ: Bb128,
    /// Units of each seat.
    pub own: [Bb128; 4],
    /// Empty blockers.
    pub walls: Bb128,
    /// Piloted columns (any seat, any height).
    pub cols: Bb128,
    /// Lone pilots (any seat).
    pub pilots: Bb128,
    /// Guards (any seat).
    pub guards: Bb128,
    /// Royal square of each seat ([`board::NO_SQ`] if none).
    pub royal: [u8; 4],
    /// Moved marks (§4.2); empty at a turn start.
    pub marks: Bb128,
    /// Each seat's burglar.
    pub burglar: [Burglar; 4],
    /// Tallies in half units.
    pub tally: [u32; 4],
    /// Seats in the game (bit mask).
    pub in_game: u8,
    /// Seat to move.
    pub to_move: u8,
    /// Action index: 0 at a turn start, 1 after the first action.
    pub index: u8,
    /// Quiet counter (§6.5).
    pub quiet: u32,
    /// Turn number.
    pub turn: u32,
    /// Result: 0 none, 1 win, 2 draw.
    pub res: u8,
    /// Winning seats, or the seats sharing a draw.
    pub res_seats: u8,
    /// Index into [`REASONS`].
    pub res_reason: u8,
    /// Zobrist key of the board and the seat to move.
    pub key: u64,
    /// How many of [`Quadranj::arrangements`] belong to this position's
    /// game (the records after it are from lines taken back).
    pub arr_len: u32,
}

/// Rule options and the variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `quadranj4` (10×10, 4 seats) rather than `quadranj`.
    pub four: bool,
    /// `QJ_ChargeLanding`: `false` = `beyond` (default), `true` = `before`.
    pub charge_before: bool,
}

impl Options {
    /// The defaults of `variant`.
    pub fn for_variant(variant: &str) -> Options {
        Options { four: variant == "quadranj4", charge_before: false }
    }
}

/// The longest unstacking chain the search considers ([`SearchHints::search_actions`]).
pub const SEARCH_LINKS: usize = 2;

/// A Quadranj position, possibly in the middle of a turn.
#[derive(Clone, Debug)]
pub struct Quadranj {
    pub(crate) st: State,
    pub(crate) geo: &'static Geo,
    pub(crate) charge_before: bool,
    /// Whether `make` applies §6.7 ([`Rules::set_history_rules`]).
    pub(crate) history_rules: bool,
    /// The arrangements recorded at the turn ends since this position was
    /// set up (§6.7), the first `st.arr_len` valid.
    pub(crate) arrangements: Vec<rules::ArrRecord>,
}

/// Zobrist keys. The board and the seat to move make up the high 48 bits of
/// [`Rules::key`] (what §6.6 compares); the rest of the position (marks,
/// action index, burglars, tallies, seats in the game) only touches the low
/// 16 bits, so `key >> 16` is the repetition key.
pub(crate) mod keys {
    /// Unit code `c` (< 80) on square `s`: `CELL[s * 80 + c]`.
    pub static CELL: [u64; 8000] = crate::zobrist::keys(0x5155_4144_5241_4E4A);
    pub static MISC: [u64; 128] = crate::zobrist::keys(0x0000_514A_4D49_5343);
    pub const LOW: u64 = 0xFFFF;
    #[inline(always)]
    pub fn cell(s: usize, c: u8) -> u64 {
        if c == 0 {
            0
        } else {
            CELL[s * 80 + c as usize] & !LOW
        }
    }
    #[inline(always)]
    pub fn side(seat: usize) -> u64 {
        MISC[seat] & !LOW
    }
    #[inline(always)]
    pub fn mark(s: usize) -> u64 {
        MISC[4 + s] & LOW
    }
}

impl Quadranj {
    /// An empty board of the variant.
    pub(crate) fn empty(opts: &Options) -> Quadranj {
        let geo: &'static Geo = if opts.four { &GEO10 } else { &GEO8 };
        let mut st = State {
            cell: [0; 100],
            occ: Bb128::EMPTY,
            own: [Bb128::EMPTY; 4],
            walls: Bb128::EMPTY,
            cols: Bb128::EMPTY,
            pilots: Bb128::EMPTY,
            guards: Bb128::EMPTY,
            royal: [board::NO_SQ; 4],
            marks: Bb128::EMPTY,
            burglar: [Burglar::Unknown; 4],
            tally: [0; 4],
            in_game: ((1u16 << geo.seats) - 1) as u8,
            to_move: FIRST_SEAT as u8,
            index: 0,
            quiet: 0,
            turn: 1,
            res: 0,
            res_seats: 0,
            res_reason: 0,
            key: 0,
            arr_len: 0,
        };
        for s in geo.seats..4 {
            st.burglar[s] = Burglar::None;
        }
        st.key = keys::side(st.to_move as usize);
        Quadranj { st, geo, charge_before: opts.charge_before, history_rules: true, arrangements: Vec::new() }
    }

    /// Sets the code of a square, keeping bitboards and key in step.
    #[inline(always)]
    pub(crate) fn set(&mut self, s: Sq, c: u8) {
        let st = &mut self.st;
        let old = st.cell[s];
        if old == c {
            return;
        }
        st.key ^= keys::cell(s, old) ^ keys::cell(s, c);
        if old != cell::EMPTY {
            st.occ.clear(s);
            if old == cell::WALL {
                st.walls.clear(s);
            } else {
                let o = cell::owner(old);
                st.own[o].clear(s);
                match cell::kind(old) {
                    cell::T_ROYAL => st.royal[o] = board::NO_SQ,
                    cell::T_GUARD => st.guards.clear(s),
                    cell::T_PILOT => st.pilots.clear(s),
                    _ => st.cols.clear(s),
                }
            }
        }
        st.cell[s] = c;
        if c != cell::EMPTY {
            st.occ.set(s);
            if c == cell::WALL {
                st.walls.set(s);
            } else {
                let o = cell::owner(c);
                st.own[o].set(s);
                match cell::kind(c) {
                    cell::T_ROYAL => st.royal[o] = s as u8,
                    cell::T_GUARD => st.guards.set(s),
                    cell::T_PILOT => st.pilots.set(s),
                    _ => st.cols.set(s),
                }
            }
        }
    }

    /// Number of seats of the variant.
    #[inline(always)]
    pub fn n_seats(&self) -> usize {
        self.geo.seats
    }

    /// Whether seat `s` is in the game.
    #[inline(always)]
    pub(crate) fn in_game(&self, s: usize) -> bool {
        self.st.in_game >> s & 1 != 0
    }

    /// The union of the active Keeps (§2.5).
    #[inline(always)]
    pub(crate) fn active_keeps(&self) -> Bb128 {
        let mut k = Bb128::EMPTY;
        for s in 0..self.geo.seats {
            if self.in_game(s) {
                k |= self.geo.keep[s];
            }
        }
        k
    }

    /// The cell code on a square.
    #[inline(always)]
    pub fn code(&self, s: Sq) -> u8 {
        self.st.cell[s]
    }

    /// The burglar of a seat.
    pub fn burglar(&self, seat: usize) -> Burglar {
        self.st.burglar[seat]
    }

    /// The low 16 bits of the key: marks, action index, burglars, tallies.
    fn low_key(&self) -> u64 {
        let st = &self.st;
        let mut k = 0u64;
        for s in st.marks {
            k ^= keys::mark(s);
        }
        let mut h = st.index as u64 | (st.in_game as u64) << 1;
        for (i, b) in st.burglar.iter().enumerate() {
            let v = match *b {
                Burglar::None => 0u64,
                Burglar::Unknown => 1,
                Burglar::Known { sq, level, revealed } => 2 + sq as u64 * 32 + level as u64 * 2 + revealed as u64,
            };
            h = crate::zobrist::splitmix64(h ^ v.wrapping_mul(0x100 + i as u64));
        }
        for t in st.tally {
            h = crate::zobrist::splitmix64(h ^ t as u64);
        }
        k ^ (h & keys::LOW)
    }

    /// The board-and-seat key from scratch.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut k = keys::side(self.st.to_move as usize);
        for s in self.geo.all {
            k ^= keys::cell(s, self.st.cell[s]);
        }
        k
    }

    /// The cached outcome.
    fn cached_outcome(&self) -> Option<Outcome> {
        let st = &self.st;
        let r = REASONS[st.res_reason as usize];
        match st.res {
            0 => None,
            1 => Some(Outcome::win(SeatSet(st.res_seats), r)),
            _ => Some(Outcome::draw(SeatSet(st.res_seats), r)),
        }
    }
}

fn combo(name: &str, value: &str, values: &[&str]) -> Result<usize, PositionError> {
    values
        .iter()
        .position(|v| v.eq_ignore_ascii_case(value))
        .ok_or_else(|| PositionError::option(name, format!("invalid value `{value}` (one of {})", values.join(", "))))
}

impl Rules for Quadranj {
    type Action = Action;
    type Undo = Undo;
    type Actions = ActionVec;
    type Options = Options;
    const ONE_ACTION_PER_TURN: bool = false;
    const VARIANTS: &'static [&'static str] = &["quadranj", "quadranj4"];

    fn default_options(variant: &str) -> Options {
        Options::for_variant(variant)
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        vec![OptionSpec { name: "QJ_ChargeLanding", kind: OptionKind::Combo(&["beyond", "before"]) }]
    }

    fn set_option(opts: &mut Options, name: &str, value: &str) -> Result<(), PositionError> {
        match name.to_ascii_lowercase().as_str() {
            "qj_chargelanding" => {
                opts.charge_before = combo("QJ_ChargeLanding", value, &["beyond", "before"])? == 1;
                Ok(())
            }
            _ => Err(PositionError::unknown_option(name)),
        }
    }

    fn startpos(opts: &Options) -> Self {
        setup::start(opts, [None; 4])
    }

    fn seat_in_game(&self, seat: Seat) -> bool {
        self.in_game(seat)
    }

    fn seats(&self) -> usize {
        self.geo.seats
    }

    fn to_move(&self) -> Seat {
        self.st.to_move as usize
    }

    fn side_of(&self, seat: Seat) -> usize {
        seat
    }

    fn at_turn_start(&self) -> bool {
        self.st.index == 0
    }

    fn legal_actions(&self, out: &mut ActionVec) {
        out.0.clear();
        if self.st.res == 0 {
            self.generate(out);
        }
    }

    /// Generates only the chains as long as `a`'s (or of one link), since a
    /// cap on chain length never drops a shorter action.
    fn is_legal(&self, a: Action) -> bool {
        if self.st.res != 0 {
            return false;
        }
        let links = if a.kind == moves::kind::UNSTACK { a.b as usize } else { 1 };
        let mut l = ActionVec::default();
        self.generate_with(&mut l, links.max(1));
        l.contains(&a)
    }

    #[inline(always)]
    fn make(&mut self, a: Action) -> Undo {
        let u = Undo(self.st);
        self.make_action(a);
        u
    }

    #[inline(always)]
    fn unmake(&mut self, _a: Action, u: Undo) {
        self.st = u.0;
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        self.cached_outcome()
    }

    fn history_outcome(&self, history: &[u64]) -> Option<Outcome> {
        rules::history_outcome(self, history)
    }

    fn set_history_rules(&mut self, on: bool) -> bool {
        std::mem::replace(&mut self.history_rules, on)
    }

    fn key(&self) -> u64 {
        self.st.key ^ self.low_key()
    }

    fn key_from_scratch(&self) -> u64 {
        self.compute_key() ^ self.low_key()
    }

    fn is_pass(&self, _a: Action) -> bool {
        false
    }

    fn variant(&self) -> &'static str {
        if self.geo.seats == 4 {
            "quadranj4"
        } else {
            "quadranj"
        }
    }
}

impl Notation for Quadranj {
    fn from_position_string(s: &str, opts: &Options) -> Result<Self, PositionError> {
        notation::parse_position(s, opts)
    }

    fn position_string(&self) -> String {
        notation::write_position(self)
    }

    fn from_setup(tokens: &[&str], opts: &Options) -> Result<Self, PositionError> {
        setup::from_setup(tokens, opts)
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        if self.geo.seats == 2 {
            ["Red", "Blue"][seat & 1]
        } else {
            ["Green", "Blue", "Yellow", "Red"][seat & 3]
        }
    }

    fn write_action(&self, a: Action, out: &mut String) {
        notation::write_action(self, a, out)
    }

    fn parse_action(&self, token: &str) -> Result<Action, TokenError> {
        notation::parse_action(self, token)
    }
}

impl Evaluation for Quadranj {
    fn default_weights(variant: &str) -> &'static Weights {
        eval::default_weights(variant)
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        eval::features(self, seat, sink)
    }
}

impl SearchHints for Quadranj {
    const QUICK_OUTCOME: bool = true;

    /// Races home are short: 18 to 26 turns a seat at 2+0.02, with 10 to
    /// 14 still to play on average at a move (docs/history/search-diary.md, "Sixth
    /// session").
    const TURNS_TO_GO: u32 = 15;

    /// Every legal action except unstacking chains longer than
    /// [`SEARCH_LINKS`] links: a tall stack's chains number in the millions
    /// (§5.12), more than a search can generate in a move's time.
    fn search_actions(&self, out: &mut ActionVec) {
        out.0.clear();
        if self.st.res == 0 {
            self.generate_with(out, SEARCH_LINKS);
        }
    }

    fn repetition_outcome(&self) -> Option<Outcome> {
        (self.st.res == 0).then(|| rules::decide(self, "repetition"))
    }

    fn is_tactical(&self, a: Action) -> bool {
        eval::is_tactical(self, a)
    }

    fn no_tactical(&self) -> bool {
        eval::no_tactical(self)
    }

    fn order_hint(&self, a: Action) -> i32 {
        eval::order_info(self, a).1
    }

    fn order_info(&self, a: Action) -> (bool, i32) {
        eval::order_info(self, a)
    }

    /// `quadranj4` only, at a turn start (no moved marks), to another seat
    /// still in the game: that seat is to move, nothing else changes (the
    /// turn number and the §6.5 counter stay; Best-Reply Search undoes it).
    fn skip_to(&mut self, seat: Seat) -> Option<Undo> {
        let st = &self.st;
        if self.geo.seats != 4
            || st.index != 0
            || st.res != 0
            || seat >= 4
            || seat == st.to_move as usize
            || st.in_game >> seat & 1 == 0
        {
            return None;
        }
        let u = Undo(self.st);
        self.st.key ^= keys::side(self.st.to_move as usize) ^ keys::side(seat);
        self.st.to_move = seat as u8;
        Some(u)
    }

    fn unskip(&mut self, u: Undo) {
        self.st = u.0;
    }
}

impl Presentation for Quadranj {
    fn render(&self) -> String {
        notation::render(self)
    }

    fn board_view(&self) -> Option<crate::view::BoardView> {
        Some(view::board_view(self))
    }

    fn idle_reason(&self, cell: &str) -> Option<String> {
        view::idle_reason(self, cell)
    }
}

impl crate::game::GameInfo for Quadranj {
    /// `docs/quadranj.md`.
    fn rules_page() -> &'static str {
        include_str!("../../../../../docs/quadranj.md")
    }

    fn propose_setup(opts: &Options, seat: Seat, seed: u64) -> Option<String> {
        Some(setup::propose(opts, seat, seed))
    }

    fn bench_depth(_variant: &str) -> u32 {
        6
    }
    /// `quadranj4`: brs beat paranoid 53 wins to 27 in 80 games.
    fn default_strategy(variant: &str) -> &'static str {
        match variant {
            "quadranj4" => "brs",
            _ => "paranoid",
        }
    }
    /// The burglar choice: the game's own proposal, varied by the seed.
    fn random_setup(opts: &Self::Options, seat: Seat, seed: u64) -> Option<String> {
        <Self as crate::game::GameInfo>::propose_setup(opts, seat, seed)
    }
}

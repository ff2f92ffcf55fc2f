//! Quattuor Reges (`quattuor`), exactly as `shared/spec/quattuor.md` reads it.
//!
//! Module shape (the same for every game):
//! - [`board`]: the 248-cell hex board on a 256-bit bitboard, neighbour
//!   shifts and reachability by flood fill;
//! - `moves`: action encoding, generation, make/unmake, the end checks;
//! - `notation`: position strings (§9), action tokens (§8), set-up tokens
//!   (§4.2);
//! - [`setup`]: the engine's set-up proposals and random legal set-ups;
//! - `eval`: the static evaluation;
//! - `tests`: perft, worked examples, properties against `naive`.
//!
//! The game model works at action level: a turn is up to two actions
//! ([`Rules::at_turn_start`] is false between them), `0000` ends the turn at
//! every node that is not over (§10.2).

pub mod board;
mod eval;
mod moves;
#[cfg(test)]
mod naive;
mod notation;
pub mod setup;
#[cfg(test)]
mod tests;
mod view;

use arrayvec::ArrayVec;

use crate::bitboard::Bb256;
use crate::eval::{EvalSink, Weights};
use crate::game::{
    Evaluation, Notation, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat, SeatSet, TokenError,
};
use board::Sq;
pub use moves::{Action, Undo};
pub use notation::{setup_token, START, START_SETUP};

/// Piece values, in the order of the canonical piece order (§3.1).
pub mod value {
    /// The 7.
    pub const SEVEN: usize = 0;
    /// The 8.
    pub const EIGHT: usize = 1;
    /// The 9.
    pub const NINE: usize = 2;
    /// The ten.
    pub const TEN: usize = 3;
    /// The Jack.
    pub const JACK: usize = 4;
    /// The Queen.
    pub const QUEEN: usize = 5;
    /// The King.
    pub const KING: usize = 6;
    /// The Ace.
    pub const ACE: usize = 7;
}
use value::*;

/// Suit letters in the canonical order: `d h` (Red), `c s` (Black).
pub const SUITS: [char; 4] = ['d', 'h', 'c', 's'];
/// Value characters in the canonical order.
pub const VALUES: [char; 8] = ['7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];

/// A piece: `8 * suit + value`, 0..32 in the canonical order (§9.1 field 4).
pub type Piece = usize;

/// The suit (0..4) of a piece.
#[inline(always)]
pub const fn suit_of(p: Piece) -> usize {
    p >> 3
}
/// The value (0..8) of a piece.
#[inline(always)]
pub const fn value_of(p: Piece) -> usize {
    p & 7
}
/// The side (0 Red, 1 Black) of a piece.
#[inline(always)]
pub const fn side_of_piece(p: Piece) -> usize {
    p >> 4
}

/// The range of each value (§3.2).
pub const RANGE: [u32; 8] = [3, 4, 3, 2, 2, 2, 2, 2];

/// `CAPTURES[a]`: the values an attacker of value `a` may capture, as a bit
/// mask over values (§3.3).
pub const CAPTURES: [u8; 8] = {
    const fn m(vs: &[usize]) -> u8 {
        let mut x = 0u8;
        let mut i = 0;
        while i < vs.len() {
            x |= 1 << vs[i];
            i += 1;
        }
        x
    }
    [
        m(&[ACE, JACK]),                      // 7
        m(&[ACE, SEVEN]),                     // 8
        m(&[ACE, EIGHT, SEVEN]),              // 9
        m(&[ACE, NINE, EIGHT, SEVEN]),        // T
        m(&[KING, TEN, NINE, EIGHT]),         // J
        m(&[JACK, TEN, NINE, EIGHT, SEVEN]),  // Q
        m(&[QUEEN, TEN, NINE, EIGHT, SEVEN]), // K
        m(&[ACE, KING, QUEEN, JACK]),         // A
    ]
};

/// The piece code (`dA`, `hT`).
pub fn piece_code(p: Piece) -> String {
    let mut s = String::with_capacity(2);
    s.push(SUITS[suit_of(p)]);
    s.push(VALUES[value_of(p)]);
    s
}

/// Parses a piece code.
pub fn parse_piece(t: &str) -> Option<Piece> {
    let b = t.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let s = SUITS.iter().position(|&c| c as u8 == b[0])?;
    let v = VALUES.iter().position(|&c| c as u8 == b[1])?;
    Some(s * 8 + v)
}

/// Capacity of the action list. Proven by `tests::capacity_bound`: it
/// computes, for every set of a side's pieces on the board, the most actions
/// the rules allow (every destination, Ace retreats, rescue variants on the
/// enemy Bases and the goal rank) from board-wide maxima of the number of
/// cells and goal-rank cells within a range, and checks the result is below
/// this constant.
pub const MAX_ACTIONS: usize = 4864;

/// A captured-piece marker in [`Quattuor::sq_of`].
pub(crate) const NONE: u8 = 0xFF;

/// No result / the results of §7.1 (cached after every action).
pub(crate) mod result {
    pub const NONE: u8 = 0;
    pub const RED_ANNIHILATION: u8 = 1;
    pub const RED_REACH: u8 = 2;
    pub const BLACK_ANNIHILATION: u8 = 3;
    pub const BLACK_REACH: u8 = 4;
}

/// Rule options: none (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options;

/// A Quattuor Reges position, possibly in the middle of a turn.
#[derive(Clone, Debug)]
pub struct Quattuor {
    /// Mailbox: 0 empty, else piece + 1.
    board: [u8; 256],
    /// Cell of each piece, [`NONE`] if captured.
    sq_of: [u8; 32],
    /// Pieces of each side.
    by_side: [Bb256; 2],
    /// Captured pieces (bit per piece).
    captured: u32,
    /// Side to move: 0 Red, 1 Black.
    side: u8,
    /// Suits that have made an action this turn (bit per suit).
    moved: u8,
    /// Locked own Bases of the side to move (bit per Base index).
    locked: u8,
    /// The §7.1 result, [`result::NONE`] while the game goes on.
    result: u8,
    /// Turn number (§5.1).
    turn: u32,
    /// Zobrist key.
    key: u64,
}

/// Zobrist keys: piece on cell; Black to move; suit moved; locked Base;
/// turn 1 (which allows one action only).
pub(crate) mod keys {
    pub static PIECE: [u64; 32 * 256] = crate::zobrist::keys(0x5155_4154_5455_4F52);
    pub static MISC: [u64; 16] = crate::zobrist::keys(0x0052_4547_4553);
    #[inline(always)]
    pub fn piece(p: usize, s: usize) -> u64 {
        PIECE[p * 256 + s]
    }
    #[inline(always)]
    pub fn black() -> u64 {
        MISC[0]
    }
    #[inline(always)]
    pub fn moved(suit: usize) -> u64 {
        MISC[1 + suit]
    }
    /// Locked Base `b` (0, 1) of `side`.
    #[inline(always)]
    pub fn locked(side: usize, b: usize) -> u64 {
        MISC[5 + 2 * side + b]
    }
    #[inline(always)]
    pub fn turn1() -> u64 {
        MISC[9]
    }
}

impl Quattuor {
    pub(crate) fn empty() -> Self {
        Quattuor {
            board: [0; 256],
            sq_of: [NONE; 32],
            by_side: [Bb256::EMPTY; 2],
            captured: !0,
            side: 0,
            moved: 0,
            locked: 0,
            result: result::NONE,
            turn: 1,
            key: 0,
        }
    }

    /// Puts a captured piece on an empty cell (no key update).
    #[inline(always)]
    pub(crate) fn put(&mut self, p: Piece, s: Sq) {
        self.board[s] = p as u8 + 1;
        self.sq_of[p] = s as u8;
        self.by_side[side_of_piece(p)].set(s);
        self.captured &= !(1 << p);
    }

    /// Removes a piece from the board (no key update).
    #[inline(always)]
    pub(crate) fn remove(&mut self, p: Piece, s: Sq) {
        self.board[s] = 0;
        self.sq_of[p] = NONE;
        self.by_side[side_of_piece(p)].clear(s);
        self.captured |= 1 << p;
    }

    /// The piece on a cell.
    #[inline(always)]
    pub fn piece_at(&self, s: Sq) -> Option<Piece> {
        let c = self.board[s];
        (c != 0).then(|| c as usize - 1)
    }

    /// The cell of a piece, `None` if captured.
    #[inline(always)]
    pub fn square_of(&self, p: Piece) -> Option<Sq> {
        let s = self.sq_of[p];
        (s != NONE).then_some(s as Sq)
    }

    /// The side to move (0 Red, 1 Black).
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// The turn number.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Captured pieces as a bit mask over [`Piece`].
    pub fn captured_mask(&self) -> u32 {
        self.captured
    }

    /// Every occupied cell.
    #[inline(always)]
    pub fn occupied(&self) -> Bb256 {
        self.by_side[0] | self.by_side[1]
    }

    /// The §7.1 result from the board alone.
    pub(crate) fn compute_result(&self) -> u8 {
        const KA: u32 = 1 << KING | 1 << ACE | 1 << (8 + KING) | 1 << (8 + ACE);
        if self.captured & KA == KA {
            return result::BLACK_ANNIHILATION;
        }
        if self.captured & (KA << 16) == (KA << 16) {
            return result::RED_ANNIHILATION;
        }
        for side in 0..2 {
            for suit in [2 * side, 2 * side + 1] {
                for v in [QUEEN, KING, ACE] {
                    if let Some(s) = self.square_of(suit * 8 + v) {
                        if board::GOAL[side].has(s) {
                            return if side == 0 { result::RED_REACH } else { result::BLACK_REACH };
                        }
                    }
                }
            }
        }
        result::NONE
    }

    /// The key from scratch.
    pub(crate) fn compute_key(&self) -> u64 {
        let mut k = 0;
        for p in 0..32 {
            if let Some(s) = self.square_of(p) {
                k ^= keys::piece(p, s);
            }
        }
        if self.side == 1 {
            k ^= keys::black();
        }
        for suit in 0..4 {
            if self.moved >> suit & 1 != 0 {
                k ^= keys::moved(suit);
            }
        }
        for b in 0..2 {
            if self.locked >> b & 1 != 0 {
                k ^= keys::locked(self.side as usize, b);
            }
        }
        if self.turn == 1 {
            k ^= keys::turn1();
        }
        k
    }
}

impl Rules for Quattuor {
    type Action = Action;
    type Undo = Undo;
    type Actions = ArrayVec<Action, MAX_ACTIONS>;
    type Options = Options;
    const ONE_ACTION_PER_TURN: bool = false;
    const VARIANTS: &'static [&'static str] = &["quattuor"];

    fn default_options(_variant: &str) -> Options {
        Options
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        Vec::new()
    }

    fn set_option(_opts: &mut Options, name: &str, _value: &str) -> Result<(), PositionError> {
        Err(PositionError::unknown_option(name))
    }

    fn startpos(_opts: &Options) -> Self {
        notation::parse_position(START).expect("the start position parses")
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.side as usize
    }

    fn side_of(&self, seat: Seat) -> usize {
        seat
    }

    fn at_turn_start(&self) -> bool {
        self.moved == 0
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        self.generate(out)
    }

    #[inline(always)]
    fn make(&mut self, a: Action) -> Undo {
        self.make_action(a)
    }

    #[inline(always)]
    fn unmake(&mut self, a: Action, u: Undo) {
        self.unmake_action(a, u)
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        match self.result {
            result::NONE => None,
            result::RED_ANNIHILATION => Some(Outcome::win(SeatSet(1), "annihilation")),
            result::RED_REACH => Some(Outcome::win(SeatSet(1), "reach")),
            result::BLACK_ANNIHILATION => Some(Outcome::win(SeatSet(2), "annihilation")),
            _ => Some(Outcome::win(SeatSet(2), "reach")),
        }
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn key_from_scratch(&self) -> u64 {
        self.compute_key()
    }

    fn end_turn_action(&self) -> Option<Action> {
        (self.moved != 0 && self.result == result::NONE).then_some(Action::PASS)
    }

    fn is_pass(&self, a: Action) -> bool {
        a.is_pass()
    }
}

impl Notation for Quattuor {
    fn from_position_string(s: &str, _opts: &Options) -> Result<Self, PositionError> {
        notation::parse_position(s)
    }

    fn position_string(&self) -> String {
        notation::write_position(self)
    }

    fn from_setup(tokens: &[&str], _opts: &Options) -> Result<Self, PositionError> {
        notation::from_setup(tokens)
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["Red", "Black"][seat & 1]
    }

    fn write_action(&self, a: Action, out: &mut String) {
        notation::write_action(self, a, out)
    }

    fn parse_action(&self, token: &str) -> Result<Action, TokenError> {
        notation::parse_action(self, token)
    }
}

impl Evaluation for Quattuor {
    fn default_weights(_variant: &str) -> &'static Weights {
        &eval::DEFAULT
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        eval::features(self, seat, sink)
    }
}

impl SearchHints for Quattuor {
    const QUICK_OUTCOME: bool = true;

    /// Races to the goal rank are short: 9 to 32 turns in all (median 14)
    /// against depth 1 at 10+0.1, 4.6 turns of the mover still to play on
    /// average at a move (docs/history/search-diary.md, "Tenth session").
    const TURNS_TO_GO: u32 = 8;

    fn is_tactical(&self, a: Action) -> bool {
        eval::is_tactical(self, a)
    }

    fn order_hint(&self, a: Action) -> i32 {
        eval::order_hint(self, a)
    }
}

impl Presentation for Quattuor {
    fn render(&self) -> String {
        notation::render(self)
    }

    fn board_view(&self) -> Option<crate::view::BoardView> {
        Some(view::board_view(self))
    }

    fn action_cells(&self, a: Action) -> Vec<String> {
        view::action_cells(self, a)
    }

    fn idle_reason(&self, cell: &str) -> Option<String> {
        view::idle_reason(self, cell)
    }
}

impl crate::game::GameInfo for Quattuor {
    /// `docs/quattuor.md`.
    fn rules_page() -> &'static str {
        include_str!("../../../../../docs/quattuor.md")
    }

    fn propose_setup(_opts: &Options, seat: Seat, seed: u64) -> Option<String> {
        Some(setup::propose(seat.min(1), seed))
    }

    /// A race from a random set-up (runner seed 503, game 7, turn 11):
    /// Red's dQ on a10 and Black's sQ on e7 are both three turns from
    /// their goal ranks, and Red's dQ has no Black Ace or King near it
    /// (the `free` term).
    fn bench_positions(_variant: &str) -> &'static [&'static str] {
        &["1sT2sA12/2cQ6s9c95/s78cJc86/11c74/10sJ6/dQ7sK7/8cA8/13cK2/4sQ12/hQ15/17/2dJ13/hK5d9dK4d8hJ1h81/1h92h73dA3dT3/10hT6 r - d7hAcTs8 - 11"]
    }
    /// Turns of two actions with hundreds of choices each.
    fn bench_depth(_variant: &str) -> u32 {
        6
    }
    /// Quattuor Reges has no draw rule (spec 7.2).
    fn default_maxturns(_variant: &str) -> u32 {
        400
    }
    fn random_setup(_opts: &Self::Options, seat: Seat, seed: u64) -> Option<String> {
        Some(setup::random_setup(seat.min(1), seed))
    }
}

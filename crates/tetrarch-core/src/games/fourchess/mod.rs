//! Four-handed Chess, Verney's partnership rules (`fourchess`), exactly as
//! `shared/spec/fourchess.md` reads them.
//!
//! Module shape (the same for every game):
//! - [`board`]: geometry and attack tables;
//! - `moves`: move encoding, generation, make/unmake;
//! - `rules`: check, the mate/release status update (§5.6), the end of the
//!   game (§5.8);
//! - `notation`: position strings (§7) and turn tokens (§10);
//! - `eval`: the static evaluation;
//! - `tests`: perft and worked examples.

pub use super::cross_board::board;
pub use super::cross_board::piece;
pub use super::cross_board::{enemies_mask, partner};
mod eval;
mod moves;
#[cfg(test)]
mod naive;
mod notation;
mod rules;
#[cfg(test)]
mod tests;
mod view;

use arrayvec::ArrayVec;

use crate::eval::{EvalSink, Weights};
use crate::game::{
    Evaluation, Notation, OptionKind, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat, TokenError,
};
use board::Sq;
pub use moves::Move;

use super::cross_board::keys;
use super::cross_board::men::{code, Men};

/// Start layout (`FC_Layout`, §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Queens on light squares with a1 dark (default).
    A,
    /// The opposite colouring: King and Queen swapped on every arm.
    B,
}

/// Rule options (§4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `FC_Layout`.
    pub layout: Layout,
    /// `FC_LeapOwnPawns`.
    pub leap_own_pawns: bool,
    /// `FC_NoProgressPlies` (0 = never).
    pub no_progress_plies: u32,
    /// `FC_RepetitionDraw`.
    pub repetition_draw: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { layout: Layout::A, leap_own_pawns: false, no_progress_plies: 200, repetition_draw: true }
    }
}

/// Maximum legal actions of one position: at most 16 men, none with more than
/// 52 moves on this board (a Queen on an open centre square), so 1024 is a
/// bound no position reaches.
pub const MAX_ACTIONS: usize = 1024;

/// A Four-handed Chess position.
#[derive(Clone, Debug)]
pub struct FourChess {
    /// The men.
    men: Men,
    /// The seat to move.
    side: u8,
    /// Inert seats (bit per seat, §5.2).
    inert: u8,
    /// Seats whose King is attacked by a live enemy (cache of §5.2.3 for the
    /// current `inert`).
    checks: u8,
    /// Half-move clock (§5.9).
    halfmove: u32,
    /// Full-move number.
    fullmove: u32,
    /// Zobrist key.
    key: u64,
    /// Options that apply to the current position.
    rules: Options,
    /// Per seat: steps its forward pawns have advanced (kept by make/unmake
    /// for the evaluation, [`eval::man_counts`]).
    adv: [i32; 4],
    /// Per seat: closeness to the centre of its N, B, Q.
    centre: [i32; 4],
}

/// Zobrist keys of the inert seats (the men and the side are shared with
/// `teamchess`).
static INERT_KEYS: [u64; 4] = crate::zobrist::keys(0x0049_4E45_5254);

impl FourChess {
    fn empty(rules: Options) -> Self {
        FourChess {
            men: Men::default(),
            side: 0,
            inert: 0,
            checks: 0,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            rules,
            adv: [0; 4],
            centre: [0; 4],
        }
    }

    #[inline(always)]
    fn put(&mut self, seat: usize, ty: usize, s: Sq) {
        self.men.put(code(seat, ty), s);
        self.key ^= keys::piece(seat, ty, s);
        self.add_man(seat, ty, s);
    }

    /// Adds a man's positional counts to its seat's running sums.
    #[inline(always)]
    fn add_man(&mut self, seat: usize, ty: usize, s: Sq) {
        let (a, c) = eval::man_counts(seat, ty, s);
        self.adv[seat] += a;
        self.centre[seat] += c;
    }

    /// Takes a man's positional counts off its seat's running sums.
    #[inline(always)]
    fn sub_man(&mut self, seat: usize, ty: usize, s: Sq) {
        let (a, c) = eval::man_counts(seat, ty, s);
        self.adv[seat] -= a;
        self.centre[seat] -= c;
    }

    /// The seat to move.
    pub fn side(&self) -> usize {
        self.side as usize
    }

    /// The inert seats as a bit mask.
    pub fn inert_mask(&self) -> u8 {
        self.inert
    }

    /// The man on a cell as (seat, type), if any.
    pub fn piece_at(&self, s: Sq) -> Option<(usize, usize)> {
        self.men.piece_at(s)
    }
}

impl Rules for FourChess {
    type Action = Move;
    type Undo = moves::Undo;
    type Actions = ArrayVec<Move, MAX_ACTIONS>;
    type Options = Options;
    const ONE_ACTION_PER_TURN: bool = true;
    const VARIANTS: &'static [&'static str] = &["fourchess"];

    fn default_options(_variant: &str) -> Options {
        Options::default()
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        vec![
            OptionSpec { name: "FC_Layout", kind: OptionKind::Combo(&["A", "B"]) },
            OptionSpec { name: "FC_LeapOwnPawns", kind: OptionKind::Check(false) },
            OptionSpec { name: "FC_NoProgressPlies", kind: OptionKind::Spin { default: 200, min: 0, max: 10000 } },
            OptionSpec { name: "FC_RepetitionDraw", kind: OptionKind::Check(true) },
        ]
    }

    fn set_option(opts: &mut Options, name: &str, value: &str) -> Result<(), PositionError> {
        let check = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(PositionError::option(name, format!("`{v}` is not true or false"))),
        };
        match name.to_ascii_lowercase().as_str() {
            "fc_layout" => {
                opts.layout = match value {
                    "A" | "a" => Layout::A,
                    "B" | "b" => Layout::B,
                    _ => return Err(PositionError::option("FC_Layout", format!("`{value}` is not A or B"))),
                }
            }
            "fc_leapownpawns" => opts.leap_own_pawns = check(value)?,
            _ => {
                return super::cross_board::shared_rules::set_option(
                    name,
                    value,
                    &mut opts.no_progress_plies,
                    &mut opts.repetition_draw,
                )
                .unwrap_or_else(|| Err(PositionError::unknown_option(name)))
            }
        }
        Ok(())
    }

    fn apply_options(&mut self, opts: &Options) {
        // §4: every option but the layout applies to the current position.
        self.rules = *opts;
    }

    fn startpos(opts: &Options) -> Self {
        let s = match opts.layout {
            Layout::A => notation::START_A,
            Layout::B => notation::START_B,
        };
        Self::from_position_string(s, opts).expect("the start position parses")
    }

    fn seats(&self) -> usize {
        4
    }

    fn to_move(&self) -> Seat {
        self.side as usize
    }

    fn side_of(&self, seat: Seat) -> usize {
        seat & 1
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        self.turns(out)
    }

    fn make(&mut self, m: Move) -> moves::Undo {
        self.make_move(m)
    }

    fn unmake(&mut self, m: Move, u: moves::Undo) {
        self.unmake_move(m, u)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game_outcome()
    }

    fn history_outcome(&self, history: &[u64]) -> Option<Outcome> {
        self.repetition(history)
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn key_from_scratch(&self) -> u64 {
        self.compute_key()
    }

    fn is_pass(&self, m: Move) -> bool {
        m.is_pass()
    }
}

impl Notation for FourChess {
    fn from_position_string(s: &str, opts: &Options) -> Result<Self, PositionError> {
        notation::parse_position(s, *opts)
    }

    fn position_string(&self) -> String {
        notation::write_position(self)
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["White", "Black", "Yellow", "Red"][seat & 3]
    }

    fn write_action(&self, m: Move, out: &mut String) {
        notation::write_move(m, out)
    }

    fn parse_action(&self, token: &str) -> Result<Move, TokenError> {
        notation::parse_move(self, token)
    }
}

impl Evaluation for FourChess {
    fn default_weights(_variant: &str) -> &'static Weights {
        &eval::DEFAULT
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        eval::features(self, seat, sink)
    }
}

impl SearchHints for FourChess {
    /// Reverse futility pruning at depth 1 with a margin of 150, as in
    /// teamchess: screened at 10,000 nodes (+36.1 ± 26.7 over 251 pairs,
    /// SPRT(0, 20) H1) and confirmed at 0.03 s a turn (+36.2 ± 25.9 over 231 pairs, H1;
    /// docs/search.md).
    const SEARCH_PARAMS: &'static [(&'static str, i32)] = &[("Rfp", 1), ("RfpDepth", 1), ("RfpMargin", 150)];

    fn is_tactical(&self, m: Move) -> bool {
        !m.is_pass() && (self.men.board[m.to()] != 0 || m.is_promotion())
    }

    fn order_hint(&self, m: Move) -> i32 {
        eval::order_hint(self, m)
    }

    fn has_quiet_action(&self) -> bool {
        self.has_quiet_turn(|m| self.is_tactical(m))
    }

    fn in_check(&self) -> bool {
        self.checks >> self.side & 1 != 0 && self.inert >> self.side & 1 == 0
    }

    fn null_move_ok(&self) -> bool {
        let s = self.side as usize;
        self.inert >> s & 1 == 0
            && self.checks >> s & 1 == 0
            && (self.men.by_seat[s]
                & !(self.men.by_type[piece::PAWN] | self.men.by_type[piece::RPAWN] | self.men.by_type[piece::KING]))
                .any()
    }

    /// The next seat only: the side to move passes (`0000`, with the status
    /// update a pass gets by §5.6).
    fn skip_to(&mut self, seat: Seat) -> Option<moves::Undo> {
        (seat == (self.side as usize + 1) & 3 && self.quick_outcome().is_none()).then(|| self.make_move(Move::PASS))
    }

    fn unskip(&mut self, u: moves::Undo) {
        self.unmake_move(Move::PASS, u)
    }
}

impl Presentation for FourChess {
    fn render(&self) -> String {
        notation::render(self)
    }

    fn board_view(&self) -> Option<crate::view::BoardView> {
        Some(view::board_view(self))
    }
}

impl crate::game::GameInfo for FourChess {
    /// `docs/fourchess.md`.
    fn rules_page() -> &'static str {
        include_str!("../../../../../docs/fourchess.md")
    }

    /// fourchess.md §13: leap, partner exposure, mate to inert, promotion,
    /// the cascade.
    fn bench_positions(_variant: &str) -> &'static [&'static str] {
        &[
            "4yK3/8/8/14/14/14/13rK/bK13/4yPwP1bP6/4wPwP1wP6/13rR/8/8/3wK4 w - 0 1",
            "8/8/8/4bR9/14/14/4wB8rK/bK13/14/4yK2rR6/14/8/8/3wK4 w - 0 1",
            "4yK3/8/8/14/14/14/13rK/bK13/10yB3/3bR10/7rN6/8/wPwPwP5/wNwKwR5 r - 0 1",
            "4yK3/8/8/bN1rN11/1wP12/14/13rK/bK13/14/14/13rR/8/8/3wK4 w - 0 1",
            "7bK/yP7/1yK1wK3rP/5rKyQ1bP5/2yp5yQ1yP3/14/14/11rB2/3wR10/1bP1rP6rPrPyR1/1bP1wP7yP1rQ/2bpyP4/3wP4/6bR1 b r 1 1",
        ]
    }
    /// The draw rules do not end every game in practice: a pawn can walk
    /// to its partner's back line and home again for ever (§5.3.5), each
    /// step resetting the half-move clock, and men moving about put off
    /// repetition (docs/fourchess.md, "Turn cap"). 1,000 turns is well
    /// past the longest checkmate seen in self-play (587 turns in 1,209
    /// games at 4,000 nodes).
    fn default_maxturns(_variant: &str) -> u32 {
        1000
    }
}

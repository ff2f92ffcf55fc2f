//! Four-player chess under chess.com's Teams rules (`teamchess`), exactly as
//! `shared/spec/fourchess.md` §6–§8 reads them. It shares the cross board,
//! the men, attack detection and hashing with `fourchess` (`games::cross_board`).
//!
//! Module shape: `moves` (encoding, generation, make/unmake), `castle`
//! (castling table), `rules` (end of the game), `notation` (position
//! strings, FEN4, tokens), `pgn4` (game records), `eval`, `naive` (a
//! second, deliberately simple implementation of the rules, test only),
//! `tests`.

mod castle;
mod eval;
mod moves;
#[cfg(test)]
mod naive;
mod notation;
pub mod pgn4;
mod rules;
#[cfg(test)]
mod tests;
mod view;

use arrayvec::ArrayVec;

use super::cross_board::board::CELLS;
use super::cross_board::men::Men;
use crate::eval::{EvalSink, Weights};
use crate::game::{
    Evaluation, Notation, OptionKind, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat, TokenError,
};
pub use moves::Move;
pub use notation::{to_fen4, START, START_FEN4};

/// Rule options (§4) and the protocol dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `FC_NoProgressPlies` (0 = never).
    pub no_progress_plies: u32,
    /// `FC_RepetitionDraw`.
    pub repetition_draw: bool,
    /// `Notation` = `fen4`: `bestmove` in 4pchess style (`h2-h4`, `=Q`).
    pub fen4_notation: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { no_progress_plies: 200, repetition_draw: true, fen4_notation: false }
    }
}

/// Legal moves never exceed this: at most 16 men, none with more than 52
/// moves, and promotions multiply only pawn moves (≤ 3 targets × 4 pieces).
pub const MAX_ACTIONS: usize = 1024;

/// A `teamchess` position.
#[derive(Clone, Debug)]
pub struct TeamChess {
    men: Men,
    side: u8,
    /// Castling rights, bit `2·seat + side` (side 0 = King side).
    castling: u8,
    /// En-passant entries by colour: the skipped square, or 0 (cell 0 does
    /// not exist).
    ep: [u8; 4],
    halfmove: u32,
    fullmove: u32,
    key: u64,
    rules: Options,
}

static CASTLE_KEYS: [u64; 8] = crate::zobrist::keys(0x4341_5354_4C45);
static EP_KEYS: [u64; 4 * CELLS] = crate::zobrist::keys(0x0045_5041_5353);

impl TeamChess {
    /// The man on a cell as (seat, type).
    pub fn piece_at(&self, s: usize) -> Option<(usize, usize)> {
        self.men.piece_at(s)
    }

    pub(super) fn compute_key(&self) -> u64 {
        let mut k = super::cross_board::keys::SIDE[self.side as usize] ^ self.men.key();
        for bit in 0..8 {
            if self.castling >> bit & 1 != 0 {
                k ^= CASTLE_KEYS[bit];
            }
        }
        for c in 0..4 {
            if self.ep[c] != 0 {
                k ^= EP_KEYS[c * CELLS + self.ep[c] as usize];
            }
        }
        k
    }
}

impl Rules for TeamChess {
    type Action = Move;
    type Undo = moves::Undo;
    type Actions = ArrayVec<Move, MAX_ACTIONS>;
    type Options = Options;
    const ONE_ACTION_PER_TURN: bool = true;
    const VARIANTS: &'static [&'static str] = &["teamchess"];

    fn default_options(_variant: &str) -> Options {
        Options::default()
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        vec![
            OptionSpec { name: "FC_NoProgressPlies", kind: OptionKind::Spin { default: 200, min: 0, max: 10000 } },
            OptionSpec { name: "FC_RepetitionDraw", kind: OptionKind::Check(true) },
            OptionSpec { name: "Notation", kind: OptionKind::Combo(&["tetrarch", "fen4"]) },
        ]
    }

    fn set_option(opts: &mut Options, name: &str, value: &str) -> Result<(), PositionError> {
        match name.to_ascii_lowercase().as_str() {
            "notation" => {
                opts.fen4_notation = match value.to_ascii_lowercase().as_str() {
                    "tetrarch" => false,
                    "fen4" => true,
                    _ => return Err(PositionError::option("Notation", format!("`{value}` is not tetrarch or fen4"))),
                }
            }
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
        self.rules = *opts;
    }

    fn startpos(opts: &Options) -> Self {
        Self::from_position_string(START, opts).expect("the start position parses")
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
        if self.quick_outcome().is_none() {
            self.gen_legal(out);
        }
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

    fn is_pass(&self, _m: Move) -> bool {
        false
    }
}

impl Notation for TeamChess {
    fn from_position_string(s: &str, opts: &Options) -> Result<Self, PositionError> {
        notation::parse_any(s, *opts)
    }

    fn position_string(&self) -> String {
        notation::write_position(self)
    }

    fn write_record(start: &Self, turns: &[String]) -> Option<Result<String, PositionError>> {
        let names = ["Red".into(), "Blue".into(), "Yellow".into(), "Green".into()];
        Some(pgn4::write(start, turns, &names))
    }

    fn read_record(text: &str, opts: &Options) -> Option<Result<(Self, Vec<String>), PositionError>> {
        Some(pgn4::read(text, opts).map(|r| (r.start, r.turns)))
    }

    fn alt_notations(&self) -> Vec<(&'static str, String)> {
        vec![("FEN4", to_fen4(self))]
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["Red", "Blue", "Yellow", "Green"][seat & 3]
    }

    fn write_action(&self, m: Move, out: &mut String) {
        notation::write_move(m, out)
    }

    fn parse_action(&self, token: &str) -> Result<Move, TokenError> {
        notation::parse_move(self, token)
    }
}

impl Evaluation for TeamChess {
    fn default_weights(_variant: &str) -> &'static Weights {
        &eval::DEFAULT
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        eval::features(self, seat, sink)
    }
}

impl SearchHints for TeamChess {
    /// Reverse futility pruning at depth 1 with a margin of 150: screened
    /// at 20,000 nodes (+14.3 ± 15.0 over 1,000 pairs, no decision; +25.9 ±
    /// 20.3 over 552 pairs on other openings, H1) and confirmed at 0.1 s a
    /// turn (+48.0 ± 31.2 over 226 pairs, SPRT(0, 20) H1; docs/search.md).
    const SEARCH_PARAMS: &'static [(&'static str, i32)] = &[("Rfp", 1), ("RfpDepth", 1), ("RfpMargin", 150)];

    fn is_tactical(&self, m: Move) -> bool {
        self.men.board[m.to()] != 0 || m.is_ep() || m.promotion().is_some()
    }

    fn order_hint(&self, m: Move) -> i32 {
        eval::order_hint(self, m)
    }

    fn has_quiet_action(&self) -> bool {
        self.quick_outcome().is_none() && self.has_quiet_move(|m| self.is_tactical(m))
    }

    fn in_check(&self) -> bool {
        self.seat_in_check(self.side as usize)
    }

    fn gives_check(&self, m: Move) -> bool {
        self.checks_next_seat(m)
    }

    fn null_move_ok(&self) -> bool {
        use super::cross_board::piece::{KING, PAWN};
        let s = self.side as usize;
        !self.seat_in_check(s) && (self.men.by_seat[s] & !(self.men.by_type[PAWN] | self.men.by_type[KING])).any()
    }

    /// The next seat only (a null move).
    fn skip_to(&mut self, seat: Seat) -> Option<moves::Undo> {
        (seat == (self.side as usize + 1) & 3 && self.quick_outcome().is_none()).then(|| self.make_null())
    }

    fn unskip(&mut self, u: moves::Undo) {
        self.unmake_null(u)
    }
}

impl Presentation for TeamChess {
    fn render(&self) -> String {
        notation::render(self)
    }

    fn board_view(&self) -> Option<crate::view::BoardView> {
        Some(view::board_view(self))
    }
}

impl crate::game::GameInfo for TeamChess {
    /// `docs/teamchess.md`.
    fn rules_page() -> &'static str {
        include_str!("../../../../../docs/teamchess.md")
    }

    fn dialect_turn(&self, opts: &Options, actions: &[Move]) -> Option<String> {
        (opts.fen4_notation && actions.len() == 1).then(|| notation::fen4_move(actions[0]))
    }

    /// With `Notation` `fen4`, scores are Red/Yellow's, as 4pchess gives
    /// them (a 4pchess-dialect tool reads them so).
    fn dialect_score_seat(&self, opts: &Options) -> Option<Seat> {
        opts.fen4_notation.then_some(0)
    }

    const CLOCK_LETTERS: Option<[&'static str; 4]> = Some(["r", "b", "y", "g"]);

    fn bench_positions(_variant: &str) -> &'static [&'static str] {
        &[
            "3yK4/8/8/14/14/14/13gK/bK13/14/14/14/8/8/rR3rK2rR r rKQ - 0 1",
            "3yK4/8/8/14/4rP9/14/13gK/bK13/14/14/14/8/8/4rK3 r - - 0 1",
        ]
    }
}

//! Queens & Kings checkers, all six variants (`queenskings`,
//! `queenskings-teams`, `queenskings-duel` on 17×17 and the `queenskings9…`
//! ones on 13×13), exactly as `shared/spec/queenskings.md` reads them.
//!
//! Module shape (the same for every game):
//! - [`board`]: the padded dark-square layout and compile-time tables;
//! - `moves`: move encoding (a whole capture path per move), generation,
//!   make/unmake;
//! - `rules`: the end-of-turn procedure (§6.2), outcomes, draws;
//! - `notation`: position strings (§7) and turn tokens (§8);
//! - `eval`: the static evaluation;
//! - `naive`, `tests`: a second, simple implementation and the tests.
//!
//! Internally a piece belongs to a **colour** (0 = S, 1 = W, 2 = N, 3 = E,
//! the turn order of §1.2); a **seat** is the protocol's `p1…p4`: the colour
//! itself with four seats, and S = seat 0, N = seat 1 in a duel.

pub mod board;
mod eval;
mod moves;
#[cfg(test)]
mod naive;
mod notation;
mod rules;
#[cfg(test)]
mod tests;
mod view;

use crate::bitboard::Bb192;
use crate::eval::{EvalSink, Weights};
use crate::game::ActionList;
use crate::game::{
    Evaluation, Notation, OptionKind, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat, TokenError,
};
use board::{Geo, Sq, GEO13, GEO17};
pub use moves::{Move, MoveKind, MoveList, DISTINCT_CAPTURE_STATES, INLINE_MOVES, MAX_PATH};
use moves::{Paths, Seen};

/// A man (uncrowned).
pub const MAN: u8 = 0;
/// A King (crowned on the centre).
pub const KING: u8 = 1;
/// A Queen (crowned on the Queen edge).
pub const QUEEN: u8 = 2;

/// Who plays (§1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Four players, each for itself.
    FreeForAll,
    /// S + N against W + E.
    Teams,
    /// S against N.
    Duel,
}

/// `QK_CrownInCapture` (§9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrownInCapture {
    /// Crowned, the move ends (default).
    End,
    /// Crowned, continues as the new piece if it can.
    Continue,
    /// Not crowned on the way; crowned only where the move ends.
    Final,
}

/// Rule options and the variant (§1.1, §9.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// 17 or 13.
    pub size: u8,
    /// Free-for-all, teams or duel.
    pub mode: Mode,
    /// `QK_CrownInCapture`.
    pub crown: CrownInCapture,
    /// `QK_QueenLanding`: `true` = `free`, `false` = `continue` (default).
    pub queen_landing_free: bool,
    /// `QK_CapturedRemoval`: `true` = `immediate`, `false` = `end` (default).
    pub immediate_removal: bool,
    /// `QK_EliminatedPieces`: `true` = `keep`, `false` = `remove` (default).
    pub keep_eliminated: bool,
    /// `QK_DrawRounds` (0 = off).
    pub draw_rounds: u32,
    /// `QK_RepetitionDraw`.
    pub repetition_draw: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: 17,
            mode: Mode::FreeForAll,
            crown: CrownInCapture::End,
            queen_landing_free: false,
            immediate_removal: false,
            keep_eliminated: false,
            draw_rounds: 50,
            repetition_draw: true,
        }
    }
}

impl Options {
    /// The options of a variant with the spec's defaults.
    pub fn for_variant(variant: &str) -> Options {
        let size = if variant.starts_with("queenskings9") { 13 } else { 17 };
        let mode = if variant.ends_with("-teams") {
            Mode::Teams
        } else if variant.ends_with("-duel") {
            Mode::Duel
        } else {
            Mode::FreeForAll
        };
        Options { size, mode, ..Options::default() }
    }

    /// The variant name these options play (size and mode).
    pub fn variant(&self) -> &'static str {
        match (self.size, self.mode) {
            (13, Mode::FreeForAll) => "queenskings9",
            (13, Mode::Teams) => "queenskings9-teams",
            (13, Mode::Duel) => "queenskings9-duel",
            (_, Mode::FreeForAll) => "queenskings",
            (_, Mode::Teams) => "queenskings-teams",
            (_, Mode::Duel) => "queenskings-duel",
        }
    }

    /// The board geometry.
    pub fn geo(&self) -> &'static Geo {
        if self.size == 13 {
            &GEO13
        } else {
            &GEO17
        }
    }

    /// Pieces each colour starts with (§3.2).
    pub fn start_count(&self) -> u32 {
        if self.size == 13 {
            9
        } else {
            18
        }
    }

    /// The colours that play in this variant, as a mask.
    pub fn colours(&self) -> u8 {
        if self.mode == Mode::Duel {
            0b0101
        } else {
            0b1111
        }
    }
}

/// Everything that `make` changes: `unmake` copies it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Pieces of each colour (S W N E).
    pub(crate) by_colour: [Bb192; 4],
    /// Pieces of each type (man, King, Queen).
    pub(crate) by_type: [Bb192; 3],
    /// Every piece.
    pub(crate) occ: Bb192,
    /// The colour to move.
    pub(crate) to_move: u8,
    /// Colours in the game (bit per colour).
    pub(crate) in_game: u8,
    /// Draw counter (§6.5).
    pub(crate) counter: u32,
    /// Turn number.
    pub(crate) turn: u32,
    /// Zobrist key (board, colour to move, colours in the game).
    pub(crate) key: u64,
}

/// A Queens & Kings position (any of the six variants).
#[derive(Clone, Debug)]
pub struct QueensKings {
    pub(crate) st: State,
    pub(crate) rules: Options,
    pub(crate) geo: &'static Geo,
}

/// Zobrist keys: pieces by colour, type and cell; colour to move; colours
/// in the game.
mod keys {
    use super::board::CELLS;
    pub static PIECE: [u64; 4 * 3 * CELLS] = crate::zobrist::keys(0x0051_4B50_4945_4345);
    pub static TO_MOVE: [u64; 4] = crate::zobrist::keys(0x514B_544F_4D56);
    pub static IN_GAME: [u64; 4] = crate::zobrist::keys(0x0051_4B49_4E47);
    #[inline(always)]
    pub fn piece(colour: usize, ty: usize, sq: usize) -> u64 {
        PIECE[(colour * 3 + ty) * CELLS + sq]
    }
}

impl QueensKings {
    pub(crate) fn empty(rules: Options) -> Self {
        QueensKings {
            st: State {
                by_colour: [Bb192::EMPTY; 4],
                by_type: [Bb192::EMPTY; 3],
                occ: Bb192::EMPTY,
                to_move: 0,
                in_game: rules.colours(),
                counter: 0,
                turn: 1,
                key: 0,
            },
            rules,
            geo: rules.geo(),
        }
    }

    /// Puts a piece on an empty square, updating the key.
    #[inline(always)]
    pub(crate) fn put(&mut self, colour: usize, ty: u8, s: Sq) {
        self.st.by_colour[colour].set(s);
        self.st.by_type[ty as usize].set(s);
        self.st.occ.set(s);
        self.st.key ^= keys::piece(colour, ty as usize, s);
    }

    /// Removes the piece `(colour, ty)` from `s`, updating the key.
    #[inline(always)]
    pub(crate) fn remove(&mut self, colour: usize, ty: u8, s: Sq) {
        self.st.by_colour[colour].clear(s);
        self.st.by_type[ty as usize].clear(s);
        self.st.occ.clear(s);
        self.st.key ^= keys::piece(colour, ty as usize, s);
    }

    /// The piece on a cell as (colour, type), if any.
    #[inline(always)]
    pub fn piece_at(&self, s: Sq) -> Option<(usize, u8)> {
        if !self.st.occ.has(s) {
            return None;
        }
        let colour = (0..4).find(|&c| self.st.by_colour[c].has(s)).unwrap_or(0);
        let ty = if self.st.by_type[0].has(s) {
            MAN
        } else if self.st.by_type[1].has(s) {
            KING
        } else {
            QUEEN
        };
        Some((colour, ty))
    }

    /// The colour of the piece on an occupied cell.
    #[inline(always)]
    pub(crate) fn colour_at(&self, s: Sq) -> usize {
        let b = &self.st.by_colour;
        if b[0].has(s) {
            0
        } else if b[1].has(s) {
            1
        } else if b[2].has(s) {
            2
        } else {
            3
        }
    }

    /// The type of the piece on an occupied cell.
    #[inline(always)]
    pub(crate) fn type_at(&self, s: Sq) -> u8 {
        if self.st.by_type[0].has(s) {
            MAN
        } else if self.st.by_type[1].has(s) {
            KING
        } else {
            QUEEN
        }
    }

    /// The rules this position plays by.
    pub fn rules(&self) -> &Options {
        &self.rules
    }

    /// The colour to move (0 = S, 1 = W, 2 = N, 3 = E).
    pub fn colour_to_move(&self) -> usize {
        self.st.to_move as usize
    }

    /// The colours in the game as a mask.
    pub fn in_game(&self) -> u8 {
        self.st.in_game
    }

    /// The protocol seat of a colour.
    #[inline(always)]
    pub fn seat_of(&self, colour: usize) -> Seat {
        if self.rules.mode == Mode::Duel {
            colour / 2
        } else {
            colour
        }
    }

    /// The colour of a protocol seat.
    #[inline(always)]
    pub fn colour_of(&self, seat: Seat) -> usize {
        if self.rules.mode == Mode::Duel {
            seat * 2
        } else {
            seat
        }
    }

    /// The partner's pieces of `colour` (teams only; empty otherwise).
    #[inline(always)]
    pub(crate) fn partner_pieces(&self, colour: usize) -> Bb192 {
        if self.rules.mode == Mode::Teams {
            self.st.by_colour[colour ^ 2]
        } else {
            Bb192::EMPTY
        }
    }

    /// The pieces `colour` may capture (§1.3: neither own nor partner).
    #[inline(always)]
    pub(crate) fn enemy_pieces(&self, colour: usize) -> Bb192 {
        self.st.occ & !self.st.by_colour[colour] & !self.partner_pieces(colour)
    }
}

/// The `UCI_Variant` names.
pub const VARIANTS: &[&str] =
    &["queenskings", "queenskings-teams", "queenskings-duel", "queenskings9", "queenskings9-teams", "queenskings9-duel"];

fn combo(name: &str, value: &str, values: &[&'static str]) -> Result<usize, PositionError> {
    let v = value.to_ascii_lowercase();
    values
        .iter()
        .position(|x| *x == v)
        .ok_or_else(|| PositionError::option(name, format!("`{value}` is not one of {}", values.join(", "))))
}

impl Rules for QueensKings {
    type Action = Move;
    type Undo = State;
    type Actions = MoveList;
    type Options = Options;
    const ONE_ACTION_PER_TURN: bool = true;
    const VARIANTS: &'static [&'static str] = VARIANTS;

    fn default_options(variant: &str) -> Options {
        Options::for_variant(variant)
    }

    fn option_specs(_variant: &str) -> Vec<OptionSpec> {
        vec![
            OptionSpec { name: "QK_CrownInCapture", kind: OptionKind::Combo(&["end", "continue", "final"]) },
            OptionSpec { name: "QK_QueenLanding", kind: OptionKind::Combo(&["continue", "free"]) },
            OptionSpec { name: "QK_CapturedRemoval", kind: OptionKind::Combo(&["end", "immediate"]) },
            OptionSpec { name: "QK_EliminatedPieces", kind: OptionKind::Combo(&["remove", "keep"]) },
            OptionSpec { name: "QK_DrawRounds", kind: OptionKind::Spin { default: 50, min: 0, max: 1000 } },
            OptionSpec { name: "QK_RepetitionDraw", kind: OptionKind::Check(true) },
        ]
    }

    fn set_option(opts: &mut Options, name: &str, value: &str) -> Result<(), PositionError> {
        match name.to_ascii_lowercase().as_str() {
            "qk_crownincapture" => {
                opts.crown = [CrownInCapture::End, CrownInCapture::Continue, CrownInCapture::Final]
                    [combo("QK_CrownInCapture", value, &["end", "continue", "final"])?]
            }
            "qk_queenlanding" => opts.queen_landing_free = combo("QK_QueenLanding", value, &["continue", "free"])? == 1,
            "qk_capturedremoval" => opts.immediate_removal = combo("QK_CapturedRemoval", value, &["end", "immediate"])? == 1,
            "qk_eliminatedpieces" => opts.keep_eliminated = combo("QK_EliminatedPieces", value, &["remove", "keep"])? == 1,
            "qk_drawrounds" => {
                opts.draw_rounds = value
                    .parse::<u32>()
                    .ok()
                    .filter(|v| *v <= 1000 && !(value.len() > 1 && value.starts_with('0')))
                    .ok_or_else(|| PositionError::option("QK_DrawRounds", format!("`{value}` is not in 0..1000")))?
            }
            "qk_repetitiondraw" => {
                opts.repetition_draw = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(PositionError::option("QK_RepetitionDraw", format!("`{value}` is not true or false"))),
                }
            }
            _ => return Err(PositionError::unknown_option(name)),
        }
        Ok(())
    }

    fn startpos(opts: &Options) -> Self {
        Self::from_position_string(notation::start_string(opts), opts).expect("the start position parses")
    }

    fn seats(&self) -> usize {
        if self.rules.mode == Mode::Duel {
            2
        } else {
            4
        }
    }

    fn to_move(&self) -> Seat {
        self.seat_of(self.st.to_move as usize)
    }

    fn seat_in_game(&self, seat: Seat) -> bool {
        self.st.in_game >> self.colour_of(seat) & 1 != 0
    }

    fn side_of(&self, seat: Seat) -> usize {
        match self.rules.mode {
            Mode::Teams => seat % 2,
            _ => seat,
        }
    }

    fn legal_actions(&self, out: &mut MoveList) {
        if self.outcome().is_none() {
            self.generate(self.st.to_move as usize, out);
        }
    }

    /// Follows the move's own path: a flying Queen can have millions of
    /// capture paths, which `legal_actions` would list.
    fn is_legal(&self, m: Move) -> bool {
        if self.outcome().is_some() || m.is_empty() {
            return false;
        }
        let mut list = MoveList::default();
        self.generate_with(self.st.to_move as usize, &mut list, Paths::Follow(&m));
        list.contains(&m)
    }

    fn make(&mut self, m: Move) -> State {
        self.make_move(m)
    }

    fn unmake(&mut self, _m: Move, u: State) {
        self.st = u;
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game_outcome()
    }

    fn history_outcome(&self, history: &[u64]) -> Option<Outcome> {
        self.repetition(history)
    }

    fn key(&self) -> u64 {
        self.st.key
    }

    fn key_from_scratch(&self) -> u64 {
        self.compute_key()
    }

    fn is_pass(&self, _m: Move) -> bool {
        false
    }

    fn variant(&self) -> &'static str {
        self.rules.variant()
    }
}

impl Notation for QueensKings {
    fn from_position_string(s: &str, opts: &Options) -> Result<Self, PositionError> {
        notation::parse_position(s, *opts)
    }

    fn position_string(&self) -> String {
        notation::write_position(self)
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["South", "West", "North", "East"][self.colour_of(seat) & 3]
    }

    fn write_action(&self, m: Move, out: &mut String) {
        notation::write_move(m, out)
    }

    fn parse_action(&self, token: &str) -> Result<Move, TokenError> {
        notation::parse_move(self, token)
    }
}

impl Evaluation for QueensKings {
    fn default_weights(variant: &str) -> &'static Weights {
        eval::default_weights(variant)
    }

    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S) {
        eval::features(self, seat, sink)
    }
}

impl SearchHints for QueensKings {
    /// One capture path per distinct capture state (`Paths::Distinct`):
    /// with `QK_QueenLanding = free` a Queen's paths can number in the
    /// hundreds of thousands (and more), most of them ending in the same
    /// positions.
    /// Positions with at most [`INLINE_MOVES`] moves (all but a few) get the
    /// legal list unchanged; the others are listed again that way.
    fn search_actions(&self, out: &mut MoveList) {
        out.clear();
        let c = self.st.to_move as usize;
        if self.outcome().is_none() && !self.generate_with(c, out, Paths::AtMost(INLINE_MOVES)) {
            out.clear();
            let mut seen = Seen::new();
            self.generate_with(c, out, Paths::Distinct(&mut seen));
        }
    }

    /// Free-for-all only (Best-Reply Search): colour `seat` moves next if it
    /// is in the game and has a move; nothing else changes (the draw
    /// counter counts turns played, and none was). In teams and duel a
    /// skipped turn would be a pass the rules never allow next to a forced
    /// capture, so it is refused there.
    fn skip_to(&mut self, seat: Seat) -> Option<State> {
        if self.rules.mode != Mode::FreeForAll || seat >= 4 || self.game_outcome().is_some() {
            return None;
        }
        let c = self.colour_of(seat);
        if self.st.in_game >> c & 1 == 0 || !self.has_any_move(c) {
            return None;
        }
        let u = self.st;
        self.st.key ^= keys::TO_MOVE[self.st.to_move as usize] ^ keys::TO_MOVE[c];
        self.st.to_move = c as u8;
        Some(u)
    }

    fn unskip(&mut self, u: State) {
        self.st = u;
    }

    fn is_tactical(&self, m: Move) -> bool {
        m.kind() == MoveKind::Capture
    }

    fn futility_ok(&self) -> bool {
        false
    }

    fn order_hint(&self, m: Move) -> i32 {
        eval::order_hint(self, m)
    }
}

impl Presentation for QueensKings {
    fn render(&self) -> String {
        notation::render(self)
    }

    fn board_view(&self) -> Option<crate::view::BoardView> {
        Some(view::board_view(self))
    }
}

/// `bench` to the default depth; free-for-all `Strategy` paranoid (brs
/// took 46 % of the points against it, maxn 47 %).
impl crate::game::GameInfo for QueensKings {
    /// `docs/queenskings.md`.
    fn rules_page() -> &'static str {
        include_str!("../../../../../docs/queenskings.md")
    }
}

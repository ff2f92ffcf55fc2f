//! The game model every Tetrarch game implements and the search, perft and
//! protocol are generic over.
//!
//! The model works at the level of **actions**: one move of one piece, or
//! `0000` (a pass, or ending a turn early). A **turn** is the sequence of
//! actions one seat plays before the next seat is to move: one action in
//! chess and checkers, up to two in Quattuor Reges and Quadranj. The side to
//! move stays the same between the actions of a turn; a position in the
//! middle of a turn says so ([`Rules::at_turn_start`] is false).
//!
//! A turn is over after an action when the position is back at a turn start
//! or the game is over. Turn tokens are built from actions generically
//! ([`crate::turns`]), so a game only has to say what one action is.
//!
//! Seats are numbered `0..seats()` internally (`p1` is seat 0). Every seat
//! belongs to a **side** ([`Rules::side_of`]): the seat itself in 2-player
//! and free-for-all games, its team in team games. Search values are for a
//! side; the search never asks which game it plays.

use core::fmt;
use core::hash::Hash;
use core::ops::{Deref, DerefMut};

use crate::eval::{Dot, EvalSink, Terms, Weights};

/// A seat index, `0` for `p1`.
pub type Seat = usize;

/// A set of seats as a bit mask (bit `i` = seat `i`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SeatSet(pub u8);

impl SeatSet {
    /// The empty set.
    pub const EMPTY: SeatSet = SeatSet(0);
    /// Whether seat `s` is in the set.
    pub fn has(self, s: Seat) -> bool {
        self.0 >> s & 1 != 0
    }
    /// The set with seat `s` added.
    pub fn with(self, s: Seat) -> SeatSet {
        SeatSet(self.0 | 1 << s)
    }
    /// Seats in the set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..8).filter(move |&s| self.has(s))
    }
    /// Number of seats.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether no seat is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s + 1)).finish()
    }
}

/// How a finished game ended, per seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// These seats won (a team, or one seat); every other seat lost.
    Win(SeatSet),
    /// A draw shared by these seats (in free-for-all, the seats still in the
    /// game; seats already out keep their lower ranks).
    Draw(SeatSet),
}

/// The end of a game: who won and the spec's reason word.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Win or draw, per seat.
    pub result: GameResult,
    /// The reason word of the game's spec (`checkmate`, `stalemate`, …).
    pub reason: &'static str,
}

impl Outcome {
    /// A win for `seats`.
    pub fn win(seats: SeatSet, reason: &'static str) -> Self {
        Outcome { result: GameResult::Win(seats), reason }
    }
    /// A draw shared by `seats`.
    pub fn draw(seats: SeatSet, reason: &'static str) -> Self {
        Outcome { result: GameResult::Draw(seats), reason }
    }
    /// What the game's result means for `seat`: `Some(true)` won,
    /// `Some(false)` lost, `None` drew.
    pub fn for_seat(&self, seat: Seat) -> Option<bool> {
        match self.result {
            GameResult::Win(w) => Some(w.has(seat)),
            GameResult::Draw(d) => {
                if d.has(seat) {
                    None
                } else {
                    Some(false)
                }
            }
        }
    }
}

impl fmt::Display for Outcome {
    /// The protocol's form: `win 1 3 checkmate`, `draw stalemate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.result {
            GameResult::Win(w) => {
                f.write_str("win")?;
                for s in w.iter() {
                    write!(f, " {}", s + 1)?;
                }
            }
            GameResult::Draw(_) => f.write_str("draw")?,
        }
        write!(f, " {}", self.reason)
    }
}

/// An error in a position string, a set-up token, a game record or a rule
/// option: which part is wrong and why. The text (`Display`) is what the
/// protocol prints after `info string error:`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A field of a position string, set-up token or record is wrong
    /// (`board`, `castling`, `field 3 (moved)`, `PGN4: move 12 …`).
    #[error("{field}: {reason}")]
    Field {
        /// The field, as the game's spec names it.
        field: String,
        /// Why it is wrong.
        reason: String,
    },
    /// A rule option's value is wrong.
    #[error("option {name}: {reason}")]
    Option {
        /// The option's name as the spec writes it.
        name: String,
        /// Why the value is refused.
        reason: String,
    },
    /// The game has no rule option of that name.
    #[error("unknown option `{name}`")]
    UnknownOption {
        /// The name asked for.
        name: String,
    },
    /// `position setup …` in a game without a set-up phase.
    #[error("this game has no set-up phase")]
    NoSetupPhase,
}

impl PositionError {
    /// A wrong field.
    pub fn field(field: impl Into<String>, reason: impl Into<String>) -> Self {
        PositionError::Field { field: field.into(), reason: reason.into() }
    }
    /// A wrong option value.
    pub fn option(name: impl Into<String>, reason: impl Into<String>) -> Self {
        PositionError::Option { name: name.into(), reason: reason.into() }
    }
    /// An option the game does not have.
    pub fn unknown_option(name: impl Into<String>) -> Self {
        PositionError::UnknownOption { name: name.into() }
    }
    /// The field that is wrong, if the error is about a field.
    pub fn field_name(&self) -> Option<&str> {
        match self {
            PositionError::Field { field, .. } => Some(field),
            _ => None,
        }
    }
}

/// An error in one action or turn token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// The token does not follow the grammar.
    #[error("malformed ({0})")]
    Malformed(String),
    /// The token is well formed but not a legal action here.
    #[error("illegal ({0})")]
    Illegal(String),
}

/// An engine option a game adds to the protocol (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// The option's name as the spec writes it.
    pub name: &'static str,
    /// Its kind and default.
    pub kind: OptionKind,
}

/// The kinds of option UCI knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default <bool>`.
    Check(bool),
    /// `type spin default <d> min <lo> max <hi>`.
    Spin {
        /// The default value.
        default: i64,
        /// The lowest value.
        min: i64,
        /// The highest value.
        max: i64,
    },
    /// `type combo default <d> var …`; the default is the first value.
    Combo(&'static [&'static str]),
}

/// A list of actions. Each game picks a capacity that its positions provably
/// never exceed (or a growable list where no small bound exists), so move
/// generation never allocates.
pub trait ActionList<A>: Default + Deref<Target = [A]> + DerefMut + Send {
    /// Appends an action.
    fn push(&mut self, a: A);
    /// Removes every action.
    fn clear(&mut self);
}

impl<A: Send, const N: usize> ActionList<A> for arrayvec::ArrayVec<A, N> {
    #[inline(always)]
    fn push(&mut self, a: A) {
        arrayvec::ArrayVec::push(self, a)
    }
    #[inline(always)]
    fn clear(&mut self) {
        arrayvec::ArrayVec::clear(self)
    }
}

/// The rules of a game: positions, seats, legal actions, making and taking
/// them back, outcomes, keys and rule options. What every user of a position
/// needs (perft, the search, the protocol, the runner).
///
/// Implementations are plain values (`Clone`); `make`/`unmake` change a
/// position in place and must restore it exactly, hash included.
pub trait Rules: Clone + Send + Sync + fmt::Debug + 'static {
    /// One action: a move, or a pass / end of turn.
    type Action: Copy + Eq + Hash + fmt::Debug + Send + Sync + Default + 'static;

    /// What `make` returns so `unmake` can restore the position.
    type Undo: Copy + Send;

    /// A list of legal actions, sized for the game.
    type Actions: ActionList<Self::Action>;

    /// The rule options (and, for games with several variants, which one).
    type Options: Clone + fmt::Debug + Send + Sync + PartialEq + 'static;

    /// Whether every action is a whole turn (chess, checkers): lets perft
    /// count its last level in bulk.
    const ONE_ACTION_PER_TURN: bool;

    /// The `UCI_Variant` names this game implements.
    const VARIANTS: &'static [&'static str];

    /// The options of `variant` with the spec's defaults.
    fn default_options(variant: &str) -> Self::Options;

    /// The game's own `setoption` options for `variant`.
    fn option_specs(variant: &str) -> Vec<OptionSpec>;

    /// Sets option `name` (already matched case-insensitively against
    /// [`Rules::option_specs`]) to `value`; an invalid value is an error and
    /// leaves `opts` unchanged.
    fn set_option(opts: &mut Self::Options, name: &str, value: &str) -> Result<(), PositionError>;

    /// Applies options that act on the current position at once (the spec
    /// says which); the default does nothing.
    fn apply_options(&mut self, _opts: &Self::Options) {}

    /// The start position under `opts`.
    fn startpos(opts: &Self::Options) -> Self;

    /// Number of seats (2 or 4).
    fn seats(&self) -> usize;

    /// The seat to move.
    fn to_move(&self) -> Seat;

    /// The side (team, or the seat itself) that `seat` plays for. Search
    /// values belong to sides: a seat maximises its side's value.
    fn side_of(&self, seat: Seat) -> usize;

    /// Whether the position is at the start of a turn (not between two actions
    /// of one turn).
    fn at_turn_start(&self) -> bool {
        true
    }

    /// Whether `seat` is still in the game (games where seats go out: Queens
    /// & Kings, Quadranj). Free-for-all places depend on it: after a win the
    /// seats still in share the place below the winner (Quadranj §6.9),
    /// those out rank below them.
    fn seat_in_game(&self, _seat: Seat) -> bool {
        true
    }

    /// Every legal action in this position (none when the game is over). For
    /// a seat whose only turn is a pass, the pass action.
    fn legal_actions(&self, out: &mut Self::Actions);

    /// Whether `a` is one of the legal actions (a game whose lists can be
    /// huge answers without generating them all).
    fn is_legal(&self, a: Self::Action) -> bool {
        let mut list = Self::Actions::default();
        self.legal_actions(&mut list);
        list.contains(&a)
    }

    /// Plays a legal action.
    fn make(&mut self, a: Self::Action) -> Self::Undo;

    /// Takes back the action `make` just played.
    fn unmake(&mut self, a: Self::Action, undo: Self::Undo);

    /// The outcome if the game is over by the rules that depend on the
    /// position alone.
    fn outcome(&self) -> Option<Outcome>;

    /// The outcome by rules that depend on the game's history (repetition),
    /// given the keys of the earlier turn-start positions of the game (oldest
    /// first, the current position excluded). The default: none.
    fn history_outcome(&self, _history: &[u64]) -> Option<Outcome> {
        None
    }

    /// Switches the rules that depend on the turns played from this position
    /// *and change it* (Quadranj §6.7: a seat repeating its arrangement goes
    /// out or loses), which the game then keeps and applies in `make`; returns
    /// the previous setting. On by default, so a game played from a position
    /// follows every rule; perft turns it off (it counts no repetition rule).
    /// The default: the game has no such rule.
    fn set_history_rules(&mut self, _on: bool) -> bool {
        false
    }

    /// Zobrist key of the position: equal positions have equal keys; it
    /// covers everything the legal actions and the rules depend on except the
    /// move counters.
    fn key(&self) -> u64;

    /// The key computed from scratch (tests check it against [`Rules::key`]).
    fn key_from_scratch(&self) -> u64;

    /// The action that ends the current turn without a further action, where
    /// the game allows one mid-turn (Quattuor Reges' `0000` after a first
    /// action). A turn token that stops early implies it.
    fn end_turn_action(&self) -> Option<Self::Action> {
        None
    }

    /// Whether the action is the empty `0000` action.
    fn is_pass(&self, a: Self::Action) -> bool;

    /// The variant this position is played in (one of [`Rules::VARIANTS`]).
    fn variant(&self) -> &'static str {
        Self::VARIANTS[0]
    }
}

/// The game's text forms: position strings, action tokens, set-up tokens,
/// records and seat names (the protocol, the runner and the GUI read and
/// write positions and actions through it; the search never does).
pub trait Notation: Rules {
    /// Parses a position string (strict, with a message naming the field).
    fn from_position_string(s: &str, opts: &Self::Options) -> Result<Self, PositionError>;

    /// The canonical position string.
    fn position_string(&self) -> String;

    /// The position after every seat's secret set-up choice, for games that
    /// have one (`position setup …`).
    fn from_setup(_tokens: &[&str], _opts: &Self::Options) -> Result<Self, PositionError> {
        Err(PositionError::NoSetupPhase)
    }

    /// Other notations of the position that `d` prints after `Position:`
    /// (`teamchess`: `FEN4`), as (label, text).
    fn alt_notations(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// The game from `start` through `turns` (legal turn tokens) in the
    /// game's record format (PGN4 for `teamchess`), or `None` if it has none.
    fn write_record(_start: &Self, _turns: &[String]) -> Option<Result<String, PositionError>> {
        None
    }

    /// Reads a record written in that format: the start position and the
    /// turns, or `None` if the game has no record format.
    fn read_record(_text: &str, _opts: &Self::Options) -> Option<Result<(Self, Vec<String>), PositionError>> {
        None
    }

    /// The protocol name of a seat's colour, for `d` (`White`, `Red`, …).
    fn seat_name(&self, seat: Seat) -> &'static str;

    /// Writes an action's canonical token.
    fn write_action(&self, a: Self::Action, out: &mut String);

    /// Parses one action token (canonical form or an alternative the spec
    /// names) in this position.
    fn parse_action(&self, token: &str) -> Result<Self::Action, TokenError>;
}

/// The static evaluation: weighted features of a position (the search
/// scores leaves with it, the tuner fits its weights, `eval` prints it).
pub trait Evaluation: Rules {
    /// The compiled-in evaluation weights of `variant` (the game's first
    /// variant's for a name it does not have).
    fn default_weights(variant: &str) -> &'static Weights;

    /// The static evaluation as features (see [`crate::eval`]): for every
    /// weighted pattern of the position, `sink.add(weight, count)`, for
    /// `seat`'s side (for free-for-all: that seat against all the others
    /// together). The value is `Σ weight × count`; positive is good for it.
    fn eval_features<S: EvalSink>(&self, seat: Seat, sink: &mut S);

    /// Static evaluation in centipawns for `seat`'s side under weights `w`:
    /// the value of [`Evaluation::eval_features`]. A game may compute it faster
    /// (incremental sums) but must give the same value.
    #[inline]
    fn evaluate(&self, seat: Seat, w: &Weights) -> i32 {
        let mut d = Dot::new(w);
        self.eval_features(seat, &mut d);
        d.total
    }

    /// The evaluation per term (the groups of the weight table), for `eval`.
    fn eval_terms(&self, seat: Seat, w: &Weights) -> Vec<(&'static str, i32)> {
        let mut t = Terms::new(w);
        self.eval_features(seat, &mut t);
        t.groups
    }
}

/// Game knowledge for the search, with defaults that are always sound:
/// which actions are tactical, how to order them, when pruning and the null
/// move are safe, how a seat's turn can be skipped. No search logic lives
/// here; a game that implements none of it is searched correctly, only
/// more slowly.
pub trait SearchHints: Rules {
    /// Whether [`Rules::outcome`] is a constant-time read of the position and
    /// every position without legal actions has an outcome (a seat that
    /// cannot act passes, and the game records its end in `make`). The
    /// search then asks `outcome` instead of listing the actions before it
    /// stands pat in quiescence. The default: no (chess decides mate by
    /// listing the moves).
    const QUICK_OUTCOME: bool = false;

    /// How many more turns a seat plays, typically, from a position of the
    /// game: the search spends its clock over that many turns when `go`
    /// gives no `movestogo`. Game knowledge (how long games last); the
    /// default suits long games. A turn is one search, however many
    /// actions it has.
    const TURNS_TO_GO: u32 = 30;

    /// The game's own defaults of search parameters, as `(name, value)`
    /// pairs that the search applies over its defaults. The names and
    /// ranges are the search's (`docs/search.md`, "Search parameters";
    /// a name the search does not know, or a value outside its range, is a
    /// bug that the search reports when it starts); the core knows them
    /// only as text. The default: none (every game searches with the
    /// search's defaults).
    const SEARCH_PARAMS: &'static [(&'static str, i32)] = &[];

    /// The actions a search considers: every legal action by default. A
    /// game whose lists can be too long to generate within a move's time may
    /// leave out a documented class of actions (Quadranj: long unstacking
    /// chains), keeping the list non-empty whenever `legal_actions` is and
    /// deterministic per position. Rules, perft and the protocol's legality
    /// checks always use `legal_actions`.
    fn search_actions(&self, out: &mut Self::Actions) {
        self.legal_actions(out)
    }

    /// What a search should expect when this position repeats one on its
    /// path (the repetition then completes): `None` for a draw (the
    /// default), or the game's outcome by repetition (Quadranj §6.6: the
    /// captures decide).
    fn repetition_outcome(&self) -> Option<Outcome> {
        None
    }

    /// Whether the action captures or otherwise changes material (searched in
    /// quiescence).
    fn is_tactical(&self, a: Self::Action) -> bool;

    /// A move-ordering hint: higher is tried first (captures by value, …).
    fn order_hint(&self, a: Self::Action) -> i32;

    /// [`SearchHints::is_tactical`] and [`SearchHints::order_hint`] at once (the search
    /// asks both for every action it orders); a game whose two answers
    /// share work answers both in one pass.
    fn order_info(&self, a: Self::Action) -> (bool, i32) {
        (self.is_tactical(a), self.order_hint(a))
    }

    /// Whether the action leaves the seat that moves next in check (what
    /// [`SearchHints::in_check`] says after it), told before it is made:
    /// late-move pruning keeps such actions. It may answer no when unsure;
    /// the default always does.
    fn gives_check(&self, _a: Self::Action) -> bool {
        false
    }

    /// Whether the position certainly has no [`SearchHints::is_tactical`] action
    /// in [`SearchHints::search_actions`], known without listing them: quiescence
    /// then stands pat at once (with [`SearchHints::QUICK_OUTCOME`]). It must never
    /// say yes wrongly; the default says no.
    fn no_tactical(&self) -> bool {
        false
    }

    /// Whether [`SearchHints::search_actions`] holds an action that
    /// [`SearchHints::is_tactical`] says no to, answered without listing
    /// them all (stopping at the first): then the game goes on and not
    /// every action is tactical, which is all quiescence needs to know to
    /// stand pat before it lists the tactical ones. It must never say yes
    /// wrongly; the default says no (quiescence then lists the actions
    /// first).
    fn has_quiet_action(&self) -> bool {
        false
    }

    /// Whether the seat to move is in check (games with checks): the search
    /// extends such positions and never stands pat in them. The default:
    /// the game has no checks.
    fn in_check(&self) -> bool {
        false
    }

    /// Whether passing the turn (a *null move*, [`SearchHints::skip_to`] the next
    /// seat) is a sound guess for pruning here: the side to move is not in
    /// check and zugzwang is unlikely (it has men besides pawns and King).
    /// The default: never. Games must not opt in where zugzwang is common
    /// (checkers endings: a forced capture or the only move loses) or where
    /// a turn has several actions (a null turn would skip both).
    fn null_move_ok(&self) -> bool {
        false
    }

    /// Whether futility pruning is a sound guess here: a quiet action one
    /// action from quiescence, with the static value far below alpha, is
    /// unlikely to matter. The default: yes. Checkers says no: a quiet move
    /// that offers a man is how a shot begins (the opponent must take, and
    /// the recapture takes more), and only quiescence past that move sees it.
    fn futility_ok(&self) -> bool {
        true
    }

    /// Makes `seat` the seat to move at once, at a turn start, as if the
    /// seats in between had passed, changing nothing else but the key (and
    /// what a pass changes by the rules). Used for the null move (the next
    /// seat) and by Best-Reply Search (any seat still in the game). `None`
    /// when that is not possible here (the game is over, `seat` is out or
    /// cannot move, the position is mid-turn, or the game has no clean way
    /// to do it: the default).
    fn skip_to(&mut self, _seat: Seat) -> Option<Self::Undo> {
        None
    }

    /// Takes back a [`SearchHints::skip_to`] that returned `Some(undo)`.
    fn unskip(&mut self, _undo: Self::Undo) {
        unreachable!("unskip without a successful skip_to")
    }
}

/// What front ends show: a text picture for `d`, the board view the GUI
/// draws, the cells an action touches and why a piece cannot act. The
/// search never uses it.
pub trait Presentation: Notation {
    /// A text picture of the board for `d`.
    fn render(&self) -> String;

    /// A picture of the board for graphical front ends (`query board`,
    /// [`crate::view`]), or `None` for a game that has none yet.
    fn board_view(&self) -> Option<crate::view::BoardView> {
        None
    }

    /// The cells a person points at to choose action `a` in a front end,
    /// in order: where it starts, any cells it passes, where it ends (none
    /// for a pass). The default reads the square names in the action's token
    /// ([`crate::view::token_cells`]).
    fn action_cells(&self, a: Self::Action) -> Vec<String> {
        crate::view::token_cells(&action_string(self, a))
    }

    /// Why what stands on `cell` (a square name of the board view) cannot
    /// act now, for a person who points at it: `Some(reason)` only where the
    /// game can say it cheaply and exactly from the position's state (the
    /// piece already acted this turn, its suit is frozen), `None` otherwise
    /// (the default: front ends then say nothing). Front ends ask only about
    /// cells where no legal action starts; a game answers `None` for a cell
    /// that holds no piece of the side to move unless the reason is a rule
    /// of the piece itself.
    fn idle_reason(&self, _cell: &str) -> Option<String> {
        None
    }
}

/// A complete game: every concern a game implements (see
/// `docs/architecture.md`, "A game's traits"). Implemented for every type
/// that implements the five parts; write bounds on the parts a user needs
/// (the search: [`Rules`] + [`Evaluation`] + [`SearchHints`]).
pub trait Game: Rules + Notation + Evaluation + SearchHints + Presentation {}

impl<T: Rules + Notation + Evaluation + SearchHints + Presentation> Game for T {}

/// What the engine and the tools need of a game beyond its rules, its
/// notation, evaluation, search hints and pictures: `bench` positions and
/// depth, the default free-for-all search strategy, a default turn cap,
/// set-up proposals (the engine's `go setup`, the runner's random
/// set-ups) and protocol dialects (4pchess-style turns, scores and clock
/// words). Every game of the registry implements it; the defaults fit a
/// game with no special needs. (Engine behaviour and protocol, not rules:
/// kept out of the five traits the search and the rules use.)
pub trait GameInfo: Game {
    /// The built-in `bench` positions of `variant` besides its start
    /// position (position strings; `bench` always searches `startpos`
    /// first).
    fn bench_positions(_variant: &str) -> &'static [&'static str] {
        &[]
    }

    /// The depth `bench` searches `variant` to when no depth is given:
    /// about a quarter of a second per variant in a release build.
    fn bench_depth(_variant: &str) -> u32 {
        8
    }

    /// The default `Strategy` of `variant` (free-for-all variants): one of
    /// `paranoid`, `brs`, `maxn` — the strongest measured for it
    /// (docs/search.md, "Free-for-all strategies").
    fn default_strategy(_variant: &str) -> &'static str {
        "paranoid"
    }

    /// The match runner's turn cap when `--maxturns` is not given, and the
    /// tuner's when `--max-turns` is 0 (0: none). Games whose rules end
    /// every game (a draw rule) need none.
    fn default_maxturns(_variant: &str) -> u32 {
        0
    }

    /// A random legal set-up token for `seat`, for games with a set-up
    /// phase (the match runner's and the tuner's openings).
    fn random_setup(_opts: &Self::Options, _seat: Seat, _seed: u64) -> Option<String> {
        None
    }

    /// The engine's proposal for `seat`'s secret set-up choice (`go setup`),
    /// varied by `seed`; `None` for games without one.
    fn propose_setup(_opts: &Self::Options, _seat: Seat, _seed: u64) -> Option<String> {
        None
    }

    /// The turn written in a protocol dialect that an option selects (the
    /// 4pchess style `h2-h4` of `teamchess`), or `None` for the canonical
    /// token.
    fn dialect_turn(&self, _opts: &Self::Options, _actions: &[Self::Action]) -> Option<String> {
        None
    }

    /// In a protocol dialect that an option selects, the seat whose side
    /// `info` scores are given for (4pchess reports them from Red/Yellow's
    /// side, whoever is to move), or `None`: from the side to move.
    fn dialect_score_seat(&self, _opts: &Self::Options) -> Option<Seat> {
        None
    }

    /// Seat letters of a clock dialect (`go rtime … btime … ytime … gtime …`
    /// in `teamchess`), if the game has one.
    const CLOCK_LETTERS: Option<[&'static str; 4]> = None;

    /// The game's page in `docs/` (its rules as implemented, Markdown),
    /// which front ends show to people (the GUI's *Rules*); empty for a
    /// game without one.
    fn rules_page() -> &'static str {
        ""
    }
}

/// `g`'s evaluation for `seat` under the compiled-in weights (for tests).
#[cfg(test)]
pub(crate) fn eval_value<G: Game>(g: &G, seat: Seat) -> i32 {
    g.evaluate(seat, G::default_weights(g.variant()))
}

/// `g`'s evaluation terms for `seat` under the compiled-in weights (tests).
#[cfg(test)]
pub(crate) fn eval_terms_of<G: Game>(g: &G, seat: Seat) -> Vec<(&'static str, i32)> {
    g.eval_terms(seat, G::default_weights(g.variant()))
}

/// The value of `g`'s evaluation term `name` for `seat` (for tests).
#[cfg(test)]
pub(crate) fn eval_term<G: Game>(g: &G, seat: Seat, name: &str) -> i32 {
    g.eval_terms(seat, G::default_weights(g.variant())).iter().find(|t| t.0 == name).unwrap_or_else(|| panic!("no term {name}")).1
}

/// The canonical token of one action, allocating (for the protocol, never
/// inside search or perft).
pub fn action_string<G: Notation>(g: &G, a: G::Action) -> String {
    let mut s = String::new();
    g.write_action(a, &mut s);
    s
}

/// Whether the turn that was being played is over in `g` (after an action):
/// back at a turn start, or the game ended.
#[inline(always)]
pub fn turn_done<G: Rules>(g: &G) -> bool {
    g.at_turn_start() || g.outcome().is_some()
}

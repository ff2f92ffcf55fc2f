//! A game in progress, generic over the game ([`Played`]), and the
//! front-end API written once for every game ([`GameOps`]): the typed
//! handle ([`crate::handle`]) holds one per variant.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::game::{
    action_string, turn_done, ActionList, Game, GameInfo, OptionKind, OptionSpec, Outcome, PositionError, Seat, TokenError,
};
use crate::options::{check_value, default_value, ValueError};
use crate::turns::{parse_turn, play_turn, turn_string};
use crate::view::BoardView;

/// How a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The start position.
    Startpos,
    /// A position string.
    Fen(String),
    /// One set-up token per seat.
    Setup(Vec<String>),
}

impl Start {
    /// The words after `position` (before `moves`).
    pub fn protocol(&self) -> String {
        match self {
            Start::Startpos => "startpos".into(),
            Start::Fen(s) => format!("fen {s}"),
            Start::Setup(t) => format!("setup {}", t.join(" ")),
        }
    }
}

/// Rule options chosen for a game: (name, value) in any case, the later
/// of two with the same name winning.
pub type OptionPairs = [(String, String)];

/// Why the handle refuses a call (nothing changed). The texts are what the
/// GUI shows and docs/gui.md quotes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No game has this variant.
    #[error("unknown variant `{name}`")]
    UnknownVariant {
        /// The name given.
        name: String,
    },
    /// A rule option the variant does not have.
    #[error("unknown option `{name}` for variant {variant}")]
    NoSuchOption {
        /// The name given.
        name: String,
        /// The variant.
        variant: &'static str,
    },
    /// An option's value does not fit its kind.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// The game refused an option's value.
    #[error("option {name}: {source}")]
    Option {
        /// The option.
        name: &'static str,
        /// The game's reason.
        source: PositionError,
    },
    /// The position string is wrong.
    #[error("invalid position string: {0}")]
    InvalidPosition(PositionError),
    /// The game's position parser panicked.
    #[error("invalid position (the parser failed)")]
    PositionParserFailed,
    /// The set-up tokens are wrong.
    #[error("invalid set-up: {0}")]
    InvalidSetup(PositionError),
    /// The game's set-up parser panicked.
    #[error("invalid set-up (the parser failed)")]
    SetupParserFailed,
    /// A set-up in a game without one.
    #[error("variant {variant} has no set-up")]
    NoSetup {
        /// The variant.
        variant: &'static str,
    },
    /// A seat past the variant's seats.
    #[error("seat {seat} does not exist (variant {variant} has {seats})")]
    NoSuchSeat {
        /// The seat, from 1.
        seat: usize,
        /// The variant.
        variant: &'static str,
        /// Its seats.
        seats: usize,
    },
    /// A turn of a list played after the end of the game.
    #[error("turn {turn} `{token}`: the game is over ({outcome})")]
    TurnAfterEnd {
        /// Its number in the game, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// A turn of a list is not a turn of its position.
    #[error("turn {turn} `{token}`: {source}")]
    Turn {
        /// Its number in the game, from 1.
        turn: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// The turn played is not a turn of the position.
    #[error("turn `{token}`: {source}")]
    BadTurn {
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// A turn played after the end of the game.
    #[error("the game is over ({0})")]
    Over(Outcome),
    /// Actions asked for after the end of the game.
    #[error("the game is over")]
    GameOver,
    /// An action of a turn's first actions after the turn's last action.
    #[error("action {index} `{token}`: the turn is already over")]
    ActionAfterTurn {
        /// Its place among the actions, from 1.
        index: usize,
        /// The token.
        token: String,
    },
    /// An action of a turn's first actions that does not parse.
    #[error("action {index} `{token}`: {source}")]
    Action {
        /// Its place among the actions, from 1.
        index: usize,
        /// The token.
        token: String,
        /// Why it is refused.
        source: TokenError,
    },
    /// An action of a turn's first actions that is not legal.
    #[error("action {index} `{token}`: illegal")]
    IllegalAction {
        /// Its place among the actions, from 1.
        index: usize,
        /// The token.
        token: String,
    },
    /// The first actions given are a whole turn.
    #[error("the turn is already over")]
    TurnOver,
    /// The variant has no record format.
    #[error("variant {variant} has no record format")]
    NoRecordFormat {
        /// The variant.
        variant: &'static str,
    },
    /// The game could not write its record.
    #[error(transparent)]
    Record(PositionError),
}

/// A position with what a board shows about it: the picture and the
/// position's facts (who moves, whether a turn starts, the outcome).
#[derive(Clone, Debug)]
pub struct BoardState {
    /// The picture.
    pub view: BoardView,
    /// The seat to move.
    pub to_move: Seat,
    /// Whether the position is at the start of a turn.
    pub turn_start: bool,
    /// The outcome, if the game is over (history rules included).
    pub outcome: Option<Outcome>,
}

impl BoardState {
    /// The board of `g`, given the keys of the earlier turn-start
    /// positions for the history rules; `None` where the game has no board
    /// view.
    pub fn of<G: Game>(g: &G, history: &[u64]) -> Option<BoardState> {
        Some(BoardState {
            view: g.board_view()?,
            to_move: g.to_move(),
            turn_start: g.at_turn_start(),
            outcome: g.outcome().or_else(|| g.history_outcome(history)),
        })
    }
}

/// One legal action a person can choose ([`GameOps::actions_after`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionChoice {
    /// Its canonical token.
    pub token: String,
    /// The cells a person points at to choose it (none for a pass).
    pub cells: Vec<String>,
    /// Whether the turn is over after it.
    pub ends_turn: bool,
    /// Whether it is the pass (`0000`).
    pub pass: bool,
}

/// The legal actions after the first actions of the current turn.
#[derive(Clone, Debug)]
pub struct ActionChoices {
    /// The actions, in the game's order.
    pub actions: Vec<ActionChoice>,
    /// Whether the list is the search's shorter one (more than
    /// [`ACTIONS_LISTED`] legal actions: Quadranj's long unstacking chains
    /// left out; such an action can still be typed).
    pub partial: bool,
    /// The board after the first actions (`None`: the game has no view).
    pub board: Option<BoardState>,
    /// For the board's cells holding pieces where no listed action starts:
    /// the game's reason why they cannot act, where it has one
    /// ([`Presentation::idle_reason`](crate::game::Presentation::idle_reason)).
    pub idle: Vec<(String, String)>,
}

/// The most legal actions [`GameOps::actions_after`] lists in full.
pub const ACTIONS_LISTED: usize = 50_000;

/// One turn of a line ([`GameOps::line_cells`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineTurn {
    /// The turn's canonical token.
    pub token: String,
    /// The seat that plays it.
    pub seat: Seat,
    /// The cells of each of its actions (a pass has none).
    pub actions: Vec<Vec<String>>,
}

/// A turn played: the position before it and its actions.
#[derive(Clone, Debug)]
struct TurnPlayed<G: GameInfo> {
    before: G,
    actions: Vec<G::Action>,
    /// Whether `before` was a turn start (its key then went to the history).
    keyed: bool,
}

/// A game of `G` in progress: its variant and rule options, the start,
/// the turns played and the position now. Taking a turn back restores the
/// position before it exactly (kept, not unmade), so every rule that
/// depends on the game's history stays right.
#[derive(Clone, Debug)]
pub struct Played<G: GameInfo> {
    variant: &'static str,
    opts: G::Options,
    start: G,
    pos: G,
    played: Vec<TurnPlayed<G>>,
    tokens: Vec<String>,
    /// Keys of the earlier turn-start positions (oldest first).
    history: Vec<u64>,
}

/// `f()`, with a panic in a game's parser turned into `failed`.
fn guarded<T>(failed: GameError, f: impl FnOnce() -> Result<T, GameError>) -> Result<T, GameError> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(Err(failed))
}

impl<G: GameInfo> Played<G> {
    /// The rule options of `variant` with `pairs` set over the defaults
    /// (names in any case; values checked against their kinds, then by the
    /// game).
    pub fn options_from(variant: &'static str, pairs: &OptionPairs) -> Result<G::Options, GameError> {
        let mut o = G::default_options(variant);
        let specs = G::option_specs(variant);
        for (name, value) in pairs {
            let spec = specs
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
                .ok_or_else(|| GameError::NoSuchOption { name: name.clone(), variant })?;
            let v = check_value(spec.name, &spec.kind, Some(value))?;
            G::set_option(&mut o, spec.name, &v).map_err(|source| GameError::Option { name: spec.name, source })?;
        }
        Ok(o)
    }

    /// A game of `variant` under `opts` from `start`.
    pub fn new(variant: &'static str, opts: G::Options, start: &Start) -> Result<Self, GameError> {
        let pos = match start {
            Start::Startpos => G::startpos(&opts),
            Start::Fen(s) => guarded(GameError::PositionParserFailed, || {
                G::from_position_string(s, &opts).map_err(GameError::InvalidPosition)
            })?,
            Start::Setup(t) => guarded(GameError::SetupParserFailed, || {
                let t: Vec<&str> = t.iter().map(String::as_str).collect();
                G::from_setup(&t, &opts).map_err(GameError::InvalidSetup)
            })?,
        };
        Ok(Played::from_position(variant, opts, pos))
    }

    /// A game of `variant` under `opts` from the position `start`.
    pub fn from_position(variant: &'static str, opts: G::Options, start: G) -> Self {
        Played { variant, opts, pos: start.clone(), start, played: Vec::new(), tokens: Vec::new(), history: Vec::new() }
    }

    /// Sets the rule options, applying those that act on the position at
    /// once ([`Rules::apply_options`](crate::game::Rules::apply_options)) to
    /// the position now.
    pub fn set_options(&mut self, opts: G::Options) {
        self.pos.apply_options(&opts);
        self.opts = opts;
    }

    /// The position now.
    pub fn pos(&self) -> &G {
        &self.pos
    }

    /// The start position.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The rule options.
    pub fn options(&self) -> &G::Options {
        &self.opts
    }

    /// The keys of the earlier turn-start positions, oldest first (what
    /// [`Rules::history_outcome`](crate::game::Rules::history_outcome)
    /// takes).
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// The outcome, by the position's rules or by the game's history.
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| self.pos.history_outcome(&self.history))
    }

    /// Plays a legal, complete turn given as actions.
    pub fn play_actions(&mut self, actions: Vec<G::Action>) -> String {
        let token = turn_string(&self.pos, &actions);
        let keyed = self.pos.at_turn_start();
        if keyed {
            self.history.push(self.pos.key());
        }
        let before = self.pos.clone();
        play_turn(&mut self.pos, &actions);
        self.played.push(TurnPlayed { before, actions, keyed });
        self.tokens.push(token);
        self.tokens.last().cloned().unwrap_or_default()
    }

    /// The actions of `token` here, or why it is not a turn of the position.
    pub fn parse(&self, token: &str) -> Result<Vec<G::Action>, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        parse_turn(&self.pos, token).map_err(|source| GameError::BadTurn { token: token.into(), source })
    }

    /// The position before the last turn and that turn's actions.
    pub fn last_turn(&self) -> Option<(&G, &[G::Action])> {
        self.played.last().map(|t| (&t.before, t.actions.as_slice()))
    }

    /// The cells of the action `a` of `g` (none for a pass).
    fn cells(g: &G, a: G::Action) -> Vec<String> {
        if g.is_pass(a) {
            Vec::new()
        } else {
            g.action_cells(a)
        }
    }
}

/// The front-end API of a game in progress, written once for every game
/// ([`Played`]) and reached through the handle
/// ([`AnyGame`](crate::handle::AnyGame)): tokens as text, checked.
pub trait GameOps {
    /// The variant.
    fn variant_name(&self) -> &'static str;
    /// The canonical tokens of the turns played, oldest first.
    fn turns(&self) -> &[String];
    /// Number of seats.
    fn seats(&self) -> usize;
    /// The seat to move.
    fn to_move(&self) -> Seat;
    /// The side (team, or the seat itself) `seat` plays for.
    fn side_of(&self, seat: Seat) -> usize;
    /// A seat's colour name (`Red`, `White`, …).
    fn seat_name(&self, seat: Seat) -> &'static str;
    /// Whether the position is at the start of a turn.
    fn at_turn_start(&self) -> bool;
    /// Whether every seat plays for itself with more than two seats.
    fn free_for_all(&self) -> bool;
    /// The outcome, by the position's rules or the game's history.
    fn outcome(&self) -> Option<Outcome>;
    /// The position string now.
    fn position_string(&self) -> String;
    /// The start position's string.
    fn start_position_string(&self) -> String;
    /// A text picture of the board.
    fn render(&self) -> String;
    /// The board now (`None`: the game has no view).
    fn board(&self) -> Option<BoardState>;
    /// The variant's options (`setoption`), rule options and dialects.
    fn option_specs(&self) -> Vec<OptionSpec>;
    /// The options that change the rules (not only how turns are written).
    fn rule_options(&self) -> Vec<OptionSpec>;
    /// Whether the variant has a secret set-up (`go setup`).
    fn has_setup(&self) -> bool;
    /// Whether the variant has a record format.
    fn has_record(&self) -> bool;
    /// The game's page in `docs/` (Markdown; empty for none).
    fn rules_page(&self) -> &'static str;
    /// The engine's proposal for `seat`'s set-up choice, varied by `seed`.
    fn propose_setup(&self, seat: Seat, seed: u64) -> Option<String>;
    /// Plays a turn; returns its canonical token.
    fn play(&mut self, token: &str) -> Result<String, GameError>;
    /// The canonical token of a turn of the position, nothing played.
    fn check_turn(&self, token: &str) -> Result<String, GameError>;
    /// Takes the last turn back; returns its token.
    fn undo(&mut self) -> Option<String>;
    /// Takes turns back until `k` are left.
    fn truncate(&mut self, k: usize);
    /// How many actions the search considers here (every legal one but
    /// Quadranj's long unstacking chains); 0 when the game is over.
    fn search_action_count(&self) -> usize;
    /// The cells of the last turn's actions, in order.
    fn last_turn_cells(&self) -> Vec<String>;
    /// The legal actions after the first actions `prefix` of the turn.
    fn actions_after(&self, prefix: &[String]) -> Result<ActionChoices, GameError>;
    /// A line of turns from here with the cells of each action; it stops at
    /// its first token that is not a legal turn there (no legal first turn
    /// is an error) or at the end of the game.
    fn line_cells(&self, line: &[String]) -> Result<Vec<LineTurn>, GameError>;
    /// The game in the variant's record format.
    fn write_record(&self) -> Result<String, GameError>;
    /// Reads a text in the variant's record format under this game's
    /// options: the start position's string and the turns (`None`: the
    /// variant has no record format).
    fn read_record(&self, text: &str) -> Option<Result<(String, Vec<String>), PositionError>>;
}

impl<G: GameInfo> GameOps for Played<G> {
    fn variant_name(&self) -> &'static str {
        self.variant
    }
    fn turns(&self) -> &[String] {
        &self.tokens
    }
    fn seats(&self) -> usize {
        self.pos.seats()
    }
    fn to_move(&self) -> Seat {
        self.pos.to_move()
    }
    fn side_of(&self, seat: Seat) -> usize {
        self.pos.side_of(seat)
    }
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.pos.seat_name(seat)
    }
    fn at_turn_start(&self) -> bool {
        self.pos.at_turn_start()
    }
    fn free_for_all(&self) -> bool {
        let (g, n) = (&self.pos, self.pos.seats());
        n > 2 && (0..n).all(|a| (0..a).all(|b| g.side_of(a) != g.side_of(b)))
    }
    fn outcome(&self) -> Option<Outcome> {
        Played::outcome(self)
    }
    fn position_string(&self) -> String {
        self.pos.position_string()
    }
    fn start_position_string(&self) -> String {
        self.start.position_string()
    }
    fn render(&self) -> String {
        self.pos.render()
    }
    fn board(&self) -> Option<BoardState> {
        BoardState::of(&self.pos, &self.history)
    }
    fn option_specs(&self) -> Vec<OptionSpec> {
        G::option_specs(self.variant)
    }
    fn rule_options(&self) -> Vec<OptionSpec> {
        let v = self.variant;
        G::option_specs(v).into_iter().filter(|s| !changes_notation::<G>(v, s)).collect()
    }
    fn has_setup(&self) -> bool {
        G::propose_setup(&self.opts, 0, 1).is_some()
    }
    fn has_record(&self) -> bool {
        G::write_record(&self.start, &[]).is_some()
    }
    fn rules_page(&self) -> &'static str {
        G::rules_page()
    }
    fn propose_setup(&self, seat: Seat, seed: u64) -> Option<String> {
        G::propose_setup(&self.opts, seat, seed)
    }
    fn play(&mut self, token: &str) -> Result<String, GameError> {
        let acts = self.parse(token)?;
        Ok(self.play_actions(acts))
    }
    fn check_turn(&self, token: &str) -> Result<String, GameError> {
        let acts = self.parse(token)?;
        Ok(turn_string(&self.pos, &acts))
    }
    fn undo(&mut self) -> Option<String> {
        let t = self.played.pop()?;
        if t.keyed {
            self.history.pop();
        }
        self.pos = t.before;
        self.tokens.pop()
    }
    fn truncate(&mut self, k: usize) {
        while self.played.len() > k {
            self.undo();
        }
    }
    fn search_action_count(&self) -> usize {
        if self.outcome().is_some() {
            return 0;
        }
        // The search's list, not every legal action: the same but for
        // Quadranj's unstacking chains of more than two links, of which a
        // tall stack has millions (a 434 MB list on every state change,
        // issue 26). A position with a legal action has one in it.
        let mut list = G::Actions::default();
        self.pos.search_actions(&mut list);
        list.len()
    }
    fn last_turn_cells(&self) -> Vec<String> {
        let mut cells = Vec::new();
        if let Some((before, acts)) = self.last_turn() {
            let mut p = before.clone();
            for &a in acts {
                cells.extend(Self::cells(&p, a));
                p.make(a);
            }
        }
        cells
    }
    fn actions_after(&self, prefix: &[String]) -> Result<ActionChoices, GameError> {
        if self.outcome().is_some() {
            return Err(GameError::GameOver);
        }
        let mut g = self.pos.clone();
        for (i, t) in prefix.iter().enumerate() {
            let (index, token) = (i + 1, t.clone());
            if i > 0 && turn_done(&g) {
                return Err(GameError::ActionAfterTurn { index, token });
            }
            let a = g.parse_action(t).map_err(|source| GameError::Action { index, token: token.clone(), source })?;
            if !g.is_legal(a) {
                return Err(GameError::IllegalAction { index, token });
            }
            g.make(a);
        }
        if !prefix.is_empty() && turn_done(&g) {
            return Err(GameError::TurnOver);
        }
        let mut list = G::Actions::default();
        g.legal_actions(&mut list);
        // A Quadranj tall stack has millions of unstacking chains: past
        // ACTIONS_LISTED the list is the search's (the long chains left
        // out), and such a chain can still be typed.
        let partial = list.len() > ACTIONS_LISTED;
        if partial {
            list.clear();
            g.search_actions(&mut list);
        }
        let actions: Vec<ActionChoice> = list
            .iter()
            .map(|&a| {
                let pass = g.is_pass(a);
                let ends_turn = pass || {
                    let mut p = g.clone();
                    p.make(a);
                    turn_done(&p)
                };
                ActionChoice { token: action_string(&g, a), cells: Self::cells(&g, a), ends_turn, pass }
            })
            .collect();
        let board = BoardState::of(&g, &self.history);
        let idle = match &board {
            None => Vec::new(),
            Some(b) => {
                let starts: std::collections::HashSet<&str> =
                    actions.iter().filter_map(|a| a.cells.first().map(String::as_str)).collect();
                b.view
                    .cells
                    .iter()
                    .filter(|c| !c.pieces.is_empty() && !starts.contains(c.name.as_str()))
                    .filter_map(|c| g.idle_reason(&c.name).map(|reason| (c.name.clone(), reason)))
                    .collect()
            }
        };
        Ok(ActionChoices { actions, partial, board, idle })
    }
    fn line_cells(&self, line: &[String]) -> Result<Vec<LineTurn>, GameError> {
        let mut pos = self.pos.clone();
        let mut out = Vec::new();
        for t in line {
            if pos.outcome().is_some() {
                break;
            }
            let acts = match parse_turn(&pos, t) {
                Ok(a) => a,
                Err(source) if out.is_empty() => return Err(GameError::BadTurn { token: t.clone(), source }),
                Err(_) => break,
            };
            let (token, seat) = (turn_string(&pos, &acts), pos.to_move());
            let mut actions = Vec::new();
            for &a in &acts {
                actions.push(Self::cells(&pos, a));
                pos.make(a);
            }
            out.push(LineTurn { token, seat, actions });
        }
        Ok(out)
    }
    fn write_record(&self) -> Result<String, GameError> {
        match G::write_record(&self.start, &self.tokens) {
            None => Err(GameError::NoRecordFormat { variant: self.variant }),
            Some(r) => r.map_err(GameError::Record),
        }
    }
    fn read_record(&self, text: &str) -> Option<Result<(String, Vec<String>), PositionError>> {
        let read = catch_unwind(AssertUnwindSafe(|| G::read_record(text, &self.opts)))
            .unwrap_or_else(|_| Some(Err(PositionError::field("record", "the reader failed"))))?;
        Some(read.map(|(start, turns)| (start.position_string(), turns)))
    }
}

/// Whether setting `spec` away from its default only changes how the engine
/// writes turns (a dialect, e.g. teamchess `Notation`): such an option is
/// not a rule option.
fn changes_notation<G: GameInfo>(variant: &str, spec: &OptionSpec) -> bool {
    let values: Vec<String> = match &spec.kind {
        OptionKind::Check(d) => vec![(!d).to_string()],
        OptionKind::Combo(v) => v.iter().skip(1).map(|s| s.to_string()).collect(),
        OptionKind::Spin { .. } => Vec::new(),
    };
    let g = G::startpos(&G::default_options(variant));
    let mut list = G::Actions::default();
    g.legal_actions(&mut list);
    let Some(&a) = list.first() else { return false };
    values.iter().any(|v| {
        let mut o = G::default_options(variant);
        G::set_option(&mut o, spec.name, v).is_ok() && g.dialect_turn(&o, &[a]).is_some()
    })
}

/// The rule options `pairs` of `variant` checked: each with the game's
/// spelling of its name and its canonical value, in the game's order, the
/// defaults left out.
pub(crate) fn canonical_options<G: GameInfo>(
    variant: &'static str,
    pairs: &OptionPairs,
) -> Result<Vec<(String, String)>, GameError> {
    Played::<G>::options_from(variant, pairs)?;
    let mut out = Vec::new();
    for spec in G::option_specs(variant) {
        if let Some((_, v)) = pairs.iter().rev().find(|(n, _)| n.eq_ignore_ascii_case(spec.name)) {
            let v = check_value(spec.name, &spec.kind, Some(v))?;
            if v != default_value(&spec.kind) {
                out.push((spec.name.to_string(), v));
            }
        }
    }
    Ok(out)
}

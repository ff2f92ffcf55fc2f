//! A tiny game for the line handler's unit tests: take 1..=k stones from a
//! pile, two seats; who takes the last stone wins.

use std::ops::{Deref, DerefMut};
use tetrarch_core::eval::{EvalSink, Weights};
use tetrarch_core::game::{
    ActionList, Evaluation, Notation, OptionKind, OptionSpec, Outcome, PositionError, Presentation, Rules, SearchHints, Seat,
    SeatSet, TokenError,
};

#[derive(Clone, Debug, PartialEq)]
pub struct Toy {
    pile: u32,
    to_move: usize,
    max_take: u8,
}

#[derive(Default)]
pub struct ToyList(Vec<u8>);

impl Deref for ToyList {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}
impl DerefMut for ToyList {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
}
impl ActionList<u8> for ToyList {
    fn push(&mut self, a: u8) {
        self.0.push(a)
    }
    fn clear(&mut self) {
        self.0.clear()
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToyOptions {
    pub max_take: u8,
    pub start: u32,
}

tetrarch_core::weights! {
    mod w for "toy" {
        PARITY: "parity.unit" = 100;
    }
}

impl Rules for Toy {
    type Action = u8;
    type Undo = ();
    type Actions = ToyList;
    type Options = ToyOptions;
    const ONE_ACTION_PER_TURN: bool = true;
    const VARIANTS: &'static [&'static str] = &["toy"];

    fn default_options(_: &str) -> ToyOptions {
        ToyOptions { max_take: 3, start: 10 }
    }

    fn option_specs(_: &str) -> Vec<OptionSpec> {
        vec![
            OptionSpec { name: "Toy_MaxTake", kind: OptionKind::Spin { default: 3, min: 1, max: 5 } },
            OptionSpec { name: "Toy_Big", kind: OptionKind::Check(false) },
        ]
    }

    fn set_option(o: &mut ToyOptions, name: &str, value: &str) -> Result<(), PositionError> {
        match name {
            "Toy_MaxTake" => o.max_take = value.parse().map_err(|_| PositionError::option("Toy_MaxTake", "not a number"))?,
            "Toy_Big" => o.start = if value == "true" { 21 } else { 10 },
            _ => return Err(PositionError::unknown_option(name)),
        }
        Ok(())
    }

    fn apply_options(&mut self, o: &ToyOptions) {
        self.max_take = o.max_take;
    }

    fn startpos(o: &ToyOptions) -> Self {
        Toy { pile: o.start, to_move: 0, max_take: o.max_take }
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Seat {
        self.to_move
    }

    fn side_of(&self, seat: Seat) -> usize {
        seat
    }

    fn legal_actions(&self, out: &mut Self::Actions) {
        for k in 1..=self.max_take.min(self.pile.min(8) as u8) {
            out.push(k);
        }
    }

    fn make(&mut self, a: u8) {
        self.pile -= a as u32;
        self.to_move ^= 1;
    }

    fn unmake(&mut self, a: u8, _: ()) {
        self.pile += a as u32;
        self.to_move ^= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.pile == 0).then(|| Outcome::win(SeatSet::EMPTY.with(self.to_move ^ 1), "laststone"))
    }

    fn key(&self) -> u64 {
        (self.pile as u64 * 2 + self.to_move as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn key_from_scratch(&self) -> u64 {
        self.key()
    }

    fn is_pass(&self, _: u8) -> bool {
        false
    }
}

impl Notation for Toy {
    fn from_position_string(s: &str, o: &ToyOptions) -> Result<Self, PositionError> {
        let f: Vec<&str> = s.split(' ').collect();
        let [pile, side] = f[..] else {
            return Err(PositionError::field("position", format!("expected 2 fields, got {}", f.len())));
        };
        let pile = pile.parse().map_err(|_| PositionError::field("pile", "not a number"))?;
        let to_move = match side {
            "1" => 0,
            "2" => 1,
            _ => return Err(PositionError::field("side", "expected 1 or 2")),
        };
        Ok(Toy { pile, to_move, max_take: o.max_take })
    }

    fn position_string(&self) -> String {
        format!("{} {}", self.pile, self.to_move + 1)
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        ["First", "Second"][seat]
    }

    fn write_action(&self, a: u8, out: &mut String) {
        out.push_str(&a.to_string());
    }

    fn parse_action(&self, token: &str) -> Result<u8, TokenError> {
        let k: u8 = token.parse().map_err(|_| TokenError::Malformed("not a number".into()))?;
        let mut l = Self::Actions::default();
        self.legal_actions(&mut l);
        if l.contains(&k) {
            Ok(k)
        } else {
            Err(TokenError::Illegal(format!("cannot take {k}")))
        }
    }
}

impl Evaluation for Toy {
    fn default_weights(_: &str) -> &'static Weights {
        static W: std::sync::LazyLock<Weights> = std::sync::LazyLock::new(|| Weights::defaults("toy", &w::TABLE));
        &W
    }

    fn eval_features<S: EvalSink>(&self, _: Seat, sink: &mut S) {
        let lost = self.pile.checked_rem(self.max_take as u32 + 1) == Some(0);
        sink.add(w::PARITY, if lost { -1 } else { 1 });
    }
}

impl SearchHints for Toy {
    fn is_tactical(&self, _: u8) -> bool {
        false
    }

    fn order_hint(&self, a: u8) -> i32 {
        a as i32
    }
}

impl Presentation for Toy {
    fn render(&self) -> String {
        format!("pile {}\n{}", self.pile, "|".repeat(self.pile.min(100) as usize))
    }
}

/// The defaults: no bench positions, depth 8, `paranoid`, no turn cap.
impl crate::GameInfo for Toy {}

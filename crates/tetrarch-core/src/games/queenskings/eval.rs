//! Static evaluation of Queens & Kings. All weights are here.
//!
//! Terms, per colour, then summed for the asked seat's side minus the rest
//! (in free-for-all the seat against all the others together):
//! - `material`: men, Kings and Queens at [`MAN`], [`KING`], [`QUEEN`];
//!   pieces of a colour that is out (teams, or free-for-all with `keep`)
//!   count [`OUT_FRACTION`] of that and nothing else;
//! - `advance`: each man's progress towards its Queen edge;
//! - `centre`: men and Kings close to the centre (the King square and the
//!   middle of the board);
//! - `queen_edge`: men one, two or three rows from their Queen edge with an
//!   empty square ahead;
//! - `mobility`: empty squares next to the colour's pieces in directions
//!   they can move;
//! - `back_rank`: men still on the home edge, which is the Queen edge of the
//!   colour opposite, while that colour is an enemy with men (duel and
//!   free-for-all; in teams the colour opposite is the partner).
//!
//! [`KING`] and [`BACK_RANK`] were set by matches (docs/history/search-diary.md, "Fourth
//! session"): a King worth 2.3 men lost heavily in the duel to one worth
//! 1.3 (a King steps one square, like a man that can turn back).

use super::board::*;
use super::moves::{Move, MoveKind};
use super::{Mode, QueensKings};
use crate::bitboard::Bb192;
use crate::eval::{EvalSink, Weights};

/// Value of a man.
pub const MAN: i32 = 100;
/// Value of a King.
pub const KING: i32 = 130;
/// Value of a Queen.
pub const QUEEN: i32 = 420;
/// Share of material kept by the pieces of a colour that is out (numerator
/// over 4).
pub const OUT_FRACTION: i32 = 2;
/// Per rank a man has advanced.
pub const ADVANCE: i32 = 3;
/// Per unit of closeness to the centre (men and Kings).
pub const CENTRE: i32 = 2;
/// A man 1, 2 or 3 rows from its Queen edge with a free square ahead.
pub const QUEEN_EDGE: [i32; 4] = [0, 40, 20, 8];
/// Per empty square a piece can step to.
pub const MOBILITY: i32 = 2;
/// Own men on the home edge (the opposite enemy's Queen edge), while that
/// enemy still has men.
pub const BACK_RANK: i32 = 16;
crate::weights! {
    /// The weights of the Queens & Kings evaluation (every variant).
    pub mod w for "queenskings" {
        MAN: "material.man" = super::MAN;
        KING: "material.king" = super::KING;
        QUEEN: "material.queen" = super::QUEEN;
        /// Pieces of a colour that is out: `OUT_FRACTION` quarters.
        OUT_MAN: "material.out_man" = super::MAN * super::OUT_FRACTION / 4;
        OUT_KING: "material.out_king" = super::KING * super::OUT_FRACTION / 4;
        OUT_QUEEN: "material.out_queen" = super::QUEEN * super::OUT_FRACTION / 4;
        ADVANCE: "advance.rank" = super::ADVANCE;
        CENTRE: "centre.closeness" = super::CENTRE;
        /// By rows to go (index 1 to 3).
        QUEEN_EDGE: "queen_edge.rows" [4] = super::QUEEN_EDGE;
        MOBILITY: "mobility.step" = super::MOBILITY;
        BACK_RANK: "back_rank.man" = super::BACK_RANK;
    }
}

/// Tuned sets committed beside the code (their comments say how `tetrarch
/// tune` made them; docs/tuning.md, "Results"): (variant, the variant the
/// file was tuned for, the file). The 17x17 boards play with the 9x9 sets
/// (there they won 46-0 in the duel and 28-4 in teams against the table).
/// A variant not listed (the free-for-alls) plays with the hand-set values
/// of the table [`w`].
const TUNED: &[(&str, &str, &str)] = &[
    ("queenskings9-duel", "queenskings9-duel", include_str!("tuned-9-duel.weights")),
    ("queenskings9-teams", "queenskings9-teams", include_str!("tuned-9-teams.weights")),
    ("queenskings-duel", "queenskings9-duel", include_str!("tuned-9-duel.weights")),
    ("queenskings-teams", "queenskings9-teams", include_str!("tuned-9-teams.weights")),
];

/// The compiled-in weights of every variant (index: `VARIANTS`).
static DEFAULT: std::sync::LazyLock<Vec<Weights>> = std::sync::LazyLock::new(|| {
    super::VARIANTS
        .iter()
        .map(|v| match TUNED.iter().find(|(name, _, _)| name == v) {
            Some((_, tuned_for, text)) => Weights { variant: v, ..Weights::committed(text, tuned_for, &w::TABLE) },
            None => Weights::defaults(v, &w::TABLE),
        })
        .collect()
});

/// The compiled-in weights of `variant` (the first variant's if unknown).
pub fn default_weights(variant: &str) -> &'static Weights {
    let i = super::VARIANTS.iter().position(|v| *v == variant).unwrap_or(0);
    &DEFAULT[i]
}

/// Rows a man of `colour` on `s` still has to go to its Queen edge.
fn to_go(colour: usize, s: Sq, n: usize) -> usize {
    let (f, r) = (file(s), rank(s));
    match colour {
        S => n - 1 - r,
        W => n - 1 - f,
        N => r,
        _ => f,
    }
}

fn colour_features<S: EvalSink>(p: &QueensKings, c: usize, sign: i32, sink: &mut S) {
    let st = &p.st;
    let g = p.geo;
    let own = st.by_colour[c];
    let men = own & st.by_type[0];
    let kings = own & st.by_type[1];
    let queens = own & st.by_type[2];
    let counts = [men.count() as i32, kings.count() as i32, queens.count() as i32];
    if st.in_game >> c & 1 == 0 {
        for (wi, n) in [w::OUT_MAN, w::OUT_KING, w::OUT_QUEEN].into_iter().zip(counts) {
            sink.add(wi, sign * n);
        }
        return;
    }
    for (wi, n) in [w::MAN, w::KING, w::QUEEN].into_iter().zip(counts) {
        sink.add(wi, sign * n);
    }
    let n = g.n;
    let half = (n / 2) as i32;
    let (cf, cr) = (file(g.centre) as i32, rank(g.centre) as i32);
    let empty = g.valid & !st.occ;
    let mut advance = 0;
    let mut centre = 0;
    for s in men {
        let go = to_go(c, s, n);
        advance += (n - 1 - go) as i32;
        if go <= 3 {
            let ahead = FORWARD[c].iter().any(|&d| {
                let t = g.next[d][s];
                t != NONE && empty.has(t as Sq)
            });
            if ahead {
                sink.add(w::QUEEN_EDGE + go, sign);
            }
        }
    }
    for s in men | kings {
        let d = (file(s) as i32 - cf).abs().max((rank(s) as i32 - cr).abs());
        centre += half - d;
    }
    let mut mobility = 0;
    for d in FORWARD[c] {
        mobility += (men.shift(SHIFT[d]) & empty).count() as i32;
    }
    let kq: Bb192 = kings | queens;
    for sh in SHIFT {
        mobility += (kq.shift(sh) & empty).count() as i32;
    }
    sink.add(w::ADVANCE, sign * advance);
    sink.add(w::CENTRE, sign * centre);
    sink.add(w::MOBILITY, sign * mobility);
    // Back rank: the colour opposite crowns its Queens on our home edge;
    // men standing there keep those squares shut while it has men.
    let opp = c ^ 2;
    if st.in_game >> opp & 1 != 0 && !same_side(p, c, opp) && (st.by_colour[opp] & st.by_type[0]).any() {
        sink.add(w::BACK_RANK, sign * (men & g.qedge[opp]).count() as i32);
    }
}

fn same_side(p: &QueensKings, seat_colour: usize, c: usize) -> bool {
    match p.rules.mode {
        Mode::Teams => seat_colour & 1 == c & 1,
        _ => seat_colour == c,
    }
}

/// The evaluation of `seat`'s side minus the rest, as features.
pub fn features<S: EvalSink>(p: &QueensKings, seat: usize, sink: &mut S) {
    let me = p.colour_of(seat);
    for c in 0..4 {
        if p.rules.colours() >> c & 1 == 0 {
            continue;
        }
        let sign = if same_side(p, me, c) { 1 } else { -1 };
        colour_features(p, c, sign, sink);
    }
}

/// Move ordering: captures by number of pieces taken, then crowning moves.
pub fn order_hint(p: &QueensKings, m: Move) -> i32 {
    if m.is_empty() {
        return 0;
    }
    let mut h = 0;
    if m.kind() == MoveKind::Capture {
        h += 1000 * (m.len() as i32 - 1);
    }
    let c = p.st.to_move as usize;
    if p.st.by_type[0].has(m.from()) {
        if let Some(t) = p.geo.crown_at(c, m.to()) {
            h += if t == super::QUEEN { 600 } else { 300 };
        }
    }
    h
}

//! What Four-handed Chess (`fourchess`) and Teams chess (`teamchess`) share:
//! the cross board and its tables ([`board`]), the men on it and attack
//! detection ([`men`]), piece codes and Zobrist keys.

pub mod board;
pub mod men;
pub mod notation;
pub mod view;

/// Piece types. A reversed pawn (`fourchess` only) is its own type so that
/// the board, the hash and the position string all carry its direction.
pub mod piece {
    /// Pawn moving in its owner's forward direction (`P`).
    pub const PAWN: usize = 0;
    /// Pawn moving backwards (`p`, `fourchess` §5.3.1).
    pub const RPAWN: usize = 1;
    /// Knight.
    pub const KNIGHT: usize = 2;
    /// Bishop.
    pub const BISHOP: usize = 3;
    /// Rook.
    pub const ROOK: usize = 4;
    /// Queen.
    pub const QUEEN: usize = 5;
    /// King.
    pub const KING: usize = 6;
    /// Number of piece types.
    pub const COUNT: usize = 7;
    /// Piece letters by type, as position strings write them.
    pub const LETTERS: [char; 7] = ['P', 'p', 'N', 'B', 'R', 'Q', 'K'];
}

/// Zobrist keys of the men and the side to move.
pub mod keys {
    use super::board::CELLS;
    /// Men by seat, type and cell.
    pub static PIECE: [u64; 4 * 7 * CELLS] = crate::zobrist::keys(0x4C43_4845_5353);
    /// The seat to move.
    pub static SIDE: [u64; 4] = crate::zobrist::keys(0x5349_4445);
    /// The key of a man.
    #[inline(always)]
    pub fn piece(seat: usize, ty: usize, sq: usize) -> u64 {
        PIECE[(seat * 7 + ty) * CELLS + sq]
    }
}

/// The partner of a seat (partners sit opposite).
#[inline(always)]
pub const fn partner(s: usize) -> usize {
    (s + 2) & 3
}

/// Both enemies of a seat as a bit mask.
#[inline(always)]
pub const fn enemies_mask(s: usize) -> u8 {
    (1 << ((s + 1) & 3)) | (1 << ((s + 3) & 3))
}

/// The rules both variants share (§4): the no-progress limit and the
/// repetition draw, with their option parsing and their outcomes.
pub mod shared_rules {
    use crate::game::{Outcome, PositionError, SeatSet};

    /// `FC_NoProgressPlies` (0–10000) or `FC_RepetitionDraw` (true/false):
    /// `Some` result if `name` is one of them, `None` otherwise.
    pub fn set_option(
        name: &str,
        value: &str,
        no_progress_plies: &mut u32,
        repetition_draw: &mut bool,
    ) -> Option<Result<(), PositionError>> {
        match name.to_ascii_lowercase().as_str() {
            "fc_noprogressplies" => Some(match value.parse::<u32>().ok().filter(|v| *v <= 10000) {
                Some(v) => {
                    *no_progress_plies = v;
                    Ok(())
                }
                None => Err(PositionError::option("FC_NoProgressPlies", format!("`{value}` is not in 0..10000"))),
            }),
            "fc_repetitiondraw" => Some(match value.to_ascii_lowercase().as_str() {
                "true" => {
                    *repetition_draw = true;
                    Ok(())
                }
                "false" => {
                    *repetition_draw = false;
                    Ok(())
                }
                _ => Err(PositionError::option("FC_RepetitionDraw", format!("`{value}` is not true or false"))),
            }),
            _ => None,
        }
    }

    /// §5.8 rule 4 / §6.6 rule 3: the half-move clock reached the limit.
    pub fn no_progress(halfmove: u32, limit: u32) -> Option<Outcome> {
        (limit != 0 && halfmove >= limit).then(|| Outcome::draw(SeatSet(0b1111), "noprogress"))
    }

    /// §5.8 rule 5 / §6.6 rule 4: the position (its key) occurs for the
    /// third time among the earlier turn-start keys of the game.
    pub fn repetition(key: u64, history: &[u64], enabled: bool) -> Option<Outcome> {
        (enabled && history.iter().filter(|&&k| k == key).count() >= 2).then(|| Outcome::draw(SeatSet(0b1111), "repetition"))
    }
}

/// Evaluation geometry both variants use.
pub mod eval_geometry {
    use super::board::{file, first_blocker, rank, Sq, RAY_LEN};
    use super::men::Men;
    use super::piece::{BISHOP, QUEEN, ROOK};
    use crate::bitboard::Bb256;

    /// Slider mobility of `seat`: the cells its Bishops, Rooks and Queens
    /// reach (empty, or held by another seat's man). On the 160-cell board
    /// long open lines are most of a piece's worth, and a King with few
    /// lines open against it is safe.
    pub fn slider_mobility(m: &Men, seat: usize) -> i32 {
        let own = m.by_seat[seat];
        let q = m.by_type[QUEEN] & own;
        let mut n = 0;
        for s in (m.by_type[BISHOP] & own) | q {
            n += (4..8).map(|d| reach(m.occ, own, d, s)).sum::<u32>();
        }
        for s in (m.by_type[ROOK] & own) | q {
            n += (0..4).map(|d| reach(m.occ, own, d, s)).sum::<u32>();
        }
        n as i32
    }

    /// The cells a slider on `s` of the seat with men `own` reaches in
    /// direction `d` with occupancy `occ`: up to the first man, that one
    /// included unless it is in `own`. Counted from the rays' lengths,
    /// without building the attack set.
    #[inline(always)]
    pub fn reach(occ: Bb256, own: Bb256, d: usize, s: Sq) -> u32 {
        let len = u32::from(RAY_LEN[d][s]);
        match first_blocker(d, s, occ) {
            None => len,
            Some(b) => len - u32::from(RAY_LEN[d][b]) - u32::from(own.has(b)),
        }
    }

    /// 6 in the middle four squares of the centre, falling by one per ring.
    pub fn centre_bonus(s: Sq) -> i32 {
        let dx = (2 * file(s) as i32 - 13).abs() / 2;
        let dy = (2 * rank(s) as i32 - 13).abs() / 2;
        (6 - dx.max(dy)).max(0)
    }

    /// Steps a pawn of `seat` on `s` has made from its pawn line.
    pub fn advance(seat: usize, s: Sq) -> i32 {
        let (x, y) = (file(s) as i32, rank(s) as i32);
        match seat {
            0 => y - 1,
            1 => x - 1,
            2 => 12 - y,
            _ => 12 - x,
        }
    }
}

/// Test helpers both variants' tests use.
#[cfg(test)]
pub(crate) mod test_util {
    use crate::game::{eval_term, Game};

    /// The `mobility` term of `p` for `seat`.
    pub fn mobility<G: Game>(p: &G, seat: usize) -> i32 {
        eval_term(p, seat, "mobility")
    }

    /// For every seat: the `mobility` term is `team0` (seat 0's team minus
    /// the other, negated for the other team), and the terms add up to the
    /// evaluation.
    pub fn assert_team_mobility<G: Game>(p: &G, team0: i32) {
        for seat in 0..4 {
            let sign = if seat % 2 == 0 { 1 } else { -1 };
            assert_eq!(mobility(p, seat), sign * team0, "seat {seat}");
            assert_eq!(
                crate::game::eval_terms_of(p, seat).iter().map(|t| t.1).sum::<i32>(),
                crate::game::eval_value(p, seat),
                "seat {seat}"
            );
        }
    }
}

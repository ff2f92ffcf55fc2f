//! What every game's notation shares: the board field of a position string
//! (ranks from the top down separated by `/`, each a sequence of empty
//! counts, decimal without a leading zero, and pieces whose syntax is the
//! game's own) and square names (`a1`, `q17`: a file letter, the rank in
//! decimal). Written once, so the five games agree on counts, widths, names
//! and messages; each game supplies its piece syntax and where a cell lies.

use thiserror::Error;

/// Why a board field does not read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RanksError {
    /// Not the board's number of ranks.
    #[error("expected {expected} ranks, found {found}")]
    RankCount {
        /// Ranks of the board.
        expected: usize,
        /// Ranks in the text.
        found: usize,
    },
    /// Nothing between two `/`.
    #[error("rank {rank} is empty")]
    EmptyRank {
        /// Rank number (1 at the bottom).
        rank: usize,
    },
    /// An empty count of 0 or with a leading zero.
    #[error("rank {rank}: empty count `{text}` is 0 or has a leading zero")]
    BadCount {
        /// Rank number.
        rank: usize,
        /// The count as written.
        text: String,
    },
    /// More cells than the rank has.
    #[error("rank {rank} has more than {width} cells")]
    TooLong {
        /// Rank number.
        rank: usize,
        /// Cells of the rank.
        width: usize,
    },
    /// Fewer cells than the rank has.
    #[error("rank {rank} has {found} cells, expected {width}")]
    TooShort {
        /// Rank number.
        rank: usize,
        /// Cells described.
        found: usize,
        /// Cells of the rank.
        width: usize,
    },
    /// The game's piece syntax refused the text at a cell.
    #[error("rank {rank}: {reason}")]
    Piece {
        /// Rank number.
        rank: usize,
        /// The game's reason.
        reason: String,
    },
    /// The game refused a piece where it stands (a pawn on a back line, a
    /// piece given twice): the game's message, which names the square.
    #[error("{0}")]
    Placement(String),
}

/// Reads a board field of `widths.len()` ranks, the top rank first; rank
/// `r` (0 at the bottom) has `widths[r]` cells. At each piece, `piece(rest)`
/// reads the text from there: the piece and how many bytes it took (at
/// least one), or why it is not a piece. Then `put(cell, r, piece)` places
/// it, `cell` counted from 0 along the rank, or says why it may not stand
/// there.
pub fn read_ranks<P>(
    field: &str,
    widths: &[usize],
    mut piece: impl FnMut(&str) -> Result<(P, usize), String>,
    mut put: impl FnMut(usize, usize, P) -> Result<(), String>,
) -> Result<(), RanksError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != widths.len() {
        return Err(RanksError::RankCount { expected: widths.len(), found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let r = widths.len() - 1 - i;
        let (rank, width) = (r + 1, widths[r]);
        if text.is_empty() {
            return Err(RanksError::EmptyRank { rank });
        }
        let mut cell = 0usize;
        let mut rest = *text;
        while !rest.is_empty() {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 {
                let count = &rest[..digits];
                if count.starts_with('0') {
                    return Err(RanksError::BadCount { rank, text: count.to_string() });
                }
                let n: usize = count.parse().unwrap_or(usize::MAX);
                if n > width - cell {
                    return Err(RanksError::TooLong { rank, width });
                }
                cell += n;
                rest = &rest[digits..];
                continue;
            }
            let (p, used) = piece(rest).map_err(|reason| RanksError::Piece { rank, reason })?;
            if cell >= width {
                return Err(RanksError::TooLong { rank, width });
            }
            put(cell, r, p).map_err(RanksError::Placement)?;
            cell += 1;
            rest = rest.get(used.max(1)..).unwrap_or("");
        }
        if cell != width {
            return Err(RanksError::TooShort { rank, found: cell, width });
        }
    }
    Ok(())
}

/// Appends the name of the square on file `f` (0 is `a`) and rank index
/// `r` (0 is rank 1): `a1`, `j10`, `q17`.
pub fn write_square_name(f: usize, r: usize, out: &mut String) {
    out.push((b'a' + f as u8) as char);
    let rank = r + 1;
    if rank >= 10 {
        out.push((b'0' + (rank / 10) as u8) as char);
    }
    out.push((b'0' + (rank % 10) as u8) as char);
}

/// The name of the square on file `f`, rank index `r`.
pub fn square_name(f: usize, r: usize) -> String {
    let mut out = String::with_capacity(3);
    write_square_name(f, r, &mut out);
    out
}

/// Reads a square name on a board of `files` × `ranks`: a file letter from
/// `a`, then the rank in decimal without sign or leading zero. The file and
/// rank indices, or `None` (whether such a square exists on a board with
/// holes is the game's question).
pub fn parse_square_name(t: &str, files: usize, ranks: usize) -> Option<(usize, usize)> {
    let b = t.as_bytes();
    let f = b.first()?.wrapping_sub(b'a') as usize;
    let digits = t.get(1..)?;
    if f >= files
        || digits.is_empty()
        || digits.len() > 2
        || digits.starts_with('0')
        || !digits.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let r: usize = digits.parse().ok()?;
    (1..=ranks).contains(&r).then_some((f, r - 1))
}

/// The first character of `text`, for messages (`?` if none).
pub fn first_char(text: &str) -> char {
    text.chars().next().unwrap_or('?')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A toy syntax: `a`–`z` are pieces of one letter, `Z` two letters.
    fn toy(field: &str, widths: &[usize]) -> Result<Vec<(usize, usize, char)>, RanksError> {
        let mut out = Vec::new();
        read_ranks(
            field,
            widths,
            |t| match first_char(t) {
                'Z' if t.len() >= 2 => Ok(('Z', 2)),
                c if c.is_ascii_lowercase() => Ok((c, 1)),
                c => Err(format!("`{c}` is not a piece")),
            },
            |cell, r, p| {
                if p == 'x' {
                    return Err(format!("no x on rank {}", r + 1));
                }
                out.push((cell, r, p));
                Ok(())
            },
        )?;
        Ok(out)
    }

    #[test]
    fn reads_counts_and_pieces_top_rank_first() {
        assert_eq!(toy("a2/3", &[3, 3]).unwrap(), vec![(0, 1, 'a')]);
        assert_eq!(toy("1Zzb/12", &[12, 3]).unwrap(), vec![(1, 1, 'Z'), (2, 1, 'b')]);
        assert_eq!(toy("ab/3", &[3, 2]).unwrap(), vec![(0, 1, 'a'), (1, 1, 'b')]);
    }

    #[test]
    fn square_names_read_back() {
        for (f, r, name) in [(0, 0, "a1"), (9, 9, "j10"), (16, 16, "q17"), (2, 10, "c11")] {
            assert_eq!(square_name(f, r), name);
            assert_eq!(parse_square_name(name, 17, 17), Some((f, r)));
        }
        for bad in ["", "a", "a0", "a01", "a18", "r1", "A1", "1a", "a1x", "a-1", "a+1", "é1", "a100"] {
            assert_eq!(parse_square_name(bad, 17, 17), None, "{bad}");
        }
        assert_eq!(parse_square_name("h8", 8, 8), Some((7, 7)));
        assert_eq!(parse_square_name("i8", 8, 8), None);
        assert_eq!(parse_square_name("h9", 8, 8), None);
    }

    #[test]
    fn refuses_bad_fields_with_the_reason() {
        use RanksError::*;
        assert_eq!(toy("3", &[3, 3]), Err(RankCount { expected: 2, found: 1 }));
        assert_eq!(toy("3//3", &[3, 3, 3]), Err(EmptyRank { rank: 2 }));
        assert_eq!(toy("03/3", &[3, 3]), Err(BadCount { rank: 2, text: "03".into() }));
        assert_eq!(toy("0/3", &[3, 3]), Err(BadCount { rank: 2, text: "0".into() }));
        assert_eq!(toy("4/3", &[3, 3]), Err(TooLong { rank: 2, width: 3 }));
        assert_eq!(toy("99999999999999999999999/3", &[3, 3]), Err(TooLong { rank: 2, width: 3 }));
        assert_eq!(toy("3a/3", &[3, 3]), Err(TooLong { rank: 2, width: 3 }));
        assert_eq!(toy("2/3", &[3, 3]), Err(TooShort { rank: 2, found: 2, width: 3 }));
        assert_eq!(toy("3/2?", &[3, 3]), Err(Piece { rank: 1, reason: "`?` is not a piece".into() }));
        assert_eq!(toy("3/2é", &[3, 3]), Err(Piece { rank: 1, reason: "`é` is not a piece".into() }));
        assert_eq!(toy("x2/3", &[3, 3]), Err(Placement("no x on rank 2".into())));
        assert_eq!(toy("3/2Z", &[3, 3]), Err(Piece { rank: 1, reason: "`Z` is not a piece".into() }));
        assert_eq!(RanksError::TooShort { rank: 4, found: 2, width: 3 }.to_string(), "rank 4 has 2 cells, expected 3");
    }
}

//! Matches in shards (`--shard K/N`): which games a shard plays and the
//! name of its records file in the shared folder (`--records-dir DIR`,
//! read by [`crate::shared`]); see docs/distributed.md.
//!
//! **The partition.** Game `g` belongs to the *block* `g / k` (`k` games
//! per opening: a pair, or a rotation in free-for-all); in a tournament a
//! block is one opening in one group, since games are numbered opening by
//! opening, group by group ([`crate::tournament::Schedule`]). Shard `K` of
//! `N` plays the blocks `b` with `b mod N = K − 1`. So a pair is never
//! split, every game has exactly one shard, the shards' games together are
//! the whole match's (with the same numbers, hence the same openings and
//! seats), and the partition does not depend on `--games`: a larger
//! `--games` with `--resume` extends every shard the same way.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Shard `k` of `n` (1-based `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub k: u64,
    /// Number of shards.
    pub n: u64,
}

/// A `--shard` value that is not `K/N` with `1 ≤ K ≤ N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// Not two numbers around a `/`.
    #[error("--shard `{0}`: not K/N (two whole numbers, e.g. 2/8)")]
    Form(String),
    /// `K` or `N` out of range.
    #[error("--shard `{0}`: need 1 ≤ K ≤ N")]
    Range(String),
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let form = || ShardError::Form(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(form)?;
        let k: u64 = k.parse().map_err(|_| form())?;
        let n: u64 = n.parse().map_err(|_| form())?;
        if k == 0 || n == 0 || k > n {
            return Err(ShardError::Range(s.to_string()));
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// The whole match as one shard.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Whether game `game` is this shard's, with `per_opening` games in a
    /// block (see the module comment).
    pub fn owns(self, game: u64, per_opening: u64) -> bool {
        (game / per_opening.max(1)) % self.n == self.k - 1
    }

    /// This shard's games among `0..total`, in order.
    pub fn games(self, total: u64, per_opening: u64) -> Vec<u64> {
        (0..total).filter(|&g| self.owns(g, per_opening)).collect()
    }

    /// The shard which owns game `game`.
    pub fn owner(game: u64, per_opening: u64, n: u64) -> Shard {
        Shard { k: (game / per_opening.max(1)) % n + 1, n }
    }
}

/// Shard `k`'s records file in the shared folder: `DIR/shard-K.jsonl`.
pub fn shard_file(dir: &Path, shard: Shard) -> PathBuf {
    dir.join(format!("shard-{}.jsonl", shard.k))
}

/// Whether a file name is a shard's records file (`shard-K.jsonl`).
pub(crate) fn is_shard_file(name: &str) -> bool {
    name.strip_prefix("shard-")
        .and_then(|r| r.strip_suffix(".jsonl"))
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{Kind, Schedule};
    use std::collections::{BTreeMap, HashSet};

    #[test]
    fn shard_syntax() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
        assert_eq!("1/1".parse::<Shard>(), Ok(Shard::WHOLE));
        assert_eq!(Shard { k: 3, n: 4 }.to_string(), "3/4");
        for bad in ["", "2", "a/b", "2/", "/2", "-1/2", "1/2/3", " 1/2"] {
            assert_eq!(bad.parse::<Shard>(), Err(ShardError::Form(bad.into())), "{bad}");
        }
        for bad in ["0/2", "3/2", "1/0"] {
            assert_eq!(bad.parse::<Shard>(), Err(ShardError::Range(bad.into())), "{bad}");
        }
    }

    /// Every game in exactly one shard, blocks (pairs, rotations) never
    /// split, the union the unsharded list, for several sizes.
    #[test]
    fn sharding_is_a_partition_that_never_splits_a_pair() {
        for per_opening in [1u64, 2, 3, 4, 6] {
            for total in [0u64, 1, 2, 5, 12, 37, 100] {
                for n in 1..=7u64 {
                    let mut owner: BTreeMap<u64, u64> = BTreeMap::new();
                    for k in 1..=n {
                        let sh = Shard { k, n };
                        let games = sh.games(total, per_opening);
                        assert!(games.windows(2).all(|w| w[0] < w[1]));
                        for g in games {
                            assert!(owner.insert(g, k).is_none(), "game {g} twice (k {k}, n {n})");
                            assert_eq!(Shard::owner(g, per_opening, n), sh);
                        }
                    }
                    let union: Vec<u64> = owner.keys().copied().collect();
                    assert_eq!(union, (0..total).collect::<Vec<_>>(), "per_opening {per_opening} total {total} n {n}");
                    for g in 0..total {
                        // The games of one block share their shard.
                        let first = g - g % per_opening;
                        assert_eq!(owner[&g], owner[&first], "block of game {g} split (n {n})");
                    }
                    // Shards differ by at most one block.
                    let sizes: Vec<usize> = (1..=n).map(|k| Shard { k, n }.games(total, per_opening).len()).collect();
                    let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                    assert!(hi - lo <= per_opening as usize, "{sizes:?}");
                }
            }
        }
    }

    /// In a tournament a block is one opening in one group: the shards'
    /// games keep every (group, opening) whole.
    #[test]
    fn tournament_blocks_stay_whole() {
        for (s, groups) in [(Schedule::tournament(Kind::RoundRobin, 4, 2), 6), (Schedule::tournament(Kind::Gauntlet, 5, 4), 4)] {
            assert_eq!(s.groups.len(), groups);
            let total = s.total(4 * s.per_opening);
            for n in 1..=5 {
                let mut whole: BTreeMap<(usize, u64), HashSet<u64>> = BTreeMap::new();
                for g in 0..total {
                    let slot = s.slot(g);
                    whole.entry((slot.group, slot.opening)).or_default().insert(Shard::owner(g, s.per_opening, n).k);
                }
                assert!(whole.values().all(|ks| ks.len() == 1), "{whole:?}");
                assert_eq!(whole.len() as u64, total / s.per_opening);
            }
        }
    }
}

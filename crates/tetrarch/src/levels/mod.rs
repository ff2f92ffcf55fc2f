//! The calibrated strength tables behind `UCI_Elo` (docs/levels.md): one
//! per variant, written by `tetrarch calibrate` into `crates/tetrarch/levels/`
//! and compiled in, and the seed of weakened searches.

use std::sync::OnceLock;

pub use tetrarch_search::Scale;
pub use tetrarch_tune::calibrate::Table;

/// Every calibrated table: the variant and the text `tetrarch calibrate`
/// wrote. A variant without one has no `UCI_LimitStrength` and `UCI_Elo`
/// (only `Skill Level`).
const TABLES: &[(&str, &str)] = &[
    ("fourchess", include_str!("../../levels/fourchess.json")),
    ("teamchess", include_str!("../../levels/teamchess.json")),
    ("quadranj", include_str!("../../levels/quadranj.json")),
    ("quadranj4", include_str!("../../levels/quadranj4.json")),
    ("quattuor", include_str!("../../levels/quattuor.json")),
    ("queenskings", include_str!("../../levels/queenskings.json")),
    ("queenskings9-duel", include_str!("../../levels/queenskings9-duel.json")),
    ("queenskings9-teams", include_str!("../../levels/queenskings9-teams.json")),
];

/// Variants calibrated through another's table: the same rules on the
/// other board size (docs/levels.md, "What carries over"). A level's node
/// budget reaches less far on the bigger board, so these Elos are
/// estimates, not measurements.
const SHARED: &[(&str, &str)] =
    &[("queenskings-duel", "queenskings9-duel"), ("queenskings-teams", "queenskings9-teams"), ("queenskings9", "queenskings")];

/// The variant whose table `variant` uses: its own, or the one of
/// `SHARED`.
pub fn table_variant(variant: &str) -> &str {
    SHARED.iter().find(|(v, _)| v.eq_ignore_ascii_case(variant)).map_or(variant, |&(_, from)| from)
}

/// The node budgets of the levels of the variants whose levels do not use
/// [`Scale::DEFAULT`] (512 nodes at level 0, 131,072 at 20): the games
/// where a doubling of nodes buys little strength at the default's top
/// (docs/levels.md, "A scale of each game's own"). Their levels start lower
/// and spread over a wider range of budgets, so that the steps between
/// levels stay measurable: each spans the budget range from level 0 to
/// about the calibration's reference at level 21 (`tetrarch calibrate`'s
/// `--each nodes=N`), so that `full` stands as far above level 18 as each
/// level stands above the one three below it.
const SCALES: &[(&str, u32, u32)] = &[
    // Two actions a turn: a doubling buys little depth. Reference 400,000.
    ("quattuor", 64, 262_144),
    // The free-for-all games: a game's score is as much the other seats'
    // doing. Reference 100,000. Quadranj for four starts higher: below
    // about 100 nodes (a part of its first ply) more nodes bought nothing
    // (32 against 60 nodes: 48 % over 300 games).
    ("queenskings", 32, 65_536),
    ("quadranj4", 64, 65_536),
];

/// The node budgets of `variant`'s levels: its own (or those of the
/// variant whose table it shares), else [`Scale::DEFAULT`].
pub fn scale(variant: &str) -> Scale {
    let variant = table_variant(variant);
    SCALES
        .iter()
        .find(|(v, ..)| v.eq_ignore_ascii_case(variant))
        .and_then(|&(_, at_0, at_full)| Scale::new(at_0, at_full))
        .unwrap_or(Scale::DEFAULT)
}

/// The table of `variant` (its own, or the one it shares), if calibrated.
pub fn table(variant: &str) -> Option<&'static Table> {
    let variant = table_variant(variant);
    static PARSED: OnceLock<Vec<(&'static str, Table)>> = OnceLock::new();
    let all = PARSED.get_or_init(|| {
        TABLES
            .iter()
            .map(|&(v, text)| (v, Table::parse(text).unwrap_or_else(|e| panic!("the compiled-in table of {v}: {e}"))))
            .collect()
    });
    all.iter().find(|(v, _)| v.eq_ignore_ascii_case(variant)).map(|(_, t)| t)
}

/// The seed of weakened searches and of `--random` while `SkillSeed` is 0:
/// drawn once per process from the clock and the process id.
pub fn start_seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        tetrarch_core::zobrist::splitmix64(t ^ u64::from(std::process::id()).rotate_left(32)) | 1
    })
}

#[cfg(test)]
mod tests;

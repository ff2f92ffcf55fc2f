//! The tune crate's fuzz target (`fuzz/fuzz_targets/table_parse.rs`)
//! calls this; it panics when an invariant breaks.

use crate::calibrate::{Table, FULL_LEVEL};

/// `data` as a calibration table file: refused without a panic, or a
/// table that writes back to the same table, whose interpolation gives
/// finite answers in range, monotone in the Elo asked, with an
/// Elo range that is not reversed.
pub fn table_parse(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(t) = Table::parse(text) else { return };
    let again = Table::parse(&t.to_json()).expect("a table's JSON parses");
    assert_eq!(again, t, "a table writes back unchanged");
    let (lo, hi) = t.elo_range();
    assert!(lo <= hi, "{lo} > {hi}");
    let lowest = t.curve()[0].0;
    let mut last = f64::NEG_INFINITY;
    for k in -4..=24 {
        let elo = t.elo_of_level(k as f64);
        assert!(elo.is_finite(), "level {k}: {elo}");
        assert!(elo >= last, "elo_of_level not monotone at {k}");
        last = elo;
    }
    let mut last = f64::NEG_INFINITY;
    let span = (hi as f64 - lo as f64).abs() + 1.0;
    for i in -2..=42 {
        let elo = lo as f64 + span * i as f64 / 40.0;
        let l = t.level_for_elo(elo);
        assert!(l.is_finite() && (lowest..=FULL_LEVEL).contains(&l), "elo {elo}: level {l}");
        assert!(l >= last, "level_for_elo not monotone at {elo}");
        last = l;
    }
    let _ = t.level_for_elo(f64::NAN);
    let _ = t.elo_of_level(f64::NAN);
}

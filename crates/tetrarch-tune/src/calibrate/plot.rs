//! The plot of a folder's tables: `levels.svg`, the Elo of every skill
//! level of every variant.
//!
//! Hand-written SVG: a static chart of a few polylines, lines and labels
//! is a few dozen lines of text, so it needs no plotting crate (and no
//! dependency to build, audit and keep up to date for it).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::table::{Table, TableError, FULL_LEVEL};
use super::CalibrateError;

/// The plot's file in the output folder.
pub const PLOT_FILE: &str = "levels.svg";

/// The variants' colours, in turn (a variant past the last takes the
/// first again).
const COLOURS: [&str; 8] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"];

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 50.0;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A step of about a fifth of `span` from 1, 2, 5 × 10ⁿ.
fn tick_step(span: f64) -> f64 {
    let raw = (span / 5.0).max(1.0);
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * p).find(|s| *s >= raw).unwrap_or(10.0 * p)
}

/// The SVG of these tables: x the skill level 0..20 (full at 20), y the
/// Elo (0 = uniform random), one polyline per table with its error bars
/// (vertical lines of ± the 95 % error), a legend of the variants.
pub fn svg(tables: &[Table]) -> String {
    let points: Vec<Vec<(f64, f64, f64)>> =
        tables.iter().map(|t| t.rows.iter().filter_map(|r| r.rung.level().map(|x| (x, r.elo, r.error))).collect()).collect();
    let all = points.iter().flatten();
    let lo = all.clone().map(|p| p.1 - p.2).fold(0.0f64, f64::min);
    let hi = all.map(|p| p.1 + p.2).fold(100.0f64, f64::max);
    let step = tick_step(hi - lo);
    let (y0, y1) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let (pw, ph) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let x = |l: f64| LEFT + pw * l / FULL_LEVEL;
    let y = |e: f64| TOP + ph * (y1 - e) / (y1 - y0);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#);
    // Axes, ticks and labels.
    let _ = writeln!(s, r#"<path d="M{:.1} {:.1} V{:.1} H{:.1}" fill="none" stroke="black"/>"#, LEFT, TOP, TOP + ph, LEFT + pw);
    for l in (0..=20).step_by(2) {
        let xl = x(l as f64);
        let label = if l == 20 { "20 (full)".to_string() } else { l.to_string() };
        let _ =
            writeln!(s, r#"<line x1="{xl:.1}" y1="{:.1}" x2="{xl:.1}" y2="{:.1}" stroke="black"/>"#, TOP + ph, TOP + ph + 5.0);
        let _ = writeln!(s, r#"<text x="{xl:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#, TOP + ph + 18.0);
    }
    let mut e = y0;
    while e <= y1 + step / 2.0 {
        let ye = y(e);
        let _ = writeln!(s, r##"<line x1="{LEFT:.1}" y1="{ye:.1}" x2="{:.1}" y2="{ye:.1}" stroke="#ddd"/>"##, LEFT + pw);
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{e:.0}</text>"#, LEFT - 6.0, ye + 4.0);
        e += step;
    }
    let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">Skill Level</text>"#, LEFT + pw / 2.0, HEIGHT - 10.0);
    let _ = writeln!(
        s,
        r#"<text x="16" y="{:.1}" text-anchor="middle" transform="rotate(-90 16 {:.1})">Elo (0 = uniform random)</text>"#,
        TOP + ph / 2.0,
        TOP + ph / 2.0
    );
    // One polyline, its error bars and its legend entry per table.
    for (i, (t, pts)) in tables.iter().zip(&points).enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let line: Vec<String> = pts.iter().map(|p| format!("{:.1},{:.1}", x(p.0), y(p.1))).collect();
        let name = escape(&t.variant);
        let _ = writeln!(s, r#"<g stroke="{c}" fill="{c}"><title>{name}</title>"#);
        let _ = writeln!(s, r#"<polyline points="{}" fill="none" stroke-width="2"/>"#, line.join(" "));
        for p in pts {
            let (xp, yp) = (x(p.0), y(p.1));
            let _ = writeln!(s, r#"<line x1="{xp:.1}" y1="{:.1}" x2="{xp:.1}" y2="{:.1}"/>"#, y(p.1 - p.2), y(p.1 + p.2));
            let _ = writeln!(s, r#"<circle cx="{xp:.1}" cy="{yp:.1}" r="3"/>"#);
        }
        let _ = writeln!(s, "</g>");
        let ly = TOP + 10.0 + 20.0 * i as f64;
        let lx = LEFT + pw + 20.0;
        let _ =
            writeln!(s, r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{:.1}" y2="{ly:.1}" stroke="{c}" stroke-width="2"/>"#, lx + 24.0);
        let _ = writeln!(s, r#"<text x="{:.1}" y="{:.1}">{name}</text>"#, lx + 30.0, ly + 4.0);
    }
    s.push_str("</svg>\n");
    s
}

/// Writes `DIR/levels.svg` from every `DIR/*.json` that parses as a
/// table (in the order of their file names). Returns the plot's path and
/// the `.json` files left out, with why.
pub fn write_plot(dir: &Path) -> Result<(PathBuf, Vec<(PathBuf, TableError)>), CalibrateError> {
    let read_err = |source| CalibrateError::Write { path: dir.into(), source };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(read_err)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut tables = Vec::new();
    let mut skipped = Vec::new();
    for f in files {
        match std::fs::read_to_string(&f).map_err(|e| TableError::Json(e.to_string())).and_then(|t| Table::parse(&t)) {
            Ok(t) => tables.push(t),
            Err(e) => skipped.push((f, e)),
        }
    }
    let path = dir.join(PLOT_FILE);
    crate::files::write_atomically(&path, &svg(&tables))
        .map_err(|source| CalibrateError::Write { path: path.clone(), source })?;
    Ok((path, skipped))
}

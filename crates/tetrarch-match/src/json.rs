//! How the runner writes JSON: `serde_json` with a formatter that keeps the
//! records' bytes as they always were (docs/match.md, "Records").
//!
//! Two things differ from `serde_json`'s compact output:
//! - U+2028 and U+2029 (line and paragraph separator) are escaped as
//!   `\u2028` / `\u2029`, so that a line of the file is a line for every
//!   reader (JavaScript and some editors end lines there), and every other
//!   control character below U+0020 is `\u00XX` unless it has a short escape
//!   (`\n`, `\r`, `\t`; `\b` and `\f` are written `\u0008` and `\u000c`);
//! - a number without a fraction (below 10^15) is written as an integer
//!   (`1`, not `1.0`); others as Rust prints them (`0.5`), `null` when not
//!   finite.

use std::io;

use serde::Serialize;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// The compact formatter with the records' escaping and numbers.
#[derive(Clone, Copy, Debug, Default)]
pub struct RecordFormatter;

impl Formatter for RecordFormatter {
    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, x: f64) -> io::Result<()> {
        // `serde_json` writes `null` for a value that is not finite before it
        // gets here.
        if x.fract() == 0.0 && x.abs() < 1e15 {
            write!(w, "{}", x as i64)
        } else {
            write!(w, "{x}")
        }
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, w: &mut W, x: f32) -> io::Result<()> {
        self.write_f64(w, f64::from(x))
    }

    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        let mut rest = fragment;
        while let Some(i) = rest.find(['\u{2028}', '\u{2029}']) {
            w.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().expect("a separator");
            write!(w, "\\u{:04x}", c as u32)?;
            rest = &rest[i + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(&mut self, w: &mut W, e: CharEscape) -> io::Result<()> {
        match e {
            CharEscape::Backspace => w.write_all(b"\\u0008"),
            CharEscape::FormFeed => w.write_all(b"\\u000c"),
            e => CompactFormatter.write_char_escape(w, e),
        }
    }
}

/// `value` as one line of JSON (no line end) in the records' form.
pub fn to_line<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    let mut out = Vec::new();
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, RecordFormatter))?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_as_before() {
        for (s, want) in [
            ("", r#""""#),
            ("plain é€😀", r#""plain é€😀""#),
            ("quote \" back \\ slash /", r#""quote \" back \\ slash /""#),
            ("tab\tnl\ncr\r", r#""tab\tnl\ncr\r""#),
            ("\u{1}\u{8}\u{c}\u{1f}\u{7f}", "\"\\u0001\\u0008\\u000c\\u001f\u{7f}\""),
            ("a\u{2028}b\u{2029}\u{2028}", r#""a\u2028b\u2029\u2028""#),
        ] {
            let lit = to_line(s).unwrap();
            assert_eq!(lit, want, "{s:?}");
            assert_eq!(serde_json::from_str::<String>(&lit).unwrap(), s);
        }
        assert_eq!(serde_json::from_str::<String>(r#""\ud83d\ude00""#).unwrap(), "😀");
    }

    #[test]
    fn numbers() {
        assert_eq!(
            to_line(&[3.0, 0.25, -0.0, f64::NAN, 1.0 / 3.0, 1e20]).unwrap(),
            "[3,0.25,0,null,0.3333333333333333,100000000000000000000]"
        );
        assert_eq!(to_line(&["a", "b\""]).unwrap(), r#"["a","b\""]"#);
    }

    /// Found by `resume_records`: a record's 42-digit `points` entry read
    /// back as a different float (serde_json's fast float parser is not
    /// correctly rounded without `float_roundtrip`), so writing it again
    /// changed the record (`…7820000…` then `…7800000…`).
    #[test]
    fn large_numbers_read_back_to_the_same_text() {
        for text in ["117777777777777777777777777777777777777777", "117777777777777820000000000000000000000000", "1e300", "0.1"] {
            let x: f64 = serde_json::from_str(text).unwrap();
            let once = to_line(&x).unwrap();
            let back: f64 = serde_json::from_str(&once).unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{text} -> {once}");
            assert_eq!(to_line(&back).unwrap(), once);
        }
    }
}

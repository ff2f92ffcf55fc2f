//! Text from engines on its way to a terminal or a PGN file.

use std::borrow::Cow;

/// `s` with every control character (Unicode `Cc`: C0, DEL, C1; line ends
/// and tabs too) written as `\xHH`, so that an engine's text cannot move the
/// cursor, clear the screen, retitle the terminal or break a line of a PGN
/// file. Other text is unchanged (the JSON records escape by themselves).
pub fn printable(s: &str) -> Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.push_str(&format!("\\x{:02x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// At most `n` characters of `s`, with `…` when cut.
pub fn cut(s: &str, n: usize) -> Cow<'_, str> {
    match s.char_indices().nth(n) {
        None => Cow::Borrowed(s),
        Some((i, _)) => Cow::Owned(format!("{}…", &s[..i])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("e2e4"), "e2e4");
        assert_eq!(printable("\u{1b}[2J\u{7}a\nb\u{85}é"), "\\x1b[2J\\x07a\\x0ab\\x85é");
        assert_eq!(cut("abcdef", 3), "abc…");
        assert_eq!(cut("ab", 3), "ab");
        assert_eq!(cut("ééé", 2), "éé…");
    }
}

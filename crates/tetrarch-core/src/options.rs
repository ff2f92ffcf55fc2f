//! Rule and engine option values: checking a value against an option's
//! kind ([`check_value`], with its canonical form) and the kind's default
//! ([`default_value`]). The protocol's `setoption`, the GUI's game options
//! and the game handle ([`crate::handle`]) all check values here, so a
//! value means the same wherever it is given.

use crate::game::OptionKind;

/// Why a value does not fit an option's kind ([`check_value`]); the GUI
/// shows this text, `setoption` prefixes it (`OptionError::Value` in the engine crate).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// No value, or an empty one.
    #[error("option {name} needs a value")]
    Missing {
        /// The option.
        name: String,
    },
    /// A check's value is neither `true` nor `false`.
    #[error("option {name} takes true or false, not {}", quote(.value))]
    NotBool {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// A spin's value is outside its range.
    #[error("option {name}: {} is out of range {min}..{max}", quote(.value))]
    OutOfRange {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// The lowest value.
        min: i64,
        /// The highest value.
        max: i64,
    },
    /// A spin's value is not an integer.
    #[error("option {name}: {} is not an integer", quote(.value))]
    NotInteger {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// A combo's value is none of its values.
    #[error("option {name}: {} is not one of {}", quote(.value), .vars.join(", "))]
    NotListed {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// The values it takes.
        vars: &'static [&'static str],
    },
}

/// Checks `value` against `kind` and returns its canonical form (a spin as a
/// number, a check as `true`/`false`, a combo as the listed spelling).
pub fn check_value(name: &str, kind: &OptionKind, value: Option<&str>) -> Result<String, ValueError> {
    let v = match value {
        Some(v) if !v.is_empty() => v,
        _ => return Err(ValueError::Missing { name: name.into() }),
    };
    let (name, value) = (name.to_string(), v.to_string());
    match *kind {
        OptionKind::Check(_) => {
            if v.eq_ignore_ascii_case("true") {
                Ok("true".into())
            } else if v.eq_ignore_ascii_case("false") {
                Ok("false".into())
            } else {
                Err(ValueError::NotBool { name, value })
            }
        }
        OptionKind::Spin { min, max, .. } => match v.parse::<i64>() {
            Ok(n) if n >= min && n <= max => Ok(n.to_string()),
            Ok(_) => Err(ValueError::OutOfRange { name, value, min, max }),
            Err(_) => Err(ValueError::NotInteger { name, value }),
        },
        OptionKind::Combo(vals) => match vals.iter().find(|x| x.eq_ignore_ascii_case(v)) {
            Some(x) => Ok((*x).to_string()),
            None => Err(ValueError::NotListed { name, value, vars: vals }),
        },
    }
}

/// The default value of an option kind, as `setoption` writes it.
pub fn default_value(kind: &OptionKind) -> String {
    match kind {
        OptionKind::Check(d) => d.to_string(),
        OptionKind::Spin { default, .. } => default.to_string(),
        OptionKind::Combo(v) => v.first().copied().unwrap_or("").to_string(),
    }
}

/// A token made safe to echo in an error line: control characters escaped,
/// at most 64 characters (cut on a character boundary).
pub fn quote(tok: &str) -> String {
    let mut s = String::from("`");
    for (i, c) in tok.chars().enumerate() {
        if i == 64 {
            s.push('…');
            break;
        }
        if c.is_control() {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s.push('`');
    s
}

//! The parameters file: [`Param`], read and checked by [`parse_params`] and
//! [`read_params`], written back by [`params_text`], and the values the
//! engines get ([`engine_value`], [`option_words`]).

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::SpsaError;

/// One parameter: its name (the engine's option), its value now, its range
/// and OpenBench's two gains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// The option's name (`setoption name NAME value V`).
    pub name: String,
    /// The value (θ); the engine gets it rounded.
    pub value: f64,
    /// The least value (a whole number).
    pub min: f64,
    /// The greatest value (a whole number).
    pub max: f64,
    /// The perturbation at the last iteration (`c_end`).
    pub c_end: f64,
    /// The learning rate at the last iteration (`r_end`): the step is
    /// `r_k · c_k · (wins − losses)`, `r_k = a_k / c_k²`.
    pub r_end: f64,
}

/// The fields of a parameter, in the file's order.
const FIELDS: [&str; 6] = ["name", "value", "min", "max", "c_end", "r_end"];

/// What is wrong with a parameters file (the file is named by
/// [`SpsaError::Params`]).
#[derive(Debug, thiserror::Error)]
pub enum ParamsError {
    /// Not JSON at all (serde's message has the line and column).
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// JSON, but not a list of parameters.
    #[error("expected a JSON list of parameters [{{\"name\": …, \"value\": …, \"min\": …, \"max\": …, \"c_end\": …, \"r_end\": …}}, …]")]
    NotAList,
    /// An empty list.
    #[error("no parameters")]
    Empty,
    /// An element of the list that is not an object (1-based).
    #[error("parameter {index}: not an object")]
    NotAnObject {
        /// The parameter's place in the file's list, from 1.
        index: usize,
    },
    /// A field that is not one of `name`, `value`, `min`, `max`, `c_end`,
    /// `r_end`.
    #[error("parameter {index}: unknown field `{field}` (fields: name, value, min, max, c_end, r_end)")]
    UnknownField {
        /// The parameter's place in the file's list, from 1.
        index: usize,
        /// The field's name, as the file has it.
        field: String,
    },
    /// A field left out.
    #[error("parameter {index}: missing field `{field}`")]
    MissingField {
        /// The parameter's place in the file's list, from 1.
        index: usize,
        /// The name of the field left out.
        field: &'static str,
    },
    /// `name` not a string, or a number field not a (finite) number.
    #[error("parameter {index}: `{field}` must be {}", if *field == "name" { "a string" } else { "a number" })]
    WrongType {
        /// The parameter's place in the file's list, from 1.
        index: usize,
        /// The name of the field of the wrong type.
        field: &'static str,
    },
    /// An empty name, spaces around it, or a name that would break the
    /// `setoption` line.
    #[error("parameter {index}: bad name `{name}` (not empty, no spaces at its ends, no line break, not the word `value`)")]
    BadName {
        /// The parameter's place in the file's list, from 1.
        index: usize,
        /// The name.
        name: String,
    },
    /// A name given twice (option names are not case-sensitive).
    #[error("parameter `{0}` given twice")]
    DuplicateName(String),
    /// `min` or `max` not a whole number.
    #[error("parameter `{name}`: {field} {value} is not a whole number (the engine gets whole numbers)")]
    NotWhole {
        /// The parameter.
        name: String,
        /// `min` or `max`.
        field: &'static str,
        /// Its value.
        value: f64,
    },
    /// `min > max`.
    #[error("parameter `{name}`: min {min} > max {max}")]
    MinAboveMax {
        /// The parameter.
        name: String,
        /// Its min.
        min: f64,
        /// Its max.
        max: f64,
    },
    /// `value` outside `[min, max]`.
    #[error("parameter `{name}`: value {value} is outside [{min}, {max}]")]
    ValueOutside {
        /// The parameter.
        name: String,
        /// Its value.
        value: f64,
        /// Its min.
        min: f64,
        /// Its max.
        max: f64,
    },
    /// `c_end` or `r_end` not positive.
    #[error("parameter `{name}`: {field} must be positive (got {value})")]
    NotPositive {
        /// The parameter.
        name: String,
        /// `c_end` or `r_end`.
        field: &'static str,
        /// Its value.
        value: f64,
    },
}

/// Parses and checks a parameters file's text: a JSON list of objects with
/// exactly the fields `name`, `value`, `min`, `max`, `c_end`, `r_end`.
pub fn parse_params(text: &str) -> Result<Vec<Param>, ParamsError> {
    let v: Value = serde_json::from_str(text).map_err(ParamsError::NotJson)?;
    let Value::Array(list) = v else { return Err(ParamsError::NotAList) };
    if list.is_empty() {
        return Err(ParamsError::Empty);
    }
    let mut params: Vec<Param> = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let index = i + 1;
        let Value::Object(obj) = item else { return Err(ParamsError::NotAnObject { index }) };
        if let Some(field) = obj.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(ParamsError::UnknownField { index, field: field.clone() });
        }
        let get = |field: &'static str| obj.get(field).ok_or(ParamsError::MissingField { index, field });
        let num =
            |field: &'static str| get(field)?.as_f64().filter(|x| x.is_finite()).ok_or(ParamsError::WrongType { index, field });
        let name = get("name")?.as_str().ok_or(ParamsError::WrongType { index, field: "name" })?.to_string();
        let p =
            Param { value: num("value")?, min: num("min")?, max: num("max")?, c_end: num("c_end")?, r_end: num("r_end")?, name };
        check_param(index, &p)?;
        if params.iter().any(|q| q.name.eq_ignore_ascii_case(&p.name)) {
            return Err(ParamsError::DuplicateName(p.name));
        }
        params.push(p);
    }
    Ok(params)
}

/// The checks of one parameter beyond its fields' types.
fn check_param(index: usize, p: &Param) -> Result<(), ParamsError> {
    let n = &p.name;
    if n.is_empty() || n.trim() != n || n.contains(['\n', '\r']) || n.split_whitespace().any(|w| w == "value") {
        return Err(ParamsError::BadName { index, name: n.clone() });
    }
    for (field, value) in [("min", p.min), ("max", p.max)] {
        if value.fract() != 0.0 {
            return Err(ParamsError::NotWhole { name: n.clone(), field, value });
        }
    }
    if p.min > p.max {
        return Err(ParamsError::MinAboveMax { name: n.clone(), min: p.min, max: p.max });
    }
    if !(p.min..=p.max).contains(&p.value) {
        return Err(ParamsError::ValueOutside { name: n.clone(), value: p.value, min: p.min, max: p.max });
    }
    for (field, value) in [("c_end", p.c_end), ("r_end", p.r_end)] {
        if value <= 0.0 {
            return Err(ParamsError::NotPositive { name: n.clone(), field, value });
        }
    }
    Ok(())
}

/// Reads and checks a parameters file.
pub fn read_params(path: &Path) -> Result<Vec<Param>, SpsaError> {
    let text = std::fs::read_to_string(path).map_err(|source| SpsaError::ReadParams { path: path.into(), source })?;
    parse_params(&text).map_err(|source| SpsaError::Params { path: path.into(), source })
}

/// The parameters as a parameters file (the values rounded to 1/100: the
/// engine gets whole numbers; the exact ones are in the state file).
pub fn params_text(params: &[Param]) -> String {
    // Rust writes an f64 without an exponent and a whole one without `.0`:
    // JSON numbers as a person writes them.
    let lines: Vec<String> = params
        .iter()
        .map(|p| {
            format!(
                "  {{\"name\": {}, \"value\": {}, \"min\": {}, \"max\": {}, \"c_end\": {}, \"r_end\": {}}}",
                serde_json::to_string(&p.name).expect("a string serialises"),
                (p.value * 100.0).round() / 100.0,
                p.min,
                p.max,
                p.c_end,
                p.r_end
            )
        })
        .collect();
    format!("[\n{}\n]\n", lines.join(",\n"))
}

/// `option.NAME=V` words for a match command, with the values rounded
/// (a name with a space is quoted for the shell).
pub fn option_words(params: &[Param]) -> String {
    params
        .iter()
        .map(|p| {
            let w = format!("option.{}={}", p.name, engine_value(p.value, p));
            if w.contains(' ') {
                format!("'{w}'")
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A value as the engine gets it: rounded, within the range.
pub fn engine_value(x: f64, p: &Param) -> i64 {
    x.round().clamp(p.min, p.max) as i64
}

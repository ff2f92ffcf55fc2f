//! One engine as the command line configures it ([`EngineConfig`]): the
//! `KEY=VALUE` words after `--engine` and `--each` ([`EngineSetting`],
//! typed by their value parser) and what they make. Read by the command
//! line ([`crate::config`]), the engine process ([`crate::engine`]: its
//! program, arguments and folder) and the game ([`crate::play`]: its
//! limits and protocol), none of which the others need to know.

use std::path::PathBuf;
use std::str::FromStr;

use crate::tc::{parse_st, parse_tc, TcError, TimeControl};

/// One engine as configured.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct EngineConfig {
    /// Display name (unique in the match).
    pub name: String,
    /// The program.
    pub cmd: String,
    /// Its arguments (`arg=`, repeatable).
    pub args: Vec<String>,
    /// Working directory (`dir=`).
    pub dir: Option<PathBuf>,
    /// `setoption` pairs in order (`option.NAME=VALUE`).
    pub options: Vec<(String, String)>,
    /// Clock (`tc=`).
    pub tc: Option<TimeControl>,
    /// Fixed time per turn, ms (`st=`).
    pub st_ms: Option<u64>,
    /// Fixed depth (`depth=`).
    pub depth: Option<u32>,
    /// Fixed nodes (`nodes=`).
    pub nodes: Option<u64>,
    /// Start a fresh process for every game (`restart=on`); by default a
    /// process is kept between games and restarted only after it failed.
    pub restart: bool,
    /// The protocol dialect the engine speaks (`proto=`).
    pub proto: Proto,
}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Proto {
    /// `shared/spec/protocol.md` (Tetrarch and engines like it).
    #[default]
    Tetrarch,
    /// The 4pchess UCI dialect (`teamchess` only): no `UCI_Variant`,
    /// `position startpos|fen <FEN4> moves h2-h3 …`, `go rtime … gtime …`,
    /// `bestmove h2-h3`, scores from Red/Yellow's point of view.
    FourPChess,
}

/// One `KEY=VALUE` word after `--engine` or `--each`, typed.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineSetting {
    /// `cmd=PATH`: the program.
    Cmd(String),
    /// `name=NAME`: the display name.
    Name(String),
    /// `arg=ARG`: one more argument (repeatable).
    Arg(String),
    /// `dir=DIR`: the working directory.
    Dir(PathBuf),
    /// `proto=tetrarch|4pchess`.
    Proto(Proto),
    /// `option.NAME=VALUE`: a `setoption`.
    Option(String, String),
    /// `tc=…` (`None` for `tc=inf`).
    Tc(Option<TimeControl>),
    /// `st=SECONDS`, in ms.
    St(u64),
    /// `depth=N`.
    Depth(u32),
    /// `nodes=N`.
    Nodes(u64),
    /// `restart=on|off`.
    Restart(bool),
}

/// Why a `KEY=VALUE` engine setting is refused: the key and the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// No `=`.
    #[error("engine setting `{0}` is not KEY=VALUE")]
    NotKeyValue(String),
    /// A key that is not one of the engine settings.
    #[error("unknown engine setting `{0}` (cmd, name, arg, dir, proto, option.NAME, tc, st, depth, nodes, restart)")]
    UnknownKey(String),
    /// `cmd=` or `name=` without a value.
    #[error("{key}= is empty")]
    Empty {
        /// The key.
        key: &'static str,
    },
    /// A value the key does not take.
    #[error("{key}={value}: {reason}")]
    BadValue {
        /// The key.
        key: &'static str,
        /// The value given.
        value: String,
        /// What the key takes.
        reason: &'static str,
    },
    /// A `tc=` or `st=` that is not a time (the reason names the value).
    #[error("{key}: {reason}")]
    Time {
        /// The key.
        key: &'static str,
        /// What is wrong with the time (the value is named in it).
        reason: TcError,
    },
    /// `option.UCI_Variant=`: the runner sets it.
    #[error("option.UCI_Variant: the variant is set with --variant")]
    UciVariant,
}

impl FromStr for EngineSetting {
    type Err = SettingError;
    fn from_str(kv: &str) -> Result<EngineSetting, SettingError> {
        let (k, v) = kv.split_once('=').ok_or_else(|| SettingError::NotKeyValue(kv.to_string()))?;
        let bad = |key, reason| SettingError::BadValue { key, value: v.to_string(), reason };
        let count = |key| v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| bad(key, "a whole number, at least 1"));
        Ok(match k {
            "cmd" | "name" if v.is_empty() => return Err(SettingError::Empty { key: if k == "cmd" { "cmd" } else { "name" } }),
            "cmd" => EngineSetting::Cmd(v.to_string()),
            "name" => EngineSetting::Name(v.to_string()),
            "arg" => EngineSetting::Arg(v.to_string()),
            "dir" => EngineSetting::Dir(PathBuf::from(v)),
            "proto" => EngineSetting::Proto(match v {
                "tetrarch" | "uci" => Proto::Tetrarch,
                "4pchess" => Proto::FourPChess,
                _ => return Err(bad("proto", "use tetrarch or 4pchess")),
            }),
            "tc" => EngineSetting::Tc(parse_tc(v).map_err(|reason| SettingError::Time { key: "tc", reason })?),
            "st" => EngineSetting::St(parse_st(v).map_err(|reason| SettingError::Time { key: "st", reason })?),
            "depth" => EngineSetting::Depth(u32::try_from(count("depth")?).map_err(|_| bad("depth", "too deep"))?),
            "nodes" => EngineSetting::Nodes(count("nodes")?),
            "restart" => EngineSetting::Restart(match v {
                "on" => true,
                "off" | "auto" => false,
                _ => return Err(bad("restart", "use on or off")),
            }),
            _ => match k.strip_prefix("option.") {
                Some(name) if name.eq_ignore_ascii_case("UCI_Variant") => return Err(SettingError::UciVariant),
                Some(name) if !name.is_empty() => EngineSetting::Option(name.to_string(), v.to_string()),
                _ => return Err(SettingError::UnknownKey(k.to_string())),
            },
        })
    }
}

impl EngineConfig {
    /// Applies one setting; a later one overrides an earlier one (an option
    /// by its name in any case).
    pub fn apply(&mut self, s: &EngineSetting) {
        match s {
            EngineSetting::Cmd(c) => self.cmd = c.clone(),
            EngineSetting::Name(n) => self.name = n.clone(),
            EngineSetting::Arg(a) => self.args.push(a.clone()),
            EngineSetting::Dir(d) => self.dir = Some(d.clone()),
            EngineSetting::Proto(p) => self.proto = *p,
            EngineSetting::Option(name, v) => match self.options.iter_mut().find(|o| o.0.eq_ignore_ascii_case(name)) {
                Some(o) => o.1 = v.clone(),
                None => self.options.push((name.clone(), v.clone())),
            },
            EngineSetting::Tc(tc) => self.tc = *tc,
            EngineSetting::St(ms) => self.st_ms = Some(*ms),
            EngineSetting::Depth(d) => self.depth = Some(*d),
            EngineSetting::Nodes(n) => self.nodes = Some(*n),
            EngineSetting::Restart(r) => self.restart = *r,
        }
    }
}

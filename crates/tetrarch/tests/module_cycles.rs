//! No import cycles between sibling modules, in any crate of the workspace
//! (issue 39).
//!
//! For every crate under `crates/`, the module tree is read from its roots
//! (`src/lib.rs`, `src/main.rs`, `src/bin/*.rs`, `src/bin/*/main.rs`) by
//! following `mod NAME;` (to `NAME.rs` or `NAME/mod.rs`) and inline
//! `mod NAME { … }`. Every path a module's code names that starts with
//! `crate::`, `$crate::`, `super::` or `self::` (in `use` items, groups
//! `use crate::{a, b::c}` included, and in expressions, types and macro
//! arguments) is resolved to the deepest module of the tree it names.
//!
//! **What counts.** A reference from module `M` to module `P` is an edge
//! between the two children of their closest common ancestor `A` that hold
//! `M` and `P` (so `games/teamchess/moves.rs` naming `crate::games::
//! cross_board::piece` is the edge `teamchess → cross_board` among the
//! children of `games`). A module naming its own ancestors (a child using
//! its parent's items, the usual Rust pattern) or its own descendants (a
//! `mod.rs` using its children) is no edge. The test fails, naming the
//! modules and one reference of each edge, when the children of any module
//! form a cycle that is not a known exception below.
//!
//! **What it does not see** (a textual scan, not the compiler): names that
//! come in through a glob (`use super::*`) or a re-export of the parent
//! (`pub use child::X` in `mod.rs`, used by a sibling as `super::X`);
//! methods and trait items reached through a value without naming their
//! module; macros invoked by name (`#[macro_use]`, `macro_rules!` scoping);
//! paths written relative to an imported name (`use crate::a; a::f()` is
//! seen once, at the `use`); intra-doc links and comments (never edges);
//! `#[path]` and `include!`. Code under `#[cfg(test)]` (test modules and
//! test-only items) is skipped: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Known cycles, to be removed: (crate, parent module (`::`-joined, `""`
/// for the crate root), the sibling modules of the cycle, sorted). A cycle
/// listed here that no longer exists fails the test too, so the list only
/// shrinks.
const KNOWN_CYCLES: &[(&str, &str, &[&str])] = &[];

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A literal (string, char, number): never part of a path.
    Lit,
}

/// The tokens of Rust source with their line numbers: comments, strings,
/// characters and lifetimes taken out.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == 'r' && (next == Some('#') || next == Some('"')) && {
            // A raw string r"…", r#"…"#; not the identifier `r#type`.
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            c.get(j) == Some(&'"')
        } {
            let mut j = i + 1;
            let mut hashes = 0;
            while c[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '\n' {
                    line += 1;
                }
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push((Tok::Lit, line));
        } else if ch == '"' || (ch == 'b' && next == Some('"')) {
            let mut j = if ch == 'b' { i + 2 } else { i + 1 };
            while j < c.len() && c[j] != '"' {
                if c[j] == '\\' {
                    j += 1;
                }
                if c.get(j) == Some(&'\n') {
                    line += 1;
                }
                j += 1;
            }
            i = j + 1;
            out.push((Tok::Lit, line));
        } else if ch == '\'' || (ch == 'b' && next == Some('\'')) {
            let s = if ch == 'b' { i + 1 } else { i };
            // A character literal ('a', '\n', '\u{..}') or a lifetime ('a).
            if c.get(s + 1) == Some(&'\\') {
                let mut j = s + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
                out.push((Tok::Lit, line));
            } else if c.get(s + 2) == Some(&'\'') {
                i = s + 3;
                out.push((Tok::Lit, line));
            } else {
                let mut j = s + 1;
                while j < c.len() && ident_char(c[j]) {
                    j += 1;
                }
                i = j;
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && (ident_char(c[i]) || c[i] == '.' && c.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
                i += 1;
            }
            out.push((Tok::Lit, line));
        } else if ident_char(ch) {
            let mut j = i;
            while j < c.len() && ident_char(c[j]) {
                j += 1;
            }
            let word: String = c[i..j].iter().collect();
            out.push((Tok::Ident(word.trim_start_matches("r#").to_string()), line));
            i = j;
        } else if ch == ':' && next == Some(':') {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// One module of a crate.
struct Module {
    /// Its file, for messages.
    file: PathBuf,
}

/// A path named by a module: the module (its path), the path's segments
/// from `crate`/`super`/`self` on, the file and line.
struct Reference {
    from: Vec<String>,
    path: Vec<String>,
    file: PathBuf,
    line: usize,
}

#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    refs: Vec<Reference>,
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

fn punct(t: Option<&(Tok, usize)>, p: char) -> bool {
    matches!(t, Some((Tok::Punct(q), _)) if *q == p)
}

/// The paths of a path or use tree starting at `toks[i]` (an identifier),
/// each with `prefix` in front; returns them and the index after the tree.
fn paths_at(toks: &[(Tok, usize)], mut i: usize, prefix: Vec<String>) -> (Vec<Vec<String>>, usize) {
    let mut path = prefix;
    loop {
        match ident(toks.get(i)) {
            Some(s) => {
                path.push(s.to_string());
                i += 1;
            }
            None if punct(toks.get(i), '{') => {
                // A group: `{a, b::c, self, *}`.
                let mut all = Vec::new();
                i += 1;
                loop {
                    if punct(toks.get(i), '}') || i >= toks.len() {
                        return (all, i + 1);
                    }
                    if ident(toks.get(i)).is_some() || punct(toks.get(i), '{') {
                        let (more, j) = paths_at(toks, i, path.clone());
                        all.extend(more);
                        i = j;
                    } else {
                        i += 1; // `,`, `*`
                    }
                }
            }
            None => return (vec![path], i),
        }
        if toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep) {
            i += 1;
        } else {
            // `a as b`: the alias is no path.
            if ident(toks.get(i)) == Some("as") {
                i += 2;
            }
            return (vec![path], i);
        }
    }
}

/// The tokens of the attribute `#[...]` at `i` and the index after it.
fn attribute(toks: &[(Tok, usize)], i: usize) -> Option<(Vec<Tok>, usize)> {
    if !(punct(toks.get(i), '#') && punct(toks.get(i + 1), '[')) {
        return None;
    }
    let mut depth = 0;
    let mut j = i + 1;
    let mut inner = Vec::new();
    while j < toks.len() {
        match &toks[j].0 {
            Tok::Punct('[') => depth += 1,
            Tok::Punct(']') => {
                depth -= 1;
                if depth == 0 {
                    return Some((inner, j + 1));
                }
            }
            _ => {}
        }
        if j > i + 1 {
            inner.push(toks[j].0.clone());
        }
        j += 1;
    }
    None
}

fn is_cfg_test(attr: &[Tok]) -> bool {
    let id = |s: &str| Tok::Ident(s.into());
    attr.starts_with(&[id("cfg"), Tok::Punct('('), id("test")])
        || attr.starts_with(&[id("cfg"), Tok::Punct('('), id("all"), Tok::Punct('('), id("test")])
}

/// The index after the item starting at `i`: its `;` or its `{ … }`.
fn skip_item(toks: &[(Tok, usize)], mut i: usize) -> usize {
    let mut depth = 0i32;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Punct('(') | Tok::Punct('[') => depth += 1,
            Tok::Punct(')') | Tok::Punct(']') => depth -= 1,
            Tok::Punct(';') if depth == 0 => return i + 1,
            Tok::Punct('{') if depth == 0 => {
                let mut d = 0;
                while i < toks.len() {
                    match &toks[i].0 {
                        Tok::Punct('{') => d += 1,
                        Tok::Punct('}') => {
                            d -= 1;
                            if d == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Reads the module `module` from `file` (and the files of its `mod`
/// declarations) into `krate`. `dir` is where its child files are.
fn read_module(krate: &mut Crate, module: Vec<String>, file: &Path, dir: &Path) {
    let src = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let toks = lex(&src);
    krate.modules.insert(module.clone(), Module { file: file.to_path_buf() });
    // The inline modules open here: (path, brace depth inside them).
    let mut stack: Vec<(Vec<String>, i32)> = vec![(module, 0)];
    let mut depth = 0;
    let mut i = 0;
    while i < toks.len() {
        if let Some((attr, j)) = attribute(&toks, i) {
            if is_cfg_test(&attr) {
                // Further attributes, then the item: all skipped.
                let mut k = j;
                while let Some((_, after)) = attribute(&toks, k) {
                    k = after;
                }
                i = skip_item(&toks, k);
            } else {
                i = j;
            }
            continue;
        }
        let current = stack.last().expect("the file's module").0.clone();
        match &toks[i].0 {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth -= 1;
                if stack.len() > 1 && stack.last().is_some_and(|s| s.1 > depth) {
                    stack.pop();
                }
            }
            Tok::Ident(w) if w == "mod" && !matches!(toks.get(i.wrapping_sub(1)).map(|t| &t.0), Some(Tok::PathSep)) => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    let mut child = current.clone();
                    child.push(name.to_string());
                    if punct(toks.get(i + 2), ';') {
                        // The file of `mod name;` inside inline modules is
                        // under their folders.
                        let mut d = dir.to_path_buf();
                        for m in &current[stack[0].0.len()..] {
                            d.push(m);
                        }
                        let (flat, nested) = (d.join(format!("{name}.rs")), d.join(name).join("mod.rs"));
                        let (f, child_dir) = if flat.exists() { (flat, d.join(name)) } else { (nested, d.join(name)) };
                        read_module(krate, child, &f, &child_dir);
                        i += 3;
                        continue;
                    } else if punct(toks.get(i + 2), '{') {
                        krate.modules.insert(child.clone(), Module { file: file.to_path_buf() });
                        depth += 1;
                        stack.push((child, depth));
                        i += 3;
                        continue;
                    }
                }
            }
            Tok::Ident(w)
                if (w == "crate" || w == "super" || w == "self")
                    && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::PathSep)
                    && !matches!(toks.get(i.wrapping_sub(1)).map(|t| &t.0), Some(Tok::PathSep)) =>
            {
                let (paths, j) = paths_at(&toks, i, Vec::new());
                for path in paths {
                    krate.refs.push(Reference { from: current.clone(), path, file: file.to_path_buf(), line: toks[i].1 });
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

/// The module a reference names: its path made absolute, cut to the
/// deepest module of the crate. `None` for a path that leaves the crate.
fn resolve(krate: &Crate, r: &Reference) -> Option<Vec<String>> {
    let mut abs: Vec<String> = Vec::new();
    let mut segs = r.path.iter().peekable();
    match segs.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segs.next();
        }
        _ => abs = r.from.clone(),
    }
    for s in segs {
        match s.as_str() {
            "super" => {
                abs.pop()?;
            }
            "self" => {}
            _ => abs.push(s.clone()),
        }
    }
    while !krate.modules.contains_key(&abs) {
        abs.pop()?;
    }
    Some(abs)
}

/// An edge between two children of a module, and one reference that makes it.
type Edges = BTreeMap<Vec<String>, BTreeMap<(String, String), String>>;

fn sibling_edges(krate: &Crate, root: &Path) -> Edges {
    let mut edges: Edges = BTreeMap::new();
    for r in &krate.refs {
        let Some(to) = resolve(krate, r) else { continue };
        let common = r.from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if common == r.from.len() || common == to.len() {
            continue; // an ancestor or a descendant
        }
        let example =
            format!("{}:{} names `{}`", r.file.strip_prefix(root).unwrap_or(&r.file).display(), r.line, r.path.join("::"));
        edges
            .entry(r.from[..common].to_vec())
            .or_default()
            .entry((r.from[common].clone(), to[common].clone()))
            .or_insert(example);
    }
    edges
}

/// The strongly connected components of more than one node (Tarjan).
fn cycles(edges: &BTreeMap<(String, String), String>) -> Vec<BTreeSet<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let mut succ: BTreeMap<&String, Vec<&String>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        succ.entry(a).or_default().push(b);
    }
    struct St<'a> {
        index: BTreeMap<&'a String, usize>,
        low: BTreeMap<&'a String, usize>,
        stack: Vec<&'a String>,
        on: BTreeSet<&'a String>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(n: &'a String, st: &mut St<'a>, succ: &BTreeMap<&'a String, Vec<&'a String>>) {
        let k = st.index.len();
        st.index.insert(n, k);
        st.low.insert(n, k);
        st.stack.push(n);
        st.on.insert(n);
        for &m in succ.get(n).into_iter().flatten() {
            if !st.index.contains_key(m) {
                visit(m, st, succ);
                let l = st.low[m].min(st.low[n]);
                st.low.insert(n, l);
            } else if st.on.contains(m) {
                let l = st.index[m].min(st.low[n]);
                st.low.insert(n, l);
            }
        }
        if st.low[n] == st.index[n] {
            let mut comp = BTreeSet::new();
            while let Some(m) = st.stack.pop() {
                st.on.remove(m);
                comp.insert(m.clone());
                if m == n {
                    break;
                }
            }
            if comp.len() > 1 {
                st.out.push(comp);
            }
        }
    }
    let mut st = St { index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), on: BTreeSet::new(), out: Vec::new() };
    for n in nodes {
        if !st.index.contains_key(n) {
            visit(n, &mut st, &succ);
        }
    }
    st.out
}

/// Every crate's roots and their module trees.
fn crates(root: &Path) -> Vec<(String, Crate)> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates")).expect("crates/").map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().into_owned();
        let src = d.join("src");
        let mut roots: Vec<(String, PathBuf)> = Vec::new();
        for f in ["lib.rs", "main.rs"] {
            if src.join(f).exists() {
                roots.push((format!("{name} ({f})"), src.join(f)));
            }
        }
        if let Ok(bins) = std::fs::read_dir(src.join("bin")) {
            let mut bins: Vec<PathBuf> = bins.map(|e| e.unwrap().path()).collect();
            bins.sort();
            for b in bins {
                let f = if b.is_dir() { b.join("main.rs") } else { b.clone() };
                if f.extension().is_some_and(|e| e == "rs") && f.exists() {
                    roots.push((format!("{name} (bin/{})", b.file_name().unwrap().to_string_lossy()), f));
                }
            }
        }
        for (label, file) in roots {
            let mut krate = Crate::default();
            let dir = if file.file_name().is_some_and(|f| f == "main.rs" || f == "lib.rs" || f == "mod.rs") {
                file.parent().unwrap().to_path_buf()
            } else {
                file.with_extension("")
            };
            read_module(&mut krate, Vec::new(), &file, &dir);
            out.push((label, krate));
        }
    }
    out
}

#[test]
fn no_import_cycles_between_sibling_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let mut problems = Vec::new();
    let mut seen_known = BTreeSet::new();
    let mut modules = 0;
    for (label, krate) in crates(&root) {
        modules += krate.modules.len();
        let crate_name = label.split(' ').next().unwrap().to_string();
        for (parent, edges) in sibling_edges(&krate, &root) {
            for cycle in cycles(&edges) {
                let members: Vec<&str> = cycle.iter().map(String::as_str).collect();
                let known = KNOWN_CYCLES.iter().find(|(c, p, m)| *c == crate_name && *p == parent.join("::") && *m == members);
                if let Some(k) = known {
                    seen_known.insert(*k);
                    continue;
                }
                let mut text = format!(
                    "{label}: a cycle between the modules {:?} of `{}`:",
                    members,
                    if parent.is_empty() { "crate".to_string() } else { parent.join("::") }
                );
                for ((a, b), example) in &edges {
                    if cycle.contains(a) && cycle.contains(b) {
                        let file = |m: &str| {
                            let mut p = parent.clone();
                            p.push(m.to_string());
                            krate.modules[&p].file.strip_prefix(&root).unwrap_or(&krate.modules[&p].file).display().to_string()
                        };
                        text.push_str(&format!("\n    {a} ({}) -> {b} ({}): {example}", file(a), file(b)));
                    }
                }
                problems.push(text);
            }
        }
    }
    for k in KNOWN_CYCLES {
        if !seen_known.contains(k) {
            problems.push(format!(
                "{} `{}`: the known cycle {:?} is gone: remove it from KNOWN_CYCLES in {}",
                k.0,
                if k.1.is_empty() { "crate" } else { k.1 },
                k.2,
                file!()
            ));
        }
    }
    assert!(modules > 50, "only {modules} modules found under {}", root.display());
    assert!(
        problems.is_empty(),
        "import cycles between sibling modules (tests/module_cycles.rs says what counts):\n{}",
        problems.join("\n")
    );
}

/// The scan itself: groups, `super`, inline modules, test code and strings.
#[test]
fn the_scan_sees_groups_super_and_skips_tests() {
    let toks = lex("use crate::{a::{b, c as d}, e}; let s = \"crate::x::y\"; // crate::z\n let c = '{'; f::<'a>(super::g::h());");
    let starts: Vec<usize> = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| matches!(&t.0, Tok::Ident(w) if w == "crate" || w == "super"))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(starts.len(), 2, "{toks:?}");
    let (p, _) = paths_at(&toks, starts[0], Vec::new());
    assert_eq!(p, vec![vec!["crate", "a", "b"], vec!["crate", "a", "c"], vec!["crate", "e"]]);
    let (p, _) = paths_at(&toks, starts[1], Vec::new());
    assert_eq!(p, vec![vec!["super", "g", "h"]]);

    let dir = std::env::temp_dir().join(format!("tetrarch-module-cycles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "mod a;\nmod b;\nmod c { pub fn f() { super::a::g() } }\n#[cfg(test)]\nmod tests { use crate::b::x; }\n",
    )
    .unwrap();
    std::fs::write(dir.join("a.rs"), "use crate::b::B;\n#[cfg(test)]\nfn t() { crate::c::f() }\n").unwrap();
    std::fs::write(dir.join("b.rs"), "pub struct B;\nfn f() { let _ = crate::c::f(); super::a::X; }\n").unwrap();
    let mut k = Crate::default();
    read_module(&mut k, Vec::new(), &dir.join("lib.rs"), &dir);
    let edges = sibling_edges(&k, &dir);
    let top: Vec<&(String, String)> = edges[&Vec::<String>::new()].keys().collect();
    assert_eq!(top, [&("a".into(), "b".into()), &("b".into(), "a".into()), &("b".into(), "c".into()), &("c".into(), "a".into())]);
    let c = cycles(&edges[&Vec::<String>::new()]);
    assert_eq!(c, vec![["a", "b", "c"].iter().map(|s| s.to_string()).collect::<BTreeSet<_>>()]);
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The house reads top-down. No file of `src/` imports, directly or through
//! others, a file that imports it back (an import circle), no file imports
//! from a layer above its own (the layers are listed in
//! `docs/ARCHITECTURE.md`, which this test reads), and every import names
//! the file that defines what it imports.
//!
//! The imports are read from the source, not from the compiler: every `use`
//! path and every `crate::`, `super::` and `self::` path in code (comments
//! and strings left out) is walked down the module tree. A path names the
//! file that defines its item (its home): a re-export (`pub use`) is the
//! public face of a folder (its `mod.rs`, or `lib.rs`), never a way in for
//! the house's own files, so the walk does not follow one, and a path that
//! reaches its item through another module's `use` fails
//! `every_import_names_the_file_that_defines_the_item`. The import graph of
//! the other two tests is then the graph of home files; `#[cfg(test)]`
//! modules are left out of it (a test may import from any layer). The
//! binary's files (`main.rs`, `cli/`) reach the library through `hoyito::`,
//! its public face, which is the one place a re-export is followed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module's path from its crate's root; the binary's root is `@bin`.
type ModPath = Vec<String>;

struct House {
    /// Module path -> file (relative to `src/`).
    files: BTreeMap<ModPath, String>,
    /// Module path -> its code, comments, strings and tests removed.
    code: BTreeMap<ModPath, String>,
    /// Module path -> its code, comments and strings removed, tests kept.
    full: BTreeMap<ModPath, String>,
    /// Module path (inline modules such as `tests` included) -> the names
    /// of the items it defines.
    defs: BTreeMap<ModPath, BTreeSet<String>>,
    /// Module path -> name -> the path it re-exports under that name
    /// (followed only for the binary's `hoyito::` paths).
    reexports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn module_path(rel: &str) -> ModPath {
    let stem = rel.trim_end_matches(".rs");
    match stem {
        "lib" => vec![],
        "main" => vec!["@bin".to_string()],
        _ => {
            let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts[0] == "cli" {
                parts.insert(0, "@bin".to_string());
            }
            parts
        }
    }
}

/// The code of a file without comments, string and character literals, and
/// without its `#[cfg(test)]` module (by the house's layout, the file's end).
fn strip(source: &str) -> String {
    let code = blank(source);
    match code.find("#[cfg(test)]") {
        Some(at) => code[..at].to_string(),
        None => code,
    }
}

/// The code of a file without comments, string and character literals.
fn blank(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !is_ident(chars[i - 1]))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// One `use` statement: whether it is `pub` (a re-export, `pub(crate)` and
/// the like included), its tree, and the byte range it spans in the code.
struct UseItem {
    public: bool,
    tree: String,
    span: (usize, usize),
}

/// Where the visibility written right before byte `at` of `code` starts
/// (`pub`, `pub(crate)`, `pub(in ...)`), if there is one.
fn visibility_before(code: &str, at: usize) -> Option<usize> {
    let before = code[..at].trim_end();
    if before.ends_with("pub") && !before[..before.len() - 3].ends_with(is_ident) {
        return Some(before.len() - 3);
    }
    let inner = before.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    let head = inner[..open].trim_end();
    (head.ends_with("pub") && !head[..head.len() - 3].ends_with(is_ident)).then(|| head.len() - 3)
}

fn use_items(code: &str) -> Vec<UseItem> {
    let bytes = code.as_bytes();
    let mut items = Vec::new();
    let mut from = 0;
    while let Some(found) = code[from..].find("use ") {
        let at = from + found;
        from = at + 4;
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        let Some(end) = code[at..].find(';').map(|e| at + e) else {
            break;
        };
        let visibility = visibility_before(code, at);
        items.push(UseItem {
            public: visibility.is_some(),
            tree: code[at + 4..end].to_string(),
            span: (visibility.unwrap_or(at), end + 1),
        });
        from = end + 1;
    }
    items
}

/// The paths a `use` tree names, each with the name it brings into scope.
fn expand(tree: &str) -> Vec<(Vec<String>, String)> {
    let mut normal = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    for token in ["::", "{", "}", ","] {
        normal = normal
            .replace(&format!(" {token}"), token)
            .replace(&format!("{token} "), token);
    }
    let mut out = Vec::new();
    expand_into(&[], &normal, &mut out);
    out
}

fn expand_into(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut depth = 0;
        let mut part = String::new();
        for c in inner.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if c == ',' && depth == 0 {
                expand_into(prefix, &part, out);
                part.clear();
            } else {
                part.push(c);
            }
        }
        expand_into(prefix, &part, out);
        return;
    }
    if let Some(open) = tree.find("::{") {
        let mut longer = prefix.to_vec();
        longer.extend(tree[..open].split("::").map(str::to_string));
        expand_into(&longer, &tree[open + 2..], out);
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path, Some(alias.trim())),
        None => (tree, None),
    };
    let mut full = prefix.to_vec();
    full.extend(path.split("::").map(str::to_string));
    let name = alias
        .map(str::to_string)
        .unwrap_or_else(|| full.last().cloned().unwrap_or_default());
    out.push((full, name));
}

/// The inline modules (`mod tests { ... }`) of a file's code: each its path
/// below the file's module and the byte range of its body.
fn inline_modules(code: &str) -> Vec<(Vec<String>, (usize, usize))> {
    let bytes = code.as_bytes();
    let mut found: Vec<(Vec<String>, (usize, usize))> = Vec::new();
    let mut from = 0;
    while let Some(hit) = code[from..].find("mod ") {
        let at = from + hit;
        from = at + 4;
        if at > 0 && is_ident(bytes[at - 1] as char) {
            continue;
        }
        let rest = &code[at + 4..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|&c| is_ident(c))
            .collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        let mut close = code.len();
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = open + i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let mut path: Vec<String> = found
            .iter()
            .filter(|(_, (a, b))| *a < open && close < *b)
            .max_by_key(|(_, (a, _))| *a)
            .map(|(p, _)| p.clone())
            .unwrap_or_default();
        path.push(name);
        found.push((path, (open + 1, close)));
    }
    found
}

/// The module of byte `at` of a file's code: the file's module, or the
/// innermost inline module there.
fn module_at(
    file_module: &ModPath,
    inline: &[(Vec<String>, (usize, usize))],
    at: usize,
) -> ModPath {
    let mut module = file_module.clone();
    if let Some((path, _)) = inline
        .iter()
        .filter(|(_, (a, b))| *a <= at && at < *b)
        .max_by_key(|(_, (a, _))| *a)
    {
        module.extend(path.iter().cloned());
    }
    module
}

/// The code of a module's own level: what is nested in braces (bodies of
/// functions, impls, inline modules) blanked out.
fn item_level(code: &str) -> String {
    let mut depth = 0;
    code.chars()
        .map(|c| match c {
            '{' => {
                depth += 1;
                ' '
            }
            '}' => {
                depth -= 1;
                ' '
            }
            _ if depth > 0 => ' ',
            _ => c,
        })
        .collect()
}

/// The names of the items that code at a module's own level defines.
fn definitions(level: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for kind in [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "union ",
        "macro_rules! ",
        "mod ",
    ] {
        for (at, _) in level.match_indices(kind) {
            if level[..at].ends_with(is_ident) {
                continue;
            }
            let rest = level[at + kind.len()..].trim_start();
            let rest = rest.strip_prefix("mut ").unwrap_or(rest).trim_start();
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !name.is_empty() && name != "_" && name != "fn" {
                names.insert(name);
            }
        }
    }
    names
}

impl House {
    fn read() -> House {
        let src = src_dir();
        let mut paths = Vec::new();
        rust_files(&src, &mut paths);
        let sources = paths
            .iter()
            .map(|path| {
                let rel = path
                    .strip_prefix(&src)
                    .expect("under src/")
                    .to_string_lossy()
                    .replace('\\', "/");
                (
                    rel,
                    fs::read_to_string(path).expect("a source file is readable"),
                )
            })
            .collect();
        House::of(sources)
    }

    /// The house of the given files (path relative to `src/`, source).
    fn of(sources: Vec<(String, String)>) -> House {
        let mut house = House {
            files: BTreeMap::new(),
            code: BTreeMap::new(),
            full: BTreeMap::new(),
            defs: BTreeMap::new(),
            reexports: BTreeMap::new(),
        };
        for (rel, text) in sources {
            let module = module_path(&rel);
            let full = blank(&text);
            house
                .defs
                .insert(module.clone(), definitions(&item_level(&full)));
            for (path, (a, b)) in inline_modules(&full) {
                let mut inner = module.clone();
                inner.extend(path);
                house
                    .defs
                    .insert(inner, definitions(&item_level(&full[a..b])));
            }
            house.files.insert(module.clone(), rel);
            house.code.insert(module.clone(), strip(&text));
            house.full.insert(module, full);
        }
        for (module, code) in &house.code {
            for item in use_items(code) {
                if !item.public {
                    continue;
                }
                for (path, name) in expand(&item.tree) {
                    if name != "*" && name != "self" {
                        house
                            .reexports
                            .entry(module.clone())
                            .or_default()
                            .insert(name, path);
                    }
                }
            }
        }
        house
    }

    /// Where a path written in `module` starts: a module and the segments
    /// left; `None` for another crate's path.
    fn base(&self, module: &ModPath, segments: &[String]) -> Option<(ModPath, Vec<String>)> {
        let first = segments.first()?;
        let in_bin = module.first().is_some_and(|m| m == "@bin");
        match first.as_str() {
            "crate" => {
                let root = if in_bin {
                    vec!["@bin".to_string()]
                } else {
                    vec![]
                };
                Some((root, segments[1..].to_vec()))
            }
            "hoyito" if in_bin => Some((vec![], segments[1..].to_vec())),
            "super" | "self" => {
                let mut current = module.clone();
                let mut i = 0;
                while i < segments.len() && (segments[i] == "super" || segments[i] == "self") {
                    if segments[i] == "super" {
                        current.pop();
                    }
                    i += 1;
                }
                Some((current, segments[i..].to_vec()))
            }
            _ => {
                let mut child = module.clone();
                child.push(first.clone());
                self.files
                    .contains_key(&child)
                    .then(|| (module.clone(), segments.to_vec()))
            }
        }
    }

    /// The file whose module holds `module` (itself, or the file of an
    /// inline module).
    fn file_module(&self, module: &ModPath) -> ModPath {
        let mut module = module.clone();
        while !self.files.contains_key(&module) && !module.is_empty() {
            module.pop();
        }
        module
    }

    /// The module (file) that `segments`, written in `module`, names: the
    /// path walked down the module tree to the last module it names. Only
    /// the binary's `hoyito::` paths follow the re-exports of the library's
    /// public face.
    fn resolve(&self, module: &ModPath, segments: &[String], follow: bool) -> Option<ModPath> {
        let follow = follow || segments.first().is_some_and(|s| s == "hoyito");
        let (mut current, rest) = self.base(module, segments)?;
        current = self.file_module(&current);
        for segment in &rest {
            if segment == "self" || segment == "*" {
                break;
            }
            let mut child = current.clone();
            child.push(segment.clone());
            if self.files.contains_key(&child) {
                current = child;
                continue;
            }
            if follow {
                if let Some(path) = self.reexports.get(&current).and_then(|r| r.get(segment)) {
                    if let Some(found) = self.resolve(&current, path, true) {
                        return Some(found);
                    }
                }
            }
            break;
        }
        Some(current)
    }

    /// Whether the module's file is a folder's `mod.rs` or a crate root.
    fn is_facade(&self, module: &ModPath) -> bool {
        let file = &self.files[module];
        file.ends_with("mod.rs") || file == "lib.rs" || file == "main.rs"
    }

    /// Every file each file imports (itself left out), tests left out.
    fn imports(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (module, code) in &self.code {
            let targets = edges.entry(module.clone()).or_default();
            let inline = inline_modules(code);
            for item in use_items(code) {
                // A folder's facade (`mod.rs`, `lib.rs`) re-exports without
                // using; any other file's `pub use` also uses what it names.
                if item.public && self.is_facade(module) {
                    continue;
                }
                let at = module_at(module, &inline, item.span.0);
                for (path, _) in expand(&item.tree) {
                    if let Some(target) = self.resolve(&at, &path, false) {
                        targets.insert(target);
                    }
                }
            }
            for (path, at) in inline_paths(&without_uses(code)) {
                let at = module_at(module, &inline, at);
                if let Some(target) = self.resolve(&at, &path, false) {
                    targets.insert(target);
                }
            }
            targets.remove(module);
        }
        edges
    }

    /// The paths of the house (tests included) that do not name the file
    /// that defines their item: the file, the path as written, and why.
    /// A path is walked down the module tree, and its first segment that is
    /// not a module must be an item its module defines; a name the module
    /// only imports or re-exports does not count, so no re-export is
    /// followed. A facade's own re-exports, and the binary's `hoyito::`
    /// paths (the public face), are left out.
    fn paths_not_naming_home(&self) -> Vec<(String, String, String)> {
        let mut found = Vec::new();
        for (module, code) in &self.full {
            let inline = inline_modules(code);
            let mut paths = Vec::new();
            for item in use_items(code) {
                if item.public && self.is_facade(module) {
                    continue;
                }
                let at = module_at(module, &inline, item.span.0);
                for (path, _) in expand(&item.tree) {
                    paths.push((at.clone(), path));
                }
            }
            for (path, at) in inline_paths(&without_uses(code)) {
                paths.push((module_at(module, &inline, at), path));
            }
            for (at, path) in paths {
                if path[0] == "hoyito" {
                    continue;
                }
                if let Some(why) = self.misses_home(&at, &path) {
                    found.push((self.files[module].clone(), path.join("::"), why));
                }
            }
        }
        found
    }

    /// Why a path written in `module` does not name its item's home file,
    /// or `None` when it does (or is another crate's).
    fn misses_home(&self, module: &ModPath, path: &[String]) -> Option<String> {
        let (mut current, rest) = self.base(module, path)?;
        for segment in &rest {
            if segment == "self" || segment == "*" {
                return None;
            }
            let mut child = current.clone();
            child.push(segment.clone());
            if self.files.contains_key(&child) || self.defs.contains_key(&child) {
                current = child;
                continue;
            }
            if self.defs.get(&current).is_some_and(|d| d.contains(segment)) {
                return None;
            }
            let homes: Vec<&str> = self
                .defs
                .iter()
                .filter(|(m, names)| names.contains(segment) && self.files.contains_key(*m))
                .map(|(m, _)| self.files[m].as_str())
                .collect();
            let place = self
                .files
                .get(&current)
                .cloned()
                .unwrap_or_else(|| format!("{current:?}"));
            return Some(format!(
                "`{segment}` is not defined in {place} (defined in: {})",
                if homes.is_empty() {
                    "?".to_string()
                } else {
                    homes.join(", ")
                }
            ));
        }
        None
    }
}

/// The code with its `use` statements blanked out (byte offsets kept).
fn without_uses(code: &str) -> String {
    let mut rest = code.to_string();
    for item in use_items(code) {
        let (a, b) = item.span;
        rest.replace_range(a..b, &" ".repeat(b - a));
    }
    rest
}

/// The `crate::`, `super::`, `self::` and `hoyito::` paths written in code,
/// each with its byte offset.
fn inline_paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let bytes = code.as_bytes();
    let ident = |i: usize| {
        bytes
            .get(i)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    };
    let mut paths = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !ident(i) || (i > 0 && (ident(i - 1) || bytes[i - 1] == b':' || bytes[i - 1] == b'$')) {
            i += 1;
            continue;
        }
        let mut segments = Vec::new();
        let mut j = i;
        loop {
            let start = j;
            while ident(j) {
                j += 1;
            }
            if start == j {
                break;
            }
            segments.push(code[start..j].to_string());
            if bytes.get(j) == Some(&b':') && bytes.get(j + 1) == Some(&b':') {
                j += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1
            && matches!(segments[0].as_str(), "crate" | "super" | "self" | "hoyito")
        {
            paths.push((segments, i));
        }
        i = j.max(i + 1);
    }
    paths
}

/// The circles of the import graph: its strongly connected components of
/// more than one file (Tarjan's algorithm, iteratively).
fn circles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    let nodes: Vec<&ModPath> = edges.keys().collect();
    let index_of: BTreeMap<&ModPath, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let succ: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            edges[*n]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = nodes.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut found = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if *child == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if *child < succ[v].len() {
                let w = succ[v][*child];
                *child += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    on_stack[w] = false;
                    component.push(nodes[w].clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    found.push(component);
                }
            }
        }
    }
    found
}

#[test]
fn no_file_imports_a_file_that_imports_it_back() {
    let house = House::read();
    let edges = house.imports();
    let found = circles(&edges);
    let described: Vec<String> = found
        .iter()
        .map(|component| {
            let members: BTreeSet<&ModPath> = component.iter().collect();
            let inside: Vec<String> = component
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| members.contains(to))
                        .map(|to| format!("{} -> {}", house.files[from], house.files[to]))
                        .collect::<Vec<_>>()
                })
                .collect();
            inside.join(", ")
        })
        .collect();
    let (known, _) = debts(&architecture_doc());
    let found_files: Vec<BTreeSet<String>> = found
        .iter()
        .map(|c| c.iter().map(|m| house.files[m].clone()).collect())
        .collect();
    let new: Vec<&String> = found_files
        .iter()
        .zip(&described)
        .filter(|(files, _)| !known.contains(files))
        .map(|(_, text)| text)
        .collect();
    assert!(
        new.is_empty(),
        "{} import circles (not among the debts of docs/ARCHITECTURE.md):\n{}",
        new.len(),
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let gone: Vec<&BTreeSet<String>> = known.iter().filter(|k| !found_files.contains(k)).collect();
    assert!(
        gone.is_empty(),
        "circles listed as debts in docs/ARCHITECTURE.md that are gone (take them off the list): {gone:?}"
    );
}

/// The layers of `docs/ARCHITECTURE.md`'s `layers` block, bottom first:
/// each a name and the files (`name.rs`) and folders (`name/`) of `src/`
/// it holds.
fn layers(doc: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let start = doc
        .find("```layers\n")
        .ok_or("docs/ARCHITECTURE.md has no ```layers block")?;
    let body = &doc[start + "```layers\n".len()..];
    let end = body.find("```").ok_or("the layers block is not closed")?;
    body[..end]
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let (name, members) = line
                .split_once(':')
                .ok_or_else(|| format!("a layer line without `name:`: {line}"))?;
            Ok((
                name.trim().to_string(),
                members.split_whitespace().map(str::to_string).collect(),
            ))
        })
        .collect()
}

/// The known debts of `docs/ARCHITECTURE.md`'s `debts` block: circles (their
/// files) and upward imports (`from -> to`) not yet untied. The tests fail on
/// any circle or upward import not listed, and on a listed one that is gone,
/// so the list can only shrink.
fn debts(doc: &str) -> (Vec<BTreeSet<String>>, BTreeSet<String>) {
    let mut circles = Vec::new();
    let mut upward = BTreeSet::new();
    let Some(start) = doc.find("```debts\n") else {
        return (circles, upward);
    };
    let body = &doc[start + "```debts\n".len()..];
    let body = &body[..body.find("```").unwrap_or(body.len())];
    for line in body.lines() {
        if let Some(files) = line.strip_prefix("circle:") {
            circles.push(files.split_whitespace().map(str::to_string).collect());
        } else if let Some(edge) = line.strip_prefix("upward:") {
            upward.insert(edge.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    (circles, upward)
}

fn architecture_doc() -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md"))
        .expect("docs/ARCHITECTURE.md")
}

/// The layer of a file (relative to `src/`): the layer naming the file
/// itself, or the folder that holds it.
fn layer_of(file: &str, layers: &[(String, Vec<String>)]) -> Option<usize> {
    layers.iter().position(|(_, members)| {
        members.iter().any(|m| {
            if m.ends_with('/') {
                file.starts_with(m.as_str())
            } else {
                file == m
            }
        })
    })
}

#[test]
fn no_file_imports_from_a_layer_above_its_own() {
    let doc = architecture_doc();
    let layers = layers(&doc).expect("the layers block parses");
    let (_, known) = debts(&doc);
    assert!(layers.len() >= 4, "too few layers: {layers:?}");
    let house = House::read();
    let unplaced: Vec<&String> = house
        .files
        .values()
        .filter(|f| layer_of(f, &layers).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "files in no layer of docs/ARCHITECTURE.md: {unplaced:?}"
    );
    let mut upward = Vec::new();
    let mut seen = BTreeSet::new();
    for (from, targets) in house.imports() {
        let from_file = &house.files[&from];
        let from_layer = layer_of(from_file, &layers).expect("placed");
        for to in targets {
            let to_file = &house.files[&to];
            let to_layer = layer_of(to_file, &layers).expect("placed");
            if to_layer > from_layer {
                let edge = format!("{from_file} -> {to_file}");
                if known.contains(&edge) {
                    seen.insert(edge);
                } else {
                    upward.push(format!(
                        "{from_file} ({}) imports {to_file} ({})",
                        layers[from_layer].0, layers[to_layer].0
                    ));
                }
            }
        }
    }
    assert!(
        upward.is_empty(),
        "{} imports from a higher layer (not among the debts of docs/ARCHITECTURE.md):\n{}",
        upward.len(),
        upward.join("\n")
    );
    let gone: Vec<&String> = known.difference(&seen).collect();
    assert!(
        gone.is_empty(),
        "upward imports listed as debts in docs/ARCHITECTURE.md that are gone (take them off the list): {gone:?}"
    );
}

#[test]
fn the_reader_sees_imports_of_every_kind() {
    // The reader itself, on code written for it: a grouped use, an alias, a
    // re-export followed to its file, an inline path, and what it must skip
    // (comments, strings, a test module, another crate).
    let code = strip(
        "use crate::a::{b::B, c as see};\n\
         pub use self::d::D;\n\
         // use crate::e::E;\n\
         fn f() { let s = \"crate::g::G\"; crate::h::H::new(); let c = '\"'; std::mem::drop(c); }\n\
         #[cfg(test)]\nmod tests { use crate::i::I; }\n",
    );
    let items = use_items(&code);
    assert_eq!(items.len(), 2);
    assert!(!items[0].public && items[1].public);
    assert_eq!(
        expand(&items[0].tree),
        vec![
            (
                vec!["crate".into(), "a".into(), "b".into(), "B".into()],
                "B".into()
            ),
            (vec!["crate".into(), "a".into(), "c".into()], "see".into()),
        ]
    );
    let inline: Vec<Vec<String>> = inline_paths(&code).into_iter().map(|(p, _)| p).collect();
    assert!(inline.contains(&vec!["crate".into(), "h".into(), "H".into(), "new".into()]));
    assert!(!inline
        .iter()
        .any(|p| p.contains(&"g".to_string()) || p.contains(&"e".to_string())));
    assert!(!code.contains("crate::i"));
    // A three-file circle is found, and a chain is not.
    let node = |s: &str| vec![s.to_string()];
    let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    edges.insert(node("a"), [node("b")].into());
    edges.insert(node("b"), [node("c")].into());
    edges.insert(node("c"), [node("a")].into());
    edges.insert(node("d"), [node("a")].into());
    assert_eq!(circles(&edges), vec![vec![node("a"), node("b"), node("c")]]);
    edges.insert(node("c"), BTreeSet::new());
    assert!(circles(&edges).is_empty());
    // Layers: a file by name, a folder by prefix, bottom first.
    let layers = layers("x\n```layers\nlow: a.rs b/\nhigh: c/\n```\n").unwrap();
    assert_eq!(layer_of("a.rs", &layers), Some(0));
    assert_eq!(layer_of("b/d.rs", &layers), Some(0));
    assert_eq!(layer_of("c/mod.rs", &layers), Some(1));
    assert_eq!(layer_of("e.rs", &layers), None);
    let (circles, upward) = debts("```debts\ncircle: a.rs b/c.rs\nupward: a.rs -> d.rs\n```\n");
    assert_eq!(
        circles,
        vec![BTreeSet::from(["a.rs".to_string(), "b/c.rs".to_string()])]
    );
    assert!(upward.contains("a.rs -> d.rs"));
}

#[test]
fn every_import_names_the_file_that_defines_the_item() {
    let house = House::read();
    let found = house.paths_not_naming_home();
    assert!(
        found.is_empty(),
        "{} paths reach their item through an import or re-export, not from the file that defines it:\n{}",
        found.len(),
        found
            .iter()
            .map(|(file, path, why)| format!("{file}: {path}: {why}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_home_rule_sees_a_path_through_a_facade() {
    // A facade re-exporting `a::A`, and every way in to `A` but its home:
    // through the facade (a `use` and a path in code), through an alias,
    // and from a test module through its file's own import.
    let source = |rel: &str, text: &str| (rel.to_string(), text.to_string());
    let house = House::of(vec![
        source("lib.rs", "mod a;\nmod b;\npub use a::{A, B as Bee};\n"),
        source(
            "a.rs",
            "pub struct A;\npub enum B { X }\n#[cfg(test)]\nmod tests { use super::A; }\n",
        ),
        source(
            "b.rs",
            "use crate::a::A as Home;\nuse crate::A;\nuse crate::Bee;\n\
             fn f() { crate::a::B::X; crate::A; }\n\
             #[cfg(test)]\nmod tests { use super::Home; use crate::a::A; }\n",
        ),
    ]);
    let mut found: Vec<String> = house
        .paths_not_naming_home()
        .into_iter()
        .map(|(file, path, _)| format!("{file}: {path}"))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            "b.rs: crate::A",
            "b.rs: crate::A",
            "b.rs: crate::Bee",
            "b.rs: super::Home"
        ]
    );
    // The graph is of the files the paths name: through the facade, `b.rs`
    // imports `lib.rs`, not `a.rs`.
    let edges = house.imports();
    assert_eq!(
        edges[&vec!["b".to_string()]],
        BTreeSet::from([vec![], vec!["a".to_string()]])
    );
}

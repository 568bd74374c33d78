//! `report.md` read back as blocks (headings, paragraphs, lists, tables,
//! images), so that the page shows every section of the report, including
//! sections added later, without a second writer to keep in step. Only the
//! small Markdown that `report.md` is written in is read: `#` headings,
//! `- ` lists, pipe tables with an alignment row, `![title](path)` images,
//! and inline `code` and `**bold**`.

use std::fmt::Write as _;

/// A column's alignment, from the table's alignment row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// `---` or `:--`.
    Left,
    /// `--:`.
    Right,
}

/// One block of the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// A heading: level (1 to 6) and text.
    Heading(usize, String),
    /// Lines of one paragraph, joined by spaces.
    Paragraph(String),
    /// Items of a `- ` list.
    List(Vec<String>),
    /// A pipe table.
    Table {
        /// The header's cells.
        header: Vec<String>,
        /// Each column's alignment.
        align: Vec<Align>,
        /// The rows' cells.
        rows: Vec<Vec<String>>,
    },
    /// An image: title and path.
    Image(String, String),
}

/// The blocks of `markdown`, in order.
pub fn parse_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut lines = markdown.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(heading) = heading(trimmed) {
            blocks.push(heading);
        } else if let Some(image) = image(trimmed) {
            blocks.push(image);
        } else if trimmed.starts_with('|') {
            let mut table = vec![cells(trimmed)];
            while let Some(next) = lines.peek().map(|l| l.trim()) {
                if !next.starts_with('|') {
                    break;
                }
                table.push(cells(next));
                lines.next();
            }
            blocks.push(make_table(table));
        } else if let Some(item) = trimmed.strip_prefix("- ") {
            let mut items = vec![item.to_string()];
            while let Some(next) = lines.peek().map(|l| l.trim()) {
                match next.strip_prefix("- ") {
                    Some(item) => items.push(item.to_string()),
                    None if next.is_empty() || heading(next).is_some() => break,
                    None => match items.last_mut() {
                        Some(last) => *last = format!("{last} {next}"),
                        None => break,
                    },
                }
                lines.next();
            }
            blocks.push(Block::List(items));
        } else {
            let mut text = trimmed.to_string();
            while let Some(next) = lines.peek().map(|l| l.trim()) {
                if next.is_empty()
                    || next.starts_with('|')
                    || next.starts_with("- ")
                    || heading(next).is_some()
                {
                    break;
                }
                text = format!("{text} {next}");
                lines.next();
            }
            blocks.push(Block::Paragraph(text));
        }
    }
    blocks
}

fn heading(line: &str) -> Option<Block> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let text = line.get(level..)?.strip_prefix(' ')?;
    (1..=6)
        .contains(&level)
        .then(|| Block::Heading(level, text.trim().to_string()))
}

fn image(line: &str) -> Option<Block> {
    let rest = line.strip_prefix("![")?;
    let (title, rest) = rest.split_once("](")?;
    let path = rest.strip_suffix(')')?;
    Some(Block::Image(title.to_string(), path.to_string()))
}

fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

fn is_alignment(row: &[String]) -> bool {
    row.iter()
        .all(|c| !c.is_empty() && c.contains('-') && c.bytes().all(|b| matches!(b, b'-' | b':')))
}

fn make_table(mut lines: Vec<Vec<String>>) -> Block {
    let header = lines.remove(0);
    let align = match lines.first() {
        Some(row) if is_alignment(row) => {
            let row = lines.remove(0);
            row.iter()
                .map(|c| match c.ends_with(':') && !c.starts_with(':') {
                    true => Align::Right,
                    false => Align::Left,
                })
                .collect()
        }
        _ => vec![Align::Left; header.len()],
    };
    Block::Table {
        header,
        align,
        rows: lines,
    }
}

/// `text` with `&`, `<`, `>` and quotes escaped, for HTML text and
/// attribute values alike.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Inline Markdown to HTML: `code` and `**bold**`, everything escaped.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (k, piece) in text.split('`').enumerate() {
        // Odd pieces were between backticks; an unclosed one stays code.
        if k % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&escape(piece));
            out.push_str("</code>");
            continue;
        }
        for (j, part) in piece.split("**").enumerate() {
            match j % 2 {
                1 => {
                    out.push_str("<strong>");
                    out.push_str(&escape(part));
                    out.push_str("</strong>");
                }
                _ => out.push_str(&escape(part)),
            }
        }
    }
    out
}

/// A sortable table; `cell` renders a body cell from its column and text.
pub fn table_html(
    header: &[String],
    align: &[Align],
    rows: &[Vec<String>],
    cell: impl Fn(usize, &str) -> String,
) -> String {
    let class = |k: usize| match align.get(k) {
        Some(Align::Right) => " class=\"num\"",
        _ => "",
    };
    let mut out = String::from("<div class=\"table\"><table class=\"sortable\">\n<thead><tr>");
    for (k, h) in header.iter().enumerate() {
        let _ = write!(
            out,
            "<th{}><button type=\"button\" title=\"sort by this column\">{}</button></th>",
            class(k),
            inline(h)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        out.push_str("<tr>");
        for (k, text) in row.iter().enumerate() {
            let _ = write!(out, "<td{}>{}</td>", class(k), cell(k, text));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_block_is_read() {
        let md = "# Title\n\nSome `code` and\nmore.\n\n## Caveats\n\n- one\n- two\n  goes on\n\n\
                  ![A chart](charts/a.png)\n\n| a | b |\n|---|--:|\n| 1 | x |\n| 2 | z |\n";
        let blocks = parse_blocks(md);
        assert_eq!(blocks[0], Block::Heading(1, "Title".into()));
        assert_eq!(blocks[1], Block::Paragraph("Some `code` and more.".into()));
        assert_eq!(blocks[2], Block::Heading(2, "Caveats".into()));
        assert_eq!(
            blocks[3],
            Block::List(vec!["one".into(), "two goes on".into()])
        );
        assert_eq!(
            blocks[4],
            Block::Image("A chart".into(), "charts/a.png".into())
        );
        let Block::Table {
            header,
            align,
            rows,
        } = &blocks[5]
        else {
            panic!("a table: {:?}", blocks[5]);
        };
        assert_eq!(header, &["a", "b"]);
        assert_eq!(align, &[Align::Left, Align::Right]);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1], ["2", "z"]);
        assert_eq!(blocks.len(), 6);
    }

    #[test]
    fn inline_markup_is_escaped_and_rendered() {
        assert_eq!(
            inline("**5 of 6** <games>: `a<b` & c"),
            "<strong>5 of 6</strong> &lt;games&gt;: <code>a&lt;b</code> &amp; c"
        );
    }
}

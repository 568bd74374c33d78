//! The whole report as one HTML page: `report.md`'s blocks in its order
//! (the answer, then the caveats ranked by severity), the charts inlined as SVG, every table sortable, the games to
//! watch, the experiment, and the viewer, with a table of contents built
//! from the headings. Everything the page needs is in it: no request of any
//! kind leaves it, so it opens from the file system anywhere.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::assets::{page_head, page_tail};
use super::blocks::{escape, inline, parse_blocks, table_html, Block};
use super::embed::Embedded;
use super::viewer::viewer_section;

/// What the page is made of, all read from the run's directory.
#[derive(Debug, Clone, Copy)]
pub struct PageInput<'a> {
    /// The text of `report.md`.
    pub markdown: &'a str,
    /// The SVG text of each chart, by the PNG path `report.md` links.
    pub charts: &'a BTreeMap<String, String>,
    /// The text of `experiment.toml`, if the run has one.
    pub experiment: Option<&'a str>,
    /// The games embedded for the viewer.
    pub games: &'a Embedded,
}

/// The headings met so far, for ids and the table of contents.
#[derive(Debug, Default)]
struct Toc {
    entries: Vec<(usize, String, String)>,
    parent: String,
}

impl Toc {
    /// A unique id for a heading, recorded in the contents.
    fn add(&mut self, level: usize, text: &str) -> String {
        let slug = slug(text);
        let base = match level {
            2 => {
                self.parent = slug.clone();
                slug
            }
            _ => format!("{}-{slug}", self.parent),
        };
        let mut id = base.clone();
        let mut k = 2;
        while self.entries.iter().any(|(_, other, _)| *other == id) {
            id = format!("{base}-{k}");
            k += 1;
        }
        self.entries.push((level, id.clone(), text.to_string()));
        id
    }

    fn html(&self) -> String {
        let mut out = String::from("<nav id=\"toc\"><h2>Contents</h2><ul>\n");
        let mut open = false;
        for (level, id, text) in &self.entries {
            match (level, open) {
                (2, true) => {
                    out.push_str("</ul></li>\n");
                    open = false;
                }
                (3, false) => {
                    out.push_str("<li class=\"sub\"><ul>\n");
                    open = true;
                }
                _ => {}
            }
            let _ = writeln!(out, "<li><a href=\"#{id}\">{}</a></li>", inline(text));
        }
        if open {
            out.push_str("</ul></li>\n");
        }
        out.push_str("</ul></nav>\n");
        out
    }
}

/// `ii 2x6 s4 (1200 games)` -> `ii-2x6-s4-1200-games`.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    match out.is_empty() {
        true => "section".to_string(),
        false => out,
    }
}

/// The page.
pub fn report_page(input: &PageInput<'_>) -> String {
    let (charts, style) = without_styles(input.charts.clone());
    let blocks = parse_blocks(input.markdown);
    let title = blocks
        .iter()
        .find_map(|b| match b {
            Block::Heading(1, t) => Some(t.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "Hoyito report".to_string());
    let mut toc = Toc::default();
    let mut main = String::new();
    let mut section_open = false;
    for block in &blocks {
        if let Block::Heading(2, text) = block {
            if section_open {
                main.push_str("</section>\n");
            }
            let id = toc.add(2, text);
            let _ = writeln!(main, "<section id=\"{id}\"><h2>{}</h2>", inline(text));
            section_open = true;
            continue;
        }
        render_block(&mut main, block, &mut toc, &charts);
    }
    if section_open {
        main.push_str("</section>\n");
    }
    let id = toc.add(2, "Games to watch");
    let _ = writeln!(main, "<section id=\"{id}\"><h2>Games to watch</h2>");
    main.push_str(&input.games.section_html());
    main.push_str("</section>\n");
    if let Some(text) = input.experiment {
        let id = toc.add(2, "Experiment");
        let _ = writeln!(
            main,
            "<section id=\"{id}\"><h2>Experiment</h2>\n<p>The run's <code>experiment.toml</code>, \
             as saved beside its games: <code>hoyito run DIR/experiment.toml --out DIR</code> \
             plays it again.</p>\n<pre class=\"experiment\">{}</pre></section>",
            escape(&without_threads(text))
        );
    }
    let mut page = page_head(&title, &style);
    page.push_str("<div class=\"layout\">\n");
    page.push_str(&toc.html());
    page.push_str("<main id=\"report\">\n");
    page.push_str(&main);
    page.push_str("</main>\n</div>\n");
    page.push_str(&viewer_section(false));
    page.push_str(&input.games.data_html());
    page.push_str(&page_tail());
    page
}

fn render_block(out: &mut String, block: &Block, toc: &mut Toc, charts: &BTreeMap<String, String>) {
    match block {
        Block::Heading(level, text) => match level {
            1 => {
                let _ = writeln!(out, "<h1>{}</h1>", inline(text));
            }
            _ => {
                let id = toc.add(3, text);
                let level = (*level).min(6);
                let _ = writeln!(out, "<h{level} id=\"{id}\">{}</h{level}>", inline(text));
            }
        },
        Block::Paragraph(text) => {
            let _ = writeln!(out, "<p>{}</p>", inline(text));
        }
        Block::List(items) => {
            out.push_str("<ul>\n");
            for item in items {
                let _ = writeln!(out, "<li>{}</li>", inline(item));
            }
            out.push_str("</ul>\n");
        }
        Block::Table {
            header,
            align,
            rows,
        } => out.push_str(&table_html(header, align, rows, |_, cell| inline(cell))),
        Block::Image(title, path) => match charts.get(path) {
            Some(svg) => {
                let _ = writeln!(
                    out,
                    "<figure class=\"chart\" data-chart=\"{}\">{}<figcaption>{}</figcaption></figure>",
                    escape(path),
                    svg_element(svg),
                    inline(title)
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "<p class=\"missing\">Chart not found: {}</p>",
                    inline(title)
                );
            }
        },
    }
}

/// The experiment without its top-level `threads` line: the thread count
/// changes no result, and the page must be the same for any.
fn without_threads(toml: &str) -> String {
    let mut in_table = false;
    let mut out = String::with_capacity(toml.len());
    for line in toml.lines() {
        let trimmed = line.trim_start();
        in_table |= trimmed.starts_with('[');
        let key = trimmed.split('=').next().unwrap_or("").trim();
        if !in_table && key == "threads" {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The chart's `<svg>` element, without an XML prolog.
fn svg_element(svg: &str) -> &str {
    let svg = svg.find("<svg").map_or(svg, |k| &svg[k..]);
    svg.trim_end()
}

/// Every chart's SVG with its `<style>` element taken out, and the first
/// one's style: the charts' style (the embedded font) is the same in every
/// chart, so the page's head carries it once. Inline SVG styles apply to the
/// whole page anyway.
fn without_styles(charts: BTreeMap<String, String>) -> (BTreeMap<String, String>, String) {
    let mut style = None;
    let stripped = charts
        .into_iter()
        .map(|(path, svg)| {
            let range = svg.find("<style>").and_then(|start| {
                let end = svg[start..].find("</style>")? + start;
                Some((start, end))
            });
            let Some((start, end)) = range else {
                return (path, svg);
            };
            style.get_or_insert_with(|| svg[start + "<style>".len()..end].to_string());
            let rest = svg[end + "</style>".len()..].trim_start_matches('\n');
            (path, format!("{}{rest}", &svg[..start]))
        })
        .collect();
    (stripped, style.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thread_count_is_left_out_of_the_experiment() {
        let toml = "name = \"x\"\nthreads = 2\n[roster.a]\nthreads = 3\n";
        assert_eq!(
            without_threads(toml),
            "name = \"x\"\n[roster.a]\nthreads = 3\n"
        );
    }

    #[test]
    fn ids_are_unique_and_carry_their_section() {
        let mut toc = Toc::default();
        assert_eq!(toc.add(2, "ii 2x6 s4 (1200 games)"), "ii-2x6-s4-1200-games");
        assert_eq!(toc.add(3, "Pairings"), "ii-2x6-s4-1200-games-pairings");
        assert_eq!(toc.add(3, "Pairings"), "ii-2x6-s4-1200-games-pairings-2");
        assert_eq!(toc.add(2, "«»"), "section");
    }
}

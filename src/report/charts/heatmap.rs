//! The win-rate heatmap: one panel per variant and board, each cell the score
//! of the row's agent against the column's agent, red (0) through white (0.5)
//! to blue (1). Panels grow with the agents' names so that none is cut off,
//! and the title is broken into lines to fit a single panel's width.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, DrawingArea, DrawingBackend, IntoFont, Rectangle, Text, BLACK, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, TextStyle};

use crate::report::setting_summary::SettingSummary;
use crate::report::summary::Summary;
use crate::stats::first_player::Scope;

use super::text::{draw_title, title_height, unsigned, widest};
use super::{category_label, Categories, DrawResult, FAMILY, TITLE_SIZE};

/// The chart's title.
pub(crate) const TITLE: &str =
    "Win rate: score of the row agent against the column agent (red 0, white 0.5, blue 1)";

/// The smallest panel, in pixels.
const PANEL: (u32, u32) = (520, 470);
const COLUMNS: usize = 3;
/// Font size of the agents' names.
const NAMES: f64 = 14.0;
/// Margin around a panel's chart, in pixels.
const MARGIN: u32 = 10;
/// Height of a panel's caption and its x label area, in pixels.
const CAPTION: u32 = 35;
const X_LABELS: u32 = 45;

fn grid(panels: usize) -> (usize, usize) {
    let columns = panels.clamp(1, COLUMNS);
    (panels.div_ceil(columns).max(1), columns)
}

/// The settings that get a panel: those where two different agents met.
fn shown(summary: &Summary) -> Vec<&SettingSummary> {
    summary
        .settings
        .iter()
        .filter(|s| s.pairings.iter().any(|p| p.estimate.is_some()))
        .collect()
}

/// Whether the heatmap has anything to show (not so when every game was
/// self-play).
pub(crate) fn has_data(summary: &Summary) -> bool {
    !shown(summary).is_empty()
}

/// A panel's layout, sized so that the agents' names fit: the width of the
/// y axis' label area, the side of a cell and the panel's size.
struct Layout {
    y_labels: u32,
    panel: (u32, u32),
}

fn layout(summary: &Summary) -> Layout {
    let names = widest(&summary.agents, NAMES);
    let agents = shown(summary)
        .iter()
        .map(|s| panel_agents(summary, s).len() as u32)
        .max()
        .unwrap_or(0);
    // Room for the tick, a gap and the rotated axis description.
    let y_labels = (names + 40).max(100);
    let cell = (names + 14).max(60);
    let panel = (
        (2 * MARGIN + y_labels + agents * cell).max(PANEL.0),
        (2 * MARGIN + CAPTION + X_LABELS + agents * cell).max(PANEL.1),
    );
    Layout { y_labels, panel }
}

/// Pixel size of the heatmap for a summary: one panel per setting where
/// agents met, under a title broken into lines to fit the width.
pub(crate) fn size(summary: &Summary) -> (u32, u32) {
    let (rows, columns) = grid(shown(summary).len());
    let panel = layout(summary).panel;
    let width = panel.0 * columns as u32;
    (
        width,
        title_height(TITLE, TITLE_SIZE, width) + panel.1 * rows as u32,
    )
}

/// Draws the heatmap, one panel per variant and board where agents met.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let area = draw_title(root, TITLE, TITLE_SIZE)?;
    let settings = shown(summary);
    let layout = layout(summary);
    let panels = area.split_evenly(grid(settings.len()));
    for (panel, setting) in panels.iter().zip(settings) {
        draw_panel(panel, summary, setting, &layout)?;
    }
    Ok(())
}

/// The agents of a panel: those that played in its setting, in the
/// summary's order.
fn panel_agents<'a>(summary: &'a Summary, setting: &SettingSummary) -> Vec<&'a String> {
    summary
        .agents
        .iter()
        .filter(|a| {
            setting.first_player.iter().any(|s| match &s.scope {
                Scope::AllGames => false,
                Scope::Pairing { agent, opponent } => agent == *a || opponent == *a,
                Scope::SelfPlay { agent } => agent == *a,
            })
        })
        .collect()
}

/// A cell: the row agent's score against the column agent, if they met.
fn cell(setting: &SettingSummary, row: &str, column: &str) -> Option<f64> {
    setting.pairings.iter().find_map(|p| {
        let score = p.estimate.map(|e| e.score.value)?;
        if p.agent == row && p.opponent == column {
            Some(score)
        } else if p.agent == column && p.opponent == row {
            Some(1.0 - score)
        } else {
            None
        }
    })
}

/// Red at 0, near-white at 0.5, blue at 1.
fn score_color(score: f64) -> RGBColor {
    let (red, white, blue) = (
        (215.0, 48.0, 39.0),
        (247.0, 247.0, 247.0),
        (49.0, 54.0, 149.0),
    );
    let (from, to, t) = if score < 0.5 {
        (red, white, score * 2.0)
    } else {
        (white, blue, score * 2.0 - 1.0)
    };
    let mix = |a: f64, b: f64| (a + (b - a) * t.clamp(0.0, 1.0)).round() as u8;
    RGBColor(mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2))
}

/// Black on light cells, white on dark ones, so that every label reads:
/// relative luminance below 0.4 counts as dark.
///
/// Source: WCAG 2.1, "relative luminance" (sRGB channels linearised).
fn ink(fill: RGBColor) -> RGBColor {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(fill.0) + 0.7152 * linear(fill.1) + 0.0722 * linear(fill.2);
    if luminance < 0.4 {
        WHITE
    } else {
        BLACK
    }
}

fn draw_panel<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    summary: &Summary,
    setting: &SettingSummary,
    layout: &Layout,
) -> DrawResult<DB> {
    let agents = panel_agents(summary, setting);
    let k = agents.len();
    let names: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
    // Row 0 is drawn at the top.
    let flipped: Vec<String> = names.iter().rev().cloned().collect();
    let mut chart = ChartBuilder::on(panel)
        .caption(setting.setting.to_string(), (FAMILY, 18).into_font())
        .margin(MARGIN)
        .x_label_area_size(X_LABELS)
        .y_label_area_size(layout.y_labels)
        .build_cartesian_2d(Categories(k), Categories(k))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("opponent (column)")
        .y_desc("agent (row)")
        .label_style((FAMILY, NAMES).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .x_label_formatter(&|v| category_label(&names, *v))
        .y_label_formatter(&|v| category_label(&flipped, *v))
        .draw()?;
    let text = TextStyle::from((FAMILY, 15).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
    for (r, row) in agents.iter().enumerate() {
        for (c, column) in agents.iter().enumerate() {
            let (x, y) = (c as f64, (k - 1 - r) as f64);
            let score = if r == c {
                None
            } else {
                cell(setting, row, column)
            };
            let fill = score.map_or(RGBColor(200, 200, 200), score_color);
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                fill.filled(),
            )))?;
            let label = match score {
                Some(s) => unsigned(s, 2),
                None if r == c => "self".to_string(),
                None => "–".to_string(),
            };
            chart.draw_series(std::iter::once(Text::new(
                label,
                (x, y),
                text.clone().color(&ink(fill)),
            )))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{ink, score_color};
    use plotters::prelude::{RGBColor, BLACK, WHITE};

    #[test]
    fn labels_are_white_on_dark_cells_only() {
        // Score 1 is the darkest blue (49, 54, 149): luminance 0.05.
        assert_eq!(ink(score_color(1.0)), WHITE);
        assert_eq!(ink(score_color(0.0)), WHITE);
        // Score 0.5 is near-white, the "self" cells light grey.
        assert_eq!(ink(score_color(0.5)), BLACK);
        assert_eq!(ink(RGBColor(200, 200, 200)), BLACK);
    }
}

//! The win-rate heatmap: one panel per variant and board, each cell the score
//! of the row's agent against the column's agent, red (0) through white (0.5)
//! to blue (1).

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, DrawingArea, DrawingBackend, IntoFont, Rectangle, Text, BLACK, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, TextStyle};

use crate::report::summary::{SettingSummary, Summary};
use crate::stats::Scope;

use super::{category_label, Categories, DrawResult, FAMILY};

/// The chart's title.
pub(crate) const TITLE: &str =
    "Win rate: score of the row agent against the column agent (red 0, white 0.5, blue 1)";

const PANEL: (u32, u32) = (520, 470);
const COLUMNS: usize = 3;

fn grid(panels: usize) -> (usize, usize) {
    let columns = panels.clamp(1, COLUMNS);
    (panels.div_ceil(columns).max(1), columns)
}

/// Pixel size of the heatmap for a summary: one panel per setting.
pub(crate) fn size(summary: &Summary) -> (u32, u32) {
    let (rows, columns) = grid(summary.settings.len());
    (PANEL.0 * columns as u32, PANEL.1 * rows as u32 + 50)
}

/// Draws the heatmap, one panel per variant and board.
pub fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let area = root.titled(TITLE, (FAMILY, 24).into_font())?;
    let panels = area.split_evenly(grid(summary.settings.len()));
    for (panel, setting) in panels.iter().zip(&summary.settings) {
        draw_panel(panel, summary, setting)?;
    }
    Ok(())
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

fn draw_panel<DB: DrawingBackend>(
    panel: &DrawingArea<DB, Shift>,
    summary: &Summary,
    setting: &SettingSummary,
) -> DrawResult<DB> {
    let agents: Vec<&String> = summary
        .agents
        .iter()
        .filter(|a| {
            setting.first_player.iter().any(|s| match &s.scope {
                Scope::AllGames => false,
                Scope::Pairing { agent, opponent } => agent == *a || opponent == *a,
                Scope::SelfPlay { agent } => agent == *a,
            })
        })
        .collect();
    let k = agents.len();
    let names: Vec<String> = agents.iter().map(|a| a.to_string()).collect();
    // Row 0 is drawn at the top.
    let flipped: Vec<String> = names.iter().rev().cloned().collect();
    let mut chart = ChartBuilder::on(panel)
        .caption(setting.setting.to_string(), (FAMILY, 18).into_font())
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(100)
        .build_cartesian_2d(Categories(k), Categories(k))?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc("opponent (column)")
        .y_desc("agent (row)")
        .label_style((FAMILY, 14).into_font())
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
                Some(s) => format!("{s:.2}"),
                None if r == c => "self".to_string(),
                None => "–".to_string(),
            };
            chart.draw_series(std::iter::once(Text::new(
                label,
                (x, y),
                text.clone().color(&BLACK),
            )))?;
        }
    }
    Ok(())
}

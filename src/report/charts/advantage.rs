//! First-player advantage (South's score minus 0.5) for each variant and
//! board, with 95% pair-clustered intervals as error bars: one series for all games
//! and one for each agent's self-play.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, WHITE};

use crate::report::summary::Summary;
use crate::stats::first_player::Scope;
use crate::stats::wilson::Proportion;

use super::axis::Labels;
use super::error_bars::{self, draw_error_bars, Frame, Interval};
use super::DrawResult;

/// The chart's title.
pub(crate) const TITLE: &str = "First-player advantage (South's score − 0.5) by variant and board";

/// One series: a label and, per setting, the advantage if measured there.
type Series = (String, Vec<Option<Proportion>>);

fn series(summary: &Summary) -> Vec<Series> {
    let mut scopes = vec![Scope::AllGames];
    for setting in &summary.settings {
        for s in &setting.first_player {
            if matches!(s.scope, Scope::SelfPlay { .. }) && !scopes.contains(&s.scope) {
                scopes.push(s.scope.clone());
            }
        }
    }
    scopes
        .into_iter()
        .map(|scope| {
            let values = summary
                .settings
                .iter()
                .map(|setting| {
                    setting
                        .first_player
                        .iter()
                        .find(|s| s.scope == scope)
                        .map(|s| s.advantage)
                })
                .collect();
            (scope.label(), values)
        })
        .collect()
}

/// The categories (variant and board) and the series as error bars.
fn chart_data(summary: &Summary) -> (Vec<String>, Vec<error_bars::Series>) {
    let labels = summary
        .settings
        .iter()
        .map(|s| s.setting.to_string())
        .collect();
    let series = series(summary)
        .into_iter()
        .map(|(label, values)| {
            let values = values
                .into_iter()
                .map(|v| {
                    v.map(|p| Interval {
                        low: p.low,
                        value: p.value,
                        high: p.high,
                        hollow: false,
                    })
                })
                .collect();
            (label, values)
        })
        .collect();
    (labels, series)
}

/// Pixel size of the chart for a summary.
pub(crate) fn size(summary: &Summary) -> (u32, u32) {
    let (labels, series) = chart_data(summary);
    error_bars::size(&labels, series.len())
}

/// Draws the first-player advantage chart.
pub fn draw_advantage<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let (labels, series) = chart_data(summary);
    let frame = Frame {
        title: TITLE,
        x_desc: "variant and board",
        y_desc: "South's score − 0.5 (95% pair-clustered interval)",
        categories: &labels,
        min_range: (-0.1, 0.1),
        // A difference of shares: South's score minus 0.5.
        bounds: Some((-0.5, 0.5)),
        y_labels: Labels::Signed,
        hollow_note: None,
    };
    draw_error_bars(root, &frame, &series)
}

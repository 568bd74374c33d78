//! Ratings with their 95% intervals as error bars: agents along the axis, one
//! series per variant and board, `random` (or the first agent) at 0.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, WHITE};

use crate::report::summary::Summary;

use super::error_bars::{self, draw_error_bars, Frame, Interval, Series};
use super::text::signed;
use super::DrawResult;

/// The chart's title.
pub(crate) const TITLE: &str = "Bradley-Terry ratings (Elo scale) with 95% intervals";

/// One series per variant and board that has ratings, each agent's rating
/// with its interval (an infinite end drawn at the rating).
fn series(summary: &Summary) -> Vec<Series> {
    let agents = &summary.agents;
    let finite = |x: f64| x.is_finite().then_some(x);
    summary
        .settings
        .iter()
        .filter_map(|s| s.ratings.as_ref().map(|t| (s.setting, t)))
        .map(|(setting, table)| {
            let mut values = vec![None; agents.len()];
            for r in &table.ratings {
                if let Some(i) = agents.iter().position(|a| *a == r.agent) {
                    values[i] = Some(Interval {
                        low: finite(r.low).unwrap_or(r.elo),
                        value: r.elo,
                        high: finite(r.high).unwrap_or(r.elo),
                    });
                }
            }
            (format!("{setting} ({} = 0)", table.anchor), values)
        })
        .collect()
}

/// Whether the chart has anything to show: some agent other than an anchor
/// rated somewhere (not so when every game was self-play).
pub(crate) fn has_data(summary: &Summary) -> bool {
    summary
        .settings
        .iter()
        .filter_map(|s| s.ratings.as_ref())
        .any(|t| t.ratings.iter().any(|r| r.agent != t.anchor))
}

/// Pixel size of the chart for a summary.
pub(crate) fn size(summary: &Summary) -> (u32, u32) {
    error_bars::size(&summary.agents, series(summary).len())
}

/// Draws the ratings chart.
pub fn draw_ratings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let frame = Frame {
        title: TITLE,
        x_desc: "agent",
        y_desc: "rating (Elo scale)",
        categories: &summary.agents,
        min_range: (-100.0, 100.0),
        y_format: |v| signed(*v, 0),
    };
    draw_error_bars(root, &frame, &series(summary))
}

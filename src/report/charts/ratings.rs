//! Ratings with their 95% intervals as error bars: agents along the axis, one
//! series per variant and board, `random` (or the first agent) at 0.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, WHITE};

use crate::report::summary::Summary;

use super::error_bars::{draw_error_bars, Frame, Interval, Series};
use super::DrawResult;

/// The chart's title.
pub(crate) const TITLE: &str = "Bradley-Terry ratings (Elo scale) with 95% intervals";

/// Draws the ratings chart.
pub fn draw_ratings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let agents = &summary.agents;
    let finite = |x: f64| x.is_finite().then_some(x);
    let series: Vec<Series> = summary
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
        .collect();
    let frame = Frame {
        title: TITLE,
        x_desc: "agent",
        y_desc: "rating (Elo scale)",
        categories: agents,
        min_range: (-100.0, 100.0),
        y_format: |v| format!("{v:+.0}"),
    };
    draw_error_bars(root, &frame, &series)
}

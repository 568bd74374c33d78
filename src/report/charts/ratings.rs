//! Ratings with their 95% intervals as error bars: agents along the axis, one
//! series per variant and board, `random` (or the first agent) at 0.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, Circle, DrawingArea, DrawingBackend, ErrorBar, IntoFont, PathElement,
    SeriesLabelPosition, BLACK, WHITE,
};
use plotters::style::Color;

use crate::report::summary::Summary;

use super::{category_label, series_color, Categories, DrawResult, FAMILY};

/// The chart's title.
pub(crate) const TITLE: &str = "Bradley-Terry ratings (Elo scale) with 95% intervals";

/// Draws the ratings chart.
pub fn draw_ratings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let agents = &summary.agents;
    let tables: Vec<_> = summary
        .settings
        .iter()
        .filter_map(|s| s.ratings.as_ref().map(|t| (s.setting, t)))
        .collect();
    let finite = |x: f64| x.is_finite().then_some(x);
    let (low, high) = tables
        .iter()
        .flat_map(|(_, t)| &t.ratings)
        .flat_map(|r| [finite(r.low), finite(r.high), Some(r.elo)])
        .flatten()
        .fold((-100.0_f64, 100.0_f64), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
    // Headroom above the data for the legend.
    let pad = 0.05 * (high - low);
    let headroom = 0.3 * (high - low);
    let n = agents.len();
    let mut chart = ChartBuilder::on(root)
        .caption(TITLE, (FAMILY, 22).into_font())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(Categories(n), (low - pad)..(high + headroom))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("agent")
        .y_desc("rating (Elo scale)")
        .label_style((FAMILY, 14).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .x_label_formatter(&|v| category_label(agents, *v))
        .y_label_formatter(&|v| format!("{v:+.0}"))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
        BLACK.mix(0.6),
    )))?;
    let width = 0.7 / tables.len().max(1) as f64;
    for (k, (setting, table)) in tables.iter().enumerate() {
        let color = series_color(k);
        let offset = (k as f64 - (tables.len() as f64 - 1.0) / 2.0) * width;
        let points: Vec<(f64, f64, f64, f64)> = table
            .ratings
            .iter()
            .filter_map(|r| {
                let i = agents.iter().position(|a| *a == r.agent)?;
                let x = i as f64 + offset;
                Some((
                    x,
                    finite(r.low).unwrap_or(r.elo),
                    r.elo,
                    finite(r.high).unwrap_or(r.elo),
                ))
            })
            .collect();
        chart
            .draw_series(points.iter().map(|&(x, lo, elo, hi)| {
                ErrorBar::new_vertical(x, lo, elo, hi, color.stroke_width(2), 10)
            }))?
            .label(format!("{setting} ({} = 0)", table.anchor))
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
        chart.draw_series(
            points
                .iter()
                .map(|&(x, _, elo, _)| Circle::new((x, elo), 5, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FAMILY, 14).into_font())
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

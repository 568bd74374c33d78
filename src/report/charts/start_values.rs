//! Line charts of start values: a search's value of the start against its
//! depth (one chart per board), and the best-known value against the board
//! size, where exact values are drawn as filled points and values under
//! search as hollow ones, so that a reader never takes one for the other,
//! and a proved outcome is written over its point.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, Circle, DrawingArea, DrawingBackend, IntoFont, LineSeries, PathElement, Text,
    BLACK, WHITE,
};
use plotters::style::Color;

use super::axis::{Axis, Labels};
use super::{series_color, DrawResult, FAMILY};

/// One line of a start-value chart.
#[derive(Debug, Clone)]
pub struct ValueSeries {
    /// Its legend.
    pub name: String,
    /// Points: x, the value, and whether the value is exact (filled point).
    pub points: Vec<(f64, f64, bool)>,
    /// Words written above points (a proved outcome: W, D or L).
    pub labels: Vec<(f64, f64, String)>,
}

/// Draws `series` as lines with points on one chart, with a zero line.
pub fn draw_start_values<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[ValueSeries],
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let all = || series.iter().flat_map(|s| s.points.iter());
    let x_min = all().map(|p| p.0).fold(f64::INFINITY, f64::min).min(0.0);
    let x_max = all()
        .map(|p| p.0)
        .fold(f64::NEG_INFINITY, f64::max)
        .max(1.0);
    let y_abs = all().map(|p| p.1.abs()).fold(4.0, f64::max);
    let y_max = (y_abs / 4.0).ceil() * 4.0 + 4.0;
    // Depths, board sizes and seeds are whole numbers: so are the ticks.
    let x_axis = Axis::integers(x_min - 0.5..x_max + 0.5, Labels::Plain);
    let y_axis = Axis::integers(-y_max..y_max, Labels::Signed);
    let mut chart = ChartBuilder::on(root)
        .caption(title, (FAMILY, 20).into_font())
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(56)
        .build_cartesian_2d(x_axis.clone(), y_axis.clone())?;
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .x_label_formatter(&|x| x_axis.label(*x))
        .y_label_formatter(&|y| y_axis.label(*y))
        .label_style((FAMILY, 13).into_font())
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(x_min - 0.5, 0.0), (x_max + 0.5, 0.0)],
        BLACK.mix(0.4),
    ))?;
    for (i, s) in series.iter().enumerate() {
        let color = series_color(i);
        chart
            .draw_series(LineSeries::new(
                s.points.iter().map(|p| (p.0, p.1)),
                color.stroke_width(2),
            ))?
            .label(s.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart.draw_series(s.points.iter().map(|&(x, y, exact)| {
            let style = if exact {
                color.filled()
            } else {
                color.stroke_width(2)
            };
            Circle::new((x, y), 4, style)
        }))?;
        // Each series' words a little higher than the last's, so that
        // boards where the series meet stay readable.
        let lift = (y_max / 12.0) * (1.0 + i as f64 * 0.9);
        chart.draw_series(s.labels.iter().map(|(x, y, word)| {
            Text::new(
                word.clone(),
                (*x - 0.12, *y + lift),
                (FAMILY, 13).into_font().color(&color),
            )
        }))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font((FAMILY, 13).into_font())
        .draw()?;
    root.present()?;
    Ok(())
}

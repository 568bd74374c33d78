//! The chart shape that first-player advantage and ratings share: categories
//! along the x axis, one coloured series of points with vertical error bars per
//! group, side by side within a category, a line at zero and a legend, with
//! headroom above the data so that the legend does not hide it.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, Circle, DrawingArea, DrawingBackend, ErrorBar, IntoFont, PathElement, BLACK,
};
use plotters::style::Color;

use super::{category_label, draw_legend, series_color, Categories, DrawResult, FAMILY};

/// A point estimate with its interval.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Interval {
    /// Lower end.
    pub low: f64,
    /// The estimate.
    pub value: f64,
    /// Upper end.
    pub high: f64,
}

/// One series: its legend label and, per category, the interval if measured.
pub(crate) type Series = (String, Vec<Option<Interval>>);

/// What the chart says around its data.
pub(crate) struct Frame<'a> {
    /// The title.
    pub title: &'a str,
    /// The x axis' description.
    pub x_desc: &'a str,
    /// The y axis' description.
    pub y_desc: &'a str,
    /// The categories' labels, in axis order.
    pub categories: &'a [String],
    /// The y range always shown, whatever the data.
    pub min_range: (f64, f64),
    /// Formats a y tick.
    pub y_format: fn(&f64) -> String,
}

/// Draws the series over the frame on `root` (already filled).
pub(crate) fn draw_error_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    frame: &Frame<'_>,
    series: &[Series],
) -> DrawResult<DB> {
    let (low, high) = series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .fold(frame.min_range, |(lo, hi), p| {
            (lo.min(p.low), hi.max(p.high))
        });
    // Headroom above the data for the legend.
    let pad = 0.05 * (high - low);
    let headroom = 0.3 * (high - low);
    let n = frame.categories.len();
    let mut chart = ChartBuilder::on(root)
        .caption(frame.title, (FAMILY, 22).into_font())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(Categories(n), (low - pad)..(high + headroom))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(frame.x_desc)
        .y_desc(frame.y_desc)
        .label_style((FAMILY, 14).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .x_label_formatter(&|v| category_label(frame.categories, *v))
        .y_label_formatter(&frame.y_format)
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
        BLACK.mix(0.6),
    )))?;
    let width = 0.7 / series.len().max(1) as f64;
    for (k, (label, values)) in series.iter().enumerate() {
        let color = series_color(k);
        let offset = (k as f64 - (series.len() as f64 - 1.0) / 2.0) * width;
        let points: Vec<(f64, Interval)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|p| (i as f64 + offset, p)))
            .collect();
        chart
            .draw_series(points.iter().map(|&(x, p)| {
                ErrorBar::new_vertical(x, p.low, p.value, p.high, color.stroke_width(2), 10)
            }))?
            .label(label.as_str())
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
        chart.draw_series(
            points
                .iter()
                .map(|&(x, p)| Circle::new((x, p.value), 5, color.filled())),
        )?;
    }
    draw_legend(&mut chart)
}

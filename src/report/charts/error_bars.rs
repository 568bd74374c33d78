//! The chart shape that first-player advantage and ratings share: categories
//! along the x axis, one coloured series of points with vertical error bars per
//! group, side by side within a category, a line at zero and a legend, with
//! headroom above the data measured from the legend's height so that the
//! legend never hides a point or the top of an error bar.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, Circle, DrawingArea, DrawingBackend, ErrorBar, IntoFont, PathElement, BLACK,
};
use plotters::style::Color;

use super::legend::{headroom, Legend, Marker};
use super::text::{draw_title, widest};
use super::{category_label, series_color, Categories, DrawResult, FAMILY, TITLE_SIZE};

/// Width of the y axis' label area, in pixels.
const Y_LABELS: u32 = 70;

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
        .filter(|p| p.low.is_finite() && p.high.is_finite())
        .fold(frame.min_range, |(lo, hi), p| {
            (lo.min(p.low), hi.max(p.high))
        });
    let low = low - 0.05 * (high - low);
    let legend = Legend::new(
        series
            .iter()
            .enumerate()
            .map(|(k, (label, _))| (label.clone(), Marker::Dot(series_color(k))))
            .collect(),
    );
    let n = frame.categories.len();
    let area = draw_title(root, frame.title, TITLE_SIZE)?;
    let mut builder = ChartBuilder::on(&area);
    builder
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(Y_LABELS);
    // Built once on a dummy range only to learn the plotting area's height.
    let height = builder
        .build_cartesian_2d(Categories(n), 0.0..1.0)?
        .plotting_area()
        .dim_in_pixel()
        .1;
    let top = headroom(low, high, legend.band(), height);
    let mut chart = builder.build_cartesian_2d(Categories(n), low..top)?;
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
    for (k, (_, values)) in series.iter().enumerate() {
        let color = series_color(k);
        let offset = (k as f64 - (series.len() as f64 - 1.0) / 2.0) * width;
        let points: Vec<(f64, Interval)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|p| (i as f64 + offset, p)))
            .filter(|(_, p)| p.low.is_finite() && p.value.is_finite() && p.high.is_finite())
            .collect();
        chart.draw_series(points.iter().map(|&(x, p)| {
            ErrorBar::new_vertical(x, p.low, p.value, p.high, color.stroke_width(2), 10)
        }))?;
        chart.draw_series(
            points
                .iter()
                .map(|&(x, p)| Circle::new((x, p.value), 5, color.filled())),
        )?;
    }
    legend.draw(&chart.plotting_area().strip_coord_spec())
}

/// Pixel size of an error-bar chart of `series` rows in its legend over
/// `categories`: 1000 by 600 at least, wider when the categories' labels
/// need it, taller when the legend does.
pub(crate) fn size(categories: &[String], series: usize) -> (u32, u32) {
    let label = widest(categories, 14.0) + 16;
    let width = (Y_LABELS + 30 + categories.len() as u32 * label).max(1000);
    // Eight legend rows fit in 600 pixels with room for the data.
    let height = 600 + 40 * series.saturating_sub(8) as u32;
    (width, height)
}

//! The chart shape that first-player advantage, ratings and the Balance
//! metrics share: categories along the x axis, one coloured series of points
//! with vertical error bars per group, side by side within a category, a
//! line at zero and a legend, with headroom above the data measured from the
//! legend's height so that the legend never hides a point or the top of an
//! error bar. A metric with bounds (a share, between 0 and 1) keeps its axis
//! inside them, and its legend goes to a corner free of data instead.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, Circle, DrawingArea, DrawingBackend, ErrorBar, IntoFont, PathElement, BLACK,
    WHITE,
};
use plotters::style::Color;

use super::axis::{Axis, Labels};
use super::legend::{headroom, Corner, Legend, Marker, Rect};
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
    /// Drawn as a hollow dot: a value that the data alone do not hold.
    pub hollow: bool,
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
    /// The range the axis covers whatever the data (`(0.0, 0.0)` keeps 0
    /// in view; `(INFINITY, NEG_INFINITY)` forces nothing).
    pub min_range: (f64, f64),
    /// The values the metric can take (0 and 1 for a share), which the axis
    /// never leaves; `None` when unbounded.
    pub bounds: Option<(f64, f64)>,
    /// How the y ticks read.
    pub y_labels: Labels,
    /// The legend's line for hollow dots, shown when some dot is hollow.
    pub hollow_note: Option<&'a str>,
}

/// Share of the data's span kept free below the data (and above them on a
/// bounded axis).
const MARGIN: f64 = 0.05;

/// Pixel radius of a point's dot.
const DOT: i32 = 5;

/// Pixel width of an error bar's caps.
const CAP: u32 = 10;

/// The y axis' range for the frame's data, on a plotting area `height`
/// pixels tall whose legend takes a band of `band` pixels at the top, and
/// whether the data stay below that band. On a bounded axis the band is
/// given up rather than the bounds: the range stops at the bound (with a
/// margin inside it only) and the legend must find another corner.
pub(crate) fn y_range(
    frame: &Frame<'_>,
    series: &[Series],
    band: u32,
    height: u32,
) -> (Range<f64>, bool) {
    let (low, high) = series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .filter(|p| p.low.is_finite() && p.high.is_finite())
        .fold(frame.min_range, |(lo, hi), p| {
            (lo.min(p.low), hi.max(p.high))
        });
    // No data and nothing forced: an axis from 0 to 1.
    let (low, high) = if low > high { (0.0, 1.0) } else { (low, high) };
    let (floor, ceiling) = frame.bounds.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
    let (low, high) = (low.max(floor), high.min(ceiling));
    let span = if high > low { high - low } else { 1.0 };
    let low = (low - MARGIN * span).max(floor);
    let top = headroom(low, high, band, height);
    if top <= ceiling {
        (low..top, true)
    } else {
        (low..(high + MARGIN * span).min(ceiling), false)
    }
}

/// Draws the series over the frame on `root` (already filled).
pub(crate) fn draw_error_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    frame: &Frame<'_>,
    series: &[Series],
) -> DrawResult<DB> {
    let mut entries: Vec<(String, Marker)> = series
        .iter()
        .enumerate()
        .map(|(k, (label, _))| (label.clone(), Marker::Dot(series_color(k))))
        .collect();
    let any_hollow = series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .any(|p| p.hollow);
    if let (true, Some(note)) = (any_hollow, frame.hollow_note) {
        entries.push((note.to_string(), Marker::Ring(BLACK)));
    }
    let legend = Legend::new(entries);
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
    let (range, band_clear) = y_range(frame, series, legend.band(), height);
    let axis = Axis::new(range, frame.y_labels);
    let mut chart = builder.build_cartesian_2d(Categories(n), axis.clone())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc(frame.x_desc)
        .y_desc(frame.y_desc)
        .label_style((FAMILY, 14).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .x_label_formatter(&|v| category_label(frame.categories, *v))
        .y_label_formatter(&|v| axis.label(*v))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
        BLACK.mix(0.6),
    )))?;
    let plot = chart.plotting_area().strip_coord_spec();
    let (left, top) = plot.get_base_pixel();
    let mut data: Vec<Rect> = Vec::new();
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
        for &(x, p) in &points {
            let (px, high) = chart.backend_coord(&(x, p.high));
            let (_, low) = chart.backend_coord(&(x, p.low));
            let reach = DOT.max(CAP as i32 / 2) + 2;
            data.push((
                px - left - reach,
                high.min(low) - top - reach,
                px - left + reach,
                high.max(low) - top + reach,
            ));
        }
        chart.draw_series(points.iter().map(|&(x, p)| {
            ErrorBar::new_vertical(x, p.low, p.value, p.high, color.stroke_width(2), CAP)
        }))?;
        // A hollow dot is white inside, so that the bar behind it does not
        // fill it.
        chart.draw_series(points.iter().map(|&(x, p)| {
            let style = if p.hollow {
                WHITE.filled()
            } else {
                color.filled()
            };
            Circle::new((x, p.value), DOT, style)
        }))?;
        chart.draw_series(
            points
                .iter()
                .filter(|(_, p)| p.hollow)
                .map(|&(x, p)| Circle::new((x, p.value), DOT, color.stroke_width(2))),
        )?;
    }
    let corner = if band_clear {
        Corner::UpperRight
    } else {
        legend.corner(plot.dim_in_pixel(), &data)
    };
    legend.draw_at(&plot, corner)
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

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use plotters::prelude::{IntoDrawingArea, SVGBackend, WHITE};

    use super::{draw_error_bars, y_range, Frame, Interval, Series};
    use crate::report::charts::axis::Labels;

    fn point(low: f64, value: f64, high: f64) -> Option<Interval> {
        Some(Interval {
            low,
            value,
            high,
            hollow: false,
        })
    }

    fn frame<'a>(categories: &'a [String], bounds: Option<(f64, f64)>) -> Frame<'a> {
        Frame {
            title: "balance",
            x_desc: "board",
            y_desc: "balance",
            categories,
            min_range: (0.0, 0.0),
            bounds,
            y_labels: Labels::Plain,
            hollow_note: Some("hollow: held"),
        }
    }

    /// The texts of an SVG drawn by `draw_error_bars`.
    fn texts(frame: &Frame<'_>, series: &[Series]) -> Vec<String> {
        crate::report::charts::register_font();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (700, 520)).into_drawing_area();
            root.fill(&WHITE).expect("filled");
            draw_error_bars(&root, frame, series).expect("drawn");
            root.present().expect("presented");
        }
        svg.split("<text")
            .skip(1)
            .filter_map(|t| {
                let start = t.find('>')? + 1;
                let end = t.find("</text>")?;
                Some(t[start..end].trim().to_string())
            })
            .collect()
    }

    /// The texts that are numbers: the y axis' tick labels.
    fn ticks(texts: &[String]) -> Vec<(String, f64)> {
        texts
            .iter()
            .filter_map(|t| Some((t.clone(), t.trim_start_matches('+').parse().ok()?)))
            .collect()
    }

    fn boards() -> Vec<String> {
        ["2x4", "2x6", "2x8"].map(String::from).to_vec()
    }

    /// Balance, a share, is drawn on an axis that stops at 1, not at 1.2
    /// where the legend's headroom would push it past the largest value it
    /// can take.
    #[test]
    fn a_share_axis_stops_at_one() {
        let series: Vec<Series> = (0..3)
            .map(|k| {
                let v = 0.9 + 0.03 * f64::from(k);
                (format!("Hoyito {k}"), vec![point(v - 0.05, v, 1.0); 3])
            })
            .collect();
        let categories = boards();
        let bounded = frame(&categories, Some((0.0, 1.0)));
        let (range, band_clear) = y_range(&bounded, &series, 80, 400);
        assert!(range.end <= 1.0 && range.start >= 0.0, "{range:?}");
        assert!(!band_clear);
        // Unbounded, the headroom goes past 1.
        let (range, _) = y_range(&frame(&categories, None), &series, 80, 400);
        assert!(range.end > 1.0, "{range:?}");
        let labels = ticks(&texts(&bounded, &series));
        assert!(labels.iter().all(|(_, v)| *v <= 1.0), "{labels:?}");
        assert!(labels.iter().any(|(t, _)| t == "1.0"), "{labels:?}");
    }

    /// A share near 0 keeps its margin inside [0, 1], not below 0.
    #[test]
    fn a_share_axis_starts_at_zero() {
        let series = vec![("s".to_string(), vec![point(0.0, 0.01, 0.03); 3])];
        let categories = boards();
        let (range, band_clear) = y_range(&frame(&categories, Some((0.0, 1.0))), &series, 80, 400);
        assert_eq!(range.start, 0.0);
        assert!(band_clear && range.end < 1.0, "{range:?}");
    }

    /// The stalls panel's labels are distinct (not "0.00 0.01 0.01 0.01
    /// 0.02") and the advantage panel's zero is never "-0.00".
    #[test]
    fn tick_labels_are_distinct_and_never_minus_zero() {
        let categories = boards();
        for (bounds, series) in [
            (
                Some((0.0, 1.0)),
                vec![(
                    "s".to_string(),
                    vec![point(0.0, 0.02, 0.036), point(0.0, 0.0, 0.01)],
                )],
            ),
            (
                Some((-0.5, 0.5)),
                vec![(
                    "s".to_string(),
                    vec![point(-0.11, -0.09, -0.07), point(0.1, 0.14, 0.16)],
                )],
            ),
        ] {
            let labels = ticks(&texts(&frame(&categories, bounds), &series));
            assert!(labels.len() >= 4, "{labels:?}");
            let distinct: HashSet<&String> = labels.iter().map(|(t, _)| t).collect();
            assert_eq!(distinct.len(), labels.len(), "{labels:?}");
            for (text, value) in &labels {
                if *value == 0.0 {
                    assert!(!text.starts_with(['-', '+']), "{labels:?}");
                }
            }
        }
    }

    #[test]
    fn hollow_points_bring_their_note_into_the_legend() {
        let categories = boards();
        let mut series = vec![("s".to_string(), vec![point(-50.0, 0.0, 50.0); 3])];
        let f = frame(&categories, None);
        assert!(!texts(&f, &series).contains(&"hollow: held".to_string()));
        if let Some(p) = series[0].1[1].as_mut() {
            p.hollow = true;
        }
        assert!(texts(&f, &series).contains(&"hollow: held".to_string()));
    }
}

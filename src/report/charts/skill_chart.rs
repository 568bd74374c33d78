//! The skill study's chart: the Elo gained per rung of alpha-beta depth
//! against the board size, one line per variant, each point with its 95%
//! interval, so that boards are compared on what a deeper search is worth;
//! beside each, a thin line with hollow points for the upper half of the
//! depth span alone (the deeper rungs), where boards differ most.

use std::fs;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::{
    BitMapBackend, ChartBuilder, Circle, DrawingArea, DrawingBackend, ErrorBar, IntoDrawingArea,
    IntoFont, LineSeries, PathElement, SVGBackend, SeriesLabelPosition, BLACK, WHITE,
};
use plotters::style::Color;

use crate::engine::rules::Variant;
use crate::stats::elo::Interval;

use super::axis::{Axis, Labels};
use super::{font_ready, series_color, svg_font, DrawResult, FAMILY};

/// One variant's points: holes, the Elo per rung of the whole depth span
/// and of its upper half, each with its interval.
pub type RungSeries = (Variant, Vec<(u8, Interval, Option<Interval>)>);

/// The chart's title.
pub(crate) const TITLE: &str =
    "Elo gained per rung of alpha-beta depth, by board (95% intervals; hollow: upper half)";

/// Pixel size of the chart.
const SIZE: (u32, u32) = (1000, 600);

/// Draws the series on `root`.
fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    series: &[RungSeries],
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let all = || series.iter().flat_map(|(_, p)| p.iter());
    let x_min = all().map(|p| f64::from(p.0)).fold(f64::INFINITY, f64::min);
    let x_max = all()
        .map(|p| f64::from(p.0))
        .fold(f64::NEG_INFINITY, f64::max);
    let (x_min, x_max) = if x_min.is_finite() {
        (x_min, x_max)
    } else {
        (2.0, 16.0)
    };
    let finite = |v: f64| v.is_finite().then_some(v);
    let ends = || all().flat_map(|p| [Some(p.1), p.2].into_iter().flatten());
    let y_low = ends().filter_map(|i| finite(i.low)).fold(0.0, f64::min);
    let y_high = ends().filter_map(|i| finite(i.high)).fold(50.0, f64::max);
    let pad = 0.08 * (y_high - y_low);
    // Room below the data for the legend, which is drawn there.
    let legend_room = 0.6 * (y_high - y_low);
    let x_axis = Axis::integers(x_min - 1.0..x_max + 1.0, Labels::Plain);
    let y_axis = Axis::new(y_low - legend_room..y_high + pad, Labels::Signed);
    let mut chart = ChartBuilder::on(root)
        .caption(TITLE, (FAMILY, 20).into_font())
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x_axis.clone(), y_axis.clone())?;
    chart
        .configure_mesh()
        .x_desc("holes per row")
        .y_desc("Elo per rung (depth span's Elo / its rungs)")
        .x_label_formatter(&|x| x_axis.label(*x))
        .y_label_formatter(&|y| y_axis.label(*y))
        .label_style((FAMILY, 13).into_font())
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(x_min - 1.0, 0.0), (x_max + 1.0, 0.0)],
        BLACK.mix(0.4),
    ))?;
    let count = series.len().max(1) as f64;
    for (i, (variant, points)) in series.iter().enumerate() {
        let color = series_color(i);
        // Variants side by side at each board, so that their bars do not hide
        // one another.
        let shift = (i as f64 - (count - 1.0) / 2.0) * 0.15;
        let whole = |i: &Interval| i.value.is_finite() && i.low.is_finite() && i.high.is_finite();
        let at: Vec<(f64, f64, f64, f64)> = points
            .iter()
            .filter(|p| whole(&p.1))
            .map(|p| (f64::from(p.0) + shift, p.1.low, p.1.value, p.1.high))
            .collect();
        let upper: Vec<(f64, f64, f64, f64)> = points
            .iter()
            .filter_map(|p| p.2.filter(whole).map(|u| (p.0, u)))
            .map(|(h, u)| (f64::from(h) + shift + 0.05, u.low, u.value, u.high))
            .collect();
        chart
            .draw_series(LineSeries::new(
                at.iter().map(|p| (p.0, p.2)),
                color.stroke_width(2),
            ))?
            .label(format!("Hoyito {}", variant.name().to_uppercase()))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        chart.draw_series(
            at.iter()
                .map(|p| ErrorBar::new_vertical(p.0, p.1, p.2, p.3, color.stroke_width(2), 8)),
        )?;
        chart.draw_series(
            at.iter()
                .map(|p| Circle::new((p.0, p.2), 4, color.filled())),
        )?;
        chart
            .draw_series(LineSeries::new(
                upper.iter().map(|p| (p.0, p.2)),
                color.mix(0.6).stroke_width(1),
            ))?
            .label(format!(
                "Hoyito {}, upper half of the depth span",
                variant.name().to_uppercase()
            ))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.mix(0.6).stroke_width(1))
            });
        chart.draw_series(upper.iter().map(|p| {
            ErrorBar::new_vertical(p.0, p.1, p.2, p.3, color.mix(0.6).stroke_width(1), 6)
        }))?;
        chart.draw_series(
            upper
                .iter()
                .map(|p| Circle::new((p.0, p.2), 4, WHITE.filled())),
        )?;
        chart.draw_series(
            upper
                .iter()
                .map(|p| Circle::new((p.0, p.2), 4, color.stroke_width(2))),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font((FAMILY, 13).into_font())
        .draw()?;
    root.present()?;
    Ok(())
}

/// Draws the chart to `png` and `svg` (the SVG with the font embedded); an
/// error names the file.
pub(crate) fn draw_elo_per_rung(
    png: &Path,
    svg: &Path,
    series: &[RungSeries],
) -> Result<(), (PathBuf, String)> {
    if !font_ready() {
        return Err((png.to_path_buf(), "the bundled font would not load".into()));
    }
    {
        let root = BitMapBackend::new(png, SIZE).into_drawing_area();
        draw(&root, series).map_err(|e| (png.to_path_buf(), e.to_string()))?;
    }
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        draw(&root, series).map_err(|e| (svg.to_path_buf(), e.to_string()))?;
    }
    fs::write(svg, svg_font::embed_font(&text)).map_err(|e| (svg.to_path_buf(), e.to_string()))
}

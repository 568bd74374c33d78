//! Game-length histograms: one chart per variant, one series per board, each
//! bar the share of that board's games whose length falls in the bin, so that
//! boards with different game counts compare directly, and the no-capture
//! limit marked when the rules are known. The legend keeps a band at the top
//! free of bars, and the limit's line stops below it.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, DrawingArea, DrawingBackend, IntoFont, PathElement, Rectangle, BLACK, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, TextStyle};

use crate::engine::rules::Variant;
use crate::stats::tally::{SettingTally, Tally};

use super::axis::{Axis, Labels};
use super::legend::{headroom, Legend, Marker};
use super::text::{draw_title, text_size};
use super::{series_color, DrawResult, FAMILY, TITLE_SIZE};

/// Height in pixels of the row above the bars that holds the no-capture
/// limit's label.
const LABEL_ROW: u32 = 24;

/// The chart's title for a variant.
pub(crate) fn title(variant: Variant) -> String {
    format!("Game length, Hoyito {variant}, by board")
}

/// Bins wanted across the longest game.
const BINS: u32 = 40;

/// The smallest of 1, 2, 5, 10, 20, 50, ... plies that gives at most `BINS`
/// bins up to `max`.
fn bin_width(max: u32) -> u32 {
    let mut magnitude = 1u32;
    loop {
        for m in [1, 2, 5] {
            let width = m * magnitude;
            if u64::from(width) * u64::from(BINS) > u64::from(max) {
                return width;
            }
        }
        magnitude *= 10;
    }
}

/// The label of the no-capture limit's line.
pub(crate) fn limit_label(limit: u32) -> String {
    format!("no-capture limit ({limit} plies without a capture)")
}

/// Draws the histogram of one variant's game lengths, one series per board,
/// with a vertical line at the rules' no-capture limit when it is known and
/// falls inside the axis: games stopped by the limit pile up at or just past
/// it (lengths count the plies before the last capture too), and the line
/// keeps that pile from being read as a natural length.
pub fn draw_lengths<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    variant: Variant,
    tally: &Tally,
    no_capture_limit: Option<u32>,
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let groups: Vec<SettingTally> = tally
        .settings()
        .filter(|g| g.setting().variant == variant)
        .collect();
    let max = groups
        .iter()
        .filter_map(|g| g.plies().last().map(|(p, _)| p))
        .max()
        .unwrap_or(0);
    let width = bin_width(max);
    let bins = max / width + 1;
    let shares: Vec<Vec<f64>> = groups
        .iter()
        .map(|games| {
            let mut counts = vec![0u64; bins as usize];
            for (plies, count) in games.plies() {
                counts[(plies / width) as usize] += count;
            }
            let n = games.games().max(1) as f64;
            counts.into_iter().map(|c| c as f64 / n).collect()
        })
        .collect();
    let top = shares
        .iter()
        .flatten()
        .fold(0.0_f64, |a, &b| a.max(b))
        .max(0.01);
    let limit = no_capture_limit.filter(|&l| l > 0 && l < bins * width);
    let mut entries: Vec<(String, Marker)> = groups
        .iter()
        .enumerate()
        .map(|(k, games)| {
            let setting = games.setting();
            let label = format!(
                "2x{} s{} ({} games)",
                setting.holes,
                setting.seeds,
                games.games()
            );
            (label, Marker::Swatch(series_color(k)))
        })
        .collect();
    if let Some(limit) = limit {
        entries.push((limit_label(limit), Marker::Line));
    }
    let legend = Legend::new(entries);
    // Below the legend, a row for the limit's label above the bars.
    let label_row = if limit.is_some() { LABEL_ROW } else { 0 };
    let area = draw_title(root, &title(variant), TITLE_SIZE)?;
    let mut builder = ChartBuilder::on(&area);
    builder
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70);
    // Built once on a dummy range only to learn the plotting area's height.
    let height = builder
        .build_cartesian_2d(0u32..1, 0.0..1.0)?
        .plotting_area()
        .dim_in_pixel()
        .1;
    let y_top = headroom(0.0, top, legend.band() + label_row, height);
    let x_axis = Axis::integers(0.0..f64::from(bins * width), Labels::Plain);
    let y_axis = Axis::new(0.0..y_top, Labels::Percent);
    let mut chart = builder.build_cartesian_2d(x_axis.clone(), y_axis.clone())?;
    chart
        .configure_mesh()
        .x_desc(format!("game length in plies (bins of {width})"))
        .y_desc("share of the board's games")
        .label_style((FAMILY, 14).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .x_label_formatter(&|v| x_axis.label(*v))
        .y_label_formatter(&|v| y_axis.label(*v))
        .draw()?;
    for (k, share) in shares.iter().enumerate() {
        let color = series_color(k);
        let bars = share
            .iter()
            .enumerate()
            .filter(|(_, &s)| s > 0.0)
            .map(|(b, &s)| {
                let x = f64::from(b as u32 * width);
                let right = x + f64::from(width);
                Rectangle::new([(x, 0.0), (right, s)], color.mix(0.35).filled())
            });
        chart.draw_series(bars)?;
        let outlines = share
            .iter()
            .enumerate()
            .filter(|(_, &s)| s > 0.0)
            .map(|(b, &s)| {
                let x = f64::from(b as u32 * width);
                let right = x + f64::from(width);
                Rectangle::new([(x, 0.0), (right, s)], color.stroke_width(1))
            });
        chart.draw_series(outlines)?;
    }
    let plot = chart.plotting_area().strip_coord_spec();
    if let Some(limit) = limit {
        // The line runs from the axis up to the label's row, under the
        // legend, with the label beside its top end.
        let (x, bottom) = chart.backend_coord(&(f64::from(limit), 0.0));
        let (left, top) = plot.get_base_pixel();
        let (x, bottom) = (x - left, bottom - top);
        let line_top = legend.band() as i32 + LABEL_ROW as i32 / 2;
        plot.draw(&PathElement::new(
            vec![(x, bottom), (x, line_top)],
            BLACK.stroke_width(2),
        ))?;
        let label = format!("limit {limit}");
        let room = plot.dim_in_pixel().0 as i32 - x;
        let (hpos, dx) = if (text_size(&label, 14.0).0 as i32 + 8) < room {
            (HPos::Left, 5)
        } else {
            (HPos::Right, -5)
        };
        let style = TextStyle::from((FAMILY, 14).into_font())
            .pos(Pos::new(hpos, VPos::Center))
            .color(&BLACK);
        plot.draw_text(&label, &style, (x + dx, line_top))?;
    }
    legend.draw(&plot)
}

#[cfg(test)]
mod tests {
    use super::bin_width;

    #[test]
    fn bin_widths_step_one_two_five() {
        assert_eq!(bin_width(0), 1);
        assert_eq!(bin_width(39), 1);
        assert_eq!(bin_width(40), 2);
        assert_eq!(bin_width(100), 5);
        assert_eq!(bin_width(350), 10);
        assert_eq!(bin_width(799), 20);
        assert_eq!(bin_width(1500), 50);
    }
}

//! Game-length histograms: one chart per variant, one series per board, each
//! bar the share of that board's games whose length falls in the bin, so that
//! boards with different game counts compare directly, and the no-capture
//! limit marked when the rules are known.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, DrawingArea, DrawingBackend, IntoFont, PathElement, Rectangle, Text, BLACK, WHITE,
};
use plotters::style::Color;

use crate::rules::Variant;
use crate::stats::{SettingTally, Tally};

use super::{draw_legend, series_color, DrawResult, FAMILY};

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
    let mut chart = ChartBuilder::on(root)
        .caption(title(variant), (FAMILY, 22).into_font())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(0u32..bins * width, 0.0..top * 1.1)?;
    chart
        .configure_mesh()
        .x_desc(format!("game length in plies (bins of {width})"))
        .y_desc("share of the board's games")
        .label_style((FAMILY, 14).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .draw()?;
    for (k, (games, share)) in groups.iter().zip(&shares).enumerate() {
        let setting = games.setting();
        let color = series_color(k);
        let bars = share
            .iter()
            .enumerate()
            .filter(|(_, &s)| s > 0.0)
            .map(|(b, &s)| {
                let x = b as u32 * width;
                Rectangle::new([(x, 0.0), (x + width, s)], color.mix(0.35).filled())
            });
        chart
            .draw_series(bars)?
            .label(format!(
                "2x{} s{} ({} games)",
                setting.holes,
                setting.seeds,
                games.games()
            ))
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], color.filled()));
        let outlines = share
            .iter()
            .enumerate()
            .filter(|(_, &s)| s > 0.0)
            .map(|(b, &s)| {
                let x = b as u32 * width;
                Rectangle::new([(x, 0.0), (x + width, s)], color.stroke_width(1))
            });
        chart.draw_series(outlines)?;
    }
    if let Some(limit) = no_capture_limit.filter(|&l| l > 0 && l < bins * width) {
        let line = [(limit, 0.0), (limit, top * 1.1)];
        let style = BLACK.stroke_width(2);
        chart
            .draw_series(std::iter::once(PathElement::new(line, style)))?
            .label(limit_label(limit))
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 14, y)], style));
        chart.draw_series(std::iter::once(Text::new(
            format!("limit {limit}"),
            (limit, top * 1.05),
            (FAMILY, 14).into_font(),
        )))?;
    }
    draw_legend(&mut chart)
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

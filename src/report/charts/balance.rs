//! The Balance section's charts: one figure per family of design metrics
//! (outcome, length, tension, sowing and captures), one panel per metric,
//! each metric against board size with one series per variant and its 95%
//! pair-clustered interval as an error bar.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, WHITE};

use crate::metrics::{Family, Metric};
use crate::report::balance::BalanceSummary;
use crate::rules::Variant;

use super::error_bars::{draw_error_bars, Frame, Interval, Series};
use super::DrawResult;

/// The chart's file stem for a family.
pub(crate) fn stem(family: Family) -> String {
    match family {
        Family::Outcome => "balance_outcome",
        Family::Length => "balance_length",
        Family::Tension => "balance_tension",
        Family::Hoyito => "balance_sowing",
    }
    .to_string()
}

/// The chart's title for a family.
pub(crate) fn title(family: Family) -> String {
    format!(
        "Balance: {} metrics against board size, per variant (95% intervals)",
        family.name()
    )
}

/// The metrics drawn for a family, one panel each.
fn panels(family: Family) -> Vec<Metric> {
    Metric::ALL
        .into_iter()
        .filter(|m| m.family() == family && m.charted())
        .collect()
}

/// Pixel size: two panels a row, 520 pixels a row.
pub(crate) fn size(family: Family) -> (u32, u32) {
    let rows = panels(family).len().div_ceil(2) as u32;
    (1400, 520 * rows)
}

/// The boards measured, in order, and each variant's series for `metric`.
fn data(balance: &BalanceSummary, metric: Metric) -> (Vec<u8>, Vec<Series>) {
    let settings = balance.groups.iter().filter(|g| g.key.pairing.is_empty());
    let mut boards: Vec<u8> = settings.clone().map(|g| g.key.holes).collect();
    boards.sort_unstable();
    boards.dedup();
    let mut series = Vec::new();
    for variant in Variant::ALL {
        if !settings.clone().any(|g| g.key.variant == variant) {
            continue;
        }
        let values = boards
            .iter()
            .map(|&holes| {
                settings
                    .clone()
                    .find(|g| g.key.variant == variant && g.key.holes == holes)
                    .and_then(|g| g.get(metric))
                    .map(|e| Interval {
                        low: e.low,
                        value: e.value,
                        high: e.high,
                    })
            })
            .collect();
        series.push((format!("Hoyito {}", variant.name().to_uppercase()), values));
    }
    (boards, series)
}

/// Draws a family's figure.
pub(crate) fn draw_balance<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    balance: &BalanceSummary,
    family: Family,
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let metrics = panels(family);
    let rows = metrics.len().div_ceil(2);
    let areas = root.split_evenly((rows, 2));
    for (area, metric) in areas.iter().zip(&metrics) {
        let (boards, series) = data(balance, *metric);
        let categories: Vec<String> = boards.iter().map(|h| format!("2x{h}")).collect();
        let frame = Frame {
            title: metric.label(),
            x_desc: "board",
            y_desc: metric.label(),
            categories: &categories,
            min_range: (0.0, 0.0),
            y_format: |v| format!("{v:.2}"),
        };
        draw_error_bars(area, &frame, &series)?;
    }
    Ok(())
}

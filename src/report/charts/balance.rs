//! The Balance section's charts: one figure per family of design metrics
//! (outcome, length, tension, sowing and captures), one panel per metric,
//! each metric against board size with one series per variant and its 95%
//! pair-clustered interval as an error bar. A metric that cannot leave
//! [0, 1] (a share, or a count per ply of at most one) keeps its axis inside
//! [0, 1], fitted to its values rather than spanning the whole of it.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, WHITE};

use crate::engine::rules::Variant;
use crate::metrics::aggregate::{Family, Metric};
use crate::report::balance::BalanceSummary;

use super::axis::Labels;
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

/// The values `metric` can take, which its axis never leaves: [0, 1] for
/// the shares, for balance (`1 - |P(South wins) - P(North wins)|`) and for
/// the per-ply counts of moves that a ply makes at most once (captures,
/// extra moves); [-0.5, 0.5] for the advantage; none for the other counts.
fn bounds(metric: Metric) -> Option<(f64, f64)> {
    match metric {
        Metric::Advantage => Some((-0.5, 0.5)),
        Metric::Balance | Metric::CaptureRate | Metric::ExtraMoves | Metric::LeadChange => {
            Some((0.0, 1.0))
        }
        m if m.is_share() => Some((0.0, 1.0)),
        _ => None,
    }
}

/// What a panel's axis must show whatever the data: 0 for the advantage
/// (the even game it is measured from); nothing for the others, whose axis
/// fits their values, so that a share that moves from 0.88 to 0.98 across
/// the boards is not flattened against an axis from 0 to 1.
fn min_range(metric: Metric) -> (f64, f64) {
    match metric {
        Metric::Advantage => (0.0, 0.0),
        _ => (f64::INFINITY, f64::NEG_INFINITY),
    }
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
        let (floor, ceiling) = bounds(metric).unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        let clamp = |x: f64| x.clamp(floor, ceiling);
        let values = boards
            .iter()
            .map(|&holes| {
                settings
                    .clone()
                    .find(|g| g.key.variant == variant && g.key.holes == holes)
                    .and_then(|g| g.get(metric))
                    .map(|e| Interval {
                        low: clamp(e.low),
                        value: clamp(e.value),
                        high: clamp(e.high),
                        hollow: false,
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
            min_range: min_range(*metric),
            bounds: bounds(*metric),
            y_labels: if *metric == Metric::Advantage {
                Labels::Signed
            } else {
                Labels::Plain
            },
            hollow_note: None,
        };
        draw_error_bars(area, &frame, &series)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{bounds, data};
    use crate::engine::rules::Variant;
    use crate::metrics::aggregate::{GroupKey, GroupMetrics, Metric};
    use crate::metrics::interval::Estimate;
    use crate::report::balance::BalanceSummary;

    /// Every metric that cannot leave [0, 1] (balance, draws, stalls,
    /// completion, ...) keeps its axis there; counts are unbounded.
    #[test]
    fn shares_and_rates_are_bounded_by_one() {
        for metric in [
            Metric::Balance,
            Metric::Completion,
            Metric::Draws,
            Metric::Stalls,
            Metric::Decisions,
            Metric::Drama,
            Metric::DecidedAt,
            Metric::CaptureRate,
            Metric::ExtraMoves,
        ] {
            assert_eq!(bounds(metric), Some((0.0, 1.0)), "{metric:?}");
        }
        assert_eq!(bounds(Metric::Advantage), Some((-0.5, 0.5)));
        for metric in [
            Metric::Duration,
            Metric::Branching,
            Metric::LeadChanges,
            Metric::Laps,
            Metric::QuietEnd,
        ] {
            assert_eq!(bounds(metric), None, "{metric:?}");
        }
    }

    /// The decision share moves from 0.88 to 0.98 across the boards: its
    /// axis fits those values instead of running from 0 to 1 and
    /// flattening them; the advantage's axis keeps 0 in view.
    #[test]
    fn a_share_axis_fits_its_values_and_the_advantage_keeps_zero() {
        use super::super::axis::Labels;
        use super::super::error_bars::{y_range, Frame, Interval};
        use super::min_range;
        let point = |v: f64| {
            Some(Interval {
                low: v - 0.01,
                value: v,
                high: v + 0.01,
                hollow: false,
            })
        };
        let series = vec![(
            "II".to_string(),
            vec![point(0.88), point(0.93), point(0.98)],
        )];
        let categories: Vec<String> = ["2x4", "2x6", "2x12"].map(String::from).to_vec();
        for (metric, zero_shown) in [(Metric::Decisions, false), (Metric::Advantage, true)] {
            let frame = Frame {
                title: "t",
                x_desc: "board",
                y_desc: "y",
                categories: &categories,
                min_range: min_range(metric),
                bounds: bounds(metric),
                y_labels: Labels::Plain,
                hollow_note: None,
            };
            let (range, _) = y_range(&frame, &series, 40, 480);
            assert_eq!(range.start <= 0.0, zero_shown, "{metric:?}: {range:?}");
            let ceiling = bounds(metric).map_or(f64::INFINITY, |b| b.1);
            assert!(range.end <= ceiling, "{metric:?}: {range:?}");
            if !zero_shown {
                assert!(range.start > 0.8, "{metric:?}: {range:?}");
            }
        }
    }

    /// An interval that the estimate left unclamped past 1 is drawn to 1.
    #[test]
    fn intervals_are_drawn_inside_the_bounds() {
        let estimate = Estimate {
            value: 0.97,
            low: 0.9,
            high: 1.04,
            se: 0.035,
        };
        let summary = BalanceSummary {
            games: 100,
            groups: vec![GroupMetrics {
                key: GroupKey {
                    variant: Variant::Ii,
                    holes: 6,
                    pairing: String::new(),
                },
                games: 100,
                pairs: 50,
                metrics: BTreeMap::from([
                    (Metric::CaptureRate, estimate),
                    (Metric::Duration, estimate),
                ]),
            }],
            boards: Vec::new(),
        };
        let (boards, series) = data(&summary, Metric::CaptureRate);
        assert_eq!(boards, [6]);
        let p = series[0].1[0].expect("measured");
        assert_eq!((p.low, p.value, p.high), (0.9, 0.97, 1.0));
        let (_, series) = data(&summary, Metric::Duration);
        assert_eq!(series[0].1[0].expect("measured").high, 1.04);
    }
}

//! Two boards side by side: every metric of a variant on 2xA and 2xB (the
//! standard 2x6 against the extended 2x12 by default), with the difference
//! and its interval. The two settings are played on separate games, so
//! their estimates are independent and the standard errors of the
//! difference add in quadrature (for Balance this is the delta method on
//! `1 - |d|`, slightly wide where `d` is near 0). For shares the difference
//! is Newcombe's, from the two intervals, so that two shares of none still
//! differ by a real interval.

use serde::Serialize;

use crate::engine::rules::Variant;

use super::aggregate::{GroupMetrics, Metric};
use super::interval::Estimate;

/// One metric of one variant on two boards.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoardComparison {
    /// Which Hoyito.
    pub variant: Variant,
    /// The metric.
    pub metric: Metric,
    /// Holes per row of the first board.
    pub holes_a: u8,
    /// Holes per row of the second board.
    pub holes_b: u8,
    /// On the first board.
    pub a: Estimate,
    /// On the second.
    pub b: Estimate,
    /// `b - a`.
    pub difference: Estimate,
}

/// Compares every variant's whole-setting metrics on boards of `holes_a`
/// and `holes_b` holes per row, for the variants played on both.
pub fn compare_boards(groups: &[GroupMetrics], holes_a: u8, holes_b: u8) -> Vec<BoardComparison> {
    let setting = |variant: Variant, holes: u8| {
        groups
            .iter()
            .find(|g| g.key.pairing.is_empty() && g.key.variant == variant && g.key.holes == holes)
    };
    let mut out = Vec::new();
    for variant in Variant::ALL {
        let (Some(ga), Some(gb)) = (setting(variant, holes_a), setting(variant, holes_b)) else {
            continue;
        };
        for metric in Metric::ALL {
            if let (Some(a), Some(b)) = (ga.get(metric), gb.get(metric)) {
                out.push(BoardComparison {
                    variant,
                    metric,
                    holes_a,
                    holes_b,
                    a: *a,
                    b: *b,
                    difference: if metric.is_share() || metric.per_ply_at_most_one() {
                        Estimate::share_difference(a, b)
                    } else {
                        Estimate::difference(a, b)
                    },
                });
            }
        }
    }
    out
}

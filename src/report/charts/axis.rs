//! Numeric axes whose tick labels read exactly: every chart's value axis is
//! an [`Axis`], which picks its own tick step and formats its own labels, so
//! that the decimals always follow from the step.
//!
//! Why not plotters' own `f64` axis: it chooses steps of 1, 2 or 5 times a
//! power of ten without telling the label formatter, and a formatter with a
//! fixed number of decimals then prints a step of 0.005 as
//! "0.00 0.01 0.01 0.01 0.02" and a tick just below zero as "-0.00". Here the
//! step is chosen first (1, 2, 2.5 or 5 times a power of ten, as few ticks
//! as that allows up to [`MAX_TICKS`]), each tick is a whole multiple of it,
//! and each label has exactly the decimals the step needs: distinct, exact,
//! and zero without a sign.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, KeyPointWeight, Ranged};

use super::text::{signed, unsigned};

/// The most labelled ticks on an axis: plotters' default label count.
pub(crate) const MAX_TICKS: usize = 11;

/// How an axis' labels read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Labels {
    /// The number, "-" before a negative one.
    Plain,
    /// The number with its sign, "+" before a positive one.
    Signed,
    /// A share printed as a percentage ("12.5%").
    Percent,
}

impl Labels {
    /// Displayed units per axis unit.
    fn scale(self) -> f64 {
        match self {
            Labels::Percent => 100.0,
            Labels::Plain | Labels::Signed => 1.0,
        }
    }
}

/// A tick step of `mantissa` (1, 2, 2.5 or 5) times ten to `exponent`, in
/// displayed units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Step {
    mantissa: f64,
    exponent: i32,
}

impl Step {
    /// The step's size.
    pub(crate) fn size(self) -> f64 {
        // Dividing by an exact power of ten keeps 0.005 from reading
        // 0.005000000000000001.
        if self.exponent >= 0 {
            self.mantissa * 10f64.powi(self.exponent)
        } else {
            self.mantissa / 10f64.powi(-self.exponent)
        }
    }

    /// Decimals that print every multiple of the step exactly and tell any
    /// two of them apart: those of the step itself (0.25 has two, 25 none).
    pub(crate) fn decimals(self) -> usize {
        let extra = i32::from(self.mantissa.fract() != 0.0);
        usize::try_from(extra - self.exponent).unwrap_or(0)
    }

    /// The light grid's step within this one: fifths of 1, 2.5 and 5, and
    /// quarters of 2, so that light lines fall on round values too.
    fn light(self) -> f64 {
        let parts = if self.mantissa == 2.0 { 4.0 } else { 5.0 };
        self.size() / parts
    }
}

/// The smallest nice step (1, 2, 2.5 or 5 times a power of ten) that puts
/// at most `max_ticks` ticks on a span of `span` displayed units; with
/// `integers`, only whole steps (no 2.5, nothing below 1).
pub(crate) fn nice_step(span: f64, max_ticks: usize, integers: bool) -> Step {
    let intervals = max_ticks.saturating_sub(1).max(1) as f64;
    let span = if span.is_finite() && span > 0.0 {
        span
    } else {
        1.0
    };
    let mut exponent = (span / intervals).log10().floor() as i32 - 1;
    loop {
        for mantissa in [1.0, 2.0, 2.5, 5.0] {
            let step = Step { mantissa, exponent };
            let whole = exponent >= 0 && (mantissa != 2.5 || exponent >= 1);
            if integers && !whole {
                continue;
            }
            // The ticks that fit on a closed span: floor(span / step) + 1.
            if span / step.size() <= intervals + 1e-9 {
                return step;
            }
        }
        exponent += 1;
    }
}

/// A linear value axis from `low` to `high` with ticks at the multiples of
/// a nice step and exact labels; a category axis is [`super::Categories`].
#[derive(Debug, Clone)]
pub(crate) struct Axis {
    low: f64,
    high: f64,
    step: Step,
    labels: Labels,
}

impl Axis {
    /// An axis over `range` (widened to one unit if empty or reversed).
    pub(crate) fn new(range: Range<f64>, labels: Labels) -> Axis {
        Axis::build(range, labels, false)
    }

    /// An axis over `range` for whole numbers (seeds, depths, board sizes):
    /// ticks only at whole numbers.
    pub(crate) fn integers(range: Range<f64>, labels: Labels) -> Axis {
        Axis::build(range, labels, true)
    }

    fn build(range: Range<f64>, labels: Labels, integers: bool) -> Axis {
        let low = if range.start.is_finite() {
            range.start
        } else {
            0.0
        };
        let high = if range.end.is_finite() && range.end > low {
            range.end
        } else {
            low + 1.0
        };
        let step = nice_step((high - low) * labels.scale(), MAX_TICKS, integers);
        Axis {
            low,
            high,
            step,
            labels,
        }
    }

    /// The multiples of `size` (displayed units) inside the axis, in axis
    /// units.
    fn multiples(&self, size: f64) -> Vec<f64> {
        let scale = self.labels.scale();
        let first = (self.low * scale / size - 1e-9).ceil() as i64;
        let last = (self.high * scale / size + 1e-9).floor() as i64;
        (first..=last).map(|k| k as f64 * size / scale).collect()
    }

    /// The labelled ticks, lowest first.
    pub(crate) fn ticks(&self) -> Vec<f64> {
        self.multiples(self.step.size())
    }

    /// The label of the value `v` (a tick).
    pub(crate) fn label(&self, v: f64) -> String {
        let decimals = self.step.decimals();
        let shown = v * self.labels.scale();
        match self.labels {
            Labels::Plain => unsigned(shown, decimals),
            Labels::Signed => signed(shown, decimals),
            Labels::Percent => format!("{}%", unsigned(shown, decimals)),
        }
    }
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, (start, end): (i32, i32)) -> i32 {
        let t = (value - self.low) / (self.high - self.low);
        start + (f64::from(end - start) * t).round() as i32
    }

    /// The labelled ticks for the bold grid, and the light grid's finer
    /// steps for the light one; the label formatter only sees bold ones.
    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match hint.weight() {
            KeyPointWeight::Bold => self.ticks(),
            KeyPointWeight::Any => self.multiples(self.step.light()),
        }
    }

    fn range(&self) -> Range<f64> {
        self.low..self.high
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use plotters::coord::ranged1d::{BoldPoints, LightPoints, Ranged};

    use super::{nice_step, Axis, Labels, MAX_TICKS};

    impl Axis {
        /// The labels of every tick, lowest first.
        fn tick_labels(&self) -> Vec<String> {
            self.ticks().into_iter().map(|v| self.label(v)).collect()
        }
    }

    /// Labels are distinct, at most `MAX_TICKS`, at least `fewest`, and each
    /// reads back as its tick exactly.
    fn assert_exact(axis: &Axis, fewest: usize) {
        let ticks = axis.ticks();
        let labels = axis.tick_labels();
        assert!(
            (fewest..=MAX_TICKS).contains(&labels.len()),
            "{axis:?}: {labels:?}"
        );
        let distinct: HashSet<&String> = labels.iter().collect();
        assert_eq!(distinct.len(), labels.len(), "{axis:?}: {labels:?}");
        let scale = if axis.labels == Labels::Percent {
            100.0
        } else {
            1.0
        };
        for (tick, label) in ticks.iter().zip(&labels) {
            let read: f64 = label
                .trim_start_matches('+')
                .trim_end_matches('%')
                .parse()
                .expect("a number");
            let tolerance = 1e-9 * axis.step.size().max(1.0);
            assert!(
                (read - tick * scale).abs() < tolerance,
                "{label} for {tick}"
            );
            assert!(
                !matches!(label.strip_prefix(['-', '+']), Some(rest) if rest.trim_end_matches('%').chars().all(|c| c == '0' || c == '.')),
                "signed zero {label:?} in {labels:?}"
            );
        }
    }

    /// The stalls panel of reports/board-size/charts/balance_outcome.svg
    /// reads "0.000 0.005 ...", not "0.00 0.01 0.01 0.01 0.02 0.03 0.03
    /// 0.04": plotters' step of 0.005 is printed with three decimals, not
    /// two.
    #[test]
    fn stalls_axis_labels_are_distinct() {
        let axis = Axis::new(-0.0018..0.041, Labels::Plain);
        assert_exact(&axis, 2);
        assert_eq!(
            axis.tick_labels(),
            ["0.000", "0.005", "0.010", "0.015", "0.020", "0.025", "0.030", "0.035", "0.040"]
        );
    }

    /// The advantage panel of the same chart reads "0.00" at zero, never
    /// "-0.00".
    #[test]
    fn zero_never_reads_minus_zero() {
        let axis = Axis::new(-0.115..0.23, Labels::Plain);
        assert_exact(&axis, 2);
        let labels = axis.tick_labels();
        assert!(labels.contains(&"0.00".to_string()), "{labels:?}");
        for labels in [Labels::Plain, Labels::Signed, Labels::Percent] {
            let axis = Axis::new(-0.1..0.1, labels);
            for v in [-1e-12, -0.0, 0.0, -0.0001] {
                let text = axis.label(v);
                assert!(!text.starts_with(['-', '+', '\u{2212}']), "{text}");
            }
        }
        assert_eq!(Axis::new(-150.0..900.0, Labels::Signed).label(-0.3), "0");
    }

    #[test]
    fn steps_are_one_two_two_and_a_half_or_five() {
        let step = |span: f64| {
            let s = nice_step(span, MAX_TICKS, false);
            (s.size(), s.decimals())
        };
        assert_eq!(step(1.0), (0.1, 1));
        assert_eq!(step(1.2), (0.2, 1));
        assert_eq!(step(0.04), (0.005, 3));
        assert_eq!(step(0.2), (0.02, 2));
        let (size, decimals) = step(2.4);
        assert!((size - 0.25).abs() < 1e-12 && decimals == 2, "{size}");
        assert_eq!(step(24.0), (2.5, 1));
        assert_eq!(step(240.0), (25.0, 0));
        assert_eq!(step(900.0), (100.0, 0));
        // Whole-number axes skip 2.5 and fractions.
        let whole = |span: f64| nice_step(span, MAX_TICKS, true).size();
        assert_eq!(whole(2.0), 1.0);
        assert_eq!(whole(24.0), 5.0);
        assert_eq!(whole(240.0), 25.0);
    }

    #[test]
    fn every_axis_reads_exactly() {
        for labels in [Labels::Plain, Labels::Signed, Labels::Percent] {
            let mut span = 1e-4;
            while span < 1e5 {
                for offset in [-1.0, -0.5, -0.05, 0.0, 0.03, 0.5, 0.97] {
                    let low = offset * span;
                    assert_exact(&Axis::new(low..low + span, labels), 4);
                    let axis = Axis::integers(low..low + span, labels);
                    if span >= 1.0 {
                        assert_exact(&axis, 1);
                    }
                    if labels != Labels::Percent {
                        assert!(axis.ticks().iter().all(|t| t.fract() == 0.0));
                    }
                }
                span *= 1.37;
            }
        }
    }

    #[test]
    fn percent_axis_steps_in_percent() {
        // Shares up to 1.3%: plotters' step of 0.005% printed "0% 0% 1% 1%".
        let axis = Axis::new(0.0..0.013, Labels::Percent);
        assert_eq!(
            axis.tick_labels(),
            ["0.0%", "0.2%", "0.4%", "0.6%", "0.8%", "1.0%", "1.2%"]
        );
    }

    #[test]
    fn bold_points_are_the_ticks_and_light_ones_divide_them() {
        let axis = Axis::new(0.0..1.0, Labels::Plain);
        assert_eq!(axis.key_points(BoldPoints(11)), axis.ticks());
        let light = axis.key_points(LightPoints::new(11, 110));
        assert_eq!(light.len(), 51);
        assert_eq!(axis.map(&0.5, (400, 0)), 200);
        // An empty range is widened rather than divided by.
        assert_eq!(Axis::new(0.0..0.0, Labels::Plain).range(), 0.0..1.0);
    }
}

//! How numbers are written for people: ratios of counts exactly, so that a
//! figure such as Balance 0.9025 is not rounded to 0.903 and then read as a
//! different value, and rates to a fixed number of significant figures, so that
//! a slow run does not print "0 games/s".

/// Digits after the point beyond which a ratio is rounded instead of written
/// out exactly.
const EXACT_DIGITS: usize = 6;

/// `num / den` in decimal: exactly when its expansion ends within six
/// digits (at least three are written: `0.500`, `0.9025`, `0.972656`),
/// otherwise rounded to four (`1/3` is `0.3333`). A zero denominator writes
/// `-`.
pub fn ratio(num: u64, den: u64) -> String {
    if den == 0 {
        return "-".to_string();
    }
    let (whole, mut rest) = (num / den, u128::from(num % den));
    let den = u128::from(den);
    let mut digits = String::new();
    while rest != 0 && digits.len() < EXACT_DIGITS {
        rest *= 10;
        digits.push(char::from(b'0' + (rest / den) as u8));
        rest %= den;
    }
    if rest != 0 {
        return format!("{:.4}", num as f64 / den as f64);
    }
    while digits.len() < 3 {
        digits.push('0');
    }
    format!("{whole}.{digits}")
}

/// `value` to `figures` significant figures, with no exponent and no
/// decimals beyond the last significant one: `1234`, `12.3`, `0.0123` for
/// three figures. Zero is `0`; not-finite values are written as Rust does.
pub fn significant(value: f64, figures: u32) -> String {
    if !value.is_finite() || value == 0.0 {
        return format!("{value}");
    }
    let figures = figures.max(1) as i32;
    let magnitude = value.abs().log10().floor() as i32;
    let decimals = (figures - 1 - magnitude).max(0) as usize;
    // Rounding may carry into a new digit (9.996 -> 10.00): drop one decimal.
    let text = format!("{value:.decimals$}");
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let significant_digits = digits.trim_start_matches('0').len();
    if decimals > 0 && significant_digits > figures as usize {
        let decimals = decimals - 1;
        return format!("{value:.decimals$}");
    }
    text
}

/// An interval narrower than this share of its size (or of 1) has no
/// width: what is left is floating-point residue, not spread.
const NO_WIDTH: f64 = 1e-7;

/// The most decimals added to show an interval's width.
const MORE_DECIMALS: usize = 6;

/// Whether the interval `[low, high]` has a width at all.
pub fn has_width(low: f64, high: f64) -> bool {
    high - low > NO_WIDTH * low.abs().max(high.abs()).max(1.0)
}

/// The decimals, `decimals` or more, at which `write` tells `low` from
/// `high`: where rounding would hide an interval's width (`0.8 [0.8, 0.8]`
/// for an interval from 0.79 to 0.81), more digits show it. `None` when the
/// interval has no width (see [`has_width`]).
pub fn decimals_showing(
    low: f64,
    high: f64,
    decimals: usize,
    write: impl Fn(f64, usize) -> String,
) -> Option<usize> {
    if !has_width(low, high) {
        return None;
    }
    let most = decimals + MORE_DECIMALS;
    Some(
        (decimals..most)
            .find(|&d| write(low, d) != write(high, d))
            .unwrap_or(most),
    )
}

/// `value [low, high]`, each written by `write` to `decimals` decimals or
/// as many more as the interval's width needs ([`decimals_showing`]); an
/// interval with no width is not written, and `why` says why there is none:
/// `27.0 (no interval: one pair)`.
pub fn estimate_text(
    value: f64,
    low: f64,
    high: f64,
    decimals: usize,
    write: impl Fn(f64, usize) -> String,
    why: impl FnOnce() -> String,
) -> String {
    match decimals_showing(low, high, decimals, &write) {
        Some(d) => format!(
            "{} [{}, {}]",
            write(value, d),
            write(low, d),
            write(high, d)
        ),
        None => format!("{} (no interval: {})", write(value, decimals), why()),
    }
}

/// Why a figure of pair-clustered units has no interval, where the count of
/// units is not at hand: every unit measured the same.
pub const UNITS_ALIKE: &str = "every unit alike";

/// `x` to `decimals` decimals as Rust writes it (`-0.000` kept): the plain
/// writer of shares and scores.
pub fn decimal(x: f64, decimals: usize) -> String {
    format!("{x:.decimals$}")
}

/// Why a figure over `units` independent units (pairs, or games without a
/// partner) has no interval: one unit cannot give one, and many that all
/// measured the same give no spread to estimate it from.
pub fn no_interval_reason(units: u64, unit: &str) -> String {
    match units {
        0 => format!("no {unit}"),
        1 => format!("one {unit}"),
        n => format!("all {n} {unit}s alike"),
    }
}

/// `+0.123 [-0.010, +0.250]`: a signed figure and its interval to three
/// decimals (more where rounding would hide the width), anything that rounds
/// to zero written `0.000` (never `-0.000`); a figure whose units all
/// measured the same is written without an interval, saying so.
pub fn signed_interval(p: &crate::stats::wilson::Proportion) -> String {
    estimate_text(p.value, p.low, p.high, 3, signed, || {
        UNITS_ALIKE.to_string()
    })
}

/// `x` to `decimals` decimals with its sign (`+12`, `-0.010`), and no sign
/// at all when it rounds to zero (`0`, never `-0` or `+0`).
pub fn signed(x: f64, decimals: usize) -> String {
    let text = fixed(x, decimals);
    if x > 0.0 && text.chars().any(|c| ('1'..='9').contains(&c)) {
        format!("+{text}")
    } else {
        text
    }
}

/// `x` to `decimals` decimals, `0.000` rather than `-0.000` when it
/// rounds to zero.
pub fn fixed(x: f64, decimals: usize) -> String {
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_never_hides_an_intervals_width() {
        // Lead changes per game 0.79 to 0.81 read `0.8 [0.8, 0.8]`.
        let text = estimate_text(0.8004, 0.7912, 0.8096, 1, fixed, String::new);
        assert_eq!(text, "0.80 [0.79, 0.81]");
        // A share of 0.0021 to 0.0024 read `0.002 [0.002, 0.002]`.
        let text = estimate_text(0.00226, 0.0021, 0.0024, 3, fixed, String::new);
        assert_eq!(text, "0.0023 [0.0021, 0.0024]");
        // A width the decimals already show keeps them.
        let text = estimate_text(0.0056, 0.0051, 0.0062, 3, fixed, String::new);
        assert_eq!(text, "0.006 [0.005, 0.006]");
    }

    #[test]
    fn an_interval_without_width_is_not_printed_and_says_why() {
        // One distinct pair: `27.0 [27.0, 27.0]` before.
        let text = estimate_text(27.0, 27.0, 27.0, 1, fixed, || no_interval_reason(1, "pair"));
        assert_eq!(text, "27.0 (no interval: one pair)");
        // Four pairs with the same ratio, a residue of 3e-10 in the error:
        // `0.041 [0.041, 0.041]` before.
        let (v, se) = (0.041_234, 3e-10);
        let text = estimate_text(v, v - 1.96 * se, v + 1.96 * se, 3, fixed, || {
            no_interval_reason(4, "pair")
        });
        assert_eq!(text, "0.041 (no interval: all 4 pairs alike)");
        let p = crate::stats::wilson::Proportion {
            value: 0.5,
            low: 0.5,
            high: 0.5,
        };
        assert_eq!(
            signed_interval(&p),
            "+0.500 (no interval: every unit alike)"
        );
    }

    #[test]
    fn fixed_never_reads_minus_zero() {
        assert_eq!(fixed(-0.0001, 3), "0.000");
        assert_eq!(fixed(-0.0006, 3), "-0.001");
        assert_eq!(fixed(2.5, 1), "2.5");
    }

    #[test]
    fn a_signed_interval_never_reads_minus_zero() {
        let p = crate::stats::wilson::Proportion {
            value: -0.0004,
            low: -0.0131,
            high: 0.0123,
        };
        assert_eq!(signed_interval(&p), "0.000 [-0.013, +0.012]");
    }

    #[test]
    fn ratios_are_exact_when_they_end() {
        assert_eq!(ratio(361, 400), "0.9025");
        assert_eq!(ratio(389, 400), "0.9725");
        assert_eq!(ratio(1, 2), "0.500");
        assert_eq!(ratio(2, 2), "1.000");
        assert_eq!(ratio(0, 7), "0.000");
        assert_eq!(ratio(249, 256), "0.9727");
        assert_eq!(ratio(1, 64), "0.015625");
        assert_eq!(ratio(1, 3), "0.3333");
        assert_eq!(ratio(2, 3), "0.6667");
        assert_eq!(ratio(1, 0), "-");
    }

    #[test]
    fn significant_figures() {
        assert_eq!(significant(1234.7, 3), "1235");
        assert_eq!(significant(123.45, 3), "123");
        assert_eq!(significant(12.345, 3), "12.3");
        assert_eq!(significant(0.012345, 3), "0.0123");
        assert_eq!(significant(9.996, 3), "10.0");
        assert_eq!(significant(0.0999, 2), "0.10");
        assert_eq!(significant(0.0, 3), "0");
    }
}

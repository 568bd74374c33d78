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

/// `+0.123 [-0.010, +0.250]`: a signed figure and its interval to three
/// decimals, anything that rounds to zero written `0.000` (never `-0.000`).
pub fn signed_interval(p: &crate::stats::Proportion) -> String {
    format!(
        "{} [{}, {}]",
        signed(p.value, 3),
        signed(p.low, 3),
        signed(p.high, 3)
    )
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
    fn fixed_never_reads_minus_zero() {
        assert_eq!(fixed(-0.0001, 3), "0.000");
        assert_eq!(fixed(-0.0006, 3), "-0.001");
        assert_eq!(fixed(2.5, 1), "2.5");
    }

    #[test]
    fn a_signed_interval_never_reads_minus_zero() {
        let p = crate::stats::Proportion {
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

//! CSV text written by hand on the hot path of recording: numbers in
//! decimal and text fields quoted exactly as the `csv` crate quotes them, so
//! that the harness formats a row of `games.csv`, `moves.csv` or `metrics.csv`
//! in a few dozen instructions instead of going through serde, and the bytes
//! stay those the `csv` crate would write (tested against it).

/// Appends `n` in decimal.
#[inline]
pub(crate) fn push_decimal(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

/// Appends a text field as the `csv` crate writes it with its defaults
/// (`QuoteStyle::Necessary`, `"` doubled, `\n` terminator): in quotes when it
/// holds a comma, a quote, `\r` or `\n`, as it is otherwise.
#[inline]
pub(crate) fn push_field(out: &mut Vec<u8>, text: &[u8]) {
    if !text
        .iter()
        .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
    {
        out.extend_from_slice(text);
        return;
    }
    out.push(b'"');
    for &b in text {
        if b == b'"' {
            out.push(b'"');
        }
        out.push(b);
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the `csv` crate writes for a one-row record of `fields`.
    fn csv_crate(fields: &[&str]) -> Vec<u8> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.write_record(fields).unwrap();
        w.into_inner().unwrap()
    }

    #[test]
    fn fields_are_quoted_as_the_csv_crate_quotes_them() {
        let texts = [
            "random",
            "a,b",
            "say \"hi\"",
            "line\nbreak",
            "cr\rhere",
            "3 5 pass",
            "#x",
            " ",
            "'",
            "tab\there",
            "\"",
            ",",
            "é",
        ];
        for text in texts {
            // Two fields, so that an empty field alone on a line is not a case.
            let mut ours = Vec::new();
            push_field(&mut ours, text.as_bytes());
            ours.extend_from_slice(b",1\n");
            assert_eq!(ours, csv_crate(&[text, "1"]), "{text:?}");
        }
        let mut ours = Vec::new();
        push_field(&mut ours, b"");
        ours.extend_from_slice(b",1\n");
        assert_eq!(ours, csv_crate(&["", "1"]));
    }

    #[test]
    fn decimals_are_plain_digits() {
        for n in [0, 7, 10, 99, 12345, u64::MAX] {
            let mut out = Vec::new();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }
}

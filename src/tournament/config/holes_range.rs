//! `[rules] holes` as a list (`[6, 12]`) or an inclusive range in a string
//! (`"4..=16"`), so that a board-size sweep is one line. The range is
//! expanded as it is read: the experiment, and `experiment.toml`, hold the
//! list. Sizes are checked (2 to 16) with the rest of the config.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use std::fmt;

/// Parses `"A..=B"` into `A, A+1, ..., B`; the error says what is wrong in
/// one line.
pub fn parse_holes_range(text: &str) -> Result<Vec<u32>, String> {
    let bad = || {
        format!(
            "rules.holes: {text:?} is not a range of board sizes: write \"A..=B\" \
             (inclusive, e.g. \"4..=16\") or a list such as [6, 12]"
        )
    };
    let (a, b) = text.trim().split_once("..=").ok_or_else(bad)?;
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(format!(
            "rules.holes: the range {text:?} is empty: its start {a} is above its end {b}"
        ));
    }
    if b > 16 {
        return Err(format!(
            "rules.holes: the range {text:?} goes beyond 16: boards have 2 to 16 holes per row"
        ));
    }
    Ok((a..=b).collect())
}

/// Reads `holes` as a list of sizes or a range string.
pub fn deserialize_holes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
    struct Holes;
    impl<'de> Visitor<'de> for Holes {
        type Value = Vec<u32>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a list of board sizes such as [6, 12] or a range such as \"4..=16\"")
        }

        fn visit_str<E: de::Error>(self, text: &str) -> Result<Vec<u32>, E> {
            parse_holes_range(text).map_err(E::custom)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u32>, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = seq.next_element()? {
                out.push(v);
            }
            Ok(out)
        }
    }
    d.deserialize_any(Holes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_expand_inclusively_and_bad_ones_say_why() {
        assert_eq!(parse_holes_range("4..=7"), Ok(vec![4, 5, 6, 7]));
        assert_eq!(parse_holes_range(" 6 ..= 6 "), Ok(vec![6]));
        let e = parse_holes_range("4..16").unwrap_err();
        assert!(e.contains("\"A..=B\""), "{e}");
        let e = parse_holes_range("x..=6").unwrap_err();
        assert!(e.contains("not a range"), "{e}");
        let e = parse_holes_range("9..=4").unwrap_err();
        assert!(e.contains("is empty"), "{e}");
        let e = parse_holes_range("4..=17").unwrap_err();
        assert!(e.contains("beyond 16"), "{e}");
    }
}

//! `date = "YYYY-MM-DD"`: the day an experiment's games were played.
//!
//! PGN wants a `Date` tag, and `hoyito export --pgn` had none to give. The
//! date is recorded in the experiment (by the config, or by `hoyito run` in
//! the run's own `experiment.toml` when the config has none), so that an
//! export of the same directory is the same file on any day. It is metadata
//! only: it never reaches a seed or a row, and [`RunDate`] compares equal to
//! every other date, so that a directory started yesterday resumes today and
//! a rerun of the same config in a fresh directory is the same experiment.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Deserializer, Serialize};

/// The day an experiment's games were played, `YYYY-MM-DD`, if known.
/// Equal to every other `RunDate`: the date is not part of an experiment's
/// identity.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(transparent)]
pub struct RunDate(pub Option<String>);

impl PartialEq for RunDate {
    fn eq(&self, _: &RunDate) -> bool {
        true
    }
}

impl<'de> Deserialize<'de> for RunDate {
    /// A string, or a TOML local date (`date = 2025-05-01`, unquoted).
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RunDate, D::Error> {
        match toml::Value::deserialize(d)? {
            toml::Value::String(s) => Ok(RunDate(Some(s))),
            toml::Value::Datetime(dt) => Ok(RunDate(Some(dt.to_string()))),
            other => Err(serde::de::Error::custom(format!(
                "date: expected \"YYYY-MM-DD\", found a {}",
                other.type_str()
            ))),
        }
    }
}

impl RunDate {
    /// Whether no date is known (left out of a saved experiment).
    pub fn is_unknown(&self) -> bool {
        self.0.is_none()
    }

    /// Today's date in UTC, from the system clock: the one place the clock
    /// reaches an experiment, and only as this label.
    pub fn today() -> RunDate {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let (y, m, d) = civil_from_days((secs / 86_400) as i64);
        RunDate(Some(format!("{y:04}-{m:02}-{d:02}")))
    }

    /// What is wrong with the date, if anything: it must be a real day
    /// written `YYYY-MM-DD`.
    pub(super) fn problem(&self) -> Option<String> {
        let text = self.0.as_deref()?;
        let bad = || {
            Some(format!(
                "{text:?} is not a date: write \"YYYY-MM-DD\", e.g. \"2025-05-01\""
            ))
        };
        let b = text.as_bytes();
        let shape = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        if !shape {
            return bad();
        }
        let number = |r: std::ops::Range<usize>| text[r].parse::<u32>().expect("digits");
        let (y, m, d) = (number(0..4), number(5..7), number(8..10));
        if !(1..=12).contains(&m) || d == 0 || d > days_in_month(y, m) {
            return bad();
        }
        None
    }

    /// The date as a PGN `Date` tag value, `YYYY.MM.DD`; `????.??.??` when
    /// unknown (PGN standard 8.1.1.3).
    pub fn pgn(&self) -> String {
        match &self.0 {
            Some(d) if self.problem().is_none() => d.replace('-', "."),
            _ => "????.??.??".to_string(),
        }
    }
}

impl fmt::Display for RunDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_deref().unwrap_or("unknown"))
    }
}

fn days_in_month(y: u32, m: u32) -> u32 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The civil (proleptic Gregorian) date of a day counted from 1970-01-01.
// Source: Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms",
// `civil_from_days`.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_of_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_089), (2025, 1, 1));
        let today = RunDate::today();
        assert_eq!(today.problem(), None, "{today}");
    }

    #[test]
    fn dates_are_checked_and_written_for_pgn() {
        let date = |s: &str| RunDate(Some(s.to_string()));
        assert_eq!(date("2024-02-29").problem(), None);
        assert_eq!(date("2024-02-29").pgn(), "2024.02.29");
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "yesterday",
            "2024-04-31",
        ] {
            let message = date(bad).problem().expect(bad);
            assert!(message.contains("\"YYYY-MM-DD\""), "{message}");
        }
        assert_eq!(RunDate::default().pgn(), "????.??.??");
        assert_eq!(date("2024-01-01"), date("2025-12-31"));
    }
}

//! How long games last and how they end: mean, median, 90th percentile and
//! maximum length in plies, and counts of normal endings, repetitions and
//! no-capture-limit stops (the latter two show where play stalls).

use serde::Serialize;

use crate::game::Ending;
use crate::tournament::GameRow;

/// Games by how they ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct EndingCounts {
    /// The last seeds were taken.
    pub normal: u64,
    /// A position came back a third time.
    pub repetition: u64,
    /// Too many plies without a capture.
    pub no_capture_limit: u64,
}

/// Game length in plies (opening included) over a set of games.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LengthStats {
    /// Games counted.
    pub games: u64,
    /// Mean plies.
    pub mean: f64,
    /// Median plies (mean of the two middle games when the count is even).
    pub median: f64,
    /// 90th percentile, nearest rank: the shortest length that at least 90%
    /// of games do not exceed.
    pub p90: u32,
    /// Longest game.
    pub max: u32,
    /// How the games ended.
    pub endings: EndingCounts,
}

/// Length statistics of `rows`; all zero when there are none.
pub fn length_stats(rows: &[&GameRow]) -> LengthStats {
    let mut plies: Vec<u32> = rows.iter().map(|r| r.plies).collect();
    plies.sort_unstable();
    let mut endings = EndingCounts::default();
    for row in rows {
        match row.ending {
            Ending::Normal => endings.normal += 1,
            Ending::Repetition => endings.repetition += 1,
            Ending::NoCaptureLimit => endings.no_capture_limit += 1,
        }
    }
    let n = plies.len();
    if n == 0 {
        return LengthStats {
            games: 0,
            mean: 0.0,
            median: 0.0,
            p90: 0,
            max: 0,
            endings,
        };
    }
    let mean = plies.iter().map(|&p| f64::from(p)).sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        f64::from(plies[n / 2])
    } else {
        (f64::from(plies[n / 2 - 1]) + f64::from(plies[n / 2])) / 2.0
    };
    // Nearest rank: the ceil(0.9 n)-th smallest, counted from 1.
    let rank = (9 * n).div_ceil(10).max(1);
    LengthStats {
        games: n as u64,
        mean,
        median,
        p90: plies[rank - 1],
        max: plies[n - 1],
        endings,
    }
}

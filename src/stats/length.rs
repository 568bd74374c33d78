//! How long games last: mean, median, 90th percentile and maximum length in
//! plies, with how the games ended (the endings show where play stalls).

use serde::Serialize;

use super::endings::EndingCounts;
use super::tally::SettingTally;

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

/// Length statistics of one setting's games; all zero when there are none.
pub fn length_stats(games: &SettingTally<'_>) -> LengthStats {
    let endings = games.endings();
    let n = games.games() - games.opening_ended();
    let Some((max, _)) = games.plies().last() else {
        return LengthStats {
            games: 0,
            mean: 0.0,
            median: 0.0,
            p90: 0,
            max: 0,
            endings,
        };
    };
    let total: u128 = games
        .plies()
        .map(|(p, count)| u128::from(p) * u128::from(count))
        .sum();
    // The k-th shortest game (from 0), read off the histogram.
    let nth = |k: u64| {
        let mut seen = 0;
        games
            .plies()
            .find(|&(_, count)| {
                seen += count;
                seen > k
            })
            .map_or(max, |(p, _)| p)
    };
    let median = if n % 2 == 1 {
        f64::from(nth(n / 2))
    } else {
        (f64::from(nth(n / 2 - 1)) + f64::from(nth(n / 2))) / 2.0
    };
    // Nearest rank: the ceil(0.9 n)-th smallest, counted from 1.
    let rank = (9 * n).div_ceil(10).max(1);
    LengthStats {
        games: n,
        mean: total as f64 / n as f64,
        median,
        p90: nth(rank - 1),
        max,
        endings,
    }
}

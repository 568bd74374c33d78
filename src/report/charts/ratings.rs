//! Ratings with their 95% intervals as error bars: agents along the axis, one
//! series per variant and board, `random` (or the first agent) at 0. A rating
//! that only the virtual-draw prior holds (see `stats::ratings`) is drawn
//! hollow, with a line in the legend that says why: its number measures the
//! prior, not the agent.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingBackend, WHITE};

use crate::report::summary::Summary;

use super::axis::Labels;
use super::error_bars::{self, draw_error_bars, Frame, Interval, Series};
use super::DrawResult;

/// The chart's title.
pub(crate) const TITLE: &str = "Bradley-Terry ratings (Elo scale) with 95% intervals";

/// The legend's line for hollow dots.
pub(crate) const HELD_NOTE: &str = "hollow: held by the prior (games to the anchor all one way)";

/// One series per variant and board that has ratings, each agent's rating
/// with its interval (an infinite end drawn at the rating).
fn series(summary: &Summary) -> Vec<Series> {
    let agents = &summary.agents;
    let finite = |x: f64| x.is_finite().then_some(x);
    summary
        .settings
        .iter()
        .filter_map(|s| s.ratings.as_ref().map(|t| (s.setting, t)))
        .map(|(setting, table)| {
            let mut values = vec![None; agents.len()];
            for r in &table.ratings {
                if let Some(i) = agents.iter().position(|a| *a == r.agent) {
                    values[i] = Some(Interval {
                        low: finite(r.low).unwrap_or(r.elo),
                        value: r.elo,
                        high: finite(r.high).unwrap_or(r.elo),
                        hollow: r.held_by_prior,
                    });
                }
            }
            (format!("{setting} ({} = 0)", table.anchor), values)
        })
        .collect()
}

/// Whether the chart has anything to show: some agent other than an anchor
/// rated somewhere (not so when every game was self-play).
pub(crate) fn has_data(summary: &Summary) -> bool {
    summary
        .settings
        .iter()
        .filter_map(|s| s.ratings.as_ref())
        .any(|t| t.ratings.iter().any(|r| r.agent != t.anchor))
}

/// Pixel size of the chart for a summary, with a legend row for the
/// hollow dots' note when some rating is held by the prior.
pub(crate) fn size(summary: &Summary) -> (u32, u32) {
    let series = series(summary);
    let held = series
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .any(|p| p.hollow);
    error_bars::size(&summary.agents, series.len() + usize::from(held))
}

/// Draws the ratings chart.
pub fn draw_ratings<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    super::register_font();
    root.fill(&WHITE)?;
    let frame = Frame {
        title: TITLE,
        x_desc: "agent",
        y_desc: "rating (Elo scale)",
        categories: &summary.agents,
        min_range: (-100.0, 100.0),
        bounds: None,
        y_labels: Labels::Signed,
        hollow_note: Some(HELD_NOTE),
    };
    draw_error_bars(root, &frame, &series(summary))
}

#[cfg(test)]
mod tests {
    use super::series;
    use crate::records::game_row::{GameRow, Winner};
    use crate::report::summary::summarize;
    use crate::stats::tally::Tally;
    use crate::tournament::play_scheduled::empty_row;

    /// Ten seat-swapped pairs of `winner` against `loser`, `winner` winning
    /// all but `draws` of its games, which are drawn.
    fn games(rows: &mut Vec<GameRow>, winner: &str, loser: &str, draws: u64) {
        for k in 0..20 {
            let mut row = empty_row();
            row.game_id = rows.len() as u64;
            row.pair_id = row.game_id / 2;
            let south_wins = k % 2 == 0;
            (row.south, row.north) = if south_wins {
                (winner.to_string(), loser.to_string())
            } else {
                (loser.to_string(), winner.to_string())
            };
            row.winner = match (k < draws, south_wins) {
                (true, _) => Winner::Draw,
                (false, true) => Winner::S,
                (false, false) => Winner::N,
            };
            rows.push(row);
        }
    }

    /// As in reports/default, `random` lost every game, so the other ratings
    /// (greedy at +1260 there) are the prior's, and are drawn hollow, with
    /// the legend's note.
    #[test]
    fn ratings_held_by_the_prior_are_hollow() {
        let mut rows = Vec::new();
        games(&mut rows, "greedy", "random", 0);
        games(&mut rows, "alphabeta", "random", 0);
        games(&mut rows, "alphabeta", "greedy", 6);
        let order = ["random", "greedy", "alphabeta"].map(String::from);
        let summary = summarize(&Tally::from_rows(&rows), &order, None);
        let series = series(&summary);
        assert_eq!(series.len(), 1);
        let hollow: Vec<bool> = series[0]
            .1
            .iter()
            .map(|p| p.expect("rated").hollow)
            .collect();
        assert_eq!(hollow, [false, true, true]);
    }

    #[test]
    fn ratings_the_games_hold_are_filled() {
        let mut rows = Vec::new();
        games(&mut rows, "greedy", "random", 4);
        let order = ["random", "greedy"].map(String::from);
        let summary = summarize(&Tally::from_rows(&rows), &order, None);
        let series = series(&summary);
        assert!(series[0].1.iter().flatten().all(|p| !p.hollow));
    }
}

//! Ending a game as soon as its result is known: the `[adjudication]` of an
//! experiment, as fastchess adjudicates with Syzygy tables.
//!
//! Strong agents spend most of their time in positions whose result is
//! already settled: the champion's 2x6 self-play runs most games to the
//! 200-ply no-capture limit with 12 seeds on the board, a position the
//! tables answer exactly. Two rules end such games, both off unless an
//! experiment turns them on, both checked before every move an agent makes
//! (after the opening; games between two random seats are played out):
//!
//! - **Tablebase** (`tablebase = "DIR"`): when the board holds no more seeds
//!   than the tables in DIR cover, the game ends with the perfect-play result
//!   (ending `tablebase`): each side's captures so far, plus the rest of the
//!   board shared so that the margin is the tables' exact value for the side
//!   to move (a seed that cannot be shared evenly goes to nobody). The tables
//!   hold for the experiment's leftover rule and count endless play as worth
//!   nothing more, so the winner and the margin are what perfect play gives;
//!   the split of the remaining seeds is a convention. With
//!   `tablebase_results = "decided"` only won and lost results are
//!   adjudicated and a game that perfect play draws is played on (fastchess's
//!   win/loss-only mode).
//! - **Decided** (`decided = true`): when one side has captured more than
//!   half of all seeds the winner can no longer change, and the game ends
//!   with the captures as they stand (ending `decided`). The margin is then a
//!   lower bound on the one play would reach; reports say so.
//!
//! The tables are opened once per process ([`crate::solver::shared`]),
//! memory-mapped and shared read-only by every thread; a missing, partial or
//! mismatched table is an error before the first game.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::game::{Ending, Game};
use crate::engine::position::Position;
use crate::engine::rules::{Rules, Variant};
use crate::engine::side::{BySide, Side};
use crate::solver::shared::{open_shared, OpenTables};
use crate::solver::SolveError;

/// Which table results end a game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableResults {
    /// Every result: wins, losses and draws.
    #[default]
    All,
    /// Wins and losses only; a drawn position is played on.
    Decided,
}

/// `[adjudication]` of an experiment: both rules off by default, and left out
/// of `experiment.toml` when off, so that older run directories still match.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdjudicationConfig {
    /// The directory of the endgame tables (from `hoyito solve --max-seeds M
    /// --only-needed --tables DIR`), for every variant and board played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<PathBuf>,
    /// The largest layer used (seeds on the board); default: the largest
    /// whose tables, and those of every smaller layer it needs, are in DIR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase_seeds: Option<u32>,
    /// `all` (default) or `decided`: adjudicate only won and lost results.
    #[serde(skip_serializing_if = "is_all")]
    pub tablebase_results: TableResults,
    /// End a game once one side has captured more than half of all seeds.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub decided: bool,
}

fn is_all(results: &TableResults) -> bool {
    *results == TableResults::All
}

impl AdjudicationConfig {
    /// Whether any rule is on.
    pub fn is_on(&self) -> bool {
        self.tablebase.is_some() || self.decided
    }
}

/// Tables that cannot be opened for adjudication.
#[derive(Debug, Error)]
#[error("[adjudication] tablebase {dir}: Hoyito {variant} 2x{holes}: {cause}")]
pub struct AdjudicationError {
    /// The tables' directory.
    pub dir: String,
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Why.
    #[source]
    pub cause: Box<SolveError>,
}

/// A game's adjudicated end: how, and the final scores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// [`Ending::Tablebase`] or [`Ending::Decided`].
    pub ending: Ending,
    /// Final seeds of each side.
    pub scores: BySide<u8>,
}

/// The adjudication rules of one experiment, with its tables open.
#[derive(Debug, Clone)]
pub struct Adjudicator {
    decided: bool,
    results: TableResults,
    /// Per board played: its tables.
    tables: Vec<((Variant, u8), Arc<OpenTables>)>,
}

impl Adjudicator {
    /// The adjudicator of `config` for games under each of `boards`, its
    /// tables opened (and checked) now; `None` when no rule is on.
    pub fn new(
        config: &AdjudicationConfig,
        boards: &[Rules],
    ) -> Result<Option<Adjudicator>, AdjudicationError> {
        if !config.is_on() {
            return Ok(None);
        }
        let mut tables = Vec::new();
        if let Some(dir) = &config.tablebase {
            for rules in boards {
                let open = open_shared(rules, dir, config.tablebase_seeds).map_err(|cause| {
                    AdjudicationError {
                        dir: dir.display().to_string(),
                        variant: rules.variant,
                        holes: rules.holes,
                        cause: Box::new(cause),
                    }
                })?;
                tables.push(((rules.variant, rules.holes), open));
            }
        }
        Ok(Some(Adjudicator {
            decided: config.decided,
            results: config.tablebase_results,
            tables,
        }))
    }

    /// What the tables cover, as `adjudication.toml` records it: the
    /// largest layer of each board; `None` without tables.
    pub fn coverage(&self) -> Option<String> {
        if self.tables.is_empty() {
            return None;
        }
        let mut text = String::from(
            "# The largest layer of the endgame tables that adjudicated this run's games, \
             per board: a resume with tables of another coverage is refused.\n[tables]\n",
        );
        for ((variant, holes), open) in &self.tables {
            text.push_str(&format!("\"{variant}-2x{holes}\" = {}\n", open.top));
        }
        Some(text)
    }

    fn tables_for(&self, rules: &Rules) -> Option<&OpenTables> {
        self.tables
            .iter()
            .find(|((v, h), _)| *v == rules.variant && *h == rules.holes)
            .map(|(_, t)| &**t)
    }

    /// How `game` ends now, if a rule ends it; `None` while it plays on.
    pub fn verdict(&self, game: &Game) -> Option<Verdict> {
        if game.is_over() {
            return None;
        }
        let pos = game.position();
        if let Some(tables) = self.tables_for(game.rules()) {
            if let Some(value) = tables.value(pos) {
                let scores = perfect_scores(pos, value as i32);
                let drawn = scores.south == scores.north;
                if !(drawn && self.results == TableResults::Decided) {
                    return Some(Verdict {
                        ending: Ending::Tablebase,
                        scores,
                    });
                }
            }
        }
        if self.decided {
            let total = game.rules().total_seeds();
            let captures = pos.captures();
            if Side::BOTH
                .into_iter()
                .any(|side| 2 * u32::from(captures[side]) > total)
            {
                return Some(Verdict {
                    ending: Ending::Decided,
                    scores: captures,
                });
            }
        }
        None
    }
}

/// The final scores of a perfect game from `pos` whose rest is worth `value`
/// seeds to the side to move: the captures so far plus the seeds left,
/// shared so that the mover's margin grows by exactly `value` (a seed left
/// over by an odd share goes to nobody).
pub fn perfect_scores(pos: &Position, value: i32) -> BySide<u8> {
    let left = pos.seeds_on_board() as i32;
    let shared = left - (left + value).rem_euclid(2);
    let mover = pos.side_to_move();
    let mut scores = pos.captures();
    let to_mover = ((shared + value) / 2).clamp(0, shared);
    scores[mover] += to_mover as u8;
    scores[mover.opponent()] += (shared - to_mover) as u8;
    scores
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(variant: Variant, holes: u32, seeds: u32) -> Rules {
        Rules::new(variant)
            .with_board(holes, seeds)
            .expect("a board")
    }

    #[test]
    fn perfect_scores_add_exactly_the_value_to_the_margin() {
        let r = rules(Variant::Ii, 6, 4);
        for text in [
            "0,0,0,0,2,2/0,0,4,0,0,0 S 20-20",
            "1,0,0,0,0,0/0,0,0,0,0,2 N 30-15",
        ] {
            let pos: Position = text.parse().expect("a position");
            assert!(pos.holes() == r.holes);
            let left = pos.seeds_on_board() as i32;
            for value in -left..=left {
                let scores = perfect_scores(&pos, value);
                let mover = pos.side_to_move();
                let before = pos.captures()[mover] as i32 - pos.captures()[mover.opponent()] as i32;
                let after = scores[mover] as i32 - scores[mover.opponent()] as i32;
                assert_eq!(after - before, value, "{text} value {value}");
                let added = scores.south as i32 + scores.north as i32
                    - pos.captures().south as i32
                    - pos.captures().north as i32;
                assert!(added <= left && added >= left - 1, "{text} value {value}");
            }
        }
    }

    #[test]
    fn decided_ends_a_game_once_a_side_holds_more_than_half() {
        let r = rules(Variant::I, 2, 2);
        let config = AdjudicationConfig {
            decided: true,
            ..AdjudicationConfig::default()
        };
        let adj = Adjudicator::new(&config, &[r])
            .expect("no tables")
            .expect("on");
        // 8 seeds in all: 4 captured is not more than half, 5 would be.
        let half: Position = "1,1/1,1 S 4-0".parse().expect("a position");
        let game = Game::from_position(r, half);
        assert_eq!(adj.verdict(&game), None);
        let more: Position = "1,0/1,1 S 0-5".parse().expect("a position");
        let game = Game::from_position(r, more);
        let verdict = adj.verdict(&game).expect("decided");
        assert_eq!(verdict.ending, Ending::Decided);
        assert_eq!((verdict.scores.south, verdict.scores.north), (0, 5));
        // Off: nothing.
        assert!(Adjudicator::new(&AdjudicationConfig::default(), &[r])
            .expect("no tables")
            .is_none());
    }
}

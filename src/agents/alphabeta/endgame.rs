//! Exact scores from the endgame tables inside the search: a position with few
//! enough seeds is not searched but looked up, its score being the capture
//! difference so far plus the table's margin still to come.
//!
//! The tables are the process's shared ones ([`crate::agents::shared_tables`]),
//! built or loaded once; they hold under the default options of RULES.md only,
//! and under any other options the search uses none.

use std::path::Path;
use std::sync::Arc;

use crate::agents::eval_margin::{terminal_margin, Score};
use crate::agents::tablebase::{shared_tables_in, TablebaseAgentError};
use crate::engine::position::Position;
use crate::engine::rules::Rules;
use crate::solver::tablebase::Tablebase;

/// The tables a search uses, up to their top layer.
#[derive(Debug, Clone)]
pub(super) struct Endgame {
    tables: Arc<Tablebase>,
    top: u32,
}

impl Endgame {
    /// The tables up to `max_seeds` seeds for games under `rules` from
    /// positions of at most `seeds` seeds, loaded from or saved to `dir`;
    /// `Ok(None)` where tables do not hold for the options of `rules`.
    pub fn load(
        rules: &Rules,
        max_seeds: u32,
        seeds: u32,
        dir: Option<&Path>,
    ) -> Result<Option<Endgame>, TablebaseAgentError> {
        let Some(tables) = shared_tables_in(rules, max_seeds, seeds, dir)? else {
            return Ok(None);
        };
        let top = (0..=max_seeds.min(crate::solver::MAX_TABLE_SEEDS))
            .take_while(|&k| tables.has_layer(k))
            .last()
            .unwrap_or(0);
        Ok(Some(Endgame { tables, top }))
    }

    /// Whether these tables serve positions of up to `seeds` seeds (or every
    /// layer up to `max_seeds`).
    pub fn covers(&self, seeds: u32, max_seeds: u32) -> bool {
        self.top >= seeds.min(max_seeds)
    }

    /// The exact score of `pos` for its side to move (a margin in seeds, the
    /// captures so far included), if its layer is in the tables.
    #[inline]
    pub fn score(&self, pos: &Position) -> Option<Score> {
        if pos.seeds_on_board() > self.top {
            return None;
        }
        let to_come = self.tables.value(pos)?;
        Some(terminal_margin(pos, pos.side_to_move()) + to_come as Score)
    }
}

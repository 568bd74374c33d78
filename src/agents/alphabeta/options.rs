//! The opt-in enhancements of the alpha-beta search, as the keys of the
//! `alphabeta` spec: each one is off unless its key is written, so the roster's
//! existing files keep searching exactly as before.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::solver::MAX_TABLE_SEEDS;

/// The deepest quiescence search allowed, in turns.
pub const MAX_QUIESCENCE: u32 = 32;
/// The largest late move reduction allowed, in plies.
pub const MAX_REDUCTIONS: u32 = 4;
/// The widest aspiration window allowed, in seeds (more than any margin).
pub const MAX_ASPIRATION: u32 = 255;
/// The transposition table's size in MiB when `tt_mb` is not written.
pub const DEFAULT_TT_MB: u32 = 4;
/// The largest transposition table allowed, in MiB.
pub const MAX_TT_MB: u32 = 4096;

/// Which enhancements an [`crate::AlphaBeta`] search uses (all off by default).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchOptions {
    /// Principal variation search: every move after the first is searched with
    /// a null window first and searched again only when it may be better.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub pvs: bool,
    /// Aspiration window, in seeds, around the previous iteration's score
    /// (0 = off, the full window); a score outside it is searched again with
    /// that side of the window opened.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub aspiration: u32,
    /// Two killer moves per ply: quiet moves that refuted a sibling are tried
    /// right after the captures.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub killers: bool,
    /// History heuristic: quiet moves are ordered by how often (weighted by
    /// depth squared) they refuted a position in this search.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub history: bool,
    /// Quiescence search at the leaves: at most this many turns of captures
    /// (0 = off); a turn with extra moves counts once.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub quiescence: u32,
    /// Late move reductions, in plies (0 = off): with principal variation
    /// search, a quiet move (no capture) searched late at a node of depth 3
    /// or more is first searched this many plies shallower with a null
    /// window, and again at full depth only when it beats alpha.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub reductions: u32,
    /// Exact endgame-table scores for positions with at most this many seeds
    /// on the board (off when absent); tables hold under the default options
    /// of RULES.md only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seeds: Option<u32>,
    /// Where the tables are loaded from and saved to (as `hoyito solve
    /// --tables DIR`); without it they are built in memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tables: Option<PathBuf>,
    /// The transposition table's size in MiB, a power of two (4 when absent).
    /// Not an enhancement of the search but its memory: a search of millions
    /// of nodes overwrites most of a 4 MiB table before it can use it again.
    /// The plain search stays plain with any size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tt_mb: Option<u32>,
    /// The table keeps, in each pair of slots, the deepest entry of the
    /// search beside the newest (TwoDeep, `src/agents/alphabeta/tt.rs`),
    /// instead of always replacing: a search of millions of nodes then keeps
    /// its costliest entries.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub tt_deep: bool,
    /// Diversity for self-play from one start (0 = off): during the game's
    /// first this many plies the agent scores every legal move by a search
    /// from the position it leads to and plays one chosen uniformly, by the
    /// game's seeded generator, among those within `diverse_margin` seeds of
    /// the best (`crate::agents::Diverse`). Deterministic agents otherwise
    /// play one game from the standard start. Not a search enhancement: the
    /// search itself is unchanged.
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub diverse_plies: u32,
    /// With `diverse_plies`: how many seeds below the best a move may score
    /// and still be chosen (0: only the moves tied with the best).
    #[serde(skip_serializing_if = "crate::agents::skip_default::is_default")]
    pub diverse_margin: u32,
    /// With `diverse_plies`: the agent's own stream of the game's generator
    /// for its mixed opening moves, so that another seed mixes otherwise,
    /// each reproducibly (absent: the game's stream). The search itself draws
    /// no random number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// The most opening plies `diverse_plies` may cover.
pub const MAX_DIVERSE_PLIES: u32 = 64;

impl SearchOptions {
    /// Whether any enhancement is on (otherwise the plain search runs); the
    /// table's size is not one.
    pub fn any(&self) -> bool {
        let enhancements = SearchOptions {
            tt_mb: None,
            diverse_plies: 0,
            diverse_margin: 0,
            seed: None,
            ..self.clone()
        };
        enhancements != SearchOptions::default()
    }

    /// The transposition table's size in MiB.
    pub fn tt_mb(&self) -> u32 {
        self.tt_mb.unwrap_or(DEFAULT_TT_MB)
    }

    /// Checks the ranges; the message names the key and what is allowed.
    pub fn validate(&self) -> Result<(), String> {
        if self.aspiration > MAX_ASPIRATION {
            return Err(format!(
                "aspiration = {} is out of range: allowed 0 (off) to {MAX_ASPIRATION}",
                self.aspiration
            ));
        }
        if self.reductions > MAX_REDUCTIONS {
            return Err(format!(
                "reductions = {} is out of range: allowed 0 (off) to {MAX_REDUCTIONS}",
                self.reductions
            ));
        }
        if self.reductions > 0 && !self.pvs {
            return Err(format!(
                "reductions = {} needs pvs = true: a reduced move is searched with \
                 principal variation search's null window",
                self.reductions
            ));
        }
        if let Some(mb) = self.tt_mb {
            if !mb.is_power_of_two() || mb > MAX_TT_MB {
                return Err(format!(
                    "tt_mb = {mb} is out of range: allowed a power of two from 1 to {MAX_TT_MB}"
                ));
            }
        }
        if self.diverse_plies > MAX_DIVERSE_PLIES {
            return Err(format!(
                "diverse_plies = {} is out of range: allowed 0 (off) to {MAX_DIVERSE_PLIES}",
                self.diverse_plies
            ));
        }
        if self.diverse_margin > 0 && self.diverse_plies == 0 {
            return Err(format!(
                "diverse_margin = {} needs diverse_plies = K > 0, the opening plies it covers",
                self.diverse_margin
            ));
        }
        if let (Some(seed), 0) = (self.seed, self.diverse_plies) {
            return Err(format!(
                "seed = {seed} needs diverse_plies = K > 0: alpha-beta draws random \
                 numbers only to mix its opening moves"
            ));
        }
        if self.diverse_margin > 255 {
            return Err(format!(
                "diverse_margin = {} is out of range: allowed 0 to 255 seeds",
                self.diverse_margin
            ));
        }
        if self.quiescence > MAX_QUIESCENCE {
            return Err(format!(
                "quiescence = {} is out of range: allowed 0 (off) to {MAX_QUIESCENCE}",
                self.quiescence
            ));
        }
        match self.max_seeds {
            Some(k) if k > MAX_TABLE_SEEDS => Err(format!(
                "max_seeds = {k} is out of range: allowed 0 to {MAX_TABLE_SEEDS}"
            )),
            None => match &self.tables {
                Some(dir) => Err(format!(
                    "tables = {:?} is out of range: allowed only together with \
                     max_seeds = K, the largest layer of the tables to use",
                    dir.display().to_string()
                )),
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

/// The keys that are on, as ` key=value` pairs (nothing when all are off).
impl fmt::Display for SearchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pvs {
            f.write_str(" pvs=true")?;
        }
        if self.aspiration > 0 {
            write!(f, " aspiration={}", self.aspiration)?;
        }
        if self.killers {
            f.write_str(" killers=true")?;
        }
        if self.history {
            f.write_str(" history=true")?;
        }
        if self.quiescence > 0 {
            write!(f, " quiescence={}", self.quiescence)?;
        }
        if self.reductions > 0 {
            write!(f, " reductions={}", self.reductions)?;
        }
        if let Some(k) = self.max_seeds {
            write!(f, " max_seeds={k}")?;
        }
        if let Some(dir) = &self.tables {
            write!(f, " tables={}", dir.display())?;
        }
        if let Some(mb) = self.tt_mb {
            write!(f, " tt_mb={mb}")?;
        }
        if self.tt_deep {
            f.write_str(" tt_deep=true")?;
        }
        if self.diverse_plies > 0 {
            write!(
                f,
                " diverse_plies={} diverse_margin={}",
                self.diverse_plies, self.diverse_margin
            )?;
        }
        if let Some(seed) = self.seed {
            write!(f, " seed={seed}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_off_and_keys_print() {
        assert!(!SearchOptions::default().any());
        assert_eq!(SearchOptions::default().to_string(), "");
        let on = SearchOptions {
            pvs: true,
            aspiration: 3,
            killers: true,
            history: true,
            quiescence: 8,
            reductions: 1,
            max_seeds: Some(8),
            tables: None,
            tt_mb: Some(64),
            tt_deep: true,
            diverse_plies: 0,
            diverse_margin: 0,
            seed: None,
        };
        assert!(on.any() && on.validate().is_ok());
        assert_eq!(
            on.to_string(),
            " pvs=true aspiration=3 killers=true history=true quiescence=8 reductions=1 max_seeds=8 \
             tt_mb=64 tt_deep=true"
        );
        // The table's size alone leaves the plain search plain.
        let size = SearchOptions {
            tt_mb: Some(64),
            ..SearchOptions::default()
        };
        assert!(!size.any());
        assert_eq!((size.tt_mb(), SearchOptions::default().tt_mb()), (64, 4));
    }

    #[test]
    fn ranges_are_checked() {
        let q = SearchOptions {
            quiescence: 33,
            ..SearchOptions::default()
        };
        assert!(q.validate().unwrap_err().starts_with("quiescence = 33"));
        let r = SearchOptions {
            pvs: true,
            reductions: 5,
            ..SearchOptions::default()
        };
        assert!(r
            .validate()
            .unwrap_err()
            .starts_with("reductions = 5 is out"));
        let r = SearchOptions {
            reductions: 1,
            ..SearchOptions::default()
        };
        assert!(r.validate().unwrap_err().contains("needs pvs = true"));
        let t = SearchOptions {
            tables: Some("t".into()),
            ..SearchOptions::default()
        };
        assert!(t
            .validate()
            .unwrap_err()
            .starts_with("tables = \"t\" is out"));
        let k = SearchOptions {
            max_seeds: Some(121),
            ..SearchOptions::default()
        };
        assert!(k.validate().unwrap_err().starts_with("max_seeds = 121"));
        for mb in [0, 3, 48, 8192] {
            let t = SearchOptions {
                tt_mb: Some(mb),
                ..SearchOptions::default()
            };
            let err = t.validate().unwrap_err();
            assert!(err.starts_with(&format!("tt_mb = {mb} is out")), "{err}");
        }
        for mb in [1, 4, 64, 4096] {
            let t = SearchOptions {
                tt_mb: Some(mb),
                ..SearchOptions::default()
            };
            assert!(t.validate().is_ok(), "{mb}");
        }
    }
}

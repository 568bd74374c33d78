//! Which games the page embeds. A run can hold millions of games, and the
//! page must stay a few megabytes, so it carries a few telling games of each
//! pairing and setting, picked in one pass over `games.csv` with constant
//! memory per block: the first seat-swapped pair, the shortest and the
//! longest game, and the first game of every ending other than `normal`
//! (stalls and forfeits), plus the games a person asks for by id.

use std::collections::{BTreeMap, BTreeSet};

use crate::engine::game::Ending;
use crate::engine::rules::Variant;
use crate::records::game_row::{GameRow, Winner};

/// Why a game is in the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Asked for with `--games`.
    Asked,
    /// A game of the block's first pair.
    FirstPair,
    /// The first game of its block with this ending (not `normal`).
    Ending(Ending),
    /// The block's shortest game.
    Shortest,
    /// The block's longest game.
    Longest,
}

impl Reason {
    /// The reason in words.
    pub fn text(self) -> String {
        match self {
            Reason::Asked => "asked for".to_string(),
            Reason::FirstPair => "first pair".to_string(),
            Reason::Ending(ending) => format!("first {ending} ending"),
            Reason::Shortest => "shortest".to_string(),
            Reason::Longest => "longest".to_string(),
        }
    }

    /// Lower ranks are embedded first when the page's budget runs short.
    fn rank(self) -> u8 {
        match self {
            Reason::Asked => 0,
            Reason::FirstPair => 1,
            Reason::Ending(_) => 2,
            Reason::Shortest => 3,
            Reason::Longest => 4,
        }
    }
}

/// What the page says about a game without opening it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Brief {
    /// The game's id.
    pub game_id: u64,
    /// Its pair.
    pub pair_id: u64,
    /// `ii 2x6 s4`.
    pub setting: String,
    /// The agent in South's seat.
    pub south: String,
    /// The agent in North's seat.
    pub north: String,
    /// `S`, `N` or `draw`.
    pub winner: Winner,
    /// Final seeds, South then North.
    pub scores: (u8, u8),
    /// Plies played.
    pub plies: u32,
    /// How it ended.
    pub ending: Ending,
}

impl Brief {
    fn of(row: &GameRow) -> Brief {
        Brief {
            game_id: row.game_id,
            pair_id: row.pair_id,
            setting: format!("{} 2x{} s{}", row.variant.name(), row.holes, row.seeds),
            south: row.south.clone(),
            north: row.north.clone(),
            winner: row.winner,
            scores: (row.south_captures, row.north_captures),
            plies: row.plies,
            ending: row.ending,
        }
    }
}

/// A game picked, with every reason it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    /// The game.
    pub brief: Brief,
    /// Why, in rank order.
    pub reasons: Vec<Reason>,
}

/// (variant, holes, seeds, the two agents in name order).
type BlockKey = (Variant, u8, u8, String, String);

#[derive(Debug, Default)]
struct Block {
    first_pair: Vec<Brief>,
    shortest: Option<Brief>,
    longest: Option<Brief>,
    endings: BTreeMap<&'static str, Brief>,
}

/// Picks games from the rows of `games.csv`, seen in id order.
#[derive(Debug, Default)]
pub struct GamePicker {
    blocks: BTreeMap<BlockKey, Block>,
    asked: BTreeSet<u64>,
    asked_found: BTreeMap<u64, Brief>,
}

impl GamePicker {
    /// A picker that also keeps the games of `asked`.
    pub fn new(asked: &[u64]) -> GamePicker {
        GamePicker {
            asked: asked.iter().copied().collect(),
            ..GamePicker::default()
        }
    }

    /// Sees one row.
    pub fn add(&mut self, row: &GameRow) {
        if self.asked.contains(&row.game_id) {
            self.asked_found.insert(row.game_id, Brief::of(row));
        }
        let (a, b) = match row.south <= row.north {
            true => (&row.south, &row.north),
            false => (&row.north, &row.south),
        };
        let key = (row.variant, row.holes, row.seeds, a.clone(), b.clone());
        let block = self.blocks.entry(key).or_default();
        match block.first_pair.first() {
            None => block.first_pair.push(Brief::of(row)),
            Some(first) if first.pair_id == row.pair_id => block.first_pair.push(Brief::of(row)),
            Some(_) => {}
        }
        if block
            .shortest
            .as_ref()
            .map_or(true, |s| row.plies < s.plies)
        {
            block.shortest = Some(Brief::of(row));
        }
        if block.longest.as_ref().map_or(true, |s| row.plies > s.plies) {
            block.longest = Some(Brief::of(row));
        }
        if row.ending != Ending::Normal && !block.endings.contains_key(row.ending.name()) {
            block.endings.insert(row.ending.name(), Brief::of(row));
        }
    }

    /// The ids asked for that no row has.
    pub fn missing(&self) -> Vec<u64> {
        self.asked
            .iter()
            .filter(|id| !self.asked_found.contains_key(id))
            .copied()
            .collect()
    }

    /// Every game picked, once each, in the order they should be embedded:
    /// by their best reason's rank, then by id.
    pub fn picks(&self) -> Vec<Pick> {
        let mut by_id: BTreeMap<u64, Pick> = BTreeMap::new();
        let mut add = |brief: &Brief, reason: Reason| {
            let pick = by_id.entry(brief.game_id).or_insert_with(|| Pick {
                brief: brief.clone(),
                reasons: Vec::new(),
            });
            if !pick.reasons.contains(&reason) {
                pick.reasons.push(reason);
                pick.reasons.sort_by_key(|r| (r.rank(), r.text()));
            }
        };
        for brief in self.asked_found.values() {
            add(brief, Reason::Asked);
        }
        for block in self.blocks.values() {
            for brief in &block.first_pair {
                add(brief, Reason::FirstPair);
            }
            for brief in block.endings.values() {
                add(brief, Reason::Ending(brief.ending));
            }
            if let Some(brief) = &block.shortest {
                add(brief, Reason::Shortest);
            }
            if let Some(brief) = &block.longest {
                add(brief, Reason::Longest);
            }
        }
        let mut picks: Vec<Pick> = by_id.into_values().collect();
        picks.sort_by_key(|p| (p.reasons[0].rank(), p.brief.game_id));
        picks
    }
}

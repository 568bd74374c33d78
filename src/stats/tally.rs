//! The counts that every statistic is computed from, gathered in one pass over
//! the games, so that a report needs memory for the counts and not for the
//! games: a million-game run reports in the same few kilobytes as a hundred.
//!
//! Per variant and board the tally keeps, for each ordered (South agent, North
//! agent) couple, South's wins, draws and losses; for each unordered couple of
//! two different agents, the pentanomial counts of its seat-swapped pairs and
//! its games left unpaired; a histogram of game lengths; and the endings.
//! Agent names are interned once, in order of first appearance.
//!
//! A game's pair partner is its neighbour: games must be added in game-id
//! order (as `games.csv` holds them), so that the two games of a pair come one
//! after the other and only the first game of an unfinished pair is held.

use std::collections::{BTreeMap, HashMap};

use crate::tournament::{GameRow, Winner};

use super::length::EndingCounts;
use super::pairing::{Pentanomial, Wdl};
use super::setting::Setting;

/// An agent's index in a tally's name table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct AgentId(u32);

/// The pair counts of two different agents on one setting, from the point of
/// view of the agent interned first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct PairCounts {
    /// Pair scores of the complete seat-swapped pairs.
    pub(crate) pentanomial: Pentanomial,
    /// Games whose neighbour is not their seat-swapped partner.
    pub(crate) unpaired: u64,
}

/// The counts of one setting.
#[derive(Debug, Clone, Default)]
struct Counts {
    games: u64,
    /// South's results by (South, North).
    seats: BTreeMap<(AgentId, AgentId), Wdl>,
    /// By (first interned, second interned), two different agents.
    pairs: BTreeMap<(AgentId, AgentId), PairCounts>,
    /// Games by length in plies.
    plies: BTreeMap<u32, u64>,
    endings: EndingCounts,
}

/// The first game of a pair whose second game has not been added yet.
#[derive(Debug, Clone, Copy)]
struct PendingGame {
    pair_id: u64,
    setting: Setting,
    south: AgentId,
    north: AgentId,
    winner: Winner,
}

impl PendingGame {
    /// The game's score for `agent` in half points (0, 1 or 2).
    fn half_points(&self, agent: AgentId) -> usize {
        let south = match self.winner {
            Winner::S => 2,
            Winner::Draw => 1,
            Winner::N => 0,
        };
        if agent == self.south {
            south
        } else {
            2 - south
        }
    }
}

/// The counts of a set of games, added one at a time in game-id order.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    agents: Vec<String>,
    ids: HashMap<String, AgentId>,
    settings: BTreeMap<Setting, Counts>,
    pending: Option<PendingGame>,
    games: u64,
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// The tally of `rows`, which must be in game-id order.
    pub fn from_rows<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> Tally {
        let mut tally = Tally::new();
        for row in rows {
            tally.add(row);
        }
        tally
    }

    /// Counts one game. Games must come in game-id order: a game pairs with
    /// the game added just before it when they share a pair id.
    pub fn add(&mut self, row: &GameRow) {
        let south = self.intern(&row.south);
        let north = self.intern(&row.north);
        let game = PendingGame {
            pair_id: row.pair_id,
            setting: Setting::of(row),
            south,
            north,
            winner: row.winner,
        };
        self.games += 1;
        let counts = self.settings.entry(game.setting).or_default();
        counts.games += 1;
        counts
            .seats
            .entry((south, north))
            .or_default()
            .add(row.winner.south_score());
        *counts.plies.entry(row.plies).or_default() += 1;
        counts.endings.add(row.ending);
        if south == north {
            // Self-play has no pairing, so no pair counts.
            self.pending = Some(game);
            return;
        }
        let key = (south.min(north), south.max(north));
        let pair = counts.pairs.entry(key).or_default();
        // Unpaired until its partner shows up.
        pair.unpaired += 1;
        match self.pending.take() {
            Some(first) if first.pair_id == game.pair_id => {
                if first.setting == game.setting && (first.south, first.north) == (north, south) {
                    pair.unpaired -= 2;
                    pair.pentanomial.0[first.half_points(key.0) + game.half_points(key.0)] += 1;
                }
            }
            _ => self.pending = Some(game),
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The agents that played, in order of first appearance (South before
    /// North), which is the schedule's order when the games come from a run.
    pub fn agents(&self) -> &[String] {
        &self.agents
    }

    /// The counts of each setting, in order (variant, holes, seeds).
    pub fn settings(&self) -> impl Iterator<Item = SettingTally<'_>> {
        self.settings.iter().map(|(&setting, counts)| SettingTally {
            setting,
            agents: &self.agents,
            counts,
        })
    }

    fn intern(&mut self, name: &str) -> AgentId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = AgentId(u32::try_from(self.agents.len()).expect("fewer than 2^32 agents"));
        self.agents.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }
}

/// The counts of one variant on one board, with the names of the agents.
#[derive(Debug, Clone, Copy)]
pub struct SettingTally<'a> {
    setting: Setting,
    agents: &'a [String],
    counts: &'a Counts,
}

impl<'a> SettingTally<'a> {
    /// The variant and board.
    pub fn setting(&self) -> Setting {
        self.setting
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.counts.games
    }

    /// An agent's name.
    pub(crate) fn name(&self, id: AgentId) -> &'a str {
        &self.agents[id.0 as usize]
    }

    /// South's results by (South, North).
    pub(crate) fn seats(&self) -> impl Iterator<Item = (AgentId, AgentId, Wdl)> + 'a {
        self.counts.seats.iter().map(|(&(s, n), &wdl)| (s, n, wdl))
    }

    /// The pair counts of each two different agents that met, from the point
    /// of view of the first of the two.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (AgentId, AgentId, PairCounts)> + 'a {
        self.counts.pairs.iter().map(|(&(a, b), &c)| (a, b, c))
    }

    /// (plies, games) by increasing length.
    pub(crate) fn plies(&self) -> impl Iterator<Item = (u32, u64)> + 'a {
        self.counts.plies.iter().map(|(&p, &n)| (p, n))
    }

    /// Games by how they ended.
    pub(crate) fn endings(&self) -> EndingCounts {
        self.counts.endings
    }
}

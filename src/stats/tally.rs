//! The counts that every statistic is computed from, gathered in one pass over
//! the games, so that a report needs memory for the counts and not for the
//! games, except what finding repeated games takes.
//!
//! Per variant and board the tally keeps, for each ordered (South agent, North
//! agent) couple, South's wins, draws and losses; for each group of games (two
//! different agents, or one agent against itself) how its games ended and the
//! scores of its independent units; a histogram of game lengths; and the
//! endings. Agent names are interned once, in order of first appearance.
//!
//! A game that ended inside its random opening (no agent moved) is counted
//! as such and nowhere else: it says nothing about the agents, and on a
//! small board most games of a long opening can end there (71.8% of the
//! alphabeta-d8 games of Hoyito I 2x4 with 8 random plies). Both games of a
//! pair play the same opening, so they end there together.
//!
//! The unit of sampling is the seat-swapped pair, not the game: both games of
//! a pair start from the same opening, so their results are correlated. A
//! group's [`Units`] count its complete pairs by their total score (the
//! pentanomial counts) and its games without a partner by their score, each
//! counted once however often it was played: a pair (or lone game) whose
//! move sequences were all seen before in the group adds nothing. Finding
//! them keeps a set of 64-bit move hashes per group: about 16 bytes per game
//! and 16 per pair, plus the hash table's slack (some 40 bytes per game in
//! all, 40 MB for a million games); everything else is flat in the games.
//!
//! A game's pair partner is its neighbour: games must be added in game-id
//! order (as `games.csv` holds them), so that the two games of a pair come one
//! after the other and only the first game of an unfinished pair is held.

use std::collections::{BTreeMap, HashMap};

use crate::engine::game::Ending;
use crate::records::game_row::{GameRow, Winner};

use super::distinct::DistinctSet;
use super::endings::{EndingCounts, ForfeitCounts};
use super::outcomes::{Pentanomial, Wdl};
use super::setting::Setting;
use super::units::Units;

/// An agent's index in a tally's name table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct AgentId(u32);

/// The counts of one group of games: two different agents in both seat
/// orders, or one agent against itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct GroupCounts {
    /// Games counted (those that ended inside the opening not included).
    pub(crate) games: u64,
    /// Games that ended inside their random opening, left out of the rest.
    pub(crate) opening_ended: u64,
    /// How they ended.
    pub(crate) endings: EndingCounts,
    /// Different move sequences (with the seat order of the agents).
    pub(crate) distinct_games: u64,
    /// Complete seat-swapped pairs, repeats included.
    pub(crate) pairs: u64,
    /// Complete pairs that were not a repeat of an earlier pair.
    pub(crate) distinct_pairs: u64,
    /// Games whose neighbour is not their seat-swapped partner.
    pub(crate) unpaired: u64,
    /// Every complete pair, repeats included, scored for the first agent:
    /// the clusters of the games that the ratings fit.
    pub(crate) all_pairs: Pentanomial,
    /// Distinct units, scored for the group's first agent (pairings only).
    pub(crate) score: Units,
    /// The same, over the games that ended normally.
    pub(crate) score_normal: Units,
    /// Distinct units, scored for the South seat.
    pub(crate) south: Units,
    /// The same, over the games that ended normally.
    pub(crate) south_normal: Units,
    /// Every unit scored for the South seat, repeats included: what the
    /// same games say when a repeated pair counts as often as it was drawn.
    pub(crate) south_all: Units,
    /// The games that ended inside their opening, distinct units scored for
    /// the South seat: each is the exact result of its opening (by the
    /// rules where the random plies ended the game, by the tables' perfect
    /// play, or a winner that can no longer change, where adjudication
    /// ended it), kept apart from every other figure.
    pub(crate) south_opening: Units,
    /// How many games that ended inside their opening were adjudicated
    /// (by the tables, or as decided) rather than ended by the rules.
    pub(crate) opening_adjudicated: u64,
    /// Keys of [`game_key`] and [`pair_key`]: one 64-bit word per game and
    /// per pair, in sets whose memory stays small however long the run.
    seen_games: DistinctSet,
    seen_pairs: DistinctSet,
    seen_lone: DistinctSet,
    /// The same for the games that ended inside their opening.
    seen_opening_pairs: DistinctSet,
    seen_opening_lone: DistinctSet,
}

/// A game's key among the games of its group: its moves hash, told apart by
/// whether the first agent sat South. Two different games share a key only
/// if their 64-bit hashes collide (with or without the seat mask), which is
/// no likelier than a collision of the hashes themselves.
fn game_key(first_south: bool, hash: u64) -> u64 {
    const SEAT_MASK: u64 = 0x9E37_79B9_7F4A_7C15;
    if first_south {
        hash ^ SEAT_MASK
    } else {
        hash
    }
}

/// A pair's key: its two games' hashes in game order, mixed into one word
/// (the SplitMix64 finaliser of the first, plus the second), as unlikely to
/// collide as two 64-bit hashes.
fn pair_key(first: u64, second: u64) -> u64 {
    let mut z = first.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)).wrapping_add(second)
}

/// The pair counts of two different agents on one setting over all their
/// games, repeats included, from the point of view of the agent interned
/// first.
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
    /// Every game, those that ended inside the opening included.
    games: u64,
    /// Games that ended inside their random opening.
    opening_ended: u64,
    /// South's results by (South, North).
    seats: BTreeMap<(AgentId, AgentId), Wdl>,
    /// By (first interned, second interned); equal for self-play.
    groups: BTreeMap<(AgentId, AgentId), GroupCounts>,
    /// Games by length in plies.
    plies: BTreeMap<u32, u64>,
    endings: EndingCounts,
}

/// A game as the tally needs it to pair it with its partner.
#[derive(Debug, Clone, Copy)]
struct PendingGame {
    pair_id: u64,
    setting: Setting,
    south: AgentId,
    north: AgentId,
    /// South's score in half points (0, 1 or 2).
    south_half: usize,
    normal: bool,
    hash: u64,
    /// Whether it was counted as a distinct lone game until its partner comes.
    counted_lone: bool,
}

impl PendingGame {
    /// Whether `game` is this game's seat-swapped partner: the same pair and
    /// setting, the agents the other way round.
    fn partners(&self, game: &PendingGame) -> bool {
        self.pair_id == game.pair_id
            && self.setting == game.setting
            && (self.south, self.north) == (game.north, game.south)
    }

    /// The game's score for `agent` in half points (0, 1 or 2).
    fn half_points(&self, agent: AgentId) -> usize {
        if agent == self.south {
            self.south_half
        } else {
            2 - self.south_half
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
    /// The last game that ended inside its opening, until its partner comes.
    pending_opening: Option<PendingGame>,
    games: u64,
    forfeits: ForfeitCounts,
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
    /// the game added just before it when they share a pair id and sit the
    /// same agents the other way round.
    pub fn add(&mut self, row: &GameRow) {
        let south = self.intern(&row.south);
        let north = self.intern(&row.north);
        let game = PendingGame {
            pair_id: row.pair_id,
            setting: Setting::of(row),
            south,
            north,
            south_half: match row.winner {
                Winner::S => 2,
                Winner::Draw => 1,
                Winner::N => 0,
            },
            normal: row.ending == Ending::Normal,
            hash: row.moves_hash.0,
            counted_lone: false,
        };
        self.games += 1;
        let counts = self.settings.entry(game.setting).or_default();
        counts.games += 1;
        let first = south.min(north);
        let group = counts.groups.entry((first, south.max(north))).or_default();
        if row.ended_in_opening() {
            counts.opening_ended += 1;
            group.opening_ended += 1;
            if row.ending.is_adjudication() {
                group.opening_adjudicated += 1;
            }
            match self.pending_opening.take() {
                Some(partner) if partner.partners(&game) => {
                    group.add_opening_pair(first, &partner, &game);
                }
                _ => self.pending_opening = Some(group.add_opening_lone(first, game)),
            }
            return;
        }
        self.forfeits.add(row);
        counts
            .seats
            .entry((south, north))
            .or_default()
            .add(row.winner.south_score());
        *counts.plies.entry(row.plies).or_default() += 1;
        counts.endings.add(row.ending);
        group.games += 1;
        group.endings.add(row.ending);
        if group.seen_games.insert(game_key(south == first, game.hash)) {
            group.distinct_games += 1;
        }
        match self.pending.take() {
            Some(partner) if partner.partners(&game) => {
                group.add_pair(first, &partner, &game);
            }
            _ => self.pending = Some(group.add_lone(first, game)),
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Forfeits per agent and reason.
    pub fn forfeits(&self) -> &ForfeitCounts {
        &self.forfeits
    }

    /// The agents that played, in order of first appearance (South before
    /// North).
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

impl GroupCounts {
    /// Counts `game` as lone until its partner comes (if it does), and
    /// returns it, marked with whether it was counted as a distinct unit.
    fn add_lone(&mut self, first: AgentId, mut game: PendingGame) -> PendingGame {
        self.unpaired += 1;
        self.south_all.add_lone(game.south_half);
        game.counted_lone = self
            .seen_lone
            .insert(game_key(game.south == first, game.hash));
        if game.counted_lone {
            self.score.add_lone(game.half_points(first));
            self.south.add_lone(game.south_half);
            if game.normal {
                self.score_normal.add_lone(game.half_points(first));
                self.south_normal.add_lone(game.south_half);
            }
        }
        game
    }

    /// [`GroupCounts::add_lone`] for a game that ended inside its opening.
    fn add_opening_lone(&mut self, first: AgentId, mut game: PendingGame) -> PendingGame {
        game.counted_lone = self
            .seen_opening_lone
            .insert(game_key(game.south == first, game.hash));
        if game.counted_lone {
            self.south_opening.add_lone(game.south_half);
        }
        game
    }

    /// [`GroupCounts::add_pair`] for two games that ended inside their
    /// opening.
    fn add_opening_pair(&mut self, first: AgentId, partner: &PendingGame, game: &PendingGame) {
        if partner.counted_lone {
            self.seen_opening_lone
                .remove(&game_key(partner.south == first, partner.hash));
            self.south_opening.remove_lone(partner.south_half);
        }
        if self
            .seen_opening_pairs
            .insert(pair_key(partner.hash, game.hash))
        {
            self.south_opening
                .add_pair(partner.south_half + game.south_half);
        }
    }

    /// Turns `partner`, counted as lone, and `game` into a complete pair.
    fn add_pair(&mut self, first: AgentId, partner: &PendingGame, game: &PendingGame) {
        self.unpaired -= 1;
        self.south_all.remove_lone(partner.south_half);
        self.south_all
            .add_pair(partner.south_half + game.south_half);
        if partner.counted_lone {
            self.seen_lone
                .remove(&game_key(partner.south == first, partner.hash));
            self.score.remove_lone(partner.half_points(first));
            self.south.remove_lone(partner.south_half);
            if partner.normal {
                self.score_normal.remove_lone(partner.half_points(first));
                self.south_normal.remove_lone(partner.south_half);
            }
        }
        self.pairs += 1;
        let (a, b) = (partner.half_points(first), game.half_points(first));
        self.all_pairs.0[a + b] += 1;
        if !self.seen_pairs.insert(pair_key(partner.hash, game.hash)) {
            return;
        }
        self.distinct_pairs += 1;
        self.score.add_pair(a + b);
        self.south.add_pair(partner.south_half + game.south_half);
        match (partner.normal, game.normal) {
            (true, true) => {
                self.score_normal.add_pair(a + b);
                self.south_normal
                    .add_pair(partner.south_half + game.south_half);
            }
            (true, false) | (false, true) => {
                let only = if partner.normal { partner } else { game };
                self.score_normal.add_lone(only.half_points(first));
                self.south_normal.add_lone(only.south_half);
            }
            (false, false) => {}
        }
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

    /// Games counted, those that ended inside the opening included.
    pub fn games(&self) -> u64 {
        self.counts.games
    }

    /// Games that ended inside their random opening (no agent moved), left
    /// out of every other count.
    pub fn opening_ended(&self) -> u64 {
        self.counts.opening_ended
    }

    /// An agent's name.
    pub(crate) fn name(&self, id: AgentId) -> &'a str {
        &self.agents[id.0 as usize]
    }

    /// South's results by (South, North).
    pub(crate) fn seats(&self) -> impl Iterator<Item = (AgentId, AgentId, Wdl)> + 'a {
        self.counts.seats.iter().map(|(&(s, n), &wdl)| (s, n, wdl))
    }

    /// The counts of each group: (first agent, second agent, counts), the
    /// two equal for self-play, scores from the first agent's point of view.
    pub(crate) fn groups(&self) -> impl Iterator<Item = (AgentId, AgentId, &'a GroupCounts)> + 'a {
        self.counts.groups.iter().map(|(&(a, b), c)| (a, b, c))
    }

    /// The pair counts of each two different agents that met, over all
    /// their games, from the point of view of the first of the two.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (AgentId, AgentId, PairCounts)> + 'a {
        self.groups().filter(|(a, b, _)| a != b).map(|(a, b, g)| {
            let counts = PairCounts {
                pentanomial: g.all_pairs,
                unpaired: g.unpaired,
            };
            (a, b, counts)
        })
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

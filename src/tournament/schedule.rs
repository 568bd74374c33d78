//! The schedule: which game has which id.
//!
//! Game ids are positions in one fixed order, computed from the id by
//! arithmetic: rounds, and in each round one seat-swapped pair of every
//! (variant, board, pairing) block, blocks in order (variant, then board,
//! then pairing), South first. So a worker needs nothing but the id to play a
//! game, rows can be written in id order whatever order threads finish in,
//! and a resumed run knows which games are left from the number of rows alone.
//!
//! Rounds come first so that the games of a smaller experiment are exactly
//! the first games of a larger one: a finished run is extended by asking for
//! more games (the ids go on), and at any moment of a run every pairing has
//! played about as many games as the others, so live standings and a run
//! stopped early cover every block evenly.
//!
//! The schedule also says how each pair opens: the pair of round `k` plays
//! entry `k` of the setting's book (cycling), or the pair's random plies.
//!
//! With `rules.rounds = K > 1` (Hoyito III in rounds, RULES.md) each
//! scheduled game is a match of K rounds, and every round is a game id of
//! its own. The two matches of a seat-swapped pair take `2K` consecutive
//! ids, interleaved round by round (match A round 1, match B round 1, match
//! A round 2, ...): so ids `2p` and `2p + 1` are still a seat-swapped pair
//! (the same round of both matches, the same opening), `pair_id = id / 2`
//! holds as before, and the pair statistics keep their meaning. A match
//! pair is the unit of work that the runner never splits. With K = 1 every
//! id maps to exactly the game it always did.

use std::ops::Range;

use crate::engine::game::{Game, Outcome};
use crate::engine::moves::Move;
use crate::engine::rounds_match::round_setup;
use crate::engine::rules::{Rules, Variant};
use crate::engine::side::Side;

use super::config::experiment::Experiment;
use crate::engine::seeding::{game_seed, opening_seed};

/// Everything needed to play one game of the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule, from 0.
    pub game_id: u64,
    /// The seat-swapped pair (`game_id / 2`).
    pub pair_id: u64,
    /// The rules of this game.
    pub rules: Rules,
    /// Index into the experiment's agents of the agent in South's seat.
    pub south: usize,
    /// Index of the agent in North's seat.
    pub north: usize,
    /// The seed of the agents' generator.
    pub game_seed: u64,
    /// The seed of the pair's opening.
    pub opening_seed: u64,
    /// Which (variant, board, pairing) block the game is in, from 0: the unit
    /// that timings are added up by.
    pub block: usize,
    /// The round of the schedule: the (match) pair is its block's pair
    /// number `round`, from 0.
    pub round: u64,
    /// The match the game is a round of (`2 * match pair + seat`); the game
    /// id itself when matches have one round.
    pub match_id: u64,
    /// The game's round in its match, from 1 (always 1 without rounds).
    pub match_round: u32,
    /// Who moves first: South, but North in the even rounds of a match.
    pub first: Side,
}

impl ScheduledGame {
    /// The game as round [`ScheduledGame::match_round`] is played after
    /// `previous` (the outcome of the match's round before, `None` in round
    /// 1): the last seeds go to the previous round's winner from round 3 on
    /// ([`round_setup`]). Without rounds the game is unchanged.
    pub fn after(mut self, previous: Option<&Outcome>) -> ScheduledGame {
        let (rules, start) = round_setup(&self.rules, self.match_round, previous);
        self.rules = rules;
        self.first = start.side;
        self
    }

    /// A new game at the start of this round: the rules' start position,
    /// [`ScheduledGame::first`] to move.
    pub fn start(&self) -> Game {
        let mut start = crate::engine::position::Position::start(&self.rules);
        start.side = self.first;
        Game::from_position(self.rules, start)
    }
}

/// How one game begins, before the agents play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening<'a> {
    /// This many uniformly random plies from the pair's opening seed (fewer if
    /// the game ends first).
    Random {
        /// Plies.
        plies: u32,
    },
    /// The plies of a book entry.
    Book {
        /// The entry's index in its book, from 0.
        entry: usize,
        /// Its plies from the start position.
        plies: &'a [Move],
    },
}

impl Opening<'_> {
    /// How many of the game's first plies are the opening (at most).
    pub fn plies(&self) -> u32 {
        match *self {
            Opening::Random { plies } => plies,
            Opening::Book { plies, .. } => plies.len() as u32,
        }
    }
}

/// The games of an experiment, in id order.
#[derive(Debug, Clone)]
pub struct Schedule {
    boards: Vec<Rules>,
    /// The book entries' plies of each board, where it has a book.
    books: Vec<Option<Vec<Vec<Move>>>>,
    random_plies: u32,
    pairings: Vec<(usize, usize)>,
    pairs_per_pairing: u64,
    master_seed: u64,
    rounds: u32,
}

impl Schedule {
    /// The schedule of a checked experiment (`games` rounded up to pairs).
    pub fn new(experiment: &Experiment) -> Schedule {
        let boards = experiment.boards();
        let books = boards
            .iter()
            .map(|rules| experiment.openings.book_plies(rules))
            .collect();
        Schedule {
            boards,
            books,
            random_plies: experiment.openings.random_plies,
            pairings: experiment.tournament.pairings(),
            pairs_per_pairing: experiment.games.div_ceil(2),
            master_seed: experiment.seed,
            rounds: experiment.rules.rounds.max(1),
        }
    }

    /// How many games in all (each round of a match is a game).
    pub fn len(&self) -> u64 {
        self.unit() * self.pairs_per_pairing * self.blocks() as u64
    }

    /// Rounds per match: 1 for single games.
    pub fn match_rounds(&self) -> u32 {
        self.rounds
    }

    /// The ids of one seat-swapped pair of matches: `2 * rounds`. Work is
    /// cut at multiples of it, so that a match is never split.
    pub fn unit(&self) -> u64 {
        2 * u64::from(self.rounds)
    }

    /// Whether there is no game at all (never, for a checked experiment).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many (variant, board, pairing) blocks.
    pub fn blocks(&self) -> usize {
        self.boards.len() * self.pairings.len()
    }

    /// The variant, board and agent indices of block `block`.
    pub fn block(&self, block: usize) -> (Variant, u8, (usize, usize)) {
        let rules = self.boards[block / self.pairings.len()];
        (
            rules.variant,
            rules.holes,
            self.pairings[block % self.pairings.len()],
        )
    }

    /// Game `game_id`, which must be below [`Schedule::len`].
    /// Rounds of a match come with the rules and first mover of a round 1 or
    /// 2 ([`ScheduledGame::after`] applies the previous round's result).
    pub fn game(&self, game_id: u64) -> ScheduledGame {
        let pair_id = game_id / 2;
        let match_pair = game_id / self.unit();
        let seat = game_id % 2;
        let match_round = (game_id % self.unit() / 2) as u32 + 1;
        let blocks = self.blocks() as u64;
        let block = (match_pair % blocks) as usize;
        let round = match_pair / blocks;
        let base = self.boards[block / self.pairings.len()];
        let (rules, start) = round_setup(&base, match_round, None);
        let (a, b) = self.pairings[block % self.pairings.len()];
        let (south, north) = if seat == 0 { (a, b) } else { (b, a) };
        ScheduledGame {
            game_id,
            pair_id,
            rules,
            south,
            north,
            game_seed: game_seed(self.master_seed, game_id),
            opening_seed: opening_seed(self.master_seed, pair_id),
            block,
            round,
            match_id: 2 * match_pair + seat,
            match_round,
            first: start.side,
        }
    }

    /// How many seat-swapped pairs in all: pairs of games, or in a run in
    /// rounds pairs of matches (each [`Schedule::unit`] games), the slices
    /// that shards are cut into.
    pub fn pairs(&self) -> u64 {
        self.pairs_per_pairing * self.blocks() as u64
    }

    /// How many rounds: pairs per (variant, board, pairing) block.
    pub fn rounds(&self) -> u64 {
        self.pairs_per_pairing
    }

    /// The game ids of pair `pair_id` (below [`Schedule::pairs`]): consecutive,
    /// and the pairs' ids follow each other in pair order.
    pub fn pair_games(&self, pair_id: u64) -> Range<u64> {
        self.unit() * pair_id..self.unit() * (pair_id + 1)
    }

    /// The (variant, board, pairing) block and the round of pair `pair_id`.
    pub fn pair_place(&self, pair_id: u64) -> (usize, u64) {
        let blocks = self.blocks() as u64;
        ((pair_id % blocks) as usize, pair_id / blocks)
    }

    /// How game `game` begins: the pair of round `k` plays entry `k mod n` of
    /// the setting's book of `n` entries, else the random plies. In matches
    /// every round opens so (the `K` rounds of the match pairs of round `k`
    /// play entries `kK`, `kK + 1`, ...), from the round's own first mover:
    /// otherwise the rounds after the first would be the same game in every
    /// match of deterministic agents.
    pub fn opening(&self, game: &ScheduledGame) -> Opening<'_> {
        match &self.books[game.block / self.pairings.len()] {
            Some(entries) => {
                let index = game.round * u64::from(self.rounds) + u64::from(game.match_round) - 1;
                let entry = (index % entries.len() as u64) as usize;
                Opening::Book {
                    entry,
                    plies: &entries[entry],
                }
            }
            None => Opening::Random {
                plies: self.random_plies,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_run_round_then_variant_board_pairing_then_seat() {
        let mut e = Experiment::parse(
            r#"
            name = "t"
            seed = 9
            games = 3
            [rules]
            variants = ["i", "iii"]
            holes = [6, 12]
            [tournament]
            format = "round-robin"
            agents = ["a", "b", "c"]
            "#,
            "t.toml",
        )
        .unwrap();
        e.round_to_pairs();
        let s = Schedule::new(&e);
        // 2 variants x 2 boards x 3 pairings x 4 games.
        assert_eq!(s.len(), 48);
        assert_eq!(s.blocks(), 12);
        let g0 = s.game(0);
        let g1 = s.game(1);
        assert_eq!((g0.south, g0.north, g1.south, g1.north), (0, 1, 1, 0));
        assert_eq!(g0.opening_seed, g1.opening_seed);
        assert_ne!(g0.game_seed, g1.game_seed);
        // Pair 2 is round 0's pair of block 2: variant i, 2x6, pairing (1, 2).
        let g = s.game(4);
        assert_eq!(
            (g.pair_id, g.block, g.round, g.south, g.north),
            (2, 2, 0, 1, 2)
        );
        assert_eq!((g.rules.variant, g.rules.holes), (Variant::I, 6));
        // Pair 12 starts round 1 at block 0 again.
        let g = s.game(24);
        assert_eq!(
            (g.pair_id, g.block, g.round, g.south, g.north),
            (12, 0, 1, 0, 1)
        );
        let last = s.game(47);
        assert_eq!((last.rules.variant, last.rules.holes), (Variant::Iii, 12));
        assert_eq!(
            (last.south, last.north, last.block, last.round),
            (2, 1, 11, 1)
        );
        assert_eq!(s.block(11), (Variant::Iii, 12, (1, 2)));
    }

    #[test]
    fn a_smaller_experiment_is_a_prefix_of_a_larger_one() {
        let text = |games: u64| {
            format!(
                "name = \"t\"\nseed = 9\ngames = {games}\n[rules]\nvariants = [\"i\", \"ii\"]\n\
                 holes = [4, 6]\n[tournament]\nformat = \"round-robin\"\nagents = [\"a\", \"b\", \"c\"]\n"
            )
        };
        let small = Schedule::new(&Experiment::parse(&text(6), "s.toml").unwrap());
        let large = Schedule::new(&Experiment::parse(&text(20), "l.toml").unwrap());
        assert_eq!(small.len(), 72);
        for id in 0..small.len() {
            assert_eq!(small.game(id), large.game(id), "game {id}");
        }
    }
}

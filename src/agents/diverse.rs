//! Diversity for self-play from one start position.
//!
//! Two deterministic searches that play each other from the standard start
//! play one game, however many are asked for. [`Diverse`] wraps an alpha-beta
//! agent: during the game's first `plies` plies it scores every legal move by
//! a search of the position the move leads to (the same budget as the agent's
//! own, on a searcher of its own, cleared before each move's search so that
//! each score depends on that position alone), and plays one chosen uniformly
//! by the game's seeded generator among the moves scored within `margin`
//! seeds of the best. After those plies the wrapped agent plays unchanged.
//! With `margin = 0` only moves the search finds equally good are mixed, so
//! play is not weakened by the search's own measure; the games of an
//! experiment record `diverse_plies` and `diverse_margin` with the agent.
//! With the agent's `seed` key the mixed moves are drawn from a stream of the
//! game's generator of the agent's own, so that two seeds mix two ways.

use crate::agents::alphabeta::AlphaBeta;
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::rules::Rules;
use crate::engine::seeding::with_own_stream;
use rand::Rng;

/// An alpha-beta agent that mixes its first moves (see the module docs).
#[derive(Debug, Clone)]
pub struct Diverse {
    inner: AlphaBeta,
    scorer: AlphaBeta,
    plies: u32,
    margin: i32,
    /// The wrapped agent's `seed`: the mixed moves are drawn from a stream of
    /// the game's generator of its own ([`with_own_stream`]).
    seed: Option<u64>,
}

impl Diverse {
    /// `inner` mixed over the first `plies` plies among moves within
    /// `margin` seeds of the best, drawn with `inner`'s `seed` where it has
    /// one.
    pub fn new(inner: AlphaBeta, plies: u32, margin: u32) -> Diverse {
        Diverse {
            scorer: inner.clone(),
            seed: inner.options().seed,
            inner,
            plies,
            margin: margin as i32,
        }
    }

    /// Every legal move of `game` with its score for the side to move: the
    /// game's margin where the move ends it, else the search's score of the
    /// position it leads to, from the mover's side.
    pub fn scored_moves(&mut self, game: &Game) -> Vec<(Move, i32)> {
        let mover = game.position().side_to_move();
        let mut out = Vec::new();
        for &mv in game.legal_moves().as_slice() {
            let mut child = game.clone();
            if child.play(mv).is_err() {
                continue;
            }
            let score = match child.outcome() {
                Some(o) => o.scores[mover] as i32 - o.scores[mover.opponent()] as i32,
                None => {
                    self.scorer.new_game(child.rules());
                    let s = self.scorer.search(&child).score;
                    if child.position().side_to_move() == mover {
                        s
                    } else {
                        -s
                    }
                }
            };
            out.push((mv, score));
        }
        out
    }
}

impl Agent for Diverse {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        if game.plies() >= self.plies {
            return self.inner.choose(game, rng);
        }
        let scored = self.scored_moves(game);
        let Some(best) = scored.iter().map(|&(_, s)| s).max() else {
            return self.inner.choose(game, rng);
        };
        let near: Vec<Move> = scored
            .iter()
            .filter(|&&(_, s)| s >= best - self.margin)
            .map(|&(m, _)| m)
            .collect();
        let pick = |rng: &mut AgentRng| rng.random_range(0..near.len());
        let at = match self.seed {
            None => pick(rng),
            Some(seed) => with_own_stream(rng, seed, pick),
        };
        near[at]
    }

    fn new_game(&mut self, rules: &Rules) {
        self.inner.new_game(rules);
        self.scorer.new_game(rules);
    }

    fn observe(&mut self, game: &Game, mv: Move) {
        self.inner.observe(game, mv);
    }

    fn game_over(&mut self, game: &Game) {
        self.inner.game_over(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::alphabeta::AlphaBetaBudget;
    use rand::SeedableRng;

    fn searcher(depth: u32) -> AlphaBeta {
        AlphaBeta::new(AlphaBetaBudget {
            depth,
            nodes: None,
            time_ms: None,
        })
    }

    #[test]
    fn mixes_only_moves_within_the_margin_and_only_in_the_opening() {
        let rules = Rules::new(crate::engine::rules::Variant::Ii);
        let game = Game::new(rules);
        let mut agent = Diverse::new(searcher(4), 2, 0);
        let scored = agent.scored_moves(&game);
        assert_eq!(scored.len(), 6);
        let best = scored.iter().map(|s| s.1).max().expect("moves");
        let allowed: Vec<Move> = scored.iter().filter(|s| s.1 == best).map(|s| s.0).collect();
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..64 {
            let mut rng = AgentRng::seed_from_u64(seed);
            let mv = agent.choose(&game, &mut rng);
            assert!(allowed.contains(&mv), "{mv} is not among {allowed:?}");
            seen.insert(mv);
        }
        // Every allowed move is drawn, and the same seed draws the same move.
        assert_eq!(seen.len(), allowed.len());
        let again = |seed| {
            agent
                .clone()
                .choose(&game, &mut AgentRng::seed_from_u64(seed))
        };
        assert_eq!(again(7), again(7));
        // A wide margin allows every move.
        let mut wide = Diverse::new(searcher(4), 2, 255);
        let all: std::collections::BTreeSet<Move> = (0..200)
            .map(|seed| wide.choose(&game, &mut AgentRng::seed_from_u64(seed)))
            .collect();
        assert_eq!(all.len(), 6);
        // After the opening plies the wrapped search plays, whatever the seed.
        let mut later = game.clone();
        later.play(scored[0].0).expect("legal");
        later
            .play(later.legal_moves().as_slice()[0])
            .expect("legal");
        let plain = searcher(4).choose(&later, &mut AgentRng::seed_from_u64(0));
        for seed in 0..8 {
            assert_eq!(
                wide.choose(&later, &mut AgentRng::seed_from_u64(seed)),
                plain
            );
        }
    }

    #[test]
    fn a_seed_mixes_another_way_reproducibly() {
        let game = Game::new(Rules::new(crate::engine::rules::Variant::Ii));
        let picks = |seed: Option<u64>| -> Vec<Move> {
            let inner =
                searcher(2).with_options(crate::agents::alphabeta::options::SearchOptions {
                    diverse_plies: 2,
                    diverse_margin: 255,
                    seed,
                    ..Default::default()
                });
            let mut agent = Diverse::new(inner, 2, 255);
            (0..32)
                .map(|g| agent.choose(&game, &mut AgentRng::seed_from_u64(g)))
                .collect()
        };
        let mut plain = Diverse::new(searcher(2), 2, 255);
        let unseeded: Vec<Move> = (0..32)
            .map(|g| plain.choose(&game, &mut AgentRng::seed_from_u64(g)))
            .collect();
        assert_eq!(picks(None), unseeded);
        assert_eq!(picks(Some(3)), picks(Some(3)));
        assert_ne!(picks(Some(3)), picks(Some(4)));
        assert_ne!(picks(Some(3)), unseeded);
    }
}

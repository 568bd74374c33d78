//! Monte Carlo tree search, the strong agent that needs no evaluation tuning:
//! UCT with random or greedy rollouts.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::agent::{Agent, AgentRng};
use crate::agents::evaluation::{
    limit_reached, outcome_reward, stalled_margin, terminal_margin, Evaluator, StallTracker,
};
use crate::agents::greedy::greedy_move;
use crate::agents::spec::RolloutPolicy;
use crate::game::Game;
use crate::moves::Move;
use crate::position::{MoveEffect, Position};
use crate::rules::Rules;
use crate::side::Side;

/// The parameters of [`Mcts`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsParams {
    /// Playouts per move (tree descents, each ending in a rollout).
    pub iterations: u32,
    /// The UCT exploration constant `c`.
    pub exploration: f64,
    /// How rollouts choose moves.
    pub rollout: RolloutPolicy,
    /// Plies after which a rollout stops and is scored by the evaluation.
    pub rollout_cap: u32,
}

impl MctsParams {
    /// The default exploration constant, √2 (Kocsis & Szepesvári's UCB1 constant
    /// for rewards in `[0, 1]`).
    pub const DEFAULT_EXPLORATION: f64 = std::f64::consts::SQRT_2;
    /// The default rollout cap: the default stall limit of RULES.md.
    pub const DEFAULT_ROLLOUT_CAP: u32 = 200;
}

/// UCT: Monte Carlo tree search with the UCB1 selection rule (Kocsis &
/// Szepesvári 2006, "Bandit based Monte-Carlo planning"; Browne et al. 2012, "A
/// survey of Monte Carlo tree search methods").
///
/// Each iteration descends the tree by UCB1 (`mean + c·√(ln N / n)`, unvisited
/// children first in a random order drawn once), expands the leaf's children,
/// plays a rollout from the first new child and backs its reward up the path.
/// The move played is the root child with the most visits.
///
/// - `iterations` (required): playouts per move.
/// - `exploration` (default √2): the constant `c`.
/// - `rollout` (default `random`): `random` plays uniform moves, `greedy` plays
///   [`crate::agents::Greedy`]'s move.
/// - `rollout_cap` (default 200): a rollout still running after this many plies
///   is scored by the shared evaluation, as if the game stalled there.
///
/// Rewards are in `[0, 1]` ([`crate::agents::outcome_reward`]): a finished game
/// by its true margin, a stalled one (the game's `no_capture_limit`, counting the
/// plies already played since the last capture) by the `leftover` policy.
/// Repetitions are not looked for in the tree or the rollouts: a repeating line
/// reaches the rollout cap or the limit and is scored as stalled there. Every
/// node records the side that moved into it and its mean reward is for that
/// side, so extra moves (the same side moving twice) need no special case: a
/// parent picks among its children by its own side's reward.
#[derive(Debug, Clone)]
pub struct Mcts {
    params: MctsParams,
    evaluator: Evaluator,
    nodes: Vec<Node>,
}

/// Bytes of one tree node (the run's memory check).
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>();

/// A node of the tree.
#[derive(Debug, Clone, Copy)]
struct Node {
    pos: Position,
    /// The move from the parent (unused at the root).
    mv: Move,
    /// The side that played `mv`.
    mover: Side,
    /// Plies since the last capture.
    since: u32,
    /// Index of the first child; children are contiguous.
    first_child: u32,
    children: u8,
    expanded: bool,
    /// The game ends here: finished or stalled.
    terminal: bool,
    visits: u32,
    /// Sum of rewards for `mover`.
    total: f64,
}

impl Node {
    fn new(pos: Position, mv: Move, mover: Side, since: u32, terminal: bool) -> Node {
        Node {
            pos,
            mv,
            mover,
            since,
            first_child: 0,
            children: 0,
            expanded: false,
            terminal,
            visits: 0,
            total: 0.0,
        }
    }
}

impl Mcts {
    /// A searcher with these parameters.
    pub fn new(params: MctsParams) -> Mcts {
        Mcts {
            params,
            evaluator: Evaluator::default(),
            nodes: Vec::new(),
        }
    }

    /// The same searcher scoring capped rollouts with `evaluator`.
    pub fn with_evaluator(mut self, evaluator: Evaluator) -> Mcts {
        self.evaluator = evaluator;
        self
    }

    /// Runs the search from the current position of `game` and returns the most
    /// visited move with its visit count.
    ///
    /// # Panics
    /// If the game is over: there is no move to choose.
    pub fn search(&mut self, game: &Game, rng: &mut AgentRng) -> (Move, u32) {
        let rules = *game.rules();
        let root = *game.position();
        let since = StallTracker::of(game).since_capture();
        self.nodes.clear();
        self.nodes.push(Node::new(
            root,
            Move::Pass,
            root.side_to_move().opponent(),
            since,
            root.is_over(),
        ));
        let mut path = Vec::with_capacity(64);
        for _ in 0..self.params.iterations {
            self.iterate(&rules, rng, &mut path);
        }
        let root = self.nodes[0];
        let children =
            root.first_child as usize..root.first_child as usize + root.children as usize;
        let best = self.nodes[children]
            .iter()
            .max_by(|a, b| {
                (a.visits, a.total)
                    .partial_cmp(&(b.visits, b.total))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .expect("the root of an unfinished game has a move");
        (best.mv, best.visits)
    }

    /// One selection, expansion, rollout and back-up.
    fn iterate(&mut self, rules: &Rules, rng: &mut AgentRng, path: &mut Vec<u32>) {
        path.clear();
        let mut at = 0u32;
        path.push(at);
        while self.nodes[at as usize].expanded && !self.nodes[at as usize].terminal {
            at = self.select(at);
            path.push(at);
        }
        if !self.nodes[at as usize].terminal {
            self.expand(at, rules, rng);
            at = self.nodes[at as usize].first_child;
            path.push(at);
        }
        let node = self.nodes[at as usize];
        let south = if node.terminal {
            end_reward(&node.pos, rules)
        } else {
            self.rollout(node.pos, node.since, rules, rng)
        };
        for &i in path.iter() {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.total += match node.mover {
                Side::South => south,
                Side::North => 1.0 - south,
            };
        }
    }

    /// The child of `at` to descend to: an unvisited one, else the best by UCB1.
    fn select(&self, at: u32) -> u32 {
        let parent = &self.nodes[at as usize];
        let first = parent.first_child;
        let log_n = (parent.visits.max(1) as f64).ln();
        let c = self.params.exploration;
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for i in first..first + parent.children as u32 {
            let child = &self.nodes[i as usize];
            if child.visits == 0 {
                return i;
            }
            let n = child.visits as f64;
            let value = child.total / n + c * (log_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    /// Adds every child of `at`, in a random order.
    fn expand(&mut self, at: u32, rules: &Rules, rng: &mut AgentRng) {
        let parent = self.nodes[at as usize];
        let first = self.nodes.len();
        let mover = parent.pos.side_to_move();
        parent.pos.for_each_child(rules, |mv, child, effect| {
            let since = if effect.captured > 0 {
                0
            } else {
                parent.since + 1
            };
            let terminal = child.is_over() || (effect.captured == 0 && limit_reached(rules, since));
            self.nodes
                .push(Node::new(child, mv, mover, since, terminal));
        });
        self.nodes[first..].shuffle(rng);
        let children = self.nodes.len() - first;
        let node = &mut self.nodes[at as usize];
        node.first_child = first as u32;
        node.children = children as u8;
        node.expanded = true;
    }

    /// Plays from `pos` by the rollout policy and returns South's reward.
    fn rollout(&self, mut pos: Position, mut since: u32, rules: &Rules, rng: &mut AgentRng) -> f64 {
        for _ in 0..self.params.rollout_cap {
            if pos.is_over() || limit_reached(rules, since) {
                return end_reward(&pos, rules);
            }
            let (next, effect) = match self.params.rollout {
                RolloutPolicy::Random => random_child(&pos, rules, rng),
                RolloutPolicy::Greedy => pos
                    .play_unchecked(rules, greedy_move(&pos, rules, rng))
                    .expect("the greedy move is legal"),
            };
            since = if effect.captured > 0 { 0 } else { since + 1 };
            pos = next;
        }
        if pos.is_over() || limit_reached(rules, since) {
            return end_reward(&pos, rules);
        }
        let margin = self.evaluator.evaluate(&pos, rules);
        let south = if pos.side_to_move() == Side::South {
            margin
        } else {
            -margin
        };
        outcome_reward(south, rules.total_seeds())
    }
}

/// South's reward in a finished or stalled position.
fn end_reward(pos: &Position, rules: &Rules) -> f64 {
    let margin = if pos.is_over() {
        terminal_margin(pos, Side::South)
    } else {
        stalled_margin(pos, rules.stall.leftover, Side::South)
    };
    outcome_reward(margin, rules.total_seeds())
}

/// Plays a uniform random legal move, drawn as [`Game::play_random`] draws it:
/// random non-empty holes until one whose sowing ends, else a pass.
fn random_child(pos: &Position, rules: &Rules, rng: &mut AgentRng) -> (Position, MoveEffect) {
    let mut mask = pos.nonempty_mask();
    while mask != 0 {
        let k = rng.random_range(0..mask.count_ones());
        let mut m = mask;
        for _ in 0..k {
            m &= m - 1;
        }
        let hole = m.trailing_zeros();
        if let Some(played) = pos.play_unchecked(rules, Move::Sow(hole as u8)) {
            return played;
        }
        mask &= !(1 << hole);
    }
    pos.play_unchecked(rules, Move::Pass)
        .expect("a pass always ends")
}

impl Agent for Mcts {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        self.search(game, rng).0
    }
}

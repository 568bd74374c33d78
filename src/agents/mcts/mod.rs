//! Monte Carlo tree search, the strong agent that needs no evaluation tuning:
//! UCT with random or greedy rollouts, and opt-in enhancements: MCTS-Solver,
//! leaves scored by the evaluation, progressive bias, RAVE/GRAVE and tree
//! reuse between moves.
//!
//! The files: [`node`] (the tree's node and proofs), [`select`] (UCB1 and the
//! enhanced rule), [`rave`] (AMAF statistics), [`solver`] (proof propagation),
//! [`leaf`] (rollouts and leaf evaluation), [`reuse`] (keeping the subtree
//! between moves), [`info`] (what a search reports).

mod info;
mod leaf;
pub(crate) mod node;
mod proof;
mod rave;
mod reuse;
pub(crate) mod rollout;
mod searched;
mod select;
mod solver;

use rand::seq::SliceRandom;

use crate::agents::eval_choice::Evaluator;
use crate::agents::eval_margin::{limit_reached, StallTracker};
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::rules::Rules;
use crate::engine::seeding::with_own_stream;
use crate::engine::side::Side;

pub use info::{MctsInfo, MoveStats};
pub use leaf::{logistic_reward, LEAF_SCALE};
pub use node::Proof;
pub use rollout::RolloutPolicy;

use leaf::{end_margin, end_reward, leaf_reward, south_margin};
use node::Node;
use proof::{proven_reward, terminal_proof};
use rave::{slot, Amaf, NO_SLOTS};
use searched::Searched;

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

/// The opt-in enhancements of [`Mcts`]; the default turns them all off, and
/// then the search is plain UCT, draw for draw.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct MctsOptions {
    /// MCTS-Solver (`solver`): prove wins, draws and losses.
    pub solver: bool,
    /// Progressive bias weight `w` (`select`); 0 is off.
    pub progressive_bias: f64,
    /// RAVE's schedule constant `k` (`rave`); 0 is off.
    pub rave: f64,
    /// GRAVE's reference threshold: AMAF values come from the closest ancestor
    /// with more than this many playouts; 0 is plain RAVE.
    pub grave_ref: u32,
    /// Keep the subtree of the position reached between moves (`reuse`).
    pub reuse: bool,
    /// `iterations` is per legal move (`per_legal_move`): k legal moves get
    /// `iterations x k` playouts, as Ludii's SkillTrace budgets its UCT.
    pub per_legal_move: bool,
}

impl MctsOptions {
    /// Whether the descent needs the enhanced selection rule.
    fn enhanced(&self) -> bool {
        self.solver || self.progressive_bias > 0.0 || self.rave > 0.0
    }
}

/// UCT: Monte Carlo tree search with the UCB1 selection rule (Kocsis &
/// Szepesvári 2006, "Bandit based Monte-Carlo planning"; Browne et al. 2012, "A
/// survey of Monte Carlo tree search methods").
///
/// Each iteration descends the tree by UCB1 (`mean + c·√(ln N / n)`, unvisited
/// children first in a random order drawn once), expands the leaf's children,
/// scores the first new child (by a rollout, or by the evaluation) and backs
/// its reward up the path. The move played is the root child with the most
/// visits.
///
/// - `iterations` (required): playouts per move.
/// - `exploration` (default √2): the constant `c`.
/// - `rollout` (default `random`): `random` plays uniform moves, `greedy` plays
///   [`crate::agents::Greedy`]'s move, `none` plays no rollout and scores the
///   new leaf by the evaluation through [`logistic_reward`].
/// - `rollout_cap` (default 200): a rollout still running after this many plies
///   is scored by the evaluation, as if the game stalled there.
/// - [`MctsOptions`]: MCTS-Solver, progressive bias, RAVE/GRAVE, tree reuse.
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
    options: MctsOptions,
    evaluator: Evaluator,
    nodes: Vec<Node>,
    /// Progressive bias's `H` per node (empty when off).
    heuristic: Vec<f32>,
    /// Per node, the first of its AMAF slots ([`NO_SLOTS`] when unexpanded;
    /// empty when RAVE is off).
    amaf_at: Vec<u32>,
    amaf: Vec<Amaf>,
    /// The game the tree was searched for (tree reuse only).
    searched: Option<Searched>,
    /// The agent's `seed`: its random numbers come from a stream of the
    /// game's generator of its own ([`with_own_stream`]); `None`, from the
    /// game's stream itself.
    seed: Option<u64>,
}

/// Bytes of one tree node (the run's memory check).
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>();
/// Bytes of one AMAF slot (the run's memory check).
pub(crate) const AMAF_BYTES: usize = std::mem::size_of::<Amaf>();

impl Mcts {
    /// A searcher with these parameters.
    pub fn new(params: MctsParams) -> Mcts {
        Mcts {
            params,
            options: MctsOptions::default(),
            evaluator: Evaluator::default(),
            nodes: Vec::new(),
            heuristic: Vec::new(),
            amaf_at: Vec::new(),
            amaf: Vec::new(),
            searched: None,
            seed: None,
        }
    }

    /// The same searcher drawing its random numbers (the children's order,
    /// the rollouts) from stream `seed` of the game's generator; `None`
    /// draws them from the game's stream, as a searcher without a seed.
    pub fn with_seed(mut self, seed: Option<u64>) -> Mcts {
        self.seed = seed;
        self
    }

    /// The same searcher scoring capped rollouts with `evaluator`.
    pub fn with_evaluator(mut self, evaluator: Evaluator) -> Mcts {
        self.evaluator = evaluator;
        self
    }

    /// The same searcher with these enhancements.
    pub fn with_options(mut self, options: MctsOptions) -> Mcts {
        self.options = options;
        self
    }

    /// Runs the search from the current position of `game` and returns the most
    /// visited move with its visit count.
    ///
    /// # Panics
    /// If the game is over: there is no move to choose.
    pub fn search(&mut self, game: &Game, rng: &mut AgentRng) -> (Move, u32) {
        let info = self.search_info(game, rng);
        (info.best, info.best_visits)
    }

    /// Runs the search from the current position of `game` and reports it:
    /// the move chosen, the playouts, each root move's visits, mean reward and
    /// proof. Under MCTS-Solver the search stops early once the root is proven.
    ///
    /// # Panics
    /// If the game is over: there is no move to choose.
    pub fn search_info(&mut self, game: &Game, rng: &mut AgentRng) -> MctsInfo {
        match self.seed {
            None => self.search_with(game, rng),
            Some(seed) => with_own_stream(rng, seed, |own| self.search_with(game, own)),
        }
    }

    /// [`Mcts::search_info`] drawing from `rng` as it is.
    fn search_with(&mut self, game: &Game, rng: &mut AgentRng) -> MctsInfo {
        let rules = *game.rules();
        let reused = self.options.reuse && self.reuse_tree(game);
        let kept = if reused { self.nodes.len() as u32 } else { 0 };
        if !reused {
            self.fresh_tree(game);
        }
        let mut path = Vec::with_capacity(64);
        let budget = if self.options.per_legal_move {
            let legal = game.legal_moves().len().max(1) as u64;
            (u64::from(self.params.iterations) * legal).min(u64::from(u32::MAX)) as u32
        } else {
            self.params.iterations
        };
        let mut iterations = 0;
        while iterations < budget {
            if self.options.solver && self.nodes[0].proof != Proof::Unknown {
                break;
            }
            if self.options.enhanced() {
                self.iterate_enhanced(&rules, rng, &mut path);
            } else {
                self.iterate(&rules, rng, &mut path);
            }
            iterations += 1;
        }
        if self.options.reuse {
            self.searched = Some(Searched::of(game));
        }
        let best = if self.options.solver {
            self.solver_choice()
        } else {
            self.most_visited()
        };
        MctsInfo::of_tree(&self.nodes, best, iterations, kept)
    }

    /// Clears the tree and plants the root: `game`'s position.
    fn fresh_tree(&mut self, game: &Game) {
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
        self.heuristic.clear();
        self.amaf_at.clear();
        self.amaf.clear();
        if self.options.progressive_bias > 0.0 {
            self.heuristic.push(0.0);
        }
        if self.options.rave > 0.0 {
            self.amaf_at.push(NO_SLOTS);
        }
    }

    /// The root child with the most visits (then the highest total; the last
    /// of equals).
    fn most_visited(&self) -> u32 {
        self.nodes[0]
            .child_range()
            .max_by(|&a, &b| {
                let (a, b) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                (a.visits, a.total)
                    .partial_cmp(&(b.visits, b.total))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .expect("the root of an unfinished game has a move")
    }

    /// One selection, expansion, rollout and back-up of plain UCT.
    fn iterate(&mut self, rules: &Rules, rng: &mut AgentRng, path: &mut Vec<u32>) {
        path.clear();
        let mut at = 0u32;
        path.push(at);
        while self.nodes[at as usize].expanded && !self.nodes[at as usize].terminal {
            at = self.select_plain(at);
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
            self.leaf(&node, rules, rng, |_, _| {})
        };
        self.back_up(path, south);
    }

    /// One iteration with the enhancements: the descent stops at proven nodes
    /// too, keeps GRAVE's reference node, and picks the new child by the
    /// enhanced rule; the back-up updates AMAF statistics and proofs.
    fn iterate_enhanced(&mut self, rules: &Rules, rng: &mut AgentRng, path: &mut Vec<u32>) {
        let solver = self.options.solver;
        let stops = |node: &Node| node.terminal || (solver && node.proof != Proof::Unknown);
        path.clear();
        let mut at = 0u32;
        let mut reference = 0u32;
        path.push(at);
        while self.nodes[at as usize].expanded && !stops(&self.nodes[at as usize]) {
            if self.nodes[at as usize].visits > self.options.grave_ref {
                reference = at;
            }
            at = self.select_enhanced(at, reference);
            path.push(at);
        }
        if !stops(&self.nodes[at as usize]) {
            self.expand(at, rules, rng);
            if self.nodes[at as usize].visits > self.options.grave_ref {
                reference = at;
            }
            at = self.select_enhanced(at, reference);
            path.push(at);
        }
        let node = self.nodes[at as usize];
        let holes = node.pos.holes();
        let mut played = 0u32;
        let south = if node.terminal {
            end_reward(&node.pos, rules)
        } else if node.proof != Proof::Unknown {
            let reward = proven_reward(node.proof);
            match node.mover {
                Side::South => reward,
                Side::North => 1.0 - reward,
            }
        } else {
            self.leaf(&node, rules, rng, |side, mv| {
                if let Some(s) = slot(side, mv, holes) {
                    played |= 1 << s;
                }
            })
        };
        self.back_up(path, south);
        if self.options.rave > 0.0 {
            self.back_up_amaf(path, played, south);
        }
        if solver {
            self.propagate(path);
        }
    }

    /// The reward of a new, unproven leaf for South.
    fn leaf(
        &self,
        node: &Node,
        rules: &Rules,
        rng: &mut AgentRng,
        record: impl FnMut(Side, Move),
    ) -> f64 {
        leaf_reward(
            self.params.rollout,
            self.params.rollout_cap,
            &self.evaluator,
            node.pos,
            node.since,
            rules,
            rng,
            record,
        )
    }

    /// Adds South's reward `south` to every node of `path`, for its mover.
    fn back_up(&mut self, path: &[u32], south: f64) {
        for &i in path.iter() {
            let node = &mut self.nodes[i as usize];
            node.visits += 1;
            node.total += match node.mover {
                Side::South => south,
                Side::North => 1.0 - south,
            };
        }
    }

    /// Adds the playout to the AMAF slots of every expanded node of `path`:
    /// each move played after the node (in the tree below it, then in the
    /// rollout, whose moves are the bits of `played`) counts once, with its
    /// owner's reward.
    fn back_up_amaf(&mut self, path: &[u32], mut played: u32, south: f64) {
        for &i in path.iter().rev() {
            let node = self.nodes[i as usize];
            let holes = node.pos.holes() as u32;
            let slots = self.amaf_at[i as usize];
            if slots != NO_SLOTS {
                let mut bits = played;
                while bits != 0 {
                    let s = bits.trailing_zeros();
                    bits &= bits - 1;
                    let reward = if s < holes { south } else { 1.0 - south };
                    let stats = &mut self.amaf[(slots + s) as usize];
                    stats.visits += 1;
                    stats.total += reward;
                }
            }
            if let Some(s) = slot(node.mover, node.mv, node.pos.holes()) {
                played |= 1 << s;
            }
        }
    }

    /// Adds every child of `at`, in a random order, with what the enabled
    /// enhancements need of them.
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
        if self.options.enhanced() {
            self.expand_extras(at, first, rules);
        }
    }

    /// The enhancements' data for the new children `first..` of `at`: proofs of
    /// terminal children, heuristic values, AMAF slots.
    fn expand_extras(&mut self, at: u32, first: usize, rules: &Rules) {
        for i in first..self.nodes.len() {
            let child = self.nodes[i];
            if self.options.solver && child.terminal {
                self.nodes[i].proof = terminal_proof(&child, rules);
            }
            if self.options.progressive_bias > 0.0 {
                let south = if child.terminal {
                    end_margin(&child.pos, rules)
                } else {
                    south_margin(&self.evaluator, &child.pos, rules)
                };
                let margin = match child.mover {
                    Side::South => south,
                    Side::North => -south,
                };
                self.heuristic.push(logistic_reward(margin) as f32);
            }
        }
        if self.options.rave > 0.0 {
            self.amaf_at.resize(self.nodes.len(), NO_SLOTS);
            self.amaf_at[at as usize] = self.amaf.len() as u32;
            let width = 2 * self.nodes[at as usize].pos.holes() as usize;
            self.amaf.resize(self.amaf.len() + width, Amaf::default());
        }
    }
}

impl Agent for Mcts {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        self.search(game, rng).0
    }

    fn new_game(&mut self, _rules: &Rules) {
        self.searched = None;
        self.nodes.clear();
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;
    use crate::engine::position::Position;
    use crate::engine::rules::Variant;

    fn searcher(iterations: u32, options: MctsOptions) -> Mcts {
        Mcts::new(MctsParams {
            iterations,
            exploration: MctsParams::DEFAULT_EXPLORATION,
            rollout: RolloutPolicy::Random,
            rollout_cap: 20,
        })
        .with_options(options)
    }

    /// Every playout through a root child played that child's move after the
    /// root, so the root's AMAF count of the move is at least the child's
    /// visits; the AMAF counts of one side's moves never exceed the playouts.
    #[test]
    fn amaf_counts_every_move_played_after_a_node() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).expect("valid");
        let game = Game::new(rules);
        let mut mcts = searcher(
            500,
            MctsOptions {
                rave: 100.0,
                ..MctsOptions::default()
            },
        );
        let mut rng = AgentRng::seed_from_u64(4);
        mcts.search_info(&game, &mut rng);
        let root = mcts.nodes[0];
        let slots = mcts.amaf_at[0] as usize;
        for i in root.child_range() {
            let child = mcts.nodes[i as usize];
            let s = slot(Side::South, child.mv, 6).expect("a sowing");
            assert!(mcts.amaf[slots + s].visits >= child.visits);
            assert!(mcts.amaf[slots + s].visits <= root.visits);
        }
        assert_eq!(mcts.amaf_at.len(), mcts.nodes.len());
        let expanded = mcts.nodes.iter().filter(|n| n.expanded).count();
        assert_eq!(mcts.amaf.len(), expanded * 12);
    }

    /// `per_legal_move` multiplies the playouts by the legal moves of the
    /// position searched (Ludii's SkillTrace budget): 6 at the start of 2x6,
    /// 2 where only two holes can be sown; without it the count is as given.
    #[test]
    fn per_legal_move_multiplies_the_playouts_by_the_legal_moves() {
        let rules = Rules::new(Variant::Ii).with_board(6, 4).expect("valid");
        let per_move = MctsOptions {
            per_legal_move: true,
            ..MctsOptions::default()
        };
        let start = Game::new(rules);
        let mut rng = AgentRng::seed_from_u64(1);
        let info = searcher(10, per_move).search_info(&start, &mut rng);
        assert_eq!(info.iterations, 60);
        let info = searcher(10, MctsOptions::default()).search_info(&start, &mut rng);
        assert_eq!(info.iterations, 10);
        let pos: Position = "0,0,0,0,3,5/4,4,4,4,4,4 S 8-8".parse().expect("valid");
        let two = Game::from_position(rules, pos);
        assert_eq!(two.legal_moves().len(), 2);
        let info = searcher(10, per_move).search_info(&two, &mut rng);
        assert_eq!(info.iterations, 20);
    }

    /// A seed draws the search's random numbers from a stream of its own:
    /// the same seed the same search, another seed another, and no seed the
    /// game's stream as before.
    #[test]
    fn a_seed_gives_another_reproducible_search() {
        let game = Game::new(Rules::new(Variant::Ii));
        let search = |seed| {
            let mut mcts = searcher(200, MctsOptions::default()).with_seed(seed);
            mcts.search_info(&game, &mut AgentRng::seed_from_u64(5))
        };
        let plain = searcher(200, MctsOptions::default())
            .search_info(&game, &mut AgentRng::seed_from_u64(5));
        assert_eq!(search(None), plain);
        assert_eq!(search(Some(3)), search(Some(3)));
        assert_ne!(search(Some(3)), plain);
        assert_ne!(search(Some(3)), search(Some(4)));
    }

    /// Proofs are held by sides: South's hole 2 makes a casa in hole 3, and
    /// with 2 seeds left the game ends, South taking them (16-10). The child
    /// is a win for South, who moved into it; the root is a loss for North,
    /// who moved into it, and a win for South, the side to move. (The tables
    /// test of tests/mcts.rs checks proofs through extra moves at large.)
    ///      N: 4  3  2  1  (North's hole 1 is at the right, seen from South)
    ///         0  0  0  2
    ///         0  1  3  0
    ///      S: 1  2  3  4
    #[test]
    fn proofs_follow_the_side_to_move_through_extra_moves() {
        let rules = Rules::new(Variant::Ii).with_board(4, 4).expect("valid");
        let pos: Position = "0,1,3,0/2,0,0,0 S 10-10".parse().expect("valid");
        let game = Game::from_position(rules, pos);
        let mut mcts = searcher(
            5000,
            MctsOptions {
                solver: true,
                ..MctsOptions::default()
            },
        );
        let mut rng = AgentRng::seed_from_u64(1);
        let info = mcts.search_info(&game, &mut rng);
        assert_eq!(info.proven, Proof::Win, "{info:?}");
        assert_eq!(
            mcts.nodes[0].proof,
            Proof::Loss,
            "for North, who moved last"
        );
        let best = &mcts.nodes[mcts.solver_choice() as usize];
        assert_eq!((best.mover, best.proof), (Side::South, Proof::Win));
    }
}

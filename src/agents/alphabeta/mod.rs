//! Full-width game-tree search, the strong and exactly reproducible opponent:
//! negamax alpha-beta with iterative deepening and a transposition table, and
//! opt-in enhancements (principal variation search, aspiration windows, killer
//! and history ordering, quiescence, late move reductions, exact endgame-table
//! scores).
//!
//! One concept per file: the driver here (iterative deepening, aspiration,
//! budgets), the node search in `search`, the quiescence search in
//! `quiescence`, move ordering in `ordering`, the transposition table and the
//! principal variation in `tt`, the tables' exact scores in `endgame`, the
//! spec keys in `options`.

mod endgame;
pub(crate) mod options;
mod ordering;
mod quiescence;
mod search;
mod tt;

use std::time::{Duration, Instant};

use crate::agents::eval_choice::Evaluator;
use crate::agents::eval_margin::{Score, StallTracker};
use crate::agents::tablebase::TablebaseAgentError;
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::game::Game;
use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

use endgame::Endgame;
pub use options::SearchOptions;
use ordering::MoveOrder;
use tt::Entry;

/// Larger than any margin (at most 255 seeds are in play).
const INF: Score = 10_000;
/// How often, in nodes, a time budget looks at the clock.
const CLOCK_EVERY: u64 = 2048;
/// The longest line, in plies, the search follows (main search, extra moves
/// and quiescence together); a quiescence line stops there.
const MAX_LINE: usize = 512;

/// Bytes of the transposition table of a searcher with these options (the
/// run's memory check).
pub(crate) fn tt_bytes(options: &SearchOptions) -> u64 {
    (tt::slots_of(options.tt_mb()) * tt::ENTRY_BYTES) as u64
}

/// What limits a search: a nominal depth, and optionally nodes and wall-clock time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlphaBetaBudget {
    /// Deepest iteration, in plies (extra moves count as plies).
    pub depth: u32,
    /// Stop after this many nodes, keeping the last finished iteration.
    pub nodes: Option<u64>,
    /// Stop after this many milliseconds: not reproducible.
    pub time_ms: Option<u64>,
}

/// The deepest iteration allowed, as a literal: [`AlphaBetaBudget::MAX_DEPTH`]
/// and the agent files' description of `depth` are both written from it, so
/// the limit is stated once (and checked once, by `AgentSpec::validate`).
macro_rules! max_depth {
    () => {
        64
    };
}
pub(crate) use max_depth;

impl AlphaBetaBudget {
    /// The default depth: [`AlphaBeta`] with no parameter searches 8 plies.
    pub const DEFAULT_DEPTH: u32 = 8;
    /// The deepest iteration allowed, the cap when only nodes or time are given.
    pub const MAX_DEPTH: u32 = max_depth!();
}

/// The result of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchInfo {
    /// The move chosen.
    pub best: Move,
    /// Its score, a seed margin for the side to move.
    pub score: Score,
    /// The last depth searched completely.
    pub depth: u32,
    /// Positions made: the root and every child simulated by move generation
    /// (each legal move is played in full to be generated, so this counts what
    /// chess engines count, one per move made).
    pub nodes: u64,
    /// Positions searched: the root and every child the search went into (a
    /// child cut off before it is searched is made but not visited).
    pub visited: u64,
}

/// Negamax alpha-beta search (Knuth & Moore 1975, "An analysis of alpha-beta
/// pruning") with iterative deepening and a transposition table (Greenblatt,
/// Eastlake & Crocker 1967; Zobrist 1970 for the hashing idea).
///
/// - Scores are seed margins for the side to move (the agent's [`Evaluator`],
///   by default [`crate::evaluate`]): a finished game scores its true margin, a
///   stalled line the margin the `leftover` policy gives, a leaf the
///   evaluation. A line is stalled when it reaches `no_capture_limit` plies
///   without a capture (counting the game's own plies) or repeats a position
///   seen since the last capture (in the game or on the line): a repetition is
///   taken to be headed for the stall, as chess engines score a repetition as a
///   draw.
/// - Extra moves: after a capture in II and III the same side moves again, so
///   the child is searched with the same window and its score is not negated.
/// - Move ordering: the table's move, then captures (most seeds first).
/// - The table lives for one game: it is kept between the moves of a game and
///   cleared by [`Agent::new_game`], when the rules change, and when a search
///   is asked about a game that does not continue the last one (another start
///   position, or fewer moves), so that it never carries over between games.
/// - Budget: `depth` (default 8, [`AlphaBetaBudget::DEFAULT_DEPTH`]; the roster's
///   `alphabeta-d8` is the default alpha-beta); `nodes` stops the deepening
///   after that many nodes and plays the last finished iteration's move (depth
///   then defaults to 64); `time_ms` does the same by the clock and is the only
///   budget that makes play depend on the machine. No randomness is used.
/// - Enhancements ([`SearchOptions`], all off by default, when the plain search
///   runs unchanged): principal variation search (Marsland & Campbell 1982,
///   "Parallel search of strongly ordered game trees"; Reinefeld 1983,
///   NegaScout) with aspiration windows around the previous iteration's score
///   (Baudet 1978); killer moves and the history heuristic (see `ordering`);
///   a quiescence search over capturing turns at the leaves (Beal 1990, "A
///   generalised quiescence search algorithm"); exact endgame-table scores at
///   any node inside the tables; a table that keeps the deepest entry of each
///   pair of slots (`tt_deep`, see `tt`).
#[derive(Debug, Clone)]
pub struct AlphaBeta {
    budget: AlphaBetaBudget,
    evaluator: Evaluator,
    options: SearchOptions,
    /// Whether the transposition table is used (off only to check exactness).
    use_tt: bool,
    rules: Option<Rules>,
    /// The game last searched: its start and moves played.
    game_start: Option<(Position, u32)>,
    tt: Vec<Entry>,
    /// The number of searches since the table was last cleared, modulo 256:
    /// the age of the entries this search writes.
    age: u8,
    order: MoveOrder,
    endgame: Option<Endgame>,
    nodes: u64,
    visited: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
    tracker: StallTracker,
    /// Hash keys of the positions on the current line.
    path: Vec<u64>,
}

impl AlphaBeta {
    /// A searcher with this budget.
    pub fn new(budget: AlphaBetaBudget) -> AlphaBeta {
        AlphaBeta {
            budget,
            evaluator: Evaluator::default(),
            options: SearchOptions::default(),
            use_tt: true,
            rules: None,
            game_start: None,
            tt: vec![Entry::default(); tt::slots_of(options::DEFAULT_TT_MB)],
            age: 0,
            order: MoveOrder::new(AlphaBetaBudget::MAX_DEPTH as usize + 1),
            endgame: None,
            nodes: 0,
            visited: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            tracker: StallTracker::default(),
            path: Vec::with_capacity(AlphaBetaBudget::MAX_DEPTH as usize + 1),
        }
    }

    /// The same searcher scoring its leaves with `evaluator`.
    pub fn with_evaluator(mut self, evaluator: Evaluator) -> AlphaBeta {
        self.evaluator = evaluator;
        self
    }

    /// The same searcher with these enhancements.
    pub fn with_options(mut self, options: SearchOptions) -> AlphaBeta {
        let slots = tt::slots_of(options.tt_mb());
        if self.tt.len() != slots {
            self.tt = vec![Entry::default(); slots];
        }
        self.options = options;
        self
    }

    /// The same searcher without a transposition table: slower, but its score
    /// at a fixed depth is the exact depth-limited value whatever the move
    /// order, which is how the enhancements are checked against the plain
    /// search.
    pub fn without_transpositions(mut self) -> AlphaBeta {
        self.use_tt = false;
        self
    }

    /// Loads the endgame tables of the options for `rules` and positions of
    /// up to `seeds` seeds, unless they are loaded already; says why they
    /// cannot be built. Without `max_seeds`, or under rules the tables do not
    /// hold for, nothing is loaded.
    pub fn prepare(&mut self, rules: &Rules, seeds: u32) -> Result<(), TablebaseAgentError> {
        let Some(max_seeds) = self.options.max_seeds else {
            return Ok(());
        };
        if self.rules == Some(*rules)
            && self
                .endgame
                .as_ref()
                .is_some_and(|e| e.covers(seeds.max(rules.total_seeds()), max_seeds))
        {
            return Ok(());
        }
        self.endgame = Endgame::load(rules, max_seeds, seeds, self.options.tables.as_deref())?;
        Ok(())
    }

    /// Searches the current position of `game` (not over) within the budget.
    ///
    /// # Panics
    /// When the options ask for endgame tables that cannot be built and
    /// [`AlphaBeta::prepare`] (or [`crate::prepare_tables`]) was not asked first.
    pub fn search(&mut self, game: &Game) -> SearchInfo {
        if self.rules != Some(*game.rules()) || !self.continues(game) {
            self.clear(game.rules());
        }
        self.game_start = Some((*game.start(), game.plies()));
        self.age = self.age.wrapping_add(1);
        let rules = *game.rules();
        let root = *game.position();
        if let Err(err) = self.prepare(&rules, root.seeds_on_board()) {
            panic!(
                "{err}: {} (prepare_tables reports this before play)",
                err.cause
            );
        }
        self.tracker = StallTracker::of(game);
        self.nodes = 1;
        self.visited = 1;
        self.aborted = false;
        self.node_limit = u64::MAX;
        self.deadline = None;
        if self.enhanced() {
            self.order.clear();
            self.deepen::<true>(&rules, &root)
        } else {
            self.deepen::<false>(&rules, &root)
        }
    }

    /// The principal variation of the last search of `game`'s position, its
    /// best move `best` first (at most `max` moves; shorter where the table
    /// lost the line).
    pub fn principal_variation(&self, game: &Game, best: Move, max: usize) -> Vec<Move> {
        // `tt_deep` is an enhancement: with it the enhanced search ran.
        let deep = self.options.tt_deep;
        tt::principal_variation(&self.tt, deep, game.rules(), game.position(), best, max)
    }

    /// The options in use.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Whether the enhanced search runs (some option on, or no table).
    fn enhanced(&self) -> bool {
        self.options.any() || !self.use_tt || self.endgame.is_some()
    }

    /// Whether `game` continues the game searched last: the same start, and at
    /// least as many moves.
    fn continues(&self, game: &Game) -> bool {
        match self.game_start {
            Some((start, plies)) => start == *game.start() && game.plies() >= plies,
            None => true,
        }
    }

    /// Iterative deepening from 1 ply to the budget's depth.
    fn deepen<const E: bool>(&mut self, rules: &Rules, root: &Position) -> SearchInfo {
        let mut info = SearchInfo {
            best: Move::Pass,
            score: 0,
            depth: 0,
            nodes: 0,
            visited: 0,
        };
        for depth in 1..=self.budget.depth.min(AlphaBetaBudget::MAX_DEPTH) {
            let result = if E && self.options.aspiration > 0 && depth > 1 {
                self.aspirate(rules, root, depth, info.best, info.score)
            } else {
                self.root::<E>(rules, root, depth, info.best, -INF, INF)
            };
            let Some((best, score)) = result else {
                break;
            };
            info = SearchInfo {
                best,
                score,
                depth,
                nodes: self.nodes,
                visited: self.visited,
            };
            // Budgets apply once one iteration has given a move.
            if depth == 1 {
                self.node_limit = self.budget.nodes.unwrap_or(u64::MAX);
                self.deadline = self
                    .budget
                    .time_ms
                    .map(|ms| Instant::now() + Duration::from_millis(ms));
            }
        }
        info.nodes = self.nodes;
        info.visited = self.visited;
        info
    }

    /// One iteration in an aspiration window around `guess`, the window's side
    /// that the score falls on opened and searched again until the score is
    /// inside (Baudet 1978); `None` if the budget ran out.
    fn aspirate(
        &mut self,
        rules: &Rules,
        root: &Position,
        depth: u32,
        previous: Move,
        guess: Score,
    ) -> Option<(Move, Score)> {
        let width = self.options.aspiration as Score;
        let (mut alpha, mut beta) = (guess - width, guess + width);
        loop {
            let (best, score) = self.root::<true>(rules, root, depth, previous, alpha, beta)?;
            if score <= alpha && alpha > -INF {
                alpha = -INF;
            } else if score >= beta && beta < INF {
                beta = INF;
            } else {
                return Some((best, score));
            }
        }
    }

    /// Forgets the table and takes `rules` for the game to come.
    fn clear(&mut self, rules: &Rules) {
        if self.rules != Some(*rules) {
            self.endgame = None;
        }
        self.rules = Some(*rules);
        self.game_start = None;
        self.tt.fill(Entry::default());
        self.age = 0;
    }
}

impl Agent for AlphaBeta {
    fn choose(&mut self, game: &Game, _rng: &mut AgentRng) -> Move {
        let moves = game.legal_moves();
        if moves.len() == 1 {
            return moves[0];
        }
        self.search(game).best
    }

    fn new_game(&mut self, rules: &Rules) {
        self.clear(rules);
    }
}

//! What an agent can say about a position besides its move, for `hoyito best`
//! (the equivalent of a UCI `go`): the search's depth, nodes, score and
//! principal variation where the agent has them.
//!
//! An agent that has something to report implements [`Analyse`] and gets an
//! arm in [`analyse`]; any other agent is asked for its move alone. MCTS is the
//! next to plug in (iterations, the root's visits per move).

use thiserror::Error;

use crate::agents::alphabeta::AlphaBeta;
use crate::agents::mcts::node::Proof;
use crate::agents::mcts::Mcts;
use crate::agents::spec::AgentSpec;
use crate::agents::tablebase::TablebaseAgentError;
use crate::engine::agent_trait::{Agent, AgentRng};
use crate::engine::forfeit::Forfeit;
use crate::engine::game::Game;
use crate::engine::moves::Move;

/// The most moves of a principal variation reported.
const PV_MAX: usize = 32;

/// An agent's answer about one position: lines of search information
/// (`name value`), and its move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Search information, one `name value` pair a line (none for agents that
    /// report only their move).
    pub lines: Vec<String>,
    /// The move chosen.
    pub mv: Move,
}

/// An agent that reports how it chose its move.
pub trait Analyse {
    /// Chooses a move for the side to move of `game` (not over), reporting
    /// the search behind it.
    fn analyse(&mut self, game: &Game, rng: &mut AgentRng) -> Analysis;
}

impl Analyse for AlphaBeta {
    /// `depth`, `score` (a seed margin for the side to move, the captures so
    /// far included), `nodes` (made), `visited` and `pv`. The search runs even
    /// when only one move is legal, so that its score is reported.
    fn analyse(&mut self, game: &Game, _rng: &mut AgentRng) -> Analysis {
        let info = self.search(game);
        let pv: Vec<String> = self
            .principal_variation(game, info.best, PV_MAX)
            .iter()
            .map(Move::to_string)
            .collect();
        Analysis {
            lines: vec![
                format!("depth {}", info.depth),
                format!("score {:+}", info.score),
                format!("nodes {}", info.nodes),
                format!("visited {}", info.visited),
                format!("pv {}", pv.join(" ")),
            ],
            mv: info.best,
        }
    }
}

/// MCTS reports its playouts, the root's proof (MCTS-Solver) and each root
/// move's visits and mean reward, most visited first.
impl Analyse for Mcts {
    fn analyse(&mut self, game: &Game, rng: &mut AgentRng) -> Analysis {
        let info = self.search_info(game, rng);
        let proof = |p: Proof| match p {
            Proof::Unknown => "unknown",
            Proof::Win => "win",
            Proof::Draw => "draw",
            Proof::Loss => "loss",
        };
        let mut moves = info.moves.clone();
        moves.sort_by_key(|m| std::cmp::Reverse(m.visits));
        let mut lines = vec![
            format!("iterations {}", info.iterations),
            format!("root_visits {}", info.root_visits),
            format!("reused_nodes {}", info.reused_nodes),
            format!("proven {}", proof(info.proven)),
            format!("mean {:.3}", info.best_mean),
        ];
        lines.extend(moves.iter().map(|m| {
            format!(
                "root {} visits {} mean {:.3} proof {}",
                m.mv,
                m.visits,
                m.mean,
                proof(m.proof)
            )
        }));
        Analysis {
            lines,
            mv: info.best,
        }
    }
}

/// Why an agent gives no analysis.
#[derive(Debug, Error)]
pub enum AnalysisError {
    /// A person plays at the terminal: there is no search to ask.
    #[error("a {0} agent is a person at the terminal: it has no analysis to give")]
    Person(&'static str),
    /// The agent's endgame tables cannot be built.
    #[error(transparent)]
    Tables(#[from] TablebaseAgentError),
    /// An agent in another process failed to answer.
    #[error("the agent gave no move: {0}")]
    Forfeit(#[from] Forfeit),
}

/// The analysis of the agent `spec` (validated, its tables prepared: see
/// [`crate::prepare_tables`]) for a new game from `game` (not over): the agents
/// that implement [`Analyse`] report their search, the others their move only.
pub fn analyse(
    spec: &AgentSpec,
    game: &Game,
    rng: &mut AgentRng,
) -> Result<Analysis, AnalysisError> {
    if let Some(mut searcher) = spec.alphabeta() {
        searcher.new_game(game.rules());
        searcher.prepare(game.rules(), game.position().seeds_on_board())?;
        return Ok(searcher.analyse(game, rng));
    }
    if let Some(mut searcher) = spec.mcts() {
        searcher.new_game(game.rules());
        return Ok(searcher.analyse(game, rng));
    }
    if let AgentSpec::Human = spec {
        return Err(AnalysisError::Person(spec.kind()));
    }
    let mut agent = spec.build();
    agent.new_game(game.rules());
    let mv = agent.try_choose(game, rng)?;
    Ok(Analysis {
        lines: Vec::new(),
        mv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::alphabeta::AlphaBetaBudget;
    use crate::engine::rules::{Rules, Variant};
    use rand::SeedableRng;

    #[test]
    fn alphabeta_reports_its_search_and_the_pv_starts_with_its_move() {
        let rules = Rules::new(Variant::Ii).with_board(4, 2).expect("a board");
        let game = Game::new(rules);
        let mut rng = AgentRng::seed_from_u64(1);
        let mut searcher = AlphaBeta::new(AlphaBetaBudget {
            depth: 6,
            nodes: None,
            time_ms: None,
        });
        let analysis = searcher.analyse(&game, &mut rng);
        let names: Vec<&str> = analysis
            .lines
            .iter()
            .filter_map(|l| l.split(' ').next())
            .collect();
        assert_eq!(names, ["depth", "score", "nodes", "visited", "pv"]);
        assert_eq!(analysis.lines[0], "depth 6");
        let pv = analysis.lines[4].split(' ').nth(1);
        assert_eq!(pv, Some(analysis.mv.to_string().as_str()));
        let greedy = analyse(&AgentSpec::Greedy, &game, &mut rng).unwrap();
        assert!(greedy.lines.is_empty() && game.legal_moves().contains(&greedy.mv));
        let human = analyse(&AgentSpec::Human, &game, &mut rng).unwrap_err();
        assert!(human.to_string().contains("person"), "{human}");
    }

    #[test]
    fn mcts_reports_its_playouts_and_root_moves() {
        let rules = Rules::new(Variant::Ii).with_board(4, 2).expect("a board");
        let game = Game::new(rules);
        let mut rng = AgentRng::seed_from_u64(1);
        let spec: AgentSpec =
            toml::from_str("kind = \"mcts\"\niterations = 300\nsolver = true").unwrap();
        let analysis = analyse(&spec, &game, &mut rng).unwrap();
        assert!(
            analysis.lines[0].starts_with("iterations "),
            "{:?}",
            analysis.lines
        );
        let roots: Vec<&String> = analysis
            .lines
            .iter()
            .filter(|l| l.starts_with("root "))
            .collect();
        assert_eq!(roots.len(), game.legal_moves().len());
        // The most visited root move comes first, and it is the move played.
        assert!(
            roots[0].starts_with(&format!("root {} ", analysis.mv)),
            "{roots:?}"
        );
    }
}

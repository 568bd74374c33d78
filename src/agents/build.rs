//! The factory: a fresh agent from its spec, and what an agent needs ready
//! before its first game (its endgame tables). Above every kind of agent it
//! builds; no kind reads a spec.

use std::path::PathBuf;

use crate::agents::alphabeta::{AlphaBeta, AlphaBetaBudget};
use crate::agents::diverse::Diverse;
use crate::agents::external::{ExternalAgent, ExternalCommand};
use crate::agents::greedy::Greedy;
use crate::agents::human::HumanAgent;
use crate::agents::mcts::{Mcts, MctsOptions, MctsParams};
use crate::agents::random::RandomAgent;
use crate::agents::spec::{AgentSpec, MAX_ITERATIONS, MAX_TABLEBASE_DEPTH};
use crate::agents::tablebase::{shared_tables_in, TablebaseAgent, TablebaseAgentError};
use crate::engine::agent_trait::Agent;
use crate::engine::rules::Rules;
use crate::solver::MAX_TABLE_SEEDS;

impl AgentSpec {
    /// The external agent of an `external` spec, its standard error appended
    /// to `stderr_log` (discarded when `None`); `None` for any other kind.
    pub fn external(&self, stderr_log: Option<PathBuf>) -> Option<ExternalAgent> {
        match self {
            AgentSpec::External {
                command,
                working_dir,
                move_timeout_ms,
                startup_timeout_ms,
            } => Some(ExternalAgent::new(
                ExternalCommand {
                    command: command.clone(),
                    working_dir: working_dir.clone(),
                    move_timeout_ms: (*move_timeout_ms).max(1),
                    startup_timeout_ms: (*startup_timeout_ms).max(1),
                },
                stderr_log,
            )),
            _ => None,
        }
    }

    /// The MCTS searcher of an `mcts` spec (its search information is what
    /// `hoyito best` prints); `None` for any other kind. Out of range values
    /// are clamped as in [`AgentSpec::build`].
    pub fn mcts(&self) -> Option<Mcts> {
        let AgentSpec::Mcts {
            iterations,
            exploration,
            rollout,
            rollout_cap,
            ref eval,
            solver,
            progressive_bias,
            rave,
            grave_ref,
            reuse,
            per_legal_move,
            seed,
        } = *self
        else {
            return None;
        };
        let nonnegative = |x: f64| if x.is_finite() { x.max(0.0) } else { 0.0 };
        Some(
            Mcts::new(MctsParams {
                iterations: iterations.clamp(1, MAX_ITERATIONS),
                exploration: if exploration.is_finite() {
                    exploration.max(0.0)
                } else {
                    MctsParams::DEFAULT_EXPLORATION
                },
                rollout,
                rollout_cap: rollout_cap.max(1),
            })
            .with_evaluator(eval.build())
            .with_options(MctsOptions {
                solver,
                progressive_bias: nonnegative(progressive_bias),
                rave: nonnegative(rave),
                grave_ref,
                reuse,
                per_legal_move,
            })
            .with_seed(seed),
        )
    }

    /// The alpha-beta searcher of an `alphabeta` spec (its search information
    /// is richer than a move: see [`crate::agents::analyse`]); `None` for any
    /// other kind. Out of range values are clamped as by [`AgentSpec::build`].
    pub fn alphabeta(&self) -> Option<AlphaBeta> {
        let AgentSpec::Alphabeta {
            depth,
            nodes,
            time_ms,
            ref eval,
            ref search,
        } = *self
        else {
            return None;
        };
        let unbounded = nodes.is_some() || time_ms.is_some();
        let default = if unbounded {
            AlphaBetaBudget::MAX_DEPTH
        } else {
            AlphaBetaBudget::DEFAULT_DEPTH
        };
        let budget = AlphaBetaBudget {
            depth: depth
                .unwrap_or(default)
                .clamp(1, AlphaBetaBudget::MAX_DEPTH),
            nodes: nodes.map(|n| n.max(1)),
            time_ms: time_ms.map(|t| t.max(1)),
        };
        Some(
            AlphaBeta::new(budget)
                .with_evaluator(eval.build())
                .with_options(search.clone()),
        )
    }

    /// A fresh agent. The spec should have passed [`AgentSpec::validate`]; out of
    /// range values are clamped to the nearest allowed one. An external agent
    /// built here discards its standard error.
    pub fn build(&self) -> Box<dyn Agent> {
        if let Some(external) = self.external(None) {
            return Box::new(external);
        }
        if let Some(alphabeta) = self.alphabeta() {
            let (plies, margin) = {
                let o = alphabeta.options();
                (o.diverse_plies, o.diverse_margin)
            };
            if plies > 0 {
                return Box::new(Diverse::new(alphabeta, plies, margin));
            }
            return Box::new(alphabeta);
        }
        match *self {
            AgentSpec::External { .. } | AgentSpec::Alphabeta { .. } => {
                unreachable!("built above")
            }
            AgentSpec::Tablebase {
                max_seeds,
                depth,
                ref fallback,
                ref tables,
            } => Box::new(
                TablebaseAgent::new(
                    max_seeds.min(MAX_TABLE_SEEDS),
                    depth.clamp(1, MAX_TABLEBASE_DEPTH),
                    fallback.as_ref().map(|f| f.build()),
                )
                .with_tables_dir(tables.clone()),
            ),
            AgentSpec::Random => Box::new(RandomAgent),
            AgentSpec::Greedy => Box::new(Greedy),
            AgentSpec::Human => Box::new(HumanAgent::terminal()),
            AgentSpec::Mcts { .. } => Box::new(self.mcts().expect("an mcts spec")),
        }
    }
}

/// Builds, once per process, the tables that `spec` (a tablebase agent, an
/// alpha-beta agent with `max_seeds`, or none) needs for games under `rules`,
/// and says why when they cannot be built. Any other agent needs nothing: `Ok`.
pub fn prepare_tables(spec: &AgentSpec, rules: &Rules) -> Result<(), TablebaseAgentError> {
    match spec {
        AgentSpec::Tablebase {
            max_seeds, tables, ..
        } => shared_tables_in(rules, *max_seeds, 0, tables.as_deref()).map(drop),
        AgentSpec::Alphabeta { search, .. } => match search.max_seeds {
            Some(k) => shared_tables_in(rules, k, 0, search.tables.as_deref()).map(drop),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

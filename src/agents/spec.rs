//! Agents as data: the `kind`-tagged description that the roster files, the
//! harness configs and the game records share, and that builds a fresh agent.
//!
//! A spec is checked in two steps: serde reads it (unknown kind, unknown or
//! ill-typed parameter, missing field), then [`AgentSpec::validate`] checks the
//! ranges that types cannot express. What builds an agent from a spec is in
//! `build`, above the kinds of agent: no kind reads a spec.

use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::agents::mcts::rollout::RolloutPolicy;

use crate::agents::alphabeta::options::SearchOptions;
use crate::agents::alphabeta::AlphaBetaBudget;
use crate::agents::eval_spec::EvalSpec;
use crate::agents::mcts::MctsParams;
use crate::agents::skip_default::is_default;
use crate::solver::MAX_TABLE_SEEDS;

/// The largest MCTS iteration count accepted (the tree grows with it).
pub(crate) const MAX_ITERATIONS: u32 = 10_000_000;

/// What agent to build, with its parameters; see each agent's documentation for
/// the meaning and defaults of its parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AgentSpec {
    /// [`RandomAgent`](crate::agents::RandomAgent).
    Random,
    /// [`Greedy`](crate::agents::Greedy).
    Greedy,
    /// [`HumanAgent`](crate::agents::HumanAgent): a person at the terminal (one game at a time).
    Human,
    /// [`AlphaBeta`](crate::agents::AlphaBeta): depth 8 when no budget is given.
    Alphabeta {
        /// Deepest iteration in plies, 1..=64.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        depth: Option<u32>,
        /// Node budget per move, at least 1.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
        /// Wall-clock budget per move in milliseconds: not reproducible.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_ms: Option<u64>,
        /// How leaves are scored (default: the material count).
        #[serde(default, skip_serializing_if = "EvalSpec::is_material")]
        eval: EvalSpec,
        /// The enhancements, each its own key (`pvs`, `aspiration`, ...; all off
        /// by default).
        #[serde(flatten)]
        search: SearchOptions,
    },
    /// [`Mcts`](crate::agents::Mcts).
    Mcts {
        /// Playouts per move, 1..=10,000,000 (required).
        iterations: u32,
        /// UCT exploration constant, finite and at least 0 (default √2).
        #[serde(default = "default_exploration")]
        exploration: f64,
        /// Rollout policy (default random).
        #[serde(default)]
        rollout: RolloutPolicy,
        /// Rollout length cap in plies, at least 1 (default 200).
        #[serde(default = "default_rollout_cap")]
        rollout_cap: u32,
        /// How capped rollouts are scored (default: the material count).
        #[serde(default, skip_serializing_if = "EvalSpec::is_material")]
        eval: EvalSpec,
        /// MCTS-Solver: prove wins, draws and losses (default off).
        #[serde(default, skip_serializing_if = "is_default")]
        solver: bool,
        /// Progressive bias weight, finite and at least 0 (default 0, off).
        #[serde(default, skip_serializing_if = "is_default")]
        progressive_bias: f64,
        /// RAVE's schedule constant `k`, finite and at least 0 (default 0, off).
        #[serde(default, skip_serializing_if = "is_default")]
        rave: f64,
        /// GRAVE's reference threshold in playouts (default 0: plain RAVE).
        #[serde(default, skip_serializing_if = "is_default")]
        grave_ref: u32,
        /// Keep the searched tree between the moves of a game (default off).
        #[serde(default, skip_serializing_if = "is_default")]
        reuse: bool,
        /// `iterations` counts playouts per legal move: a position with k
        /// legal moves is searched with `iterations x k` playouts, the budget
        /// of Ludii's SkillTrace (default off).
        #[serde(default, skip_serializing_if = "is_default")]
        per_legal_move: bool,
        /// The agent's own stream of the game's generator: another seed,
        /// other play, each reproducible (default: none, the game's stream;
        /// see `seeding::with_own_stream`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
    /// [`TablebaseAgent`](crate::agents::TablebaseAgent): perfect play within the tables.
    Tablebase {
        /// Largest layer of the tables (seeds on the board), 0..=120 (required).
        /// Memory and build time grow fast: 2x6 up to 16 seeds takes about a
        /// minute and 60 MB.
        max_seeds: u32,
        /// Plies of the table-scored search outside the tables, 1..=16 (default 4).
        #[serde(default = "default_tablebase_depth")]
        depth: u32,
        /// An agent that chooses instead of the search outside the tables.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback: Option<Box<AgentSpec>>,
        /// Where the tables are mapped from (files `hoyito solve --tables
        /// DIR` wrote; missing layers are built and saved there), shared
        /// with every agent and adjudicator of the process that maps the
        /// same files; without it they are built in memory.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tables: Option<PathBuf>,
    },
    /// [`ExternalAgent`](crate::agents::ExternalAgent): a program in any language, spoken to over the
    /// protocol of agents/PROTOCOL.md.
    External {
        /// The program and its arguments, run without a shell (required, not
        /// empty); a relative program path is taken from `working_dir`.
        command: Vec<String>,
        /// The directory it runs in (default: the harness's own).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        working_dir: Option<PathBuf>,
        /// The longest wait for a move in milliseconds, at least 1 (default 10000).
        #[serde(default = "default_timeout_ms")]
        move_timeout_ms: u64,
        /// The longest wait for `ready` after `hoyito 1`, at least 1 (default 10000).
        #[serde(default = "default_timeout_ms")]
        startup_timeout_ms: u64,
    },
}

fn default_timeout_ms() -> u64 {
    10_000
}

/// The deepest table-scored search a tablebase agent may run outside the tables.
pub(crate) const MAX_TABLEBASE_DEPTH: u32 = 16;

fn default_tablebase_depth() -> u32 {
    4
}

fn default_exploration() -> f64 {
    MctsParams::DEFAULT_EXPLORATION
}

fn default_rollout_cap() -> u32 {
    MctsParams::DEFAULT_ROLLOUT_CAP
}

impl AgentSpec {
    /// The kind, as written in files.
    pub fn kind(&self) -> &'static str {
        match self {
            AgentSpec::Random => "random",
            AgentSpec::Greedy => "greedy",
            AgentSpec::Human => "human",
            AgentSpec::Alphabeta { .. } => "alphabeta",
            AgentSpec::Mcts { .. } => "mcts",
            AgentSpec::Tablebase { .. } => "tablebase",
            AgentSpec::External { .. } => "external",
        }
    }

    /// Checks the ranges of the parameters; the message names the field and what
    /// is allowed.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            AgentSpec::Random | AgentSpec::Greedy | AgentSpec::Human => Ok(()),
            AgentSpec::External {
                command,
                move_timeout_ms,
                startup_timeout_ms,
                ..
            } => {
                if command.first().map_or(true, |p| p.is_empty()) {
                    Err(
                        "command = [] is out of range: allowed a list of the program and its \
                         arguments, e.g. [\"python3\", \"agents/examples/random.py\"]"
                            .into(),
                    )
                } else if *move_timeout_ms == 0 {
                    Err("move_timeout_ms = 0 is out of range: allowed at least 1".into())
                } else if *startup_timeout_ms == 0 {
                    Err("startup_timeout_ms = 0 is out of range: allowed at least 1".into())
                } else {
                    Ok(())
                }
            }
            &AgentSpec::Alphabeta {
                depth,
                nodes,
                time_ms,
                ref eval,
                ref search,
            } => {
                eval.validate().map_err(|e| format!("eval.{e}"))?;
                search.validate()?;
                let max = AlphaBetaBudget::MAX_DEPTH;
                match depth {
                    Some(d) if !(1..=max).contains(&d) => {
                        Err(format!("depth = {d} is out of range: allowed 1 to {max}"))
                    }
                    _ if nodes == Some(0) => {
                        Err("nodes = 0 is out of range: allowed at least 1".into())
                    }
                    _ if time_ms == Some(0) => {
                        Err("time_ms = 0 is out of range: allowed at least 1".into())
                    }
                    _ => Ok(()),
                }
            }
            &AgentSpec::Mcts {
                iterations,
                exploration,
                rollout_cap,
                ref eval,
                progressive_bias,
                rave,
                ..
            } => {
                eval.validate().map_err(|e| format!("eval.{e}"))?;
                if !(1..=MAX_ITERATIONS).contains(&iterations) {
                    Err(format!(
                        "iterations = {iterations} is out of range: allowed 1 to {MAX_ITERATIONS}"
                    ))
                } else if !(exploration.is_finite() && exploration >= 0.0) {
                    Err(format!(
                        "exploration = {exploration} is out of range: allowed a finite number at least 0"
                    ))
                } else if rollout_cap == 0 {
                    Err("rollout_cap = 0 is out of range: allowed at least 1".into())
                } else if !(progressive_bias.is_finite() && progressive_bias >= 0.0) {
                    Err(format!(
                        "progressive_bias = {progressive_bias} is out of range: allowed a finite number at least 0"
                    ))
                } else if !(rave.is_finite() && rave >= 0.0) {
                    Err(format!(
                        "rave = {rave} is out of range: allowed a finite number at least 0"
                    ))
                } else {
                    Ok(())
                }
            }
            AgentSpec::Tablebase {
                max_seeds,
                depth,
                fallback,
                ..
            } => {
                if *max_seeds > MAX_TABLE_SEEDS {
                    Err(format!(
                        "max_seeds = {max_seeds} is out of range: allowed 0 to {MAX_TABLE_SEEDS}"
                    ))
                } else if !(1..=MAX_TABLEBASE_DEPTH).contains(depth) {
                    Err(format!(
                        "depth = {depth} is out of range: allowed 1 to {MAX_TABLEBASE_DEPTH}"
                    ))
                } else if let Some(fallback) = fallback {
                    // Nested fields are named by their path (`fallback.depth`),
                    // and each message ends with what is allowed.
                    if fallback.kind() == "tablebase" {
                        return Err("fallback.kind = \"tablebase\" is out of range: allowed \
                             random, greedy, alphabeta or mcts (a tablebase agent cannot \
                             fall back on another)"
                            .into());
                    }
                    if fallback.kind() == "human" {
                        return Err("fallback.kind = \"human\" is out of range: allowed \
                             random, greedy, alphabeta or mcts (a person cannot stand in \
                             for a search)"
                            .into());
                    }
                    fallback.validate().map_err(|e| format!("fallback.{e}"))
                } else {
                    Ok(())
                }
            }
        }
    }

    /// The most memory, in bytes, that one instance of the agent holds while
    /// it plays on a board of `holes` holes per row, for the run's memory
    /// check (shared endgame tables are checked when they are built):
    /// - alpha-beta: its transposition table, `tt_mb` MiB whatever the depth
    ///   (4 by default);
    /// - MCTS: its tree, rebuilt for every move: each iteration expands at
    ///   most one leaf into at most `holes` children, so at most
    ///   `1 + iterations x holes` nodes, times the size of a node (plus 4
    ///   bytes a node with progressive bias, and `2 x holes` AMAF slots per
    ///   iteration with RAVE); twice that with tree reuse, which keeps at most
    ///   `iterations x holes` nodes of the previous move's tree;
    /// - tablebase: its fallback's;
    /// - external: nothing in this process (the agent's own process is its
    ///   own business).
    pub fn memory_per_instance(&self, holes: u8) -> u64 {
        match self {
            AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::Human
            | AgentSpec::External { .. } => 0,
            AgentSpec::Alphabeta { search, .. } => crate::agents::alphabeta::tt_bytes(search),
            &AgentSpec::Mcts {
                iterations,
                progressive_bias,
                rave,
                reuse,
                per_legal_move,
                ..
            } => {
                // With `per_legal_move`, at most `holes` times the playouts.
                let iterations = if per_legal_move {
                    u64::from(iterations) * u64::from(holes.max(1))
                } else {
                    u64::from(iterations)
                };
                let nodes = 1 + iterations * u64::from(holes.max(1));
                let mut node_bytes = crate::agents::mcts::NODE_BYTES as u64;
                if progressive_bias > 0.0 {
                    node_bytes += 4;
                }
                let mut bytes = nodes.saturating_mul(node_bytes);
                if rave > 0.0 {
                    let slots = iterations * 2 * u64::from(holes.max(1));
                    bytes = bytes.saturating_add(
                        slots.saturating_mul(crate::agents::mcts::AMAF_BYTES as u64),
                    );
                }
                if reuse {
                    bytes = bytes.saturating_mul(2);
                }
                bytes
            }
            AgentSpec::Tablebase { fallback, .. } => fallback
                .as_ref()
                .map_or(0, |agent| agent.memory_per_instance(holes)),
        }
    }

    /// Whether the agent plays the same moves from the same seed on any machine:
    /// false for a wall-clock budget and for a person.
    pub fn reproducible(&self) -> bool {
        match self {
            AgentSpec::Human => false,
            AgentSpec::Alphabeta {
                time_ms: Some(_), ..
            } => false,
            AgentSpec::Tablebase {
                fallback: Some(fallback),
                ..
            } => fallback.reproducible(),
            _ => true,
        }
    }

    /// Whether the agent's moves depend on the position alone, never on the
    /// game's generator nor on the clock: two games of it from the same
    /// position are the same game whatever their seeds. Alpha-beta with a
    /// node or depth budget and no diversity is; a tablebase agent is when
    /// its fallback is (or it has none: its search outside the tables is
    /// alpha-beta's); random play, greedy play (it breaks ties at random),
    /// MCTS (its rollouts), a person and a program are not. Each claim is
    /// checked by playing the agent twice from different seeds
    /// (`tests/agents.rs`).
    pub fn deterministic(&self) -> bool {
        match self {
            AgentSpec::Alphabeta {
                time_ms: None,
                search,
                ..
            } => search.diverse_plies == 0,
            AgentSpec::Tablebase { fallback, .. } => {
                fallback.as_ref().map_or(true, |f| f.deterministic())
            }
            AgentSpec::Alphabeta { .. }
            | AgentSpec::Random
            | AgentSpec::Greedy
            | AgentSpec::Human
            | AgentSpec::Mcts { .. }
            | AgentSpec::External { .. } => false,
        }
    }
}

/// One line: the kind and the parameters as written in files, defaults filled in.
impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind())?;
        match *self {
            AgentSpec::Random | AgentSpec::Greedy | AgentSpec::Human => Ok(()),
            AgentSpec::Alphabeta {
                depth,
                nodes,
                time_ms,
                ref eval,
                ref search,
            } => {
                match (depth, nodes, time_ms) {
                    (Some(d), _, _) => write!(f, " depth={d}")?,
                    (None, None, None) => write!(f, " depth={}", AlphaBetaBudget::DEFAULT_DEPTH)?,
                    _ => {}
                }
                if let Some(n) = nodes {
                    write!(f, " nodes={n}")?;
                }
                if let Some(t) = time_ms {
                    write!(f, " time_ms={t} (not reproducible)")?;
                }
                if !eval.is_material() {
                    write!(f, " eval={}", eval.name())?;
                }
                write!(f, "{search}")
            }
            AgentSpec::Mcts {
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
            } => {
                write!(
                    f,
                    " iterations={iterations} exploration={exploration:.3} rollout={rollout} rollout_cap={rollout_cap}"
                )?;
                if !eval.is_material() {
                    write!(f, " eval={}", eval.name())?;
                }
                // The enhancements only when on, so that older agents print
                // as they did.
                if solver {
                    f.write_str(" solver=true")?;
                }
                if progressive_bias > 0.0 {
                    write!(f, " progressive_bias={progressive_bias}")?;
                }
                if rave > 0.0 {
                    write!(f, " rave={rave}")?;
                }
                if grave_ref > 0 {
                    write!(f, " grave_ref={grave_ref}")?;
                }
                if reuse {
                    f.write_str(" reuse=true")?;
                }
                if per_legal_move {
                    f.write_str(" per_legal_move=true")?;
                }
                if let Some(seed) = seed {
                    write!(f, " seed={seed}")?;
                }
                Ok(())
            }
            AgentSpec::Tablebase {
                max_seeds,
                depth,
                ref fallback,
                ref tables,
            } => {
                write!(f, " max_seeds={max_seeds}")?;
                if let Some(tables) = tables {
                    write!(f, " tables={}", tables.display())?;
                }
                match fallback {
                    Some(fallback) => write!(f, " fallback=({fallback})"),
                    None => write!(f, " depth={depth}"),
                }
            }
            AgentSpec::External {
                ref command,
                move_timeout_ms,
                ..
            } => write!(
                f,
                " command=\"{}\" move_timeout_ms={move_timeout_ms}",
                command.join(" ")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory estimate that refuses runs which cannot fit, against a
    /// measurement: MCTS of 300000 iterations on 2x6 peaked at 100 MB resident
    /// (`hoyito run`, one thread, random vs that agent, /usr/bin/time -v).
    #[test]
    fn memory_estimates_follow_the_agents_structures() {
        let mcts = |iterations| AgentSpec::Mcts {
            iterations,
            exploration: 1.4,
            rollout: RolloutPolicy::Random,
            rollout_cap: 1000,
            eval: EvalSpec::Material,
            solver: false,
            progressive_bias: 0.0,
            rave: 0.0,
            grave_ref: 0,
            reuse: false,
            per_legal_move: false,
            seed: None,
        };
        let measured = 100 << 20;
        let estimate = mcts(300_000).memory_per_instance(6);
        assert!(
            estimate > measured / 2 && estimate < measured * 2,
            "{estimate}"
        );
        // Per legal move: at most `holes` legal moves, so six times the tree.
        let mut per_move = mcts(50_000);
        if let AgentSpec::Mcts { per_legal_move, .. } = &mut per_move {
            *per_legal_move = true;
        }
        assert_eq!(
            per_move.memory_per_instance(6),
            mcts(300_000).memory_per_instance(6)
        );
        assert_eq!(AgentSpec::Greedy.memory_per_instance(6), 0);
        let alphabeta = AgentSpec::Alphabeta {
            depth: Some(64),
            nodes: None,
            time_ms: None,
            eval: EvalSpec::Material,
            search: SearchOptions::default(),
        };
        assert_eq!(alphabeta.memory_per_instance(16), 4 << 20);
        let tablebase = AgentSpec::Tablebase {
            max_seeds: 8,
            depth: 4,
            fallback: Some(Box::new(mcts(10))),
            tables: None,
        };
        assert_eq!(
            tablebase.memory_per_instance(6),
            mcts(10).memory_per_instance(6)
        );
    }

    fn read(text: &str) -> Result<AgentSpec, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn specs_read_with_defaults_and_print_on_one_line() {
        let ab = read("kind = \"alphabeta\"").unwrap();
        assert_eq!(ab.to_string(), "alphabeta depth=8");
        let mcts = read("kind = \"mcts\"\niterations = 5000").unwrap();
        assert_eq!(
            mcts.to_string(),
            "mcts iterations=5000 exploration=1.414 rollout=random rollout_cap=200"
        );
        assert_eq!(read("kind = \"random\"").unwrap(), AgentSpec::Random);
        let timed = read("kind = \"alphabeta\"\ntime_ms = 50").unwrap();
        assert!(!timed.reproducible() && ab.reproducible());
    }

    #[test]
    fn ranges_are_checked() {
        let err = read("kind = \"alphabeta\"\ndepth = 0").unwrap().validate();
        assert!(err.unwrap_err().contains("depth = 0"));
        let err = read("kind = \"mcts\"\niterations = 9\nexploration = -1.0")
            .unwrap()
            .validate();
        assert!(err.unwrap_err().contains("exploration"));
    }

    #[test]
    fn external_specs_read_with_defaults_and_are_checked() {
        let spec = read("kind = \"external\"\ncommand = [\"python3\", \"a.py\"]").unwrap();
        assert_eq!(
            spec,
            AgentSpec::External {
                command: vec!["python3".into(), "a.py".into()],
                working_dir: None,
                move_timeout_ms: 10_000,
                startup_timeout_ms: 10_000,
            }
        );
        assert_eq!(
            spec.to_string(),
            "external command=\"python3 a.py\" move_timeout_ms=10000"
        );
        assert!(spec.validate().is_ok() && spec.reproducible());
        assert!(spec.external(None).is_some() && AgentSpec::Greedy.external(None).is_none());
        let back = read(&toml::to_string(&spec).unwrap()).unwrap();
        assert_eq!(spec, back);
        let empty = read("kind = \"external\"\ncommand = []").unwrap();
        assert!(empty.validate().unwrap_err().starts_with("command = []"));
        let zero = read("kind = \"external\"\ncommand = [\"x\"]\nmove_timeout_ms = 0").unwrap();
        assert!(zero
            .validate()
            .unwrap_err()
            .starts_with("move_timeout_ms = 0"));
        assert!(read("kind = \"external\"").is_err());
    }

    #[test]
    fn specs_round_trip() {
        for text in [
            "kind = \"greedy\"",
            "kind = \"alphabeta\"\nnodes = 1000",
            "kind = \"mcts\"\niterations = 3\nrollout = \"greedy\"",
        ] {
            let spec = read(text).unwrap();
            let back = read(&toml::to_string(&spec).unwrap()).unwrap();
            assert_eq!(spec, back);
        }
    }

    #[test]
    fn a_human_seat_reads_and_is_not_reproducible() {
        let human = read("kind = \"human\"").unwrap();
        assert_eq!(human, AgentSpec::Human);
        assert_eq!(human.to_string(), "human");
        assert!(!human.reproducible());
        let tb =
            read("kind = \"tablebase\"\nmax_seeds = 4\nfallback = { kind = \"human\" }").unwrap();
        assert!(tb
            .validate()
            .unwrap_err()
            .starts_with("fallback.kind = \"human\""));
    }

    #[test]
    fn bad_specs_are_refused_with_the_field_named() {
        for (text, names) in [
            ("kind = \"minimax\"", "unknown variant `minimax`"),
            ("kind = \"alphabeta\"\ndept = 3", "unknown field `dept`"),
            (
                "kind = \"alphabeta\"\ndepth = \"eight\"",
                "invalid type: string \"eight\"",
            ),
            ("kind = \"mcts\"", "missing field `iterations`"),
            ("depth = 3", "missing field `kind`"),
        ] {
            let err = read(text).unwrap_err();
            assert!(err.contains(names), "{text:?} gave {err:?}");
        }
        // serde lets a kind without fields carry unknown keys (its
        // `deny_unknown_fields` does not reach unit variants); the roster's
        // own field check, which every agent file goes through, refuses them.
        let text = "kind = \"random\"\ndepth = 3";
        assert_eq!(read(text), Ok(AgentSpec::Random));
        let err = crate::agents::roster::parse_agent(std::path::Path::new("r.toml"), text)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`depth` is unknown") && err.contains("takes no parameters"),
            "{err}"
        );
    }
}

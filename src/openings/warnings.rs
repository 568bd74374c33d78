//! Warnings about openings that make games repeat: refusing nothing, they say
//! before a run starts when its games will not be the independent samples
//! that its statistics assume.

use crate::agents::spec::AgentSpec;
use crate::tournament::config::experiment::Experiment;

/// Whether an agent plays the same moves from the same position in every game:
/// it never draws on the game's generator. Random and MCTS draw on it (MCTS
/// shuffles its children even with greedy rollouts), greedy breaks ties with
/// it; alpha-beta never does unless its `diverse_plies` mixes its opening
/// moves, nor a tablebase agent whose search outside the tables is its own
/// or a deterministic fallback's.
pub fn deterministic(spec: &AgentSpec) -> bool {
    match spec {
        // An external agent is handed a per-game seed: assume it uses it.
        AgentSpec::Random
        | AgentSpec::Greedy
        | AgentSpec::Mcts { .. }
        | AgentSpec::External { .. }
        | AgentSpec::Human => false,
        AgentSpec::Alphabeta { search, .. } => search.diverse_plies == 0,
        AgentSpec::Tablebase { fallback, .. } => fallback.as_deref().map_or(true, deterministic),
    }
}

/// One line per problem with the openings of `experiment` (agents resolved):
/// deterministic pairings with no random ply and no book (their games repeat),
/// and books with fewer entries than pairs per pairing (their openings repeat).
pub fn opening_warnings(experiment: &Experiment) -> Vec<String> {
    let mut warnings = Vec::new();
    let openings = &experiment.openings;
    let specs = experiment.agent_specs();
    let pairs = experiment.games.div_ceil(2);
    let mut bare = Vec::new();
    for &variant in &experiment.rules.variants {
        for &holes in &experiment.rules.holes {
            match openings.book_for(variant, holes as u8) {
                Some(book) if (book.entries.len() as u64) < pairs => warnings.push(format!(
                    "book {} has {} openings for {pairs} pairs per pairing on {variant} 2x{holes}: \
                     openings will repeat",
                    book.file,
                    book.entries.len()
                )),
                Some(_) => {}
                None if openings.random_plies == 0 => bare.push(format!("{variant} 2x{holes}")),
                None => {}
            }
        }
    }
    let fixed: Vec<String> = experiment
        .tournament
        .pairings()
        .into_iter()
        .filter(|&(a, b)| deterministic(&specs[a].1) && deterministic(&specs[b].1))
        .map(|(a, b)| format!("{} vs {}", specs[a].0, specs[b].0))
        .collect();
    if !bare.is_empty() && !fixed.is_empty() {
        warnings.push(format!(
            "deterministic pairing(s) {} play with 0 random plies and no book on {}: \
             every pair of a pairing replays the same games; set [openings] random_plies \
             (default {}) or a book",
            fixed.join(", "),
            bare.join(", "),
            crate::tournament::config::openings::DEFAULT_RANDOM_PLIES
        ));
    }
    warnings
}

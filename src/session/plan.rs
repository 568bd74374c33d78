//! What a session is asked to run: the experiment, what errors call it,
//! where its results go, and the slice and seats it runs with.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::tournament::config::experiment::Experiment;
use crate::tournament::lineup::SeatMaker;
use crate::tournament::shard::Shard;

/// A run to carry out ([`super::Session::prepare`] checks it).
pub struct RunPlan {
    /// The experiment, checked, resolved and rounded to pairs.
    pub experiment: Experiment,
    /// What errors and warnings call its source (a file name, the built-in
    /// default, `hoyito match`).
    pub source: String,
    /// The results directory.
    pub out: PathBuf,
    /// Delete another experiment's results in `out`.
    pub force: bool,
    /// The slice played: `None` for the whole run, or one shard (0/1 too)
    /// whose directory has no report of its own (`hoyito merge` writes the
    /// whole run's).
    pub shard: Option<Shard>,
    /// Seats for agents a spec cannot build (Python callables); the
    /// roster's seats for the others.
    pub seats: Option<Arc<dyn SeatMaker>>,
    /// Record a pair's second game from its first when both seats hold one
    /// deterministic agent (the same games, half the time); on by default.
    pub twin_shortcut: bool,
}

impl RunPlan {
    /// The whole of `experiment` (read from `source`) into `out`, or by
    /// default into `runs/NAME` (`runs/NAME.shard-K-of-N` for a shard).
    pub fn new(
        experiment: Experiment,
        source: impl Into<String>,
        out: Option<PathBuf>,
        shard: Option<Shard>,
    ) -> RunPlan {
        let out = out.unwrap_or_else(|| {
            let name = match shard {
                None => experiment.name.clone(),
                Some(shard) => format!(
                    "{}.shard-{}-of-{}",
                    experiment.name,
                    shard.index(),
                    shard.count()
                ),
            };
            Path::new("runs").join(name)
        });
        RunPlan {
            experiment,
            source: source.into(),
            out,
            force: false,
            shard,
            seats: None,
            twin_shortcut: true,
        }
    }
}

impl std::fmt::Debug for RunPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunPlan")
            .field("experiment", &self.experiment.name)
            .field("source", &self.source)
            .field("out", &self.out)
            .field("force", &self.force)
            .field("shard", &self.shard)
            .field("seats", &self.seats.as_ref().map(|_| "a seat maker"))
            .finish()
    }
}

//! Why a run did not start or did not end: one error type for every step of
//! a session, so that the CLI and the Python package report the same words.

use thiserror::Error;

/// A cause of any kind, kept with its own chain of sources.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// A session that stopped: refused by a check before anything was written,
/// or failed at a step.
#[derive(Debug, Error)]
pub enum SessionError {
    /// A check refused the run; the message is whole.
    #[error("{0}")]
    Refused(String),
    /// A step failed: `context` says which (the file, the agent, the
    /// section), `cause` why.
    #[error("{context}")]
    Step {
        /// What was being done.
        context: String,
        /// Why it failed.
        #[source]
        cause: Cause,
    },
    /// An error that names its own subject (the results directory, a table).
    #[error(transparent)]
    Other(Cause),
}

impl SessionError {
    /// A failed step, `context` first.
    pub fn step(context: impl Into<String>, cause: impl Into<Cause>) -> SessionError {
        SessionError::Step {
            context: context.into(),
            cause: cause.into(),
        }
    }

    /// The whole message, each cause after a colon, as one line per problem
    /// (for callers without an error-chain printer, such as Python).
    pub fn full_message(&self) -> String {
        let mut text = self.to_string();
        let mut source = std::error::Error::source(self);
        while let Some(cause) = source {
            text.push_str(": ");
            text.push_str(&cause.to_string());
            source = cause.source();
        }
        text
    }
}

/// Errors that name their own subject go through as they are.
macro_rules! other_from {
    ($($t:ty),* $(,)?) => {$(
        impl From<$t> for SessionError {
            fn from(err: $t) -> SessionError {
                SessionError::Other(Box::new(err))
            }
        }
    )*};
}

other_from!(
    crate::tournament::run_dir::error::RunDirError,
    crate::tournament::resources::ResourceError,
    crate::report::error::ReportError,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_message_names_the_step_then_every_cause() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let err = SessionError::step("runs/x/timings.csv: cannot write it", io);
        assert_eq!(
            err.full_message(),
            "runs/x/timings.csv: cannot write it: no such file"
        );
        assert_eq!(SessionError::Refused("no".into()).full_message(), "no");
    }
}

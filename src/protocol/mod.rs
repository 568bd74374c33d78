//! The process protocol that lets agents written in any language play: the
//! messages and their text (`message`) and the owner of an agent process
//! (`process`), over the reader of its output (`reader`), the log of its
//! standard error (`stderr_log`) and the sweeps that leave none of its
//! processes behind (`reaper`). The `Agent` over them is
//! `agents::ExternalAgent`; the protocol itself is documented for agent
//! authors in `agents/PROTOCOL.md`.

pub(crate) mod message;
pub(crate) mod process;
mod reader;
mod reaper;
mod stderr_log;

pub use message::{AgentMessage, GameResult, HarnessMessage, ParseMessageError, PROTOCOL_VERSION};
pub use process::{AgentProcess, ProcessError};
pub use reader::{MAX_LINE, MAX_LINES_AHEAD};
pub use reaper::AGENT_MARKER;
pub use stderr_log::{STDERR_LOG_CAP, STDERR_LOG_CUT};

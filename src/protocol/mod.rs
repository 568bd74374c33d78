//! The process protocol that lets agents written in any language play: the
//! messages and their text ([`message`]) and the owner of an agent process
//! ([`process`]). The `Agent` over them is `agents::ExternalAgent`; the
//! protocol itself is documented for agent authors in `agents/PROTOCOL.md`.

mod message;
mod process;

pub use message::{AgentMessage, GameResult, HarnessMessage, ParseMessageError, PROTOCOL_VERSION};
pub use process::{AgentProcess, ProcessError, MAX_LINE};

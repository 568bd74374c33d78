//! A person at the board: the board drawn from the person's chair, entries read
//! and refused with their reason, and a session against an agent with `undo`,
//! `hint` and `quit`, written over any text streams so that it is tested
//! without a terminal. `hoyito play` is a thin shell over [`play_session`].

pub(crate) mod entry;
pub(crate) mod play_session;
pub(crate) mod view;

pub use entry::{read_entry, Entry, EntryError};
pub use play_session::{
    play_session, prompt, read_line, HintAgent, HintFn, PlaySetup, Player, SessionEnd,
    SessionError, SessionReport,
};
pub use view::{apply_line, board_view, legal_list, move_lines, move_text, result_line};

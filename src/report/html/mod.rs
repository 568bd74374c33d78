//! `report.html`: the report as one self-contained web page, with a viewer
//! that plays any embedded game move by move and lap by lap, since relay
//! sowing is hard to follow in text.
//!
//! The page is a pure function of the run's files (`report.md` as written,
//! the charts' SVGs, `experiment.toml`, `games.csv` and `moves.csv`), so a
//! run, a re-report and a merge of shards write the same bytes. The
//! positions the viewer shows are the engine's, computed here per ply and
//! per lap and embedded as JSON; the script only displays them.

mod assets;
mod blocks;
pub(crate) mod embed;
mod game_view;
mod laps;
pub(crate) mod page;
pub(crate) mod pick;
mod viewer;

pub use blocks::{parse_blocks, Align, Block};
pub use embed::{Embedded, BUDGET};
pub use game_view::{GameLabels, GameView, ViewError};
pub use page::{report_page, PageInput};
pub use pick::{Brief, GamePicker, Pick, Reason};
pub use viewer::game_page;

//! The progress bar of the long commands (`solve`, `accuracy`, `book`): shown
//! on standard error only when it is a terminal, so that logs and CI output
//! stay free of redraws.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar counting `total` items called `what`, with a free message after it;
/// hidden when standard error is not a terminal.
pub fn counting_bar(total: u64, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total);
    let template = format!(
        "{{elapsed_precise}} [{{bar:40}}] {{human_pos}}/{{human_len}} {what} \
         ({{per_sec}}, eta {{eta}}) {{msg}}"
    );
    bar.set_style(
        ProgressStyle::with_template(&template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

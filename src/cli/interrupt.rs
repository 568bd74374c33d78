//! A clean stop on Ctrl-C for a run (`hoyito run`, `hoyito match`): the
//! first press lets the games being played finish, the second exits at once
//! (the files are valid either way), and the error that ends the run says
//! how many games were recorded and the command that resumes it. A file of
//! its own because none of it is the run's logic: the handler is
//! process-wide, and the resume command is the process's own command line.

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C (or SIGTERM): finish the games in hand and stop.
pub(super) static STOP: AtomicBool = AtomicBool::new(false);

/// A run stopped by Ctrl-C: the message says how to resume it.
#[derive(Debug)]
pub struct Interrupted {
    /// Games recorded.
    pub done: u64,
    /// Games planned.
    pub total: u64,
    /// The results directory.
    pub out: PathBuf,
}

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "interrupted: {} of {} games recorded in {}; resume with: {}",
            self.done,
            self.total,
            self.out.display(),
            resume_command()
        )
    }
}

impl std::error::Error for Interrupted {}

/// The command line that started this process, shell-quoted, without
/// `--force` (which would delete what was recorded): run again, it resumes.
pub fn resume_command() -> String {
    let mut words: Vec<String> = Vec::new();
    for (i, arg) in std::env::args().enumerate() {
        if i > 0 && arg == "--force" {
            continue;
        }
        words.push(shell_quote(&arg));
    }
    words.join(" ")
}

/// `word` as a POSIX shell reads it back: bare when it is plain, else in
/// single quotes.
fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Installs the Ctrl-C handler: the first press asks the run to stop after
/// the games in hand, the second exits at once (every file is flushed per
/// chunk and resumes from a cut line).
pub(super) fn catch_interrupts() {
    // A second handler cannot be installed (only in tests, which never
    // install one); running without it only loses the clean stop.
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted again: stopping now");
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the games being played (Ctrl-C again to quit now)");
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_the_shell_needs_it() {
        assert_eq!(shell_quote("configs/a.toml"), "configs/a.toml");
        assert_eq!(shell_quote("--sprt=0,10"), "--sprt=0,10");
        assert_eq!(shell_quote("my dir"), "'my dir'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }
}

//! A TOML error as one line: `line L, column C: MESSAGE`.
//!
//! The `toml` crate's `Display` draws the offending line with a caret under
//! it, six or seven lines in all; the tool promises one line per error, so the
//! place is computed from the error's byte span and only the message is kept.

use std::fmt;

/// Where a TOML error is, and what it is, for a one-line message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TomlPlace {
    /// Line, from 1; 0 when the parser gave no place.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// The parser's message, its lines joined.
    pub message: String,
    /// The line the error is on, trimmed and shortened (the parser's
    /// messages about values do not name their key; the line does).
    pub source: String,
}

impl TomlPlace {
    /// The place of `err`, raised while parsing `text`.
    pub fn of(text: &str, err: &toml::de::Error) -> TomlPlace {
        let message = err
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        // The parser has no words for some errors (`key = ` at the end).
        let message = if message.is_empty() {
            "malformed TOML: a value is missing or unreadable here".to_string()
        } else {
            message
        };
        let Some(span) = err.span() else {
            return TomlPlace {
                line: 0,
                column: 0,
                message,
                source: String::new(),
            };
        };
        let (line, column) = line_column(text, span.start);
        let source = text.lines().nth(line - 1).unwrap_or_default().trim();
        let mut source: String = source.chars().take(SOURCE_CHARS).collect();
        if source.chars().count() == SOURCE_CHARS {
            source.push_str("...");
        }
        TomlPlace {
            line,
            column,
            message,
            source,
        }
    }
}

/// The most characters of the offending line that a message quotes.
const SOURCE_CHARS: usize = 60;

/// Line and column (both from 1, the column in characters) of byte `at`.
pub(crate) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

impl fmt::Display for TomlPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(
                f,
                "line {}, column {}: {}",
                self.line, self.column, self.message
            )?;
            if !self.source.is_empty() {
                write!(f, " (in `{}`)", self.source)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_from_one_in_characters() {
        let text = "a = 1\nbé = x\n";
        assert_eq!(line_column(text, 0), (1, 1));
        assert_eq!(line_column(text, 6), (2, 1));
        // `x` is byte 12 (`é` is two bytes) and character 6 of line 2.
        assert_eq!(line_column(text, 12), (2, 6));
        assert_eq!(line_column(text, 999), (3, 1));
    }

    /// The parser's error, 6-7 lines as `toml` gives it, is one line here.
    #[test]
    fn a_parse_error_is_one_line_with_its_place() {
        let text = "name = \"x\"\nseed = \n";
        let err = toml::from_str::<toml::Table>(text).unwrap_err();
        let place = TomlPlace::of(text, &err).to_string();
        assert!(!place.contains('\n'), "{place}");
        assert!(place.starts_with("line 2, column 8: "), "{place}");
        let text = "kind = ";
        let err = toml::from_str::<toml::Table>(text).unwrap_err();
        assert_eq!(
            TomlPlace::of(text, &err).to_string(),
            "line 1, column 8: malformed TOML: a value is missing or unreadable here \
             (in `kind =`)"
        );
        // A value of the wrong type: the quoted line names the key.
        let text = "[record]\nmoves = 1\n";
        let err =
            toml::from_str::<crate::tournament::config::experiment::Experiment>(text).unwrap_err();
        let place = TomlPlace::of(text, &err).to_string();
        assert!(place.ends_with("(in `moves = 1`)"), "{place}");
    }
}

//! What `hoyito agents` says of an agent besides its parameters: a one-line
//! description and its measured strength, read from the agent file's own
//! comment lines `# about: ...` and `# strength: ...` so that the figures
//! stay beside the agent they describe (and are only those that
//! reports/strength.md states). A file without `# about:` is described by
//! its first comment line.

use crate::agents::builtin::builtin_files;

/// The description and strength an agent file states.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentNotes {
    /// One line: what the agent is.
    pub about: Option<String>,
    /// One line: its measured strength, with the report that measured it.
    pub strength: Option<String>,
}

impl AgentNotes {
    /// The notes of an agent file's text.
    pub fn of(text: &str) -> AgentNotes {
        let comments: Vec<&str> = text
            .lines()
            .filter_map(|l| l.trim().strip_prefix('#'))
            .map(str::trim)
            .collect();
        let tagged = |tag: &str| {
            comments
                .iter()
                .find_map(|c| c.strip_prefix(tag))
                .map(|v| v.trim().to_string())
        };
        AgentNotes {
            about: tagged("about:").or_else(|| {
                comments
                    .iter()
                    .find(|c| !c.is_empty() && !c.starts_with("strength:"))
                    .map(|c| c.to_string())
            }),
            strength: tagged("strength:"),
        }
    }
}

/// The text of the shipped agent file `name`, if the roster ships one.
pub fn builtin_agent_text(name: &str) -> Option<&'static str> {
    builtin_files()
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_come_from_the_tagged_lines_else_the_first_comment() {
        let text = "# A long story\n# about: short\n# strength: 9 of 10\nkind = \"greedy\"";
        let notes = AgentNotes::of(text);
        assert_eq!(notes.about.as_deref(), Some("short"));
        assert_eq!(notes.strength.as_deref(), Some("9 of 10"));
        let plain = AgentNotes::of("# Cheap.\nkind = \"greedy\"");
        assert_eq!(plain.about.as_deref(), Some("Cheap."));
        assert_eq!(plain.strength, None);
        assert_eq!(AgentNotes::of("kind = \"random\""), AgentNotes::default());
    }

    /// Every shipped agent says what it is in one line, and a strength
    /// cites the report it comes from.
    #[test]
    fn every_shipped_agent_is_described() {
        for (name, text) in builtin_files() {
            let notes = AgentNotes::of(text);
            assert!(text.contains("# about: "), "{name}");
            assert!(notes.about.is_some_and(|a| a.len() <= 100), "{name}");
            if let Some(strength) = notes.strength {
                assert!(
                    strength.contains("reports/strength.md"),
                    "{name}: {strength}"
                );
            }
        }
        assert!(builtin_agent_text("greedy").is_some());
        assert!(builtin_agent_text("nobody").is_none());
    }
}

//! The figures of a strength measurement, as a markdown table for people, a
//! CSV and a JSON file for programs, and a per-position CSV for digging.
//!
//! Everything written is a pure function of the measurement (no times, no
//! paths), so the same command gives the same bytes on any thread count.
//! Files are written atomically (a temporary file renamed into place).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::records::safe_file::write_atomic;
use crate::strength::score::{AgentAccuracy, Judged};
use crate::strength::StrengthError;

/// A measurement: what was measured, and each agent's figures.
#[derive(Debug, Clone, PartialEq)]
pub struct AccuracyReport {
    /// One line saying which positions (variant, board, how drawn, seed).
    pub title: String,
    /// The file stem of the outputs, e.g. `accuracy-ii-2x6`.
    pub stem: String,
    /// The positions and their values.
    pub judged: Vec<Judged>,
    /// Each agent's figures, in the order asked.
    pub agents: Vec<AgentAccuracy>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    title: &'a str,
    positions: usize,
    agents: &'a [AgentAccuracy],
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(String::new, |v| format!("{v:.digits$}"))
}

impl AccuracyReport {
    /// The summary table in markdown, after a line saying what was measured.
    pub fn markdown(&self) -> String {
        let mut out = format!("{}\n\n", self.title);
        out.push_str(
            "| agent | positions | best move | 95% interval | mean loss (seeds) | 95% interval | max loss |\n\
             |---|---:|---:|---|---:|---|---:|\n",
        );
        for a in &self.agents {
            let loss_interval = match (a.loss.low, a.loss.high) {
                (Some(low), Some(high)) => format!("[{low:.3}, {high:.3}]"),
                _ => "n/a".to_string(),
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | [{}, {}] | {:.3} | {} | {} |",
                a.agent,
                a.positions,
                pct(a.best_share.value),
                pct(a.best_share.low),
                pct(a.best_share.high),
                a.loss.mean,
                loss_interval,
                a.max_loss
            );
        }
        out
    }

    /// One row per agent: the figures of the table, unrounded.
    pub fn summary_csv(&self) -> String {
        let mut out = String::from(
            "agent,positions,best,best_share,best_low,best_high,mean_loss,loss_low,loss_high,max_loss\n",
        );
        for a in &self.agents {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{}",
                a.agent,
                a.positions,
                a.best,
                a.best_share.value,
                a.best_share.low,
                a.best_share.high,
                a.loss.mean,
                opt(a.loss.low, 6),
                opt(a.loss.high, 6),
                a.max_loss
            );
        }
        out
    }

    /// The title and the per-agent figures as JSON.
    pub fn json(&self) -> String {
        let report = JsonReport {
            title: &self.title,
            positions: self.judged.len(),
            agents: &self.agents,
        };
        serde_json::to_string_pretty(&report).expect("plain numbers and strings serialize") + "\n"
    }

    /// One row per position: the position (quoted: the notation has commas),
    /// its seeds, value and best moves, then each agent's move and loss.
    pub fn positions_csv(&self) -> String {
        let mut out = String::from("position,seeds,value,best");
        for a in &self.agents {
            let _ = write!(out, ",move_{0},loss_{0}", a.agent);
        }
        out.push('\n');
        for (i, j) in self.judged.iter().enumerate() {
            let best: Vec<String> = j.probe.best_moves().iter().map(|m| m.to_string()).collect();
            let _ = write!(
                out,
                "\"{}\",{},{},{}",
                j.position,
                j.position.seeds_on_board(),
                j.probe.value,
                best.join(" ")
            );
            for a in &self.agents {
                let _ = write!(out, ",{},{}", a.moves[i], a.losses[i]);
            }
            out.push('\n');
        }
        out
    }
}

/// Writes `STEM.md`, `STEM.csv`, `STEM.json` and `STEM-positions.csv` into
/// `dir` (created if missing), each atomically; returns their paths.
pub fn write_outputs(dir: &Path, report: &AccuracyReport) -> Result<Vec<PathBuf>, StrengthError> {
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| StrengthError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(write_err(dir))?;
    let files = [
        (format!("{}.md", report.stem), report.markdown()),
        (format!("{}.csv", report.stem), report.summary_csv()),
        (format!("{}.json", report.stem), report.json()),
        (
            format!("{}-positions.csv", report.stem),
            report.positions_csv(),
        ),
    ];
    let mut written = Vec::new();
    for (name, text) in files {
        let path = dir.join(&name);
        let tmp = dir.join(format!(".{name}.tmp"));
        write_atomic(&tmp, &path, text.as_bytes()).map_err(write_err(&path))?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::moves::Move;
    use crate::solver::probe::Probe;
    use crate::strength::score::score_moves;

    fn report() -> AccuracyReport {
        let judged = vec![Judged {
            position: "1,2/0,1 S 0-0".parse().unwrap(),
            probe: Probe {
                value: 1,
                moves: vec![(Move::Sow(0), 1), (Move::Sow(1), -1)],
            },
        }];
        let a = score_moves("a", &judged, &[Move::Sow(1)]).unwrap();
        AccuracyReport {
            title: "Test.".into(),
            stem: "t".into(),
            judged,
            agents: vec![a],
        }
    }

    #[test]
    fn the_outputs_say_the_same_figures() {
        let r = report();
        let md = r.markdown();
        assert!(
            md.contains("| a | 1 | 0.0% | [0.0%, 79.3%] | 2.000 | n/a | 2 |"),
            "{md}"
        );
        // Wilson, 0 of 1: the high end is z^2 / (1 + z^2) = 0.793451.
        let csv = r.summary_csv();
        assert!(csv.contains("\na,1,0,0,0,0.793450"), "{csv}");
        assert!(csv.ends_with(",2,,,2\n"), "{csv}");
        assert_eq!(
            r.positions_csv(),
            "position,seeds,value,best,move_a,loss_a\n\"1,2/0,1 S 0-0\",4,1,1,2,2\n"
        );
        let json: serde_json::Value = serde_json::from_str(&r.json()).unwrap();
        assert_eq!(json["agents"][0]["best"], 0);
        assert_eq!(json["agents"][0]["max_loss"], 2);
    }

    #[test]
    fn files_are_written_into_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new");
        let paths = write_outputs(&out, &report()).unwrap();
        assert_eq!(paths.len(), 4);
        assert_eq!(
            std::fs::read_to_string(&paths[0]).unwrap(),
            report().markdown()
        );
    }
}

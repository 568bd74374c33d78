//! `hoyito report DIR`: redraws a run's statistics, `report.md`, `report.html`
//! and charts from `DIR/games.csv` (and `metrics.csv`), so a report can be
//! remade after any change to the report code without running an agent.
//! Every row is first held to the one validation of a run's rows (the
//! schedule; with `moves.csv`, the moves replayed through the engine and the
//! measures counted again), so a hand-edited row is an error naming its file
//! and line, never a figure. The directory's lock is taken shared, so that a
//! report is never drawn from a run still writing it.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::report::write_report;
use hoyito::tournament::{lock_shared, ShardManifest, SHARD_FILE};

/// Arguments of `hoyito report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The run's directory, holding `games.csv`.
    dir: PathBuf,
    /// Game ids that `report.html` carries for its viewer, beside the ones it
    /// picks (comma-separated, e.g. `17,42`; ranges `100-110` too).
    #[arg(long, value_name = "LIST")]
    game_ids: Option<String>,
    /// The old spelling of `--game-ids`, refused as a usage error that names
    /// it: `--games` is a number of games in `run`, `match`, `tune` and
    /// `bench`, and one flag has one meaning.
    #[arg(
        long,
        hide = true,
        value_name = "LIST",
        num_args = 0..=1,
        default_missing_value = "",
        value_parser = refuse_games
    )]
    games: Option<String>,
}

/// The parser of the hidden `report --games`: always a usage error (exit 2)
/// naming `--game-ids`.
fn refuse_games(_: &str) -> Result<String, String> {
    Err(
        "`report --games` is now `--game-ids` (e.g. `hoyito report DIR --game-ids 17,42`): \
         `--games` means a number of games in every other command"
            .to_string(),
    )
}

/// Reads `DIR/games.csv` and writes `summary.json`, `report.md`,
/// `report.html` and `charts/`.
pub fn report(args: ReportArgs) -> Result<()> {
    debug_assert!(args.games.is_none(), "refused by its parser");
    let games = match &args.game_ids {
        Some(list) => parse_game_list(list)?,
        None => Vec::new(),
    };
    let _lock = lock_shared(&args.dir)?;
    // A shard's rows are a slice with gaps by design: its report is the merge's.
    let manifest = ShardManifest::read(&args.dir)
        .with_context(|| format!("{}", args.dir.join(SHARD_FILE).display()))?;
    if let Some(m) = manifest {
        bail!(
            "{} holds shard {}/{} of a run, not a whole run: join the shards with \
             `hoyito merge OUT SHARD_DIR...`, which writes the report",
            args.dir.display(),
            m.shard,
            m.shards
        );
    }
    let files = write_report(&args.dir, None, &games)?;
    println!("{}", files.summary.display());
    println!("{}", files.report.display());
    println!("{}", files.html.display());
    for chart in &files.charts {
        println!("{}", chart.display());
    }
    Ok(())
}

/// At most this many games may be asked for: each adds its moves to the page.
const MAX_ASKED: u64 = 10_000;

/// `17,42,100-110` as ids.
fn parse_game_list(list: &str) -> Result<Vec<u64>> {
    let mut ids = Vec::new();
    for item in list.split(',').map(str::trim) {
        let id = |text: &str| {
            let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
            match digits.then(|| text.parse::<u64>().ok()).flatten() {
                Some(id) => Ok(id),
                None => bail!("--game-ids: {item:?} is not a game id or a range like 100-110"),
            }
        };
        match item.split_once('-') {
            Some((low, high)) => {
                let (low, high) = (id(low)?, id(high)?);
                if low > high {
                    bail!("--game-ids: the range {item:?} runs backwards");
                }
                if high - low >= MAX_ASKED {
                    bail!("--game-ids: the range {item:?} holds more than {MAX_ASKED} games");
                }
                ids.extend(low..=high);
            }
            None => ids.push(id(item)?),
        }
        if ids.len() as u64 > MAX_ASKED {
            bail!("--game-ids: more than {MAX_ASKED} games asked for");
        }
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::parse_game_list;

    #[test]
    fn lists_and_ranges_are_read() {
        assert_eq!(parse_game_list("3, 1,5-7").unwrap(), vec![3, 1, 5, 6, 7]);
    }

    #[test]
    fn bad_lists_are_refused_with_the_item() {
        for (list, word) in [
            ("1,x", "\"x\""),
            ("", "\"\""),
            ("9-2", "backwards"),
            ("0-99999", "more than"),
            ("-3", "\"-3\""),
        ] {
            let err = parse_game_list(list).expect_err(list).to_string();
            assert!(err.contains(word), "{list}: {err}");
        }
    }
}

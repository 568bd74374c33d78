//! `hoyito replay DIR GAME_ID`: one game of a run again, move by move.
//!
//! A row of `games.csv` holds no moves: the game is rebuilt from the saved
//! experiment and the schedule (rules, seats, seeds) and played again by the
//! same code that ran it, and must end exactly as its row says. So replay is
//! also the check that a run is reproducible.

use std::io::{ErrorKind, Write};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::tournament::{
    empty_row, fill_row, play_scheduled, Experiment, GameRow, Lineup, Opening, Schedule,
    EXPERIMENT_FILE, GAMES_FILE,
};
use hoyito::{diagram, Game, Roster, Side};

/// Arguments of `hoyito replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A results directory written by `hoyito run`.
    dir: PathBuf,
    /// The game's id (first column of games.csv).
    game_id: u64,
    /// The roster, for agents that the saved experiment does not describe.
    #[arg(long, default_value = "agents")]
    agents_dir: PathBuf,
}

/// Runs `hoyito replay`.
pub fn replay(args: ReplayArgs) -> Result<()> {
    let saved = args.dir.join(EXPERIMENT_FILE);
    let mut experiment = Experiment::load(&saved)?;
    let file = saved.display().to_string();
    experiment.resolve_agents(&file, || Roster::load(&args.agents_dir))?;
    let lineup = Lineup::new(experiment.agent_specs());
    for name in lineup.unreproducible() {
        eprintln!("warning: {name} plays by the clock: the replay may differ from the record");
    }
    let schedule = Schedule::new(&experiment);
    if args.game_id >= schedule.len() {
        bail!(
            "game {} is not in this experiment: game ids are 0 to {}",
            args.game_id,
            schedule.len() - 1
        );
    }
    let recorded = find_row(&args.dir.join(GAMES_FILE), args.game_id)?;
    let scheduled = schedule.game(args.game_id);
    let opening = schedule.opening(&scheduled);
    let plies = opening.plies();
    let rules = scheduled.rules;
    // The transcript is built first and printed once: a reader that stops
    // early (`| head`) must not turn the replay into a panic.
    let mut text = format!(
        "game {} (pair {}): Hoyito {} on 2x{}, {} seeds per hole; South {}, North {}; game seed {}\n",
        scheduled.game_id,
        scheduled.pair_id,
        rules.variant.name().to_uppercase(),
        rules.holes,
        rules.seeds,
        lineup.name(scheduled.south),
        lineup.name(scheduled.north),
        scheduled.game_seed
    );
    text += &format!("{}\n\n", diagram(Game::new(rules).position()));
    let mut mover = Side::South;
    let game = play_scheduled(&scheduled, opening, &lineup, |game, mv| {
        let ply = game.plies();
        let who = match mover {
            Side::South => lineup.name(scheduled.south),
            Side::North => lineup.name(scheduled.north),
        };
        let how = match opening {
            _ if ply > plies => who,
            Opening::Random { .. } => "random opening",
            Opening::Book { .. } => "book opening",
        };
        text += &format!("ply {ply}: {mover} plays {mv} ({how})\n");
        text += &format!("{}\n\n", diagram(game.position()));
        mover = game.position().side_to_move();
    })?;
    let mut replayed = empty_row();
    fill_row(&mut replayed, &scheduled, plies, &lineup, &game);
    let outcome = game.outcome().expect("play_scheduled plays to the end");
    let result = match outcome.winner {
        Some(side) => format!("{side} wins"),
        None => "draw".to_string(),
    };
    text += &format!(
        "result: {result}, South {} North {}, {} plies, ended: {}\n",
        outcome.scores.south, outcome.scores.north, outcome.plies, outcome.ending
    );
    if replayed == recorded {
        text += &format!("matches the row of {GAMES_FILE}\n");
    }
    print_transcript(&text)?;
    if replayed != recorded {
        bail!(
            "the replay differs from {}:\n  recorded: {}\n  replayed: {}",
            GAMES_FILE,
            csv_line(&recorded)?,
            csv_line(&replayed)?
        );
    }
    Ok(())
}

/// Prints to standard output; a closed pipe is not an error.
fn print_transcript(text: &str) -> Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(err) if err.kind() != ErrorKind::BrokenPipe => Err(err).context("writing the replay"),
        _ => Ok(()),
    }
}

/// The row of `game_id`, read without loading the whole file.
fn find_row(path: &std::path::Path, game_id: u64) -> Result<GameRow> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    for (line, row) in reader.deserialize::<GameRow>().enumerate() {
        let row =
            row.with_context(|| format!("{}: bad row at line {}", path.display(), line + 2))?;
        if row.game_id == game_id {
            return Ok(row);
        }
    }
    bail!(
        "{}: game {game_id} has not been played yet: rerun the same `hoyito run` to finish the experiment",
        path.display()
    )
}

fn csv_line(row: &GameRow) -> Result<String> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(row)?;
    let bytes = writer.into_inner().context("formatting a row")?;
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

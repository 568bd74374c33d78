//! `hoyito replay DIR GAME_ID`: one game of a run again, move by move.
//!
//! When the run recorded moves, the game's row of `moves.csv` is replayed
//! through the engine and no agent is run (so it works for agents that play
//! by the clock, too). Otherwise the game is rebuilt from the saved
//! experiment and the schedule (rules, seats, seeds) and played again by the
//! same code that ran it. Either way it must end exactly as its row of
//! `games.csv` says, so replay is also the check that a run is reproducible.
//! Rows are found by binary search: both files are in game-id order. A later
//! round of a Hoyito III match is replayed under its round's rules: its
//! first mover, and the last seeds to the previous round's winner as that
//! round's row records it.
//!
//! A game replayed from `moves.csv` is then held to the one check of a
//! run's rows (`hoyito::tournament::check_replay`), which also counts its
//! measures again against its row of `metrics.csv` when there is one.
//!
//! With `--html FILE` the recorded game is written as a page of its own
//! with the report's game viewer (see `hoyito::report::html`) instead of
//! the transcript.

use std::io::{ErrorKind, Write};
use std::path::Path;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::metrics::{parse_metrics_row, METRICS_COLUMNS, METRICS_FILE};
use hoyito::report::html::{game_page, GameLabels, GameView};
use hoyito::tournament::{
    check_replay, empty_row, fill_row, find_row_line, play_scheduled, Adjudicator, Experiment,
    GameRow, Lineup, MovesRow, Opening, Schedule, ScheduledGame, Winner, EXPERIMENT_FILE,
    GAMES_FILE, MOVES_FILE,
};
use hoyito::{diagram, round_setup_after, Ending, Game, Move, Roster, Side};

/// Arguments of `hoyito replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// A results directory written by `hoyito run`.
    dir: PathBuf,
    /// The game's id (first column of games.csv).
    game_id: u64,
    /// The roster, for agents that the saved experiment does not describe.
    #[arg(long, value_name = "DIR", default_value = "agents")]
    agents_dir: PathBuf,
    /// Write the game's viewer, a self-contained web page, to FILE instead of
    /// printing the transcript (needs the game's row of moves.csv).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Runs `hoyito replay`.
pub fn replay(args: ReplayArgs) -> Result<()> {
    let saved = args.dir.join(EXPERIMENT_FILE);
    let mut experiment = Experiment::load(&saved)?;
    let file = saved.display().to_string();
    experiment.resolve_agents(&file, || Roster::load(&args.agents_dir))?;
    let lineup = Lineup::new(experiment.agent_specs());
    let schedule = Schedule::new(&experiment);
    // A run with adjudication is replayed with the same tables: they decide
    // where its games end.
    let adjudicator = Adjudicator::new(&experiment.adjudication, &experiment.boards())
        .with_context(|| format!("{file}: [adjudication]"))?;
    if args.game_id >= schedule.len() {
        bail!(
            "game {} is not in this experiment: game ids are 0 to {}",
            args.game_id,
            schedule.len() - 1
        );
    }
    let recorded = find_row(&args.dir.join(GAMES_FILE), args.game_id)?;
    let record = match experiment.record.moves {
        true => find_moves(&args.dir.join(MOVES_FILE), args.game_id)?,
        false => None,
    };
    if let (Some(file), None) = (&args.html, &record) {
        bail!(
            "cannot write {}: {} has no recorded moves for game {} (the viewer plays the \
             record, and this run was made with `[record] moves = false` or its moves.csv is \
             missing); `hoyito replay {} {}` without --html plays it again by its agents, in text",
            file.display(),
            args.dir.join(MOVES_FILE).display(),
            args.game_id,
            args.dir.display(),
            args.game_id
        );
    }
    if record.is_none() {
        for name in lineup.unreproducible() {
            eprintln!("warning: {name} plays by the clock: the replay may differ from the record");
        }
    }
    let mut scheduled = schedule.game(args.game_id);
    if scheduled.match_round >= 3 {
        // The end rule of a later round follows the previous round's winner,
        // as its row records it.
        let previous = find_row(&args.dir.join(GAMES_FILE), args.game_id - 2)?;
        let winner = match previous.winner {
            Winner::S => Some(Side::South),
            Winner::N => Some(Side::North),
            Winner::Draw => None,
        };
        let (rules, _) = round_setup_after(&scheduled.rules, scheduled.match_round, winner);
        scheduled.rules = rules;
    }
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
    if schedule.match_rounds() > 1 {
        text += &format!(
            "round {} of {} of match {}\n",
            scheduled.match_round,
            schedule.match_rounds(),
            scheduled.match_id
        );
    }
    text += &format!("{}\n\n", diagram(scheduled.start().position()));
    let mut mover = scheduled.first;
    let mut draw = |game: &Game, mv: Move| {
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
    };
    let (game, source) = match &record {
        Some(record) => (
            replay_record(
                &scheduled,
                record,
                recorded.ending,
                adjudicator.as_ref(),
                &mut draw,
            )?,
            format!("replayed from {MOVES_FILE}: no agent was run"),
        ),
        None => (
            play_scheduled(&scheduled, opening, &lineup, adjudicator.as_ref(), draw)?,
            format!("played again by its agents (no {MOVES_FILE} row)"),
        ),
    };
    let mut replayed = empty_row();
    fill_row(&mut replayed, &scheduled, plies, &lineup, &game);
    let outcome = game.outcome().expect("a replayed game is finished");
    if game.adjudicated() {
        let pos = game.position();
        let why = match outcome.ending {
            Ending::Tablebase => format!(
                "the tables cover the {} seeds left; perfect play from here is worth {:+} \
                 to {}",
                pos.seeds_on_board(),
                {
                    let mover = pos.side_to_move();
                    let gained = |s: Side| outcome.scores[s] as i32 - pos.captures()[s] as i32;
                    gained(mover) - gained(mover.opponent())
                },
                pos.side_to_move()
            ),
            _ => "a side has captured more than half of all seeds: the winner cannot change, \
                  and the margin is a lower bound"
                .to_string(),
        };
        text += &format!(
            "adjudicated after ply {} ({}): {why}\n",
            outcome.plies, outcome.ending
        );
    }
    let result = match outcome.winner {
        Some(side) => format!("{side} wins"),
        None => "draw".to_string(),
    };
    text += &format!(
        "result: {result}, South {} North {}, {} plies, ended: {}\n",
        outcome.scores.south, outcome.scores.north, outcome.plies, outcome.ending
    );
    text += &format!("{source}\n");
    if replayed == recorded {
        text += &format!("matches the row of {GAMES_FILE}\n");
    }
    if args.html.is_none() {
        print_transcript(&text)?;
    }
    if replayed != recorded {
        bail!(
            "the replay differs from {}:\n  recorded: {}\n  replayed: {}",
            GAMES_FILE,
            csv_line(&recorded)?,
            csv_line(&replayed)?
        );
    }
    if let Some(record) = &record {
        check_recorded(&args.dir, &scheduled, &recorded, record)?;
    }
    if let (Some(file), Some(record)) = (&args.html, &record) {
        let labels = GameLabels {
            game_id: scheduled.game_id,
            pair_id: scheduled.pair_id,
            south: lineup.name(scheduled.south).to_string(),
            north: lineup.name(scheduled.north).to_string(),
            opening_plies: plies,
            opening: match opening {
                Opening::Random { .. } => "random opening",
                Opening::Book { .. } => "book opening",
            },
        };
        let view = GameView::replay(&labels, &rules, &record.moves, recorded.ending)?;
        std::fs::write(file, game_page(&view))
            .with_context(|| format!("cannot write {}", file.display()))?;
        println!("{}", file.display());
    }
    Ok(())
}

/// Plays the recorded moves from the start position; the game must end with
/// the last of them, or there by the forfeit that `ending` records.
fn replay_record(
    scheduled: &ScheduledGame,
    record: &MovesRow,
    ending: Ending,
    adjudicator: Option<&Adjudicator>,
    mut on_move: impl FnMut(&Game, Move),
) -> Result<Game> {
    let mut game = scheduled.start();
    for &mv in &record.moves {
        game.play(mv)
            .with_context(|| format!("{MOVES_FILE}: game {}", record.game_id))?;
        on_move(&game, mv);
    }
    if let Some(reason) = ending.forfeit_reason() {
        game.forfeit(reason);
    }
    if ending.is_adjudication() {
        // The record stops where adjudication ended the game: the same rule
        // must end it there now.
        let verdict = adjudicator
            .and_then(|a| a.verdict(&game))
            .with_context(|| {
                format!(
                    "{MOVES_FILE}: game {}: the record ends `{ending}` after {} plies, but the \
                 experiment's [adjudication] does not end the game there",
                    record.game_id,
                    game.plies()
                )
            })?;
        game.adjudicate(verdict.ending, verdict.scores);
    }
    if !game.is_over() {
        bail!(
            "{MOVES_FILE}: game {}: the record stops after {} plies, before the game is over",
            record.game_id,
            game.plies()
        );
    }
    Ok(game)
}

/// Holds the game to the check every reader of a run makes of its rows:
/// its row of `games.csv`, its moves and (when `metrics.csv` is there) its
/// measures, counted again over the moves.
fn check_recorded(
    dir: &Path,
    scheduled: &ScheduledGame,
    recorded: &GameRow,
    record: &MovesRow,
) -> Result<()> {
    let path = dir.join(METRICS_FILE);
    let measures = match path.exists() {
        true => {
            let line = find_row_line(&path, record.game_id)
                .with_context(|| format!("cannot read {}", path.display()))?
                .with_context(|| {
                    format!("{}: no row for game {}", path.display(), record.game_id)
                })?;
            let (_, measures) = parse_metrics_row(&line).map_err(|message| {
                anyhow::anyhow!("{}: game {}: {message}", path.display(), record.game_id)
            })?;
            Some(measures)
        }
        false => None,
    };
    check_replay(
        recorded,
        scheduled.start(),
        &record.moves,
        measures.as_ref(),
    )
    .map_err(|problem| {
        let file = match METRICS_COLUMNS.contains(&problem.column) {
            true => path.clone(),
            false => dir.join(GAMES_FILE),
        };
        anyhow::anyhow!("{}: game {}: {problem}", file.display(), record.game_id)
    })
}

/// The recorded moves of `game_id`, if `path` exists and holds them.
fn find_moves(path: &Path, game_id: u64) -> Result<Option<MovesRow>> {
    if !path.exists() {
        return Ok(None);
    }
    let line =
        find_row_line(path, game_id).with_context(|| format!("cannot read {}", path.display()))?;
    let Some(line) = line else {
        return Ok(None);
    };
    let mut row = MovesRow::default();
    row.parse_into(&line)
        .map_err(|message| anyhow::anyhow!("{}: game {game_id}: {message}", path.display()))?;
    Ok(Some(row))
}

/// Prints to standard output; a closed pipe is not an error.
fn print_transcript(text: &str) -> Result<()> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(err) if err.kind() != ErrorKind::BrokenPipe => Err(err).context("writing the replay"),
        _ => Ok(()),
    }
}

/// The row of `game_id`, found by binary search.
fn find_row(path: &Path, game_id: u64) -> Result<GameRow> {
    let line =
        find_row_line(path, game_id).with_context(|| format!("cannot read {}", path.display()))?;
    let Some(line) = line else {
        bail!(
            "{}: game {game_id} has not been played yet: rerun the same `hoyito run` to finish the experiment",
            path.display()
        );
    };
    let file = hoyito::tournament::open_regular(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let mut reader = csv::Reader::from_reader(file);
    let headers = reader
        .headers()
        .with_context(|| format!("{}: bad header", path.display()))?
        .clone();
    let bad_row = || format!("{}: bad row for game {game_id}", path.display());
    let record = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(line.as_bytes())
        .records()
        .next()
        .transpose()
        .with_context(bad_row)?
        .with_context(bad_row)?;
    record.deserialize(Some(&headers)).with_context(bad_row)
}

fn csv_line(row: &GameRow) -> Result<String> {
    let mut writer = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    writer.serialize(row)?;
    let bytes = writer.into_inner().context("formatting a row")?;
    Ok(String::from_utf8_lossy(&bytes).trim_end().to_string())
}

//! `hoyito solve --start`: the exact value of a standard start, over the
//! positions reachable from it (see `hoyito::solver::start`), with its best
//! first moves, a principal variation and, with `--json`, an entry of
//! `reports/first-player/exact.json`.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use hoyito::solver::bounds::{
    perfect_lines, proof_line, prove_bounds, prove_first_moves, BoundsBudget,
};
use hoyito::solver::memory::{memory_budget, peak_resident_bytes, resident_bytes};
use hoyito::solver::start::{Progress, StartError, StartOptions, StartSolve, PROGRESS_EVERY};
use hoyito::solver::Tablebase;
use hoyito::tournament::write_atomic;
use hoyito::{Position, Rules, Variant};
use serde_json::json;

use super::known_starts::KnownStart;

/// Peak resident memory of this process so far, in MB (`VmHWM`).
pub(super) fn peak_mb() -> Option<u64> {
    peak_resident_bytes().map(|bytes| bytes.div_ceil(1 << 20))
}

/// South's score under perfect play (win 1, draw 1/2, loss 0) and its
/// advantage over an even game, from the margin.
pub fn score_of(margin: i32) -> (f64, f64) {
    match margin.signum() {
        1 => (1.0, 0.5),
        0 => (0.5, 0.0),
        _ => (0.0, -0.5),
    }
}

/// `hoyito solve --start`. With `state`, the solve is out of core: every
/// finished layer is held memory-mapped from its state file, and the
/// memory budget counts only what stays in memory (see
/// `hoyito::solver::start`). The JSON entry says which (`storage`); its
/// `peak_mb` is the peak resident set (`VmHWM`), which out of core includes
/// the mapped file pages the kernel kept resident, pages it can drop and read
/// back at any time, so it is not the memory the solve needed.
///
/// Before anything else it says on standard error what it will do, within
/// which budget, and what `exact.json` already knows of the start; then a
/// line every [`PROGRESS_EVERY`] while a layer is under way, and one per
/// layer done. A solve refused for memory names the proof search too.
pub fn solve_start(
    variant: Variant,
    holes: u8,
    seeds: u32,
    state: Option<&Path>,
    memory_mb: Option<u64>,
    json_out: Option<&Path>,
) -> Result<()> {
    let rules = Rules::new(variant).with_board(holes as u32, seeds)?;
    let start = Position::start(&rules);
    let (memory, budget_source) = match memory_mb {
        Some(mb) => (Some(mb.saturating_mul(1 << 20)), "--memory".to_string()),
        None => match memory_budget(1) {
            Some(b) => (Some(b.bytes), b.source.to_string()),
            None => (None, String::new()),
        },
    };
    let known = KnownStart::find(variant, holes, seeds);
    let exact_up_to = known.as_ref().and_then(KnownStart::exact_up_to);
    let prove_command = format!(
        "hoyito solve --start --prove --variant {variant} --holes {holes}{}{}",
        if seeds == 4 {
            String::new()
        } else {
            format!(" --seeds {seeds}")
        },
        exact_up_to
            .map(|n| format!(" --exact-up-to {n}"))
            .unwrap_or_default()
    );
    eprintln!(
        "solving the start of Hoyito {variant} 2x{holes} ({seeds} seeds a hole) {}, {}; \
         a line every {} s while a layer is under way",
        if state.is_some() {
            "out of core"
        } else {
            "in memory"
        },
        match memory {
            Some(bytes) => format!(
                "refused before it needs more than {} MB ({budget_source})",
                bytes >> 20
            ),
            None => "with no memory budget (none could be read; give --memory)".to_string(),
        },
        PROGRESS_EVERY.as_secs()
    );
    if let Some(pointer) = known.as_ref().and_then(|k| k.pointer(&prove_command)) {
        eprintln!("{pointer}");
    }
    if let Some(dir) = state {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create state directory {}", dir.display()))?;
        // A layer a killed solve left half-written is cleared, and named.
        super::table_dir::clear_stale(dir, "a state layer")?;
    }
    let options = StartOptions { state, memory };
    let clock = Instant::now();
    let budget_mb = memory
        .map(|b| format!(" of {} MB", b >> 20))
        .unwrap_or_default();
    let held = || resident_bytes().map_or("?".to_string(), |b| (b >> 20).to_string());
    // The layer being closed, its positions and when they were counted:
    // the rate between two reports.
    let mut last: Option<(u32, u64, f64)> = None;
    let mut report = |p: Progress<'_>| {
        let now = clock.elapsed().as_secs_f64();
        let line = match p {
            Progress::Closing { seeds, positions } => {
                let rate = match last {
                    Some((s, n, t)) if s == seeds && now > t => {
                        format!(
                            ", {:.0} a second",
                            (positions - n.min(positions)) as f64 / (now - t)
                        )
                    }
                    _ => String::new(),
                };
                last = Some((seeds, positions, now));
                format!(
                    "closing layer {seeds:>3}: {positions} positions so far{rate}; \
                     memory {} MB{budget_mb}",
                    held()
                )
            }
            Progress::Solving {
                seeds,
                positions,
                done,
                sweep,
            } => format!(
                "solving layer {seeds:>3}: {}; memory {} MB{budget_mb}",
                if sweep == 0 {
                    format!("moves of {done} of {positions} positions read")
                } else {
                    format!("sweep {sweep} over {positions} positions")
                },
                held()
            ),
            Progress::Closed(s, loaded) => format!(
                "closed layer {:>3}: {:>11} positions, {:>11} inner moves{}{}",
                s.seeds,
                s.positions,
                s.inner_moves,
                if loaded {
                    " (loaded from the state)".to_string()
                } else {
                    format!(" in {:.1} s", s.forward.as_secs_f64())
                },
                match (s.mapped, s.spills) {
                    (false, _) => String::new(),
                    (true, 0) => ", mapped".to_string(),
                    (true, 1) => ", mapped (1 run spilled to scratch)".to_string(),
                    (true, n) => format!(", mapped ({n} runs spilled to scratch)"),
                }
            ),
            Progress::Solved(s, loaded) => format!(
                "solved layer {:>3}: {}{}",
                s.seeds,
                if loaded {
                    "loaded from the state".to_string()
                } else {
                    format!("{} sweeps in {:.1} s", s.sweeps, s.backward.as_secs_f64())
                },
                if s.mapped { ", mapped" } else { "" }
            ),
        };
        eprintln!("{line} [{now:.0} s]");
    };
    let solve = match StartSolve::run(rules, start, &options, &mut report) {
        Ok(solve) => solve,
        Err(err @ StartError::NotEnoughMemory { .. }) => bail!(
            "solving the start of Hoyito {variant} 2x{holes}: {err}; or prove its value by \
             search, which keeps far less in memory: `{prove_command}`{}",
            if exact_up_to.is_none() {
                " with --exact-up-to N, the exact tables up to N seeds as its leaves"
            } else {
                ""
            }
        ),
        Err(err) => {
            return Err(err)
                .with_context(|| format!("solving the start of Hoyito {variant} 2x{holes}"))
        }
    };
    let seconds = clock.elapsed().as_secs_f64();
    let storage = if solve.is_mapped() {
        eprintln!(
            "out of core: layers memory-mapped from {}, scratch files peaked at {} MB",
            state.map_or("the state directory".into(), |d| d.display().to_string()),
            solve.scratch_peak().div_ceil(1 << 20)
        );
        "memory-mapped"
    } else {
        "in memory"
    };
    let margin = solve
        .start_value()
        .context("the start has no value: internal error")? as i32;
    let best: Vec<String> = solve.best_moves().iter().map(|m| m.to_string()).collect();
    let (pv, outcome) = solve.principal_variation();
    let pv: Vec<String> = pv.iter().map(|m| m.to_string()).collect();
    let outcome = outcome.context("the principal variation did not end: internal error")?;
    let pv_margin = outcome.scores.south as i32 - outcome.scores.north as i32;
    let mut out = std::io::stdout().lock();
    writeln!(out, "value {margin}")?;
    writeln!(out, "best {}", best.join(" "))?;
    writeln!(
        out,
        "pv {} ({} plies, ends {}, margin {pv_margin})",
        pv.join(" "),
        pv.len(),
        outcome.ending
    )?;
    writeln!(
        out,
        "positions {} in {} layers, {seconds:.1} s",
        solve.positions(),
        solve.stats().len()
    )?;
    if let Some(path) = json_out {
        let (score, advantage) = score_of(margin);
        let first: serde_json::Map<String, serde_json::Value> = solve
            .first_moves()
            .iter()
            .map(|(m, v)| (m.to_string(), json!(v)))
            .collect();
        let layers: Vec<_> = solve
            .stats()
            .iter()
            .rev()
            .map(|s| {
                json!({"seeds": s.seeds, "positions": s.positions,
                       "inner_moves": s.inner_moves, "sweeps": s.sweeps})
            })
            .collect();
        let entry = json!({
            "variant": variant.to_string(),
            "holes": holes,
            "seeds": 2 * holes as u32 * seeds,
            "status": "exact",
            "margin": margin,
            "score": score,
            "advantage": advantage,
            "best": best.join(" "),
            "first_moves": first,
            "pv": pv.join(" "),
            "pv_plies": pv.len(),
            "pv_ending": outcome.ending.name(),
            "pv_margin": pv_margin,
            "method": "reachable-only retrograde analysis (hoyito solve --start)",
            "positions": solve.positions(),
            "layers": layers,
            "seconds": (seconds * 10.0).round() / 10.0,
            "storage": storage,
            "peak_mb": peak_mb(),
        });
        write_entry(path, &entry)?;
    }
    Ok(())
}

/// Writes `text` to `path` atomically (no half-written file after a kill).
pub(super) fn write_text(path: &Path, text: &str) -> Result<()> {
    let temp = path.with_extension("part");
    write_atomic(&temp, path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

fn write_entry(path: &Path, entry: &serde_json::Value) -> Result<()> {
    write_text(path, &(serde_json::to_string(entry)? + "\n"))
}

/// The largest layer of at most `exact_up_to` seeds that a game from a start
/// of `top` seeds reaches: only layers with as many seeds, modulo 4, as the
/// start occur in its game (0 below 4).
pub(super) fn reachable_layer(top: u32, exact_up_to: u32) -> u32 {
    if exact_up_to >= 4 {
        exact_up_to - (exact_up_to + 4 - top % 4) % 4
    } else {
        0
    }
}

/// `hoyito solve --start --prove`.
#[allow(clippy::too_many_arguments)]
pub fn prove_start(
    variant: Variant,
    holes: u8,
    seeds: u32,
    tables: Option<&Path>,
    exact_up_to: u32,
    budget: BoundsBudget,
    json_out: Option<&Path>,
    book: Option<(&Path, u32)>,
) -> Result<()> {
    let rules = Rules::new(variant).with_board(holes as u32, seeds)?;
    let start = Position::start(&rules);
    let clock = Instant::now();
    let mut tb = Tablebase::new(variant, holes)?;
    let exact = reachable_layer(start.seeds_on_board(), exact_up_to);
    let layers = Tablebase::dependencies(exact);
    tb.check_plan(&layers, tables)?;
    super::table_dir::table_dir(tables)?;
    for &k in &layers {
        tb.ensure(k, tables, &|_| {})
            .with_context(|| format!("tables: layer of {k} seeds"))?;
        eprintln!(
            "tables: layer {k:>3} ready [{:.0} s]",
            clock.elapsed().as_secs_f64()
        );
    }
    let mut depths = Vec::new();
    let proved = prove_bounds(
        rules,
        start,
        &tb,
        exact,
        budget,
        &mut |d, lo, hi, nodes, secs| {
            eprintln!("depth {d:>2}: value in [{lo}, {hi}] ({nodes} nodes) [{secs:.0} s]");
            depths.push(json!({"depth": d, "lower": lo, "upper": hi, "nodes": nodes,
                           "seconds": (secs * 10.0).round() / 10.0}));
        },
    );
    let seconds = clock.elapsed().as_secs_f64();
    let status = if proved.lower == proved.upper {
        "exact"
    } else {
        "bounds"
    };
    let line: Vec<String> = proved.line.iter().map(|m| m.to_string()).collect();
    println!("bounds [{}, {}]", proved.lower, proved.upper);
    println!(
        "depth {} ({} nodes, {seconds:.1} s)",
        proved.depth, proved.nodes
    );
    println!("line {}", line.join(" "));
    // An exact value gets each first move's value (which first moves lose
    // how much: what explains the sign) and a whole perfect game.
    let first_moves = if proved.lower == proved.upper {
        prove_first_moves(
            rules,
            start,
            &tb,
            exact,
            budget,
            &mut |mv, lo, hi, nodes| {
                let value = if lo == hi {
                    format!("{lo}")
                } else {
                    format!("in [{lo}, {hi}]")
                };
                eprintln!(
                    "first move {mv}: {value} ({nodes} nodes) [{:.0} s]",
                    clock.elapsed().as_secs_f64()
                );
            },
        )
    } else {
        Vec::new()
    };
    let best: Vec<String> = first_moves
        .iter()
        .filter(|&&(_, lo, hi)| lo == proved.lower && hi == proved.upper)
        .map(|(mv, _, _)| mv.to_string())
        .collect();
    if !first_moves.is_empty() {
        println!("best {}", best.join(" "));
    }
    let first: serde_json::Map<String, serde_json::Value> = first_moves
        .iter()
        .map(|&(mv, lo, hi)| {
            let value = if lo == hi { json!(lo) } else { json!([lo, hi]) };
            (mv.to_string(), value)
        })
        .collect();
    if let Some((path, plies)) = book {
        if proved.lower != proved.upper {
            bail!(
                "no book written to {}: the start's value was not proved exact \
                 (bounds [{}, {}]); raise --node-budget or --exact-up-to",
                path.display(),
                proved.lower,
                proved.upper
            );
        }
        let lines = perfect_lines(
            rules,
            start,
            &tb,
            exact,
            proved.lower,
            plies,
            budget,
            &mut |ply, kept, of, open| {
                eprintln!(
                    "book: ply {}: {kept} of {of} moves keep the value, {open} not proved \
                     [{:.0} s]",
                    ply + 1,
                    clock.elapsed().as_secs_f64()
                );
            },
        );
        write_perfect_book(path, &rules, plies, exact, proved.lower, &lines)?;
        eprintln!("book: {} lines written to {}", lines.len(), path.display());
    }
    // An exact value gets a whole perfect game that realises it.
    let game = (proved.lower == proved.upper)
        .then(|| proof_line(rules, start, &tb, exact, proved.lower, proved.depth))
        .flatten();
    let (pv, pv_note, pv_margin, pv_ending) = match &game {
        Some(g) => {
            let o = g.outcome().context("a proof line ends its game")?;
            let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
            println!(
                "pv {} (ends {}, margin {})",
                moves.join(" "),
                o.ending,
                o.scores.south as i32 - o.scores.north as i32
            );
            (
                moves.join(" "),
                "a whole game under perfect play that ends with the value",
                Some(o.scores.south as i32 - o.scores.north as i32),
                Some(o.ending.name()),
            )
        }
        None => (
            line.join(" "),
            "the pessimistic search's line to its horizon, not a whole game",
            None,
            None,
        ),
    };
    if let Some(path) = json_out {
        let (score, advantage) = score_of(proved.lower);
        let entry = json!({
            "variant": variant.to_string(),
            "holes": holes,
            "seeds": 2 * holes as u32 * seeds,
            "status": status,
            "margin": (status == "exact").then_some(proved.lower),
            "score": (status == "exact").then_some(score),
            "advantage": (status == "exact").then_some(advantage),
            "lower": proved.lower,
            "upper": proved.upper,
            "best": (!first.is_empty()).then(|| best.join(" ")),
            "first_moves": (!first.is_empty()).then_some(first),
            "pv": pv,
            "pv_plies": pv.split_whitespace().count(),
            "pv_note": pv_note,
            "pv_margin": pv_margin,
            "pv_ending": pv_ending,
            "method": format!(
                "proof search: alpha-beta to depth {} with the horizon scored as every seed \
                 left lost (lower bound) and won (upper bound), exact table values at {} seeds \
                 or fewer (hoyito solve --start --prove)", proved.depth, exact),
            "exact_up_to": exact,
            "depths": depths,
            "nodes": proved.nodes,
            "seconds": (seconds * 10.0).round() / 10.0,
            "peak_mb": peak_mb(),
        });
        write_entry(path, &entry)?;
    }
    Ok(())
}

/// Writes the perfect lines from the start as an opening book (the format of
/// `openings/`; see `hoyito::openings::Book`), checked by reading it back.
fn write_perfect_book(
    path: &Path,
    rules: &Rules,
    plies: u32,
    exact: u32,
    value: i32,
    lines: &[Vec<hoyito::Move>],
) -> Result<()> {
    use hoyito::openings::{Book, BookEntry};
    let mut entries = Vec::with_capacity(lines.len());
    for line in lines {
        let mut game = hoyito::Game::new(*rules);
        for &mv in line {
            game.play(mv)
                .with_context(|| format!("perfect line {line:?} does not replay"))?;
        }
        entries.push(BookEntry {
            position: *game.position(),
            plies: line.clone(),
        });
    }
    let book = Book {
        variant: rules.variant,
        holes: rules.holes,
        seeds: rules.seeds,
        header: vec![
            "hoyito opening book".into(),
            format!(
                "command: hoyito solve --start --prove --variant {} --holes {} --seeds {} \
                 --exact-up-to {exact} --book-plies {plies} --book {}",
                rules.variant,
                rules.holes,
                rules.seeds,
                path.display()
            ),
            format!("variant: {}", rules.variant),
            format!("holes: {}", rules.holes),
            format!("seeds: {}", rules.seeds),
            format!("plies: {plies}"),
            format!(
                "made: every line from the start in which each of the {plies} plies keeps \
                 the position's exact value, proved (the start's: {value} for South); \
                 transpositions kept once"
            ),
        ],
        entries,
    };
    let text = book.to_text();
    Book::parse(&text, &path.display().to_string())
        .context("the perfect book does not read back")?;
    write_text(path, &text)
}

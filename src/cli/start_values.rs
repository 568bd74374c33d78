//! `hoyito start-values`: what searches say the standard start is worth, on
//! every board asked for, at rising depth, beside the exact values where a
//! solve reached (`reports/first-player/exact.json`).
//!
//! Plain alpha-beta (the roster's defaults) is asked at depth 1, 2, 3, ...
//! until the nodes of all its iterations pass `--node-budget`; the champion's
//! search (principal variation search, aspiration, quiescence, exact tables
//! at 8 seeds) at a node budget of 1, 4, 16, ... million a move, up to the same
//! budget. Node budgets, not clocks, so the same command gives the same
//! figures on any machine. Writes `start-values.json` and the charts: one of
//! value against depth per board, and one of the best-known value against the
//! board size (exact values filled, search values hollow, and the proved
//! outcome for South, W, D or L, written over every board that has one).
//! `--redraw` draws the charts again from `start-values.json` and the
//! current `exact.json`, with no search (the series take hours).

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::report::{draw_start_values, ValueSeries};
use hoyito::{analyse, AgentRng, AgentSpec, Game, Rules, Variant};
use plotters::prelude::{IntoDrawingArea, SVGBackend};
use rand::SeedableRng;
use serde_json::json;

/// Arguments of `hoyito start-values`.
#[derive(Debug, Args)]
pub struct StartValuesArgs {
    /// Output directory (created): start-values.json and charts/.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// Variants, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "i,ii,iii")]
    variants: Vec<Variant>,
    /// Smallest board, holes per row.
    #[arg(long, default_value_t = 3)]
    min_holes: u8,
    /// Largest board, holes per row.
    #[arg(long, default_value_t = 16)]
    max_holes: u8,
    /// Nodes each search series may spend on one board, all its depths or
    /// budgets together (the last iteration may pass it).
    #[arg(long, default_value_t = 100_000_000)]
    node_budget: u64,
    /// Draw the charts again from OUT/start-values.json (its boards and
    /// series) and --exact, searching nothing.
    #[arg(long)]
    redraw: bool,
    /// Exact start values and proved outcomes to mark on the board-size chart.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "reports/first-player/exact.json"
    )]
    exact: PathBuf,
}

/// One search's answer at the start.
struct Point {
    level: u64,
    depth: u32,
    score: i64,
    nodes: u64,
}

fn field(lines: &[String], name: &str) -> Option<i64> {
    lines.iter().find_map(|l| {
        let mut words = l.split_whitespace();
        (words.next() == Some(name))
            .then(|| words.next()?.parse().ok())
            .flatten()
    })
}

fn ask(spec: &AgentSpec, rules: &Rules) -> Result<(i64, u32, u64)> {
    let game = Game::new(*rules);
    hoyito::prepare_tables(spec, rules)?;
    let mut rng = AgentRng::seed_from_u64(1);
    let a = analyse(spec, &game, &mut rng)?;
    let score = field(&a.lines, "score").context("the search reports no score")?;
    let depth = field(&a.lines, "depth").unwrap_or(0) as u32;
    let nodes = field(&a.lines, "nodes").unwrap_or(0) as u64;
    Ok((score, depth, nodes))
}

fn spec(text: &str) -> Result<AgentSpec> {
    toml::from_str(text).with_context(|| format!("agent spec {text:?}"))
}

/// The depth series and the champion series of one board.
fn series(rules: &Rules, budget: u64) -> Result<(Vec<Point>, Vec<Point>)> {
    let mut plain = Vec::new();
    let mut spent = 0u64;
    for depth in 1..=64u32 {
        let (score, reached, nodes) = ask(
            &spec(&format!("kind = \"alphabeta\"\ndepth = {depth}"))?,
            rules,
        )?;
        spent += nodes;
        plain.push(Point {
            level: depth as u64,
            depth: reached,
            score,
            nodes,
        });
        if spent >= budget {
            break;
        }
    }
    let mut champion = Vec::new();
    let mut spent = 0u64;
    let mut million = 1u64;
    while spent < budget {
        let text = format!(
            "kind = \"alphabeta\"\nnodes = {}\npvs = true\naspiration = 2\nquiescence = 4\nmax_seeds = 8",
            million * 1_000_000
        );
        let (score, reached, nodes) = ask(&spec(&text)?, rules)?;
        spent += nodes;
        champion.push(Point {
            level: million,
            depth: reached,
            score,
            nodes,
        });
        // A search that reached the deepest iteration ran out of depth:
        // more nodes would change nothing.
        if reached >= 64 || million >= 1 << 20 {
            break;
        }
        million *= 4;
    }
    Ok((plain, champion))
}

/// The value two successive depths agree on last, if they do.
fn settled(points: &[Point]) -> Option<i64> {
    let n = points.len();
    (n >= 2 && points[n - 1].score == points[n - 2].score).then(|| points[n - 1].score)
}

/// What `exact.json` knows of a start.
struct Known {
    variant: Variant,
    holes: u8,
    margin: Option<i64>,
    /// The proved outcome for South: W, D or L.
    outcome: Option<String>,
}

fn exact_values(path: &Path) -> Vec<Known> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in json["start_positions"].as_array().into_iter().flatten() {
        let (Some(v), Some(h)) = (e["variant"].as_str(), e["holes"].as_u64()) else {
            continue;
        };
        let Ok(variant) = v.parse::<Variant>() else {
            continue;
        };
        let margin = e["margin"].as_i64();
        let outcome = e["outcome"].as_str().map(str::to_string).or_else(|| {
            margin.map(|m| match m.signum() {
                1 => "W".to_string(),
                0 => "D".to_string(),
                _ => "L".to_string(),
            })
        });
        out.push(Known {
            variant,
            holes: h as u8,
            margin,
            outcome,
        });
    }
    out
}

/// Draws every chart from the boards of `start-values.json`.
fn draw_charts(charts: &Path, boards: &[serde_json::Value], exact: &[Known]) -> Result<()> {
    let mut variants: Vec<String> = Vec::new();
    let mut holes_all: Vec<u64> = Vec::new();
    for b in boards {
        let v = b["variant"].as_str().unwrap_or("?").to_string();
        if !variants.contains(&v) {
            variants.push(v);
        }
        let h = b["holes"].as_u64().unwrap_or(0);
        if !holes_all.contains(&h) {
            holes_all.push(h);
        }
    }
    let mut best_known: Vec<ValueSeries> = variants
        .iter()
        .map(|v| ValueSeries {
            name: format!("Hoyito {v}"),
            points: Vec::new(),
            labels: Vec::new(),
        })
        .collect();
    for &holes in &holes_all {
        let mut depth_series = Vec::new();
        for (vi, v) in variants.iter().enumerate() {
            let Some(b) = boards.iter().find(|b| {
                b["variant"].as_str() == Some(v.as_str()) && b["holes"].as_u64() == Some(holes)
            }) else {
                continue;
            };
            let plain: Vec<(f64, f64)> = b["alphabeta"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|p| Some((p["level"].as_f64()?, p["score"].as_f64()?)))
                .collect();
            depth_series.push(ValueSeries {
                name: format!("Hoyito {v}"),
                points: plain.iter().map(|&(x, y)| (x, y, false)).collect(),
                labels: Vec::new(),
            });
            let known = exact
                .iter()
                .find(|e| e.variant.name() == v && e.holes as u64 == holes);
            let (value, is_exact) = match known.and_then(|k| k.margin) {
                Some(m) => (m as f64, true),
                None => (plain.last().map(|p| p.1).unwrap_or(0.0), false),
            };
            best_known[vi].points.push((holes as f64, value, is_exact));
            if let Some(o) = known.and_then(|k| k.outcome.clone()) {
                best_known[vi].labels.push((holes as f64, value, o));
            }
        }
        let path = charts.join(format!("start-value-by-depth-2x{holes}.svg"));
        let root = SVGBackend::new(&path, (720, 440)).into_drawing_area();
        draw_start_values(
            &root,
            &format!("Start value under alpha-beta by depth, 2x{holes} (South to move)"),
            "depth (plies)",
            "South's margin, seeds",
            &depth_series,
        )
        .map_err(|e| anyhow::anyhow!("chart {}: {e}", path.display()))?;
    }
    let path = charts.join("best-known-start-value.svg");
    let root = SVGBackend::new(&path, (960, 480)).into_drawing_area();
    draw_start_values(
        &root,
        "Best-known start value by board (filled: exact, hollow: deepest alpha-beta; W/D/L: proved for South)",
        "holes per row",
        "South's margin, seeds",
        &best_known,
    )
    .map_err(|e| anyhow::anyhow!("chart {}: {e}", path.display()))?;
    Ok(())
}

/// `hoyito start-values`.
pub fn start_values(args: StartValuesArgs) -> Result<()> {
    if args.min_holes < 2 || args.max_holes > 16 || args.min_holes > args.max_holes {
        bail!("--min-holes and --max-holes must be within 2..16, smallest first");
    }
    let charts = args.out.join("charts");
    std::fs::create_dir_all(&charts)
        .with_context(|| format!("cannot create {}", charts.display()))?;
    let exact = exact_values(&args.exact);
    if args.redraw {
        let file = args.out.join("start-values.json");
        let text = std::fs::read_to_string(&file)
            .with_context(|| format!("--redraw: cannot read {}", file.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text)
            .with_context(|| format!("--redraw: {} is not JSON", file.display()))?;
        let boards = json["boards"]
            .as_array()
            .with_context(|| format!("--redraw: {} has no boards", file.display()))?;
        draw_charts(&charts, boards, &exact)?;
        println!("{}", charts.display());
        return Ok(());
    }
    let clock = Instant::now();
    let mut boards = Vec::new();
    for holes in args.min_holes..=args.max_holes {
        for &variant in &args.variants {
            let rules = Rules::new(variant).with_board(holes as u32, 4)?;
            let started = Instant::now();
            let (plain, champion) = series(&rules, args.node_budget)?;
            let seconds = started.elapsed().as_secs_f64();
            let exact_here = exact
                .iter()
                .find(|e| e.variant == variant && e.holes == holes)
                .and_then(|e| e.margin);
            let agreed = settled(&plain);
            eprintln!(
                "Hoyito {variant} 2x{holes}: alpha-beta depth {} says {:+}{}, champion {:+} at {}M nodes, exact {} [{seconds:.0} s; {:.0} s in all]",
                plain.last().map(|p| p.level).unwrap_or(0),
                plain.last().map(|p| p.score).unwrap_or(0),
                if agreed.is_some() { " (last two depths agree)" } else { "" },
                champion.last().map(|p| p.score).unwrap_or(0),
                champion.last().map(|p| p.level).unwrap_or(0),
                exact_here.map(|m| format!("{m:+}")).unwrap_or_else(|| "unknown".into()),
                clock.elapsed().as_secs_f64()
            );
            let point_json = |p: &Point| json!({"level": p.level, "depth": p.depth, "score": p.score, "nodes": p.nodes});
            boards.push(json!({
                "variant": variant.to_string(),
                "holes": holes,
                "alphabeta": plain.iter().map(point_json).collect::<Vec<_>>(),
                "champion": champion.iter().map(point_json).collect::<Vec<_>>(),
                "last_two_depths_agree": agreed.is_some(),
                "deepest": plain.last().map(|p| p.level),
                "exact": exact_here,
                "seconds": (seconds * 10.0).round() / 10.0,
            }));
        }
    }
    draw_charts(&charts, &boards, &exact)?;
    let out = json!({
        "what": "the standard start's value (South to move, South's margin in seeds) under plain alpha-beta at rising depth and the champion's search at rising node budgets, beside the exact value where solved (hoyito start-values)",
        "node_budget": args.node_budget,
        "boards": boards,
    });
    let file = args.out.join("start-values.json");
    super::solve_start::write_text(&file, &(serde_json::to_string_pretty(&out)? + "\n"))?;
    println!("{}", file.display());
    Ok(())
}

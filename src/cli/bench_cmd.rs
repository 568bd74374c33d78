//! `bench`: plies per second per variant and board on this machine, the
//! engine's floor beside the whole harness, so that users can compare
//! machines and see what the records cost (see `hoyito::bench`); with
//! `--search`, the searches' speed instead.

use anyhow::{bail, Context, Result};
use clap::Args;
use hoyito::bench::{self, floor, harness, search_depth, SearchThroughput, Throughput};
use hoyito::{check_board, Rules, Variant};

/// The most random games per measure: 500 times the default, minutes per
/// measure on one core; `18446744073709551615` would run for ever.
const MAX_GAMES: u64 = 10_000_000;
/// The most times a measure is taken.
const MAX_REPEAT: usize = 1_000;
/// The most champion games per measure of `--adjudication`.
const MAX_CHAMPION_GAMES: u64 = 100_000;

/// Arguments of `hoyito bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Variants to measure (i, ii, iii), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "i,ii,iii")]
    variants: Vec<Variant>,
    /// Holes per row of the boards to measure, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "6,12")]
    holes: Vec<u8>,
    /// Random games per measure.
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Worker threads of the harness measure (0 = all cores).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Times each measure is taken, the floor and the harness back to back;
    /// the medians are printed, and the ratio is the median of the
    /// back-to-back ratios.
    #[arg(long, default_value_t = 3)]
    repeat: usize,
    /// Measure the batch (`hoyito::batch`, Python's `VectorGame`) in place
    /// of the harness: N random games stepped together on one thread, their
    /// random legal actions drawn outside the timing, as many plies as the
    /// floor played just before; the ratio is the batch's plies per second
    /// over the floor's.
    #[arg(long, value_name = "N", conflicts_with = "threads")]
    batch: Option<usize>,
    /// Measure the searches instead of the random games: alpha-beta positions
    /// made per second (plain and with the search enhancements, from the
    /// start position to depth 17 up to 2x6 and 12 beyond) and MCTS
    /// iterations per second (10,000 iterations, random rollouts), one core.
    #[arg(long, conflicts_with_all = ["games", "threads", "batch"])]
    search: bool,
    /// Measure the reachable-only start solver instead (`hoyito solve
    /// --start`, in memory, one core): each variant and board's standard
    /// start solved --repeat times; the median seconds and positions per
    /// second. The target: I 2x6 under 10 minutes.
    #[arg(long, conflicts_with_all = ["games", "threads", "search", "batch"])]
    solve_start: bool,
    /// Measure what endgame-table adjudication saves strong play instead:
    /// --champion-games champion self-play games of each variant and board
    /// (8 random plies, one worker thread), played out and then adjudicated
    /// by the tables in DIR (`[adjudication] tablebase`), each --repeat
    /// times; the median games per second of each and their ratio.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["games", "threads", "search", "solve_start", "batch"])]
    adjudication: Option<std::path::PathBuf>,
    /// Games of each measure of --adjudication.
    #[arg(
        long,
        value_name = "GAMES",
        default_value_t = 8,
        requires = "adjudication"
    )]
    champion_games: u64,
}

/// `hoyito bench`.
pub fn bench(args: BenchArgs) -> Result<()> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    if args.repeat > MAX_REPEAT {
        bail!("--repeat {} is too many: at most {MAX_REPEAT}", args.repeat);
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.games > MAX_GAMES {
        bail!(
            "--games {} is too many: at most {MAX_GAMES} random games per measure",
            args.games
        );
    }
    for &holes in &args.holes {
        check_board(u32::from(holes), 4).with_context(|| format!("--holes {holes}"))?;
    }
    if args.search {
        return search(&args);
    }
    if args.solve_start {
        return solve_start(&args);
    }
    if let Some(dir) = &args.adjudication {
        return adjudication(&args, dir);
    }
    if let Some(n) = args.batch {
        return batch(&args, n);
    }
    println!(
        "{:<8} {:>5} {:>14} {:>14} {:>12} {:>6}",
        "variant", "board", "floor plies/s", "harness plies/s", "harness g/s", "ratio"
    );
    for &holes in &args.holes {
        for &variant in &args.variants {
            let rules = Rules::new(variant).with_board(u32::from(holes), 4)?;
            let (floor, harness, ratio) = beside_the_floor(&args, &rules, |k, _| {
                harness(variant, holes, args.games, args.threads, k)
                    .context("the harness bench failed")
            })?;
            println!(
                "{:<8} {:>5} {:>14.0} {:>15.0} {:>12.0} {:>5.0}%",
                variant.name(),
                format!("2x{holes}"),
                floor.plies_per_second(),
                harness.plies_per_second(),
                harness.games_per_second(),
                100.0 * ratio
            );
        }
    }
    Ok(())
}

/// The most games of `--batch`.
const MAX_BATCH: usize = 1 << 20;

/// `hoyito bench --batch N`.
fn batch(args: &BenchArgs, n: usize) -> Result<()> {
    if n == 0 || n > MAX_BATCH {
        bail!("--batch {n}: give 1 to {MAX_BATCH} games");
    }
    println!(
        "{:<8} {:>5} {:>7} {:>14} {:>14} {:>6}",
        "variant", "board", "batch", "floor plies/s", "batch plies/s", "ratio"
    );
    for &holes in &args.holes {
        for &variant in &args.variants {
            let rules = Rules::new(variant).with_board(u32::from(holes), 4)?;
            let (floor, batch, ratio) = beside_the_floor(args, &rules, |k, floor| {
                let steps = (floor.plies / n as u64).max(1);
                bench::batch(&rules, n, steps, k).context("the batch bench failed")
            })?;
            println!(
                "{:<8} {:>5} {:>7} {:>14.0} {:>14.0} {:>5.0}%",
                variant.name(),
                format!("2x{holes}"),
                n,
                floor.plies_per_second(),
                batch.plies_per_second(),
                100.0 * ratio
            );
        }
    }
    Ok(())
}

/// `hoyito bench --search`.
fn search(args: &BenchArgs) -> Result<()> {
    println!(
        "{:<8} {:>5} {:>5} {:>16} {:>16} {:>16}",
        "variant", "board", "depth", "alphabeta made/s", "enhanced made/s", "mcts iter/s"
    );
    for &holes in &args.holes {
        for &variant in &args.variants {
            let rules = Rules::new(variant).with_board(u32::from(holes), 4)?;
            let depth = search_depth(holes);
            let repeat = |f: &dyn Fn(u64) -> SearchThroughput| {
                median_of((0..args.repeat as u64).map(|k| f(k).per_second()).collect())
            };
            let plain = repeat(&|_| bench::alphabeta(&rules, depth, false));
            let enhanced = repeat(&|_| bench::alphabeta(&rules, depth, true));
            let mcts = repeat(&|k| bench::mcts(&rules, k));
            println!(
                "{:<8} {:>5} {:>5} {:>16.0} {:>16.0} {:>16.0}",
                variant.name(),
                format!("2x{holes}"),
                depth,
                plain,
                enhanced,
                mcts
            );
        }
    }
    Ok(())
}

/// `hoyito bench --adjudication DIR`.
fn adjudication(args: &BenchArgs, dir: &std::path::Path) -> Result<()> {
    if args.champion_games == 0 {
        bail!("--champion-games must be at least 1");
    }
    if args.champion_games > MAX_CHAMPION_GAMES {
        bail!(
            "--champion-games {} is too many: at most {MAX_CHAMPION_GAMES}",
            args.champion_games
        );
    }
    let path = dir
        .to_str()
        .with_context(|| format!("--adjudication {}: not a UTF-8 path", dir.display()))?;
    let table = format!("tablebase = {}", toml::Value::from(path));
    println!(
        "{:<8} {:>5} {:>7} {:>13} {:>13} {:>11} {:>11} {:>6}",
        "variant",
        "board",
        "games",
        "played g/s",
        "adjudged g/s",
        "plies/game",
        "adj pl/g",
        "ratio"
    );
    for &holes in &args.holes {
        for &variant in &args.variants {
            let mut played = Vec::with_capacity(args.repeat);
            let mut judged = Vec::with_capacity(args.repeat);
            let mut ratios = Vec::with_capacity(args.repeat);
            for k in 0..args.repeat as u64 {
                let p = bench::champion_games(variant, holes, args.champion_games, k + 1, None)
                    .context("the champion bench failed")?;
                let j =
                    bench::champion_games(variant, holes, args.champion_games, k + 1, Some(&table))
                        .context("the champion bench with adjudication failed")?;
                ratios.push(j.games_per_second() / p.games_per_second());
                played.push(p);
                judged.push(j);
            }
            let p = median_by(played, Throughput::games_per_second);
            let j = median_by(judged, Throughput::games_per_second);
            println!(
                "{:<8} {:>5} {:>7} {:>13.3} {:>13.3} {:>11.0} {:>11.0} {:>5.1}x",
                variant.name(),
                format!("2x{holes}"),
                p.games,
                p.games_per_second(),
                j.games_per_second(),
                p.plies as f64 / p.games.max(1) as f64,
                j.plies as f64 / j.games.max(1) as f64,
                median_of(ratios)
            );
        }
    }
    Ok(())
}

/// `hoyito bench --solve-start`.
fn solve_start(args: &BenchArgs) -> Result<()> {
    use hoyito::solver::start::{StartOptions, StartSolve};
    println!(
        "{:<8} {:>5} {:>12} {:>10} {:>14} {:>6}",
        "variant", "board", "positions", "median s", "positions/s", "value"
    );
    for &holes in &args.holes {
        for &variant in &args.variants {
            let rules = Rules::new(variant).with_board(u32::from(holes), 4)?;
            let start = hoyito::Position::start(&rules);
            let mut runs = Vec::with_capacity(args.repeat);
            for _ in 0..args.repeat {
                let clock = std::time::Instant::now();
                // The same memory check as `hoyito solve --start`: a start
                // too large is refused, never left to exhaust the machine.
                let options = StartOptions {
                    memory: hoyito::solver::memory::memory_budget(1).map(|b| b.bytes),
                    ..StartOptions::default()
                };
                let solve = StartSolve::run(rules, start, &options, &mut |_| {})
                    .with_context(|| format!("solving the start of Hoyito {variant} 2x{holes}"))?;
                let seconds = clock.elapsed().as_secs_f64();
                runs.push((seconds, solve.positions(), solve.start_value()));
            }
            let (seconds, positions, value) = median_by(runs, |r| r.0);
            println!(
                "{:<8} {:>5} {:>12} {:>10.1} {:>14.0} {:>6}",
                variant.name(),
                format!("2x{holes}"),
                positions,
                seconds,
                positions as f64 / seconds,
                value.map_or("-".to_string(), |v| v.to_string())
            );
        }
    }
    Ok(())
}

/// The floor of `rules` and another measure (`measure(k, floor)`, the
/// `k`-th given the floor just taken) back to back, --repeat times, so
/// that each ratio compares two measures taken in the same seconds of a
/// machine whose speed drifts: the median floor, the median other, and the
/// median of the ratios (the other's plies per second over the floor's).
fn beside_the_floor(
    args: &BenchArgs,
    rules: &Rules,
    mut measure: impl FnMut(u64, &Throughput) -> Result<Throughput>,
) -> Result<(Throughput, Throughput, f64)> {
    let mut floors = Vec::with_capacity(args.repeat);
    let mut others = Vec::with_capacity(args.repeat);
    let mut ratios = Vec::with_capacity(args.repeat);
    for k in 0..args.repeat as u64 {
        let floor = floor(rules, args.games, k);
        let other = measure(k, &floor)?;
        ratios.push(other.plies_per_second() / floor.plies_per_second());
        floors.push(floor);
        others.push(other);
    }
    Ok((
        median_by(floors, Throughput::plies_per_second),
        median_by(others, Throughput::plies_per_second),
        median_of(ratios),
    ))
}

/// The median of some rates (at least one).
fn median_of(rates: Vec<f64>) -> f64 {
    median_by(rates, |&r| r)
}

/// The item of `items` (at least one) with the median `key`, the upper one of
/// an even count.
fn median_by<T>(mut items: Vec<T>, key: impl Fn(&T) -> f64) -> T {
    items.sort_by(|a, b| key(a).total_cmp(&key(b)));
    items.swap_remove(items.len() / 2)
}

//! Runs a strength ladder described by a config such as `configs/ladder.toml`
//! with the plain game loop, until the tournament harness takes the file over.
//! Prints each match's score with its 95% Wilson interval.
//!
//! `cargo run --release --example ladder -- configs/ladder.toml`

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use hoyito::{play_game, Agent, AgentRng, BySide, Game, Roster, Rules, Side, Variant};
use rand::SeedableRng;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Config {
    variant: Variant,
    holes: u32,
    seeds: u32,
    seed: u64,
    opening_plies: u32,
    pairs: u64,
    agents_dir: PathBuf,
    #[serde(rename = "match")]
    matches: Vec<Match>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Match {
    agent: String,
    opponent: String,
}

/// The 95% Wilson score interval of a proportion `p` out of `n`.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z = 1.96f64;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let d = 1.0 + z * z / n;
    ((centre - spread) / d, (centre + spread) / d)
}

fn main() -> Result<()> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or("configs/ladder.toml".into());
    let text = std::fs::read_to_string(&path).with_context(|| format!("reading {path}"))?;
    let config: Config = toml::from_str(&text).with_context(|| format!("reading {path}"))?;
    let rules = Rules::new(config.variant).with_board(config.holes, config.seeds)?;
    let roster = Roster::load(Path::new(&config.agents_dir))?;
    println!(
        "Hoyito {} 2x{}, {} seat-swapped pairs per match, {}-ply random openings, seed {}",
        config.variant, config.holes, config.pairs, config.opening_plies, config.seed
    );
    for (m, pairing) in config.matches.iter().enumerate() {
        let a = &roster.get(&pairing.agent)?.spec;
        let b = &roster.get(&pairing.opponent)?.spec;
        let clock = Instant::now();
        let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
        for pair in 0..config.pairs {
            let game_seed = config.seed ^ ((m as u64) << 40) ^ pair;
            let mut rng = AgentRng::seed_from_u64(game_seed);
            let mut start = Game::new(rules);
            for _ in 0..config.opening_plies {
                if !start.is_over() {
                    start.play_random(&mut rng);
                }
            }
            for a_side in Side::BOTH {
                let (mut x, mut y) = (a.build(), b.build());
                let agents: BySide<&mut dyn Agent> = match a_side {
                    Side::South => BySide::new(x.as_mut(), y.as_mut()),
                    Side::North => BySide::new(y.as_mut(), x.as_mut()),
                };
                let game = play_game(&rules, start.clone(), agents, &mut rng)?;
                let Some(outcome) = game.outcome() else {
                    bail!("play_game returned an unfinished game");
                };
                match outcome.winner {
                    Some(w) if w == a_side => wins += 1,
                    None => draws += 1,
                    Some(_) => losses += 1,
                }
            }
        }
        let n = (wins + draws + losses) as f64;
        let score = (wins as f64 + 0.5 * draws as f64) / n;
        let (low, high) = wilson(score, n);
        println!(
            "{} vs {}: +{wins} ={draws} -{losses}, score {:.1}% [95% {:.1}%, {:.1}%] in {:.0} s",
            pairing.agent,
            pairing.opponent,
            100.0 * score,
            100.0 * low,
            100.0 * high,
            clock.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

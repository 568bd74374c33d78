//! How many games repeat, by number of random opening plies: the measurement
//! behind the default `[openings] random_plies` (docs/experiments.md, "Openings").
//!
//! For every variant, board and pairing, plays `--pairs` seat-swapped pairs the
//! way the harness does (the pair's random opening from `opening_seed`, then the
//! agents with the game's generator from `game_seed`) and counts the games
//! whose whole move sequence, opening included, equals an earlier game of the
//! same block with the agents in the same seats. Prints one Markdown row per
//! (variant, board, pairing) with the share of repeated games for each K.
//!
//! ```sh
//! cargo run --release --example opening_repeats -- --holes 6,12 --pairs 200
//! ```
//!
//! With `--openings-only`, no game is played: the row counts the pairs whose
//! random opening repeats an earlier pair's. For a pairing of deterministic
//! agents (alpha-beta) the whole game is a function of its opening, so this is
//! exactly its share of repeated games, and a lower bound for any pairing;
//! it is how the other boards are measured cheaply:
//!
//! ```sh
//! cargo run --release --example opening_repeats -- --holes 4,8,10,14,16 --openings-only
//! ```
//!
//! Flags: `--pairs N` (200), `--holes LIST` (4,6,8,10,12,14,16),
//! `--variants LIST` (i,ii,iii), `--ks LIST` (0,2,4,6,8), `--seed S` (1),
//! `--pairings LIST` of `A:B` roster names (greedy:alphabeta-d4,
//! alphabeta-d4:alphabeta-d8, greedy:greedy).

use std::collections::HashSet;
use std::path::Path;

use anyhow::{bail, Context, Result};
use hoyito::tournament::{game_seed, opening_seed, rng_from_seed};
use hoyito::{AgentSpec, Game, Move, Roster, Rules, Side, Variant};
use rayon::prelude::*;

fn list<T: std::str::FromStr>(text: &str) -> Result<Vec<T>>
where
    T::Err: std::fmt::Display,
{
    text.split(',')
        .map(|x| {
            x.trim()
                .parse::<T>()
                .map_err(|e| anyhow::anyhow!("{x:?}: {e}"))
        })
        .collect()
}

/// The random opening of a pair, as the harness plays it.
fn opening(rules: Rules, plies: u32, seed: u64) -> Vec<Move> {
    let mut game = Game::new(rules);
    let mut rng = rng_from_seed(seed);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        game.play_random(&mut rng);
    }
    game.moves().to_vec()
}

/// One game as the harness plays it; returns its moves.
fn play(rules: Rules, plies: u32, seeds: (u64, u64), agents: [&AgentSpec; 2]) -> Vec<Move> {
    let mut game = Game::new(rules);
    for mv in opening(rules, plies, seeds.0) {
        game.play(mv).expect("the opening is legal");
    }
    let mut rng = rng_from_seed(seeds.1);
    let mut seats: Vec<_> = agents.iter().map(|spec| spec.build()).collect();
    for seat in &mut seats {
        seat.new_game(&rules);
    }
    while !game.is_over() {
        let side = game.position().side_to_move();
        let i = usize::from(side == Side::North);
        let mv = seats[i].choose(&game, &mut rng);
        game.play(mv).expect("agents play legal moves");
        for seat in &mut seats {
            seat.observe(&game, mv);
        }
    }
    game.moves().to_vec()
}

fn main() -> Result<()> {
    let mut pairs = 200u64;
    let mut holes: Vec<u8> = vec![4, 6, 8, 10, 12, 14, 16];
    let mut variants: Vec<Variant> = Variant::ALL.to_vec();
    let mut ks: Vec<u32> = vec![0, 2, 4, 6, 8];
    let mut seed = 1u64;
    let mut pairings = "greedy:alphabeta-d4,alphabeta-d4:alphabeta-d8,greedy:greedy".to_string();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let openings_only = args.iter().any(|a| a == "--openings-only");
    args.retain(|a| a != "--openings-only");
    for flag in args.chunks(2) {
        let [name, value] = flag else {
            bail!("flags come in pairs: --name value");
        };
        match name.as_str() {
            "--pairs" => pairs = value.parse().context("--pairs")?,
            "--holes" => holes = list(value)?,
            "--variants" => variants = list(value)?,
            "--ks" => ks = list(value)?,
            "--seed" => seed = value.parse().context("--seed")?,
            "--pairings" => pairings = value.clone(),
            other => bail!("unknown flag {other}"),
        }
    }
    if openings_only {
        pairings = "random:random".to_string();
    }
    let roster = Roster::load(Path::new("agents"))?;
    let pairings: Vec<(String, String)> = pairings
        .split(',')
        .map(|p| match p.split_once(':') {
            Some((a, b)) => Ok((a.to_string(), b.to_string())),
            None => bail!("pairing {p:?} is not A:B"),
        })
        .collect::<Result<_>>()?;
    let header: Vec<String> = ks.iter().map(|k| format!("K={k}")).collect();
    println!("| variant | board | pairing | {} |", header.join(" | "));
    println!("|---|---|---|{}", "---:|".repeat(ks.len()));
    for &variant in &variants {
        for &h in &holes {
            let rules = Rules::new(variant).with_board(h as u32, 4)?;
            for (a, b) in &pairings {
                let specs = [&roster.get(a)?.spec, &roster.get(b)?.spec];
                let mut cells = Vec::new();
                for &k in &ks {
                    let games: Vec<(u64, Vec<Move>)> = (0..2 * pairs)
                        .into_par_iter()
                        .map(|g| {
                            let seats = if g % 2 == 0 {
                                [specs[0], specs[1]]
                            } else {
                                [specs[1], specs[0]]
                            };
                            let seeds = (opening_seed(seed, g / 2), game_seed(seed, g));
                            if openings_only {
                                (g % 2, opening(rules, k, seeds.0))
                            } else {
                                (g % 2, play(rules, k, seeds, seats))
                            }
                        })
                        .collect();
                    let distinct: HashSet<_> = games.iter().collect();
                    let repeated = games.len() - distinct.len();
                    cells.push(format!(
                        "{:.1}%",
                        100.0 * repeated as f64 / games.len() as f64
                    ));
                }
                let pairing = if openings_only {
                    "deterministic (openings only)".to_string()
                } else {
                    format!("{a} vs {b}")
                };
                println!("| {variant} | 2x{h} | {pairing} | {} |", cells.join(" | "));
            }
        }
    }
    Ok(())
}

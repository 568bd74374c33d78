//! Matches in rounds (Hoyito III, `rules.rounds > 1`): the report scores
//! matches beside rounds and shows what the round rule changes.
//!
//! The rows of such a run carry the round columns
//! ([`crate::tournament::RoundColumns`]); this module reads them back in one
//! pass (holding only the matches under way) and computes, per setting:
//!
//! - **Match results** per pairing. A match is won on rounds won, then on
//!   total seeds as the tie-break (RULES.md: "a match reports rounds won and
//!   total seeds"), else drawn. The score interval is pair-based: the two
//!   matches of a seat-swapped pair are one sample (pentanomial counts,
//!   [`ScoreEstimate::from_pentanomial`]), as for single games. Only
//!   complete matches count (a stopped run may leave some unfinished).
//! - **Balance by round number**: the first mover's score in each round
//!   (South in odd rounds, North in even), and the score of the previous
//!   round's winner. Rounds 1 and 2 are played under the single-game end
//!   rule (the last seeds to the capturer), rounds 3 on under the round rule
//!   (to the previous round's winner), so round 2 is the baseline for the
//!   previous winner's edge.
//! - **The last seeds**: a round's last seeds *decided* it when giving them
//!   to nobody would change its result (winner or draw); the round rule
//!   *changed* a round (from round 3) when they went to the previous round's
//!   winner, not to the capturer, and giving them to the capturer (the
//!   single-game rule) would change its result. Shares are of all rounds of
//!   the group, with Wilson intervals.

use std::collections::BTreeMap;
use std::path::Path;

use csv::StringRecord;
use serde::Serialize;

use crate::engine::rules::Variant;
use crate::records::game_row::{GameRow, Winner};
use crate::stats::elo::ScoreEstimate;
use crate::stats::outcomes::{Pentanomial, Wdl};
use crate::stats::wilson;
use crate::stats::wilson::{Proportion, Z95};
use crate::tournament::rounds_row::{RoundColumns, SideLetter};

use super::error::ReportError;

/// The matches of a run in rounds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundsSummary {
    /// Rounds per match.
    pub rounds: u32,
    /// Complete matches.
    pub matches: u64,
    /// Matches the run left unfinished (not scored).
    pub incomplete_matches: u64,
    /// Per setting, in order of first appearance.
    pub settings: Vec<RoundsSetting>,
}

/// The matches on one variant and board.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundsSetting {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row.
    pub holes: u8,
    /// Match and round scores per pairing.
    pub pairings: Vec<MatchPairing>,
    /// Balance by round number, from round 1.
    pub by_round: Vec<RoundNumber>,
    /// The last seeds in rounds 1 and 2 (to the capturer) and from round 3
    /// (to the previous round's winner).
    pub last_seeds: Vec<LastSeeds>,
}

/// One pairing's matches, from the point of view of `agent` (South in the
/// first match of each seat-swapped pair).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchPairing {
    /// The agent whose point of view the figures take.
    pub agent: String,
    /// Its opponent.
    pub opponent: String,
    /// The agent's match wins, draws and losses.
    pub matches: Wdl,
    /// Matches level on rounds won and decided by total seeds.
    pub by_seeds: u64,
    /// Pair scores of the complete seat-swapped match pairs.
    pub match_pairs: Pentanomial,
    /// The agent's match score with its pair-based 95% interval.
    pub match_score: Option<Proportion>,
    /// The agent's wins, draws and losses over single rounds.
    pub rounds: Wdl,
    /// The agent's round score with its pair-based 95% interval (the same
    /// round of the two matches of a pair is a seat-swapped pair of games).
    pub round_score: Option<Proportion>,
    /// The previous round's winner's score in round 2 (the single-game end
    /// rule) and in rounds 3 on (the last seeds to that winner), Wilson 95%
    /// intervals; in self-play this is the round rule's edge alone.
    pub previous_winner: [Option<Proportion>; 2],
}

/// The balance of one round number.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RoundNumber {
    /// The round, from 1.
    pub round: u32,
    /// Who moves first in it: `South` or `North`.
    pub first: &'static str,
    /// Rounds played.
    pub games: u64,
    /// The first mover's score, with its Wilson 95% interval.
    pub first_mover: Proportion,
    /// Rounds whose previous round had a winner.
    pub after_a_win: u64,
    /// The previous round's winner's score in them (from round 2).
    pub previous_winner: Option<Proportion>,
}

/// How often the last seeds mattered in a group of rounds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LastSeeds {
    /// `rounds 1-2` or `rounds 3+`.
    pub group: &'static str,
    /// Rounds in the group.
    pub games: u64,
    /// Rounds that ended with last seeds given away.
    pub given: u64,
    /// Of those, to someone else than the capturer.
    pub not_to_capturer: u64,
    /// Share of the rounds whose result the last seeds decided.
    pub decided: Proportion,
    /// Share of the rounds whose result the round rule changed (0 in rounds
    /// 1 and 2, where the rule is the single game's).
    pub changed: Proportion,
}

/// The round columns of a row, if its file has them: `None` from a file of
/// single games.
pub fn has_round_columns(headers: &StringRecord) -> bool {
    headers.iter().any(|h| h == "round") && headers.iter().any(|h| h == "match_id")
}

/// Reads `path` (a `games.csv` already read and checked by the report) and
/// summarises its matches of `rounds` rounds; `None` when it has no round
/// columns. When `rounds` is not known (no saved experiment), the largest
/// round in the file is taken.
pub fn rounds_summary(
    path: &Path,
    rounds: Option<u32>,
) -> Result<Option<RoundsSummary>, ReportError> {
    let rows = |each: &mut dyn FnMut(&GameRow, &RoundColumns, u64)| -> Result<bool, ReportError> {
        let file =
            crate::records::safe_file::open_regular(path).map_err(|source| ReportError::Read {
                path: path.to_path_buf(),
                source,
            })?;
        let mut reader = csv::Reader::from_reader(std::io::BufReader::new(file));
        let parse = |line: u64, message: String| ReportError::Parse {
            path: path.to_path_buf(),
            line,
            message,
        };
        let headers = reader
            .headers()
            .map_err(|e| parse(1, e.to_string()))?
            .clone();
        if !has_round_columns(&headers) {
            return Ok(false);
        }
        let mut record = StringRecord::new();
        while reader
            .read_record(&mut record)
            .map_err(|e| parse(0, e.to_string()))?
        {
            let line = record.position().map_or(0, |p| p.line());
            let game: GameRow = record
                .deserialize(Some(&headers))
                .map_err(|e| parse(line, e.to_string()))?;
            let round: RoundColumns = record
                .deserialize(Some(&headers))
                .map_err(|e| parse(line, format!("the round columns: {e}")))?;
            each(&game, &round, line);
        }
        Ok(true)
    };
    let rounds = match rounds {
        Some(k) => k,
        None => {
            let mut largest = 0;
            if !rows(&mut |_, r, _| largest = largest.max(r.round))? {
                return Ok(None);
            }
            largest
        }
    };
    let mut tally = RoundsTally::new(rounds);
    let mut misplaced = None;
    let read = rows(&mut |g, r, line| {
        let expected = round_place(g.game_id, rounds);
        if (r.match_id, r.round) != expected && misplaced.is_none() {
            misplaced = Some((line, g.game_id, r.match_id, r.round, expected));
        }
        tally.add(g, r)
    })?;
    if !read {
        return Ok(None);
    }
    if let Some((line, game, match_id, round, (want_match, want_round))) = misplaced {
        return Err(ReportError::Parse {
            path: path.to_path_buf(),
            line,
            message: format!(
                "game {game} says match {match_id} round {round}, but in matches of \
                 {rounds} rounds game {game} is round {want_round} of match {want_match}"
            ),
        });
    }
    Ok(Some(tally.finish()))
}

/// Where game `game_id` stands in matches of `rounds` rounds: (match id,
/// round from 1), as `Schedule::game` places it (the two matches of a
/// seat-swapped pair take `2 * rounds` consecutive ids, round by round).
fn round_place(game_id: u64, rounds: u32) -> (u64, u32) {
    let unit = 2 * u64::from(rounds.max(1));
    (
        2 * (game_id / unit) + game_id % 2,
        (game_id % unit / 2) as u32 + 1,
    )
}

/// A match under way.
#[derive(Debug, Clone)]
struct MatchSoFar {
    played: u32,
    won: [u32; 2],
    seeds: [u32; 2],
    previous: Option<Winner>,
}

/// Counts of one setting.
#[derive(Debug, Clone, Default)]
struct SettingTally {
    variant: Option<Variant>,
    holes: u8,
    /// By (agent, opponent) in order of first appearance.
    pairings: Vec<((String, String), PairingTally)>,
    /// By round number: games, first mover's points, after a win, previous
    /// winner's points.
    by_round: BTreeMap<u32, (u64, f64, u64, f64)>,
    /// Rounds 1-2 and 3+: games, given, not to capturer, decided, changed.
    last: [[u64; 5]; 2],
}

#[derive(Debug, Clone, Default)]
struct PairingTally {
    matches: Wdl,
    by_seeds: u64,
    match_pairs: Pentanomial,
    rounds: Wdl,
    round_pairs: Pentanomial,
    /// Round 2 and rounds 3+: rounds after a won round, the previous
    /// winner's points.
    previous_winner: [(u64, f64); 2],
}

/// The streaming state.
struct RoundsTally {
    rounds: u32,
    settings: Vec<SettingTally>,
    open: BTreeMap<u64, MatchSoFar>,
    /// The first match of a pair, finished: its pair's agent's points.
    first_half: BTreeMap<u64, f64>,
    /// The first game of a round pair: its id and South's points.
    round_half: Option<(u64, f64)>,
    matches: u64,
}

fn points(winner: Winner, seat: usize) -> f64 {
    match (winner, seat) {
        (Winner::Draw, _) => 0.5,
        (Winner::S, 0) | (Winner::N, 1) => 1.0,
        _ => 0.0,
    }
}

fn winner_of(south: i32, north: i32) -> Winner {
    match south.cmp(&north) {
        std::cmp::Ordering::Greater => Winner::S,
        std::cmp::Ordering::Less => Winner::N,
        std::cmp::Ordering::Equal => Winner::Draw,
    }
}

fn add_wdl(wdl: &mut Wdl, points: f64) {
    match points {
        p if p > 0.75 => wdl.wins += 1,
        p if p < 0.25 => wdl.losses += 1,
        _ => wdl.draws += 1,
    }
}

/// The counts of a setting, made on its first row.
fn setting_of(settings: &mut Vec<SettingTally>, variant: Variant, holes: u8) -> &mut SettingTally {
    let found = settings
        .iter()
        .position(|s| s.variant == Some(variant) && s.holes == holes);
    let index = found.unwrap_or_else(|| {
        settings.push(SettingTally {
            variant: Some(variant),
            holes,
            ..SettingTally::default()
        });
        settings.len() - 1
    });
    &mut settings[index]
}

impl RoundsTally {
    fn new(rounds: u32) -> RoundsTally {
        RoundsTally {
            rounds: rounds.max(1),
            settings: Vec::new(),
            open: BTreeMap::new(),
            first_half: BTreeMap::new(),
            round_half: None,
            matches: 0,
        }
    }

    fn add(&mut self, game: &GameRow, round: &RoundColumns) {
        let south_points = points(game.winner, 0);
        // The agent of a pair's point of view sits South in its even game.
        let (agent, opponent, agent_seat) = match round.match_id % 2 {
            0 => (&game.south, &game.north, 0),
            _ => (&game.north, &game.south, 1),
        };
        let key = (agent.clone(), opponent.clone());
        let round_pair = match (self.round_half.take(), game.game_id % 2) {
            (Some((id, first)), 1) if id + 1 == game.game_id => Some(first + (1.0 - south_points)),
            (_, 0) => {
                self.round_half = Some((game.game_id, south_points));
                None
            }
            _ => None,
        };
        let entry = self.open.entry(round.match_id).or_insert(MatchSoFar {
            played: 0,
            won: [0, 0],
            seeds: [0, 0],
            previous: None,
        });
        let previous = entry.previous;
        entry.played += 1;
        match game.winner {
            Winner::S => entry.won[0] += 1,
            Winner::N => entry.won[1] += 1,
            Winner::Draw => {}
        }
        entry.seeds[0] += u32::from(game.south_captures);
        entry.seeds[1] += u32::from(game.north_captures);
        entry.previous = Some(game.winner);
        let finished = (entry.played == self.rounds && round.round == self.rounds)
            .then(|| self.open.remove(&round.match_id))
            .flatten();
        let setting = setting_of(&mut self.settings, game.variant, game.holes);
        let index = match setting.pairings.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                setting.pairings.push((key, PairingTally::default()));
                setting.pairings.len() - 1
            }
        };
        let pairing = &mut setting.pairings[index].1;
        add_wdl(&mut pairing.rounds, points(game.winner, agent_seat));
        if let Some(pair) = round_pair {
            pairing.round_pairs.0[(pair * 2.0).round() as usize] += 1;
        }
        // Balance by round number.
        let first_seat = if round.round % 2 == 1 { 0 } else { 1 };
        let by_round = setting.by_round.entry(round.round).or_default();
        by_round.0 += 1;
        by_round.1 += points(game.winner, first_seat);
        if let Some(previous @ (Winner::S | Winner::N)) = previous {
            let seat = if previous == Winner::S { 0 } else { 1 };
            let won = points(game.winner, seat);
            by_round.2 += 1;
            by_round.3 += won;
            let group = &mut pairing.previous_winner[usize::from(round.round >= 3)];
            group.0 += 1;
            group.1 += won;
        }
        // The last seeds.
        let group = &mut setting.last[usize::from(round.round >= 3)];
        group[0] += 1;
        if let (Some(to), n) = (round.last_to, i32::from(round.last_seeds)) {
            if n > 0 {
                group[1] += 1;
                let (s, no) = (
                    i32::from(game.south_captures),
                    i32::from(game.north_captures),
                );
                let without = match to {
                    SideLetter::S => winner_of(s - n, no),
                    SideLetter::N => winner_of(s, no - n),
                };
                if without != game.winner {
                    group[3] += 1;
                }
                if let Some(capturer) = round.last_capturer.filter(|&c| c != to) {
                    group[2] += 1;
                    let moved = match capturer {
                        SideLetter::S => winner_of(s + n, no - n),
                        SideLetter::N => winner_of(s - n, no + n),
                    };
                    if moved != game.winner {
                        group[4] += 1;
                    }
                }
            }
        }
        let Some(done) = finished else {
            return;
        };
        self.matches += 1;
        let by_rounds = done.won[0].cmp(&done.won[1]);
        let by_seeds = done.seeds[0].cmp(&done.seeds[1]);
        let south_points = match by_rounds.then(by_seeds) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Less => 0.0,
            std::cmp::Ordering::Equal => 0.5,
        };
        let agent_points = if agent_seat == 0 {
            south_points
        } else {
            1.0 - south_points
        };
        add_wdl(&mut pairing.matches, agent_points);
        if by_rounds.is_eq() && by_seeds.is_ne() {
            pairing.by_seeds += 1;
        }
        let pair = round.match_id / 2;
        match agent_seat {
            0 => {
                self.first_half.insert(pair, agent_points);
            }
            _ => {
                if let Some(first) = self.first_half.remove(&pair) {
                    let total = first + agent_points;
                    pairing.match_pairs.0[(total * 2.0).round() as usize] += 1;
                }
            }
        }
    }

    fn finish(self) -> RoundsSummary {
        let score = |pairs: &Pentanomial| ScoreEstimate::from_pentanomial(pairs).map(|e| e.score);
        let settings = self
            .settings
            .into_iter()
            .map(|s| RoundsSetting {
                variant: s.variant.expect("a setting is made with its variant"),
                holes: s.holes,
                pairings: s
                    .pairings
                    .into_iter()
                    .map(|((agent, opponent), t)| MatchPairing {
                        agent,
                        opponent,
                        matches: t.matches,
                        by_seeds: t.by_seeds,
                        match_pairs: t.match_pairs,
                        match_score: score(&t.match_pairs),
                        rounds: t.rounds,
                        round_score: score(&t.round_pairs),
                        previous_winner: t
                            .previous_winner
                            .map(|(n, won)| (n > 0).then(|| wilson(won, n, Z95))),
                    })
                    .collect(),
                by_round: s
                    .by_round
                    .into_iter()
                    .map(|(round, (games, first, after, previous))| RoundNumber {
                        round,
                        first: if round % 2 == 1 { "South" } else { "North" },
                        games,
                        first_mover: wilson(first, games, Z95),
                        after_a_win: after,
                        previous_winner: (after > 0).then(|| wilson(previous, after, Z95)),
                    })
                    .collect(),
                last_seeds: ["rounds 1-2", "rounds 3+"]
                    .into_iter()
                    .zip(s.last)
                    .filter(|(_, c)| c[0] > 0)
                    .map(|(group, c)| LastSeeds {
                        group,
                        games: c[0],
                        given: c[1],
                        not_to_capturer: c[2],
                        decided: wilson(c[3] as f64, c[0], Z95),
                        changed: wilson(c[4] as f64, c[0], Z95),
                    })
                    .collect(),
            })
            .collect();
        RoundsSummary {
            rounds: self.rounds,
            matches: self.matches,
            incomplete_matches: self.open.len() as u64,
            settings,
        }
    }
}

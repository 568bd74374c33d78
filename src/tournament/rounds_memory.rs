//! Playing the rounds of matches in order, wherever a range of game ids
//! begins.
//!
//! A round of a Hoyito III match depends on the round before it: from round
//! 3 the last seeds go to the previous round's winner (RULES.md,
//! [`crate::engine::rounds_match::round_setup`]). The runner plays the rounds of a
//! match in id order in one worker and remembers each match's last outcome
//! here. When a range starts inside a match (a resumed run, `hoyito replay`
//! of a later round), the match's earlier rounds are replayed from the
//! schedule first: every game is a pure function of its id, so the replay
//! is the game that was played, and nothing needs to be read back.

use std::collections::BTreeMap;

use crate::engine::game::Outcome;

use super::lineup::Lineup;
use super::play_scheduled::{play_scheduled, GameFailure};
use super::schedule::{Schedule, ScheduledGame};

/// The last outcome of each match under way.
#[derive(Debug, Clone, Default)]
pub struct MatchMemory {
    /// Match id to (its last round played, that round's outcome).
    last: BTreeMap<u64, (u32, Outcome)>,
}

impl MatchMemory {
    /// A memory of no match.
    pub fn new() -> MatchMemory {
        MatchMemory::default()
    }

    /// Game `game_id` as it is to be played: after the previous round of
    /// its match, which is replayed (with the rounds before it) if this
    /// memory has not seen it.
    pub fn prepare(
        &mut self,
        schedule: &Schedule,
        lineup: &Lineup,
        game_id: u64,
    ) -> Result<ScheduledGame, GameFailure> {
        let scheduled = schedule.game(game_id);
        if scheduled.match_round == 1 {
            return Ok(scheduled);
        }
        let previous_round = scheduled.match_round - 1;
        let known = self
            .last
            .get(&scheduled.match_id)
            .filter(|(round, _)| *round == previous_round)
            .map(|&(_, outcome)| outcome);
        let previous = match known {
            Some(outcome) => outcome,
            None => {
                let previous_id = game_id - 2;
                let earlier = self.prepare(schedule, lineup, previous_id)?;
                let opening = schedule.opening(&earlier);
                // Experiments in rounds are never adjudicated (refused by the check).
                let game = play_scheduled(&earlier, opening, lineup, None, |_, _| {})?;
                let outcome = game.outcome().expect("a played game is over");
                self.record(schedule, &earlier, outcome);
                outcome
            }
        };
        Ok(scheduled.after(Some(&previous)))
    }

    /// Remembers the outcome of a round just played; a match's last round
    /// is forgotten at once, so the memory holds at most the matches in
    /// progress.
    pub fn record(&mut self, schedule: &Schedule, scheduled: &ScheduledGame, outcome: Outcome) {
        if scheduled.match_round >= schedule.match_rounds() {
            self.last.remove(&scheduled.match_id);
        } else {
            self.last
                .insert(scheduled.match_id, (scheduled.match_round, outcome));
        }
    }
}

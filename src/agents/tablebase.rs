//! The tablebase agent: perfect play once few enough seeds are left, and a
//! search that scores the positions it reaches inside the tables exactly before.
//!
//! Tables take seconds to minutes to build, and the harness builds a fresh agent
//! for every game, so the tables are built once per process and per variant,
//! board and size, and shared read-only by every agent and thread that needs them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::agent::{Agent, AgentRng};
use crate::game::Game;
use crate::moves::Move;
use crate::rules::{LastFour, Leftover, Rules, Variant};
use crate::solver::strategy::{perfect_move, search_move};
use crate::solver::Tablebase;

/// Plays perfectly while the board holds at most `max_seeds` seeds (the tables
/// hold the exact value of every such position); before that, a `fallback`
/// agent chooses if one is given, else a negamax search of `depth` plies whose
/// leaves inside the tables are scored exactly.
///
/// The tables hold for the default options of RULES.md (the capturer takes the
/// last seeds, leftovers of stalled games go to nobody); under other options the
/// agent plays as its fallback or search without tables.
pub struct TablebaseAgent {
    max_seeds: u32,
    depth: u32,
    fallback: Option<Box<dyn Agent>>,
    tables: Option<(Rules, Option<Arc<Tablebase>>)>,
}

impl TablebaseAgent {
    /// An agent with tables up to `max_seeds` seeds and a search of `depth`
    /// plies, or the `fallback` agent, outside them.
    pub fn new(max_seeds: u32, depth: u32, fallback: Option<Box<dyn Agent>>) -> TablebaseAgent {
        TablebaseAgent {
            max_seeds,
            depth,
            fallback,
            tables: None,
        }
    }

    /// The tables for `rules`, built on first use in this process.
    fn tables(&mut self, rules: &Rules) -> Option<Arc<Tablebase>> {
        match &self.tables {
            Some((for_rules, tables)) if for_rules == rules => tables.clone(),
            _ => {
                let tables = shared_tables(rules, self.max_seeds);
                self.tables = Some((*rules, tables.clone()));
                tables
            }
        }
    }
}

/// Tables already built in this process, by variant, holes and largest layer.
type Cache = Mutex<HashMap<(Variant, u8, u32), Option<Arc<Tablebase>>>>;

/// The tables up to `max_seeds` for `rules`, or `None` when they do not hold for
/// its options or cannot be built.
fn shared_tables(rules: &Rules, max_seeds: u32) -> Option<Arc<Tablebase>> {
    if rules.last_four != LastFour::Capturer || rules.stall.leftover != Leftover::None {
        return None;
    }
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Cache::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache
        .entry((rules.variant, rules.holes, max_seeds))
        .or_insert_with(|| {
            let mut tb = Tablebase::new(rules.variant, rules.holes).ok()?;
            for k in 0..=max_seeds {
                tb.ensure(k, None, &|_| {}).ok()?;
            }
            Some(Arc::new(tb))
        })
        .clone()
}

impl Agent for TablebaseAgent {
    fn choose(&mut self, game: &Game, rng: &mut AgentRng) -> Move {
        let pos = game.position();
        let tables = self.tables(game.rules());
        if let Some(mv) = tables.as_deref().and_then(|tb| perfect_move(tb, pos)) {
            return mv;
        }
        if let Some(fallback) = &mut self.fallback {
            return fallback.choose(game, rng);
        }
        let empty;
        let tb = match tables.as_deref() {
            Some(tb) => tb,
            None => {
                empty = Tablebase::new(game.rules().variant, pos.holes())
                    .expect("the game's board is valid");
                &empty
            }
        };
        search_move(tb, pos, self.depth).expect("the game is not over")
    }

    fn new_game(&mut self, rules: &Rules) {
        self.tables(rules);
        if let Some(fallback) = &mut self.fallback {
            fallback.new_game(rules);
        }
    }

    fn observe(&mut self, game: &Game, mv: Move) {
        if let Some(fallback) = &mut self.fallback {
            fallback.observe(game, mv);
        }
    }
}

//! The options of the game: which Hoyito, what board, and the decisions of RULES.md.
//!
//! Every point that `RULES.md` marks **[decision]** is a named field here with the
//! default given there, so that a study can vary it and a record can state it.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::engine::side::Side;

/// Smallest supported row length.
pub const MIN_HOLES: u8 = 2;
/// Largest supported row length.
pub const MAX_HOLES: u8 = 16;
/// Largest number of seeds a game may hold in all (board and captures together).
pub const MAX_TOTAL_SEEDS: u32 = 255;
/// The largest `no_capture_limit` a game may be given: 50 times the default
/// of RULES.md. A game has at most `total seeds / 4` captures, so with the
/// limit on no game runs past `(total / 4 + 1) x (limit + 1)` plies; beyond
/// this value a stalled game is no longer a study of the rules but a record
/// that runs to gigabytes (with `4294967295` a stalled game never ends).
pub const MAX_NO_CAPTURE_LIMIT: u32 = 10_000;
/// The largest `repetitions` a game may be given. Two agents that repeat a
/// cycle of `c` plies stall after about `repetitions x c` plies; a million
/// makes games of 1,999,999 plies whose report takes 2.75 GB.
pub const MAX_REPETITIONS: u32 = 100;

/// Which of the three games.
/// Written lowercase; read as the command line reads it ([`FromStr`]: any
/// case, or `1` to `3`), so that `variants = ["II"]` works as `--variant II`.
///
/// Reading a variant as a person writes it, and what sets the three apart:
///
/// ```
/// use hoyito::Variant;
///
/// assert_eq!("II".parse::<Variant>(), Ok(Variant::Ii));
/// assert_eq!("3".parse::<Variant>(), Ok(Variant::Iii));
/// assert_eq!(Variant::Iii.to_string(), "iii");
/// assert!("iv".parse::<Variant>().is_err());
/// // Only Hoyito I gives no extra move after a capture.
/// assert!(!Variant::I.has_extra_move() && Variant::Ii.has_extra_move());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Hoyito I: en passant captures, no extra move.
    I,
    /// Hoyito II: last-seed casas with a backward chain, extra move after a capture.
    Ii,
    /// Hoyito III: last-seed casa only, extra move after a capture.
    Iii,
}

impl Variant {
    /// All three, in order.
    pub const ALL: [Variant; 3] = [Variant::I, Variant::Ii, Variant::Iii];

    /// Whether a capturing move gives the mover another move.
    #[inline]
    pub fn has_extra_move(self) -> bool {
        !matches!(self, Variant::I)
    }

    /// The lowercase roman numeral used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Variant::I => "i",
            Variant::Ii => "ii",
            Variant::Iii => "iii",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is not `i`, `ii` or `iii`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown variant {0:?}: expected one of i, ii, iii")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "i" | "1" => Ok(Variant::I),
            "ii" | "2" => Ok(Variant::Ii),
            "iii" | "3" => Ok(Variant::Iii),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|_| serde::de::Error::unknown_variant(&text, &["i", "ii", "iii"]))
    }
}

/// Who gets the seeds left on the board of a stalled game **\[decision\]**.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Leftover {
    /// Nobody: the result is decided on captures so far (default).
    #[default]
    None,
    /// Each player takes the seeds in their own row.
    OwnSide,
    /// Each player takes half, rounded down.
    Split,
}

impl FromStr for Leftover {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => Ok(Leftover::None),
            "own-side" => Ok(Leftover::OwnSide),
            "split" => Ok(Leftover::Split),
            _ => Err(format!(
                "unknown leftover policy {s:?}: expected none, own-side or split"
            )),
        }
    }
}

/// Who takes the seeds left after the capture that brings the board to four or fewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LastFour {
    /// The player who made that capture (default; rounds 1 and 2 of a Hoyito III match).
    #[default]
    Capturer,
    /// A named player (Hoyito III rounds from round 3: the previous round's winner).
    Player(Side),
}

/// When a game that nobody can finish is ended as stalled **\[decision\]**.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StallRules {
    /// Plies without a capture after which the game is stalled; 0 turns the limit off.
    pub no_capture_limit: u32,
    /// Occurrences of one position (board and side to move) since the last capture
    /// that stall the game; 0 turns the rule off. RULES.md: the third.
    pub repetitions: u32,
    /// Who gets the seeds left on the board.
    pub leftover: Leftover,
}

impl Default for StallRules {
    fn default() -> Self {
        StallRules {
            no_capture_limit: 200,
            repetitions: 3,
            leftover: Leftover::None,
        }
    }
}

impl StallRules {
    /// No stall rule at all: games may go on forever (perft, hand analysis).
    pub const OFF: StallRules = StallRules {
        no_capture_limit: 0,
        repetitions: 0,
        leftover: Leftover::None,
    };

    /// Refuses stall rules under which a game need not end, or need not end
    /// in reasonable time: both the no-capture limit and the repetition rule
    /// off, a no-capture limit above `MAX_NO_CAPTURE_LIMIT`, or a
    /// repetition count above `MAX_REPETITIONS`. The first problem found,
    /// in that order; [`StallRules::problems`] lists them all.
    pub fn check_ends(&self) -> Result<(), RulesError> {
        match self.problems().into_iter().next() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// Every reason these stall rules cannot be given to games (see
    /// [`StallRules::check_ends`]).
    ///
    /// Either rule alone ends every game: a capture takes seeds off the board
    /// for good, so a game has at most `total seeds / 4` captures, and
    /// between two captures
    /// - with `no_capture_limit = L > 0`, at most `L` plies are played;
    /// - with `repetitions = R > 0`, the seeds on the board stay the same, so
    ///   only finitely many positions (board and side to move) can occur, and
    ///   by the pigeonhole principle one of them occurs an `R`-th time within
    ///   `R x` their number of plies.
    ///
    /// With both off nothing bounds a game: on 2x2 with 1 seed per hole, two
    /// greedy players sow the same seeds round the board without ever
    /// capturing, and the game never ends. With either at an extreme value
    /// (`4294967295`) the bound exists but is never reached in practice, so
    /// the values are capped, each by a named maximum: the game is bounded by
    /// refusing such rules, never by a silent cut of the games. Agents'
    /// internal simulations may still use [`StallRules::OFF`]; only rules
    /// given for games are checked.
    pub fn problems(&self) -> Vec<RulesError> {
        let mut problems = Vec::new();
        if self.no_capture_limit == 0 && self.repetitions == 0 {
            problems.push(RulesError::EndlessGames);
        }
        if self.no_capture_limit > MAX_NO_CAPTURE_LIMIT {
            problems.push(RulesError::NoCaptureLimit(self.no_capture_limit));
        }
        if self.repetitions > MAX_REPETITIONS {
            problems.push(RulesError::Repetitions(self.repetitions));
        }
        problems
    }
}

/// Everything that decides how a game is played.
///
/// The standard game of each variant: 2x6, 4 seeds per hole, the stall rules
/// of `RULES.md`:
///
/// ```
/// use hoyito::{LastFour, Rules, Variant};
///
/// for variant in [Variant::I, Variant::Ii, Variant::Iii] {
///     let rules = Rules::new(variant);
///     assert_eq!((rules.holes, rules.seeds, rules.total_seeds()), (6, 4, 48));
///     assert_eq!(rules.stall.no_capture_limit, 200);
///     assert_eq!(rules.last_four, LastFour::Capturer);
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Which Hoyito.
    pub variant: Variant,
    /// Holes per row (`n`), 2..=16.
    pub holes: u8,
    /// Seeds per hole at the start.
    pub seeds: u8,
    /// Stalled-game rules.
    pub stall: StallRules,
    /// Who takes the last seeds.
    pub last_four: LastFour,
}

/// Rules that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    /// Row length outside 2..=16.
    #[error("board size {0} is out of range: holes per row must be 2 to 16")]
    Holes(u32),
    /// Zero seeds per hole.
    #[error("seeds per hole must be at least 1")]
    NoSeeds,
    /// More seeds than the engine's hole counters hold.
    #[error(
        "2 x {holes} holes x {seeds} seeds = {total} seeds: at most 255 seeds in all are \
         supported, so at most {} seeds per hole on 2x{holes}",
        max_seeds_per_hole(*holes)
    )]
    TooManySeeds {
        /// Holes per row.
        holes: u32,
        /// Seeds per hole.
        seeds: u32,
        /// Their product, doubled (in 64 bits: it does not wrap).
        total: u64,
    },
    /// No stall rule: a game could go on forever (see [`StallRules::check_ends`]).
    #[error(
        "no_capture_limit = 0 and repetitions = 0: a game could go on forever (on 2x2 with \
         1 seed per hole it does); turn on at least one of them (defaults: 200 and 3)"
    )]
    EndlessGames,
    /// A no-capture limit above `MAX_NO_CAPTURE_LIMIT`.
    #[error(
        "no_capture_limit = {0} is too large: at most {MAX_NO_CAPTURE_LIMIT} plies without a \
         capture (default 200; 0 turns the limit off), or a stalled game could run for hours \
         and fill the disk"
    )]
    NoCaptureLimit(u32),
    /// A repetition count above `MAX_REPETITIONS`.
    #[error(
        "repetitions = {0} is too large: at most {MAX_REPETITIONS} occurrences of a position \
         (default 3; 0 turns the rule off), or two agents repeating a cycle could play it \
         millions of times"
    )]
    Repetitions(u32),
}

/// The most seeds per hole that a board of `holes` holes per row supports.
pub fn max_seeds_per_hole(holes: u32) -> u32 {
    MAX_TOTAL_SEEDS / (2 * holes.max(1))
}

impl Rules {
    /// The standard game of `variant` on 2x6 with 4 seeds per hole and default options.
    pub fn new(variant: Variant) -> Rules {
        Rules {
            variant,
            holes: 6,
            seeds: 4,
            stall: StallRules::default(),
            last_four: LastFour::Capturer,
        }
    }

    /// The same rules on a board of `holes` holes per row, checked.
    ///
    /// The extended 2x12 board, a small board for solving, and boards the
    /// engine refuses:
    ///
    /// ```
    /// use hoyito::{Rules, RulesError, Variant};
    ///
    /// let extended = Rules::new(Variant::Ii).with_board(12, 4)?;
    /// assert_eq!((extended.holes, extended.total_seeds()), (12, 96));
    /// assert_eq!(Rules::new(Variant::I).with_board(3, 2)?.total_seeds(), 12);
    ///
    /// let rules = Rules::new(Variant::Iii);
    /// assert_eq!(rules.with_board(17, 4), Err(RulesError::Holes(17)));
    /// assert_eq!(rules.with_board(6, 0), Err(RulesError::NoSeeds));
    /// assert!(matches!(rules.with_board(16, 8), Err(RulesError::TooManySeeds { .. })));
    /// # Ok::<(), RulesError>(())
    /// ```
    pub fn with_board(self, holes: u32, seeds: u32) -> Result<Rules, RulesError> {
        check_board(holes, seeds)?;
        Ok(Rules {
            holes: holes as u8,
            seeds: seeds as u8,
            ..self
        })
    }

    /// Total seeds in play.
    pub fn total_seeds(&self) -> u32 {
        2 * self.holes as u32 * self.seeds as u32
    }
}

/// Checks a board size and seed count against the engine's limits.
pub fn check_board(holes: u32, seeds: u32) -> Result<(), RulesError> {
    if !(MIN_HOLES as u32..=MAX_HOLES as u32).contains(&holes) {
        return Err(RulesError::Holes(holes));
    }
    if seeds == 0 {
        return Err(RulesError::NoSeeds);
    }
    let total = 2 * u64::from(holes) * u64::from(seeds);
    if total > u64::from(MAX_TOTAL_SEEDS) {
        return Err(RulesError::TooManySeeds {
            holes,
            seeds,
            total,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_those_of_rules_md() {
        let r = Rules::new(Variant::Ii);
        assert_eq!((r.holes, r.seeds, r.total_seeds()), (6, 4, 48));
        assert_eq!(r.stall.no_capture_limit, 200);
        assert_eq!(r.stall.repetitions, 3);
        assert_eq!(r.stall.leftover, Leftover::None);
        assert_eq!(r.last_four, LastFour::Capturer);
        assert_eq!(r.with_board(12, 4).unwrap().total_seeds(), 96);
    }

    #[test]
    fn board_limits_are_enforced() {
        let r = Rules::new(Variant::I);
        assert_eq!(r.with_board(1, 4), Err(RulesError::Holes(1)));
        assert_eq!(r.with_board(17, 4), Err(RulesError::Holes(17)));
        assert_eq!(r.with_board(6, 0), Err(RulesError::NoSeeds));
        assert!(r.with_board(16, 8).is_err());
        assert!(r.with_board(16, 7).is_ok());
        assert!(r.with_board(2, 4).is_ok());
    }

    /// 4294967295 seeds per hole are counted in 64 bits, never wrapped to a
    /// small total in 32 bits.
    #[test]
    fn the_seed_total_is_computed_without_wrapping() {
        let err = check_board(6, u32::MAX).unwrap_err().to_string();
        assert!(err.contains("= 51539607540 seeds"), "{err}");
        assert!(err.contains("at most 21 seeds per hole on 2x6"), "{err}");
        assert_eq!(max_seeds_per_hole(16), 7);
    }

    /// Both stall rules off is refused, either on is not.
    #[test]
    fn games_without_any_stall_rule_are_refused() {
        assert_eq!(StallRules::OFF.check_ends(), Err(RulesError::EndlessGames));
        assert!(StallRules::default().check_ends().is_ok());
        let one = |no_capture_limit, repetitions| StallRules {
            no_capture_limit,
            repetitions,
            ..StallRules::OFF
        };
        assert!(one(1, 0).check_ends().is_ok());
        assert!(one(0, 1).check_ends().is_ok());
    }

    /// Stall rules at extreme values, which make games that never end in
    /// practice (`no_capture_limit = 4294967295`, `repetitions =
    /// 4294967295`) or run to 1,999,999 plies (`repetitions = 1000000`), are
    /// refused.
    #[test]
    fn stall_rules_beyond_their_maxima_are_refused() {
        let rules = |no_capture_limit, repetitions| StallRules {
            no_capture_limit,
            repetitions,
            ..StallRules::OFF
        };
        assert_eq!(
            rules(u32::MAX, 0).check_ends(),
            Err(RulesError::NoCaptureLimit(u32::MAX))
        );
        assert_eq!(
            rules(0, u32::MAX).check_ends(),
            Err(RulesError::Repetitions(u32::MAX))
        );
        assert_eq!(
            rules(0, 1_000_000).check_ends(),
            Err(RulesError::Repetitions(1_000_000))
        );
        assert_eq!(rules(u32::MAX, u32::MAX).problems().len(), 2);
        assert!(rules(MAX_NO_CAPTURE_LIMIT, MAX_REPETITIONS)
            .check_ends()
            .is_ok());
        let text = RulesError::NoCaptureLimit(u32::MAX).to_string();
        assert!(
            text.contains("4294967295") && text.contains("at most 10000"),
            "{text}"
        );
    }

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
        }
        assert!("iv".parse::<Variant>().is_err());
        assert!(!Variant::I.has_extra_move());
        assert!(Variant::Ii.has_extra_move() && Variant::Iii.has_extra_move());
    }
}

//! The positions of a batched game since its last capture, for the stall
//! rules of RULES.md (the third occurrence of a position; `no_capture_limit`
//! plies without a capture), kept small for a batch of thousands of games.
//!
//! [`crate::game::Game`]'s record (`src/repetition.rs`) keeps a hashed
//! table of 2 KB a game, and a batch of 4,096 such tables does not fit in
//! cache. A stretch keeps, a ply, the 32-bit tag of the position and the
//! move that made it, and a 64-bit filter with one bit a tag: a position
//! whose bit is clear is new, and nothing else is read (nearly every ply:
//! stretches between captures are short). Otherwise its tag is compared
//! with the stretch's tags, and a matching tag sends it to the positions
//! themselves, made again from the stretch's first position by its moves:
//! equal tags never decide anything.
//!
//! The positions are not copied into the record as they are played: the
//! sowing has just written the position byte by byte, and a wider copy
//! waits for those stores to reach the cache (measured: more than half of
//! the record's time).

use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// The positions since the last capture, by their tags and moves.
#[derive(Debug, Clone)]
pub(crate) struct Stretch {
    /// Bit `tag >> 26` set for each tag recorded.
    filter: u64,
    /// The stretch's first position.
    first: Position,
    /// The tag of each position, the first one's included.
    tags: Vec<u32>,
    /// `moves[k]` made position `k + 1` from position `k`.
    moves: Vec<Move>,
}

impl Stretch {
    /// A stretch whose first position is `first`.
    pub(crate) fn new(first: &Position) -> Stretch {
        let mut stretch = Stretch {
            filter: 0,
            first: *first,
            tags: Vec::new(),
            moves: Vec::new(),
        };
        stretch.restart(first);
        stretch
    }

    /// Forgets every position (a capture happened, or a new game began);
    /// `first` is the stretch's first position, recorded.
    pub(crate) fn restart(&mut self, first: &Position) {
        self.first = *first;
        self.tags.clear();
        self.moves.clear();
        let tag = tag_of(first);
        self.filter = filter_bit(tag);
        self.tags.push(tag);
    }

    /// Records `pos`, reached by `mv` from the last position recorded,
    /// without counting it (for rules that count no repetitions: a stretch
    /// of repeated positions then costs no replays).
    #[inline]
    pub(crate) fn extend(&mut self, pos: &Position, mv: Move) {
        self.push(tag_of(pos), mv);
    }

    /// Records `pos`, reached by `mv` from the last position recorded, and
    /// returns how often it has occurred in the stretch, this time included.
    #[inline]
    pub(crate) fn record(&mut self, pos: &Position, mv: Move, rules: &Rules) -> u32 {
        self.record_tagged(tag_of(pos), pos, mv, rules)
    }

    /// As [`Stretch::record`] with the tag given (tests give every position
    /// the same tag).
    #[inline]
    fn record_tagged(&mut self, tag: u32, pos: &Position, mv: Move, rules: &Rules) -> u32 {
        let seen = if self.filter & filter_bit(tag) == 0 || !self.tags.contains(&tag) {
            1
        } else {
            1 + self.occurrences(tag, pos, rules)
        };
        self.push(tag, mv);
        seen
    }

    /// Appends a position by its tag and the move that made it.
    #[inline]
    fn push(&mut self, tag: u32, mv: Move) {
        self.filter |= filter_bit(tag);
        self.tags.push(tag);
        self.moves.push(mv);
    }

    /// How often `pos`, whose tag is `tag`, occurs in the stretch: each
    /// position with that tag is made again and compared.
    #[cold]
    fn occurrences(&self, tag: u32, pos: &Position, rules: &Rules) -> u32 {
        let mut at = self.first;
        let mut count = u32::from(self.tags[0] == tag && at == *pos);
        for (&mv, &t) in self.moves.iter().zip(&self.tags[1..]) {
            at = at
                .play_unchecked(rules, mv)
                .expect("a recorded move was legal")
                .0;
            count += u32::from(t == tag && at == *pos);
        }
        count
    }

    /// Positions recorded since the last restart, repeats included.
    pub(crate) fn len(&self) -> usize {
        self.tags.len()
    }
}

/// A position's tag: 32 bits of its hash (board and side to move).
#[inline]
fn tag_of(pos: &Position) -> u32 {
    (pos.hash_key() >> 32) as u32
}

/// The filter's bit for `tag`.
#[inline]
fn filter_bit(tag: u32) -> u64 {
    1 << (tag >> 26)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::game::Game;
    use crate::rules::Variant;

    /// Over random games with many repetitions (small boards, no stall
    /// rule ending them), a stretch counts every position as a plain list
    /// of the positions since the last capture does: with true tags, and
    /// with every tag equal, where only the positions made again decide.
    #[test]
    fn a_stretch_counts_what_a_list_of_positions_counts() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut repeats = 0;
        for variant in [Variant::I, Variant::Ii, Variant::Iii] {
            for holes in [2, 3, 6] {
                let mut rules = Rules::new(variant).with_board(holes, 3).unwrap();
                rules.stall.repetitions = 0;
                rules.stall.no_capture_limit = 60;
                for _ in 0..150 {
                    let mut game = Game::new(rules);
                    let mut list = vec![*game.position()];
                    let mut tagged = Stretch::new(game.position());
                    let mut colliding = Stretch::new(game.position());
                    while !game.is_over() {
                        let mv = game.play_random(&mut rng);
                        let pos = *game.position();
                        if game.last_effect().captured > 0 {
                            list = vec![pos];
                            tagged.restart(&pos);
                            colliding.restart(&pos);
                            continue;
                        }
                        let expected = 1 + list.iter().filter(|&&p| p == pos).count() as u32;
                        list.push(pos);
                        assert_eq!(tagged.record(&pos, mv, &rules), expected, "{pos}");
                        assert_eq!(colliding.record_tagged(7, &pos, mv, &rules), expected);
                        assert_eq!(tagged.len(), list.len());
                        repeats += u32::from(expected > 1);
                    }
                }
            }
        }
        assert!(repeats > 100, "{repeats} repeated positions");
    }
}

//! The positions of a batched game since its last capture, for the stall
//! rules of RULES.md (the third occurrence of a position; `no_capture_limit`
//! plies without a capture), kept small for a batch of thousands of games.
//!
//! [`crate::engine::game::Game`]'s record (`src/engine/repetition.rs`) keeps a hashed
//! table of 2 KB a game, and a batch of 4,096 such tables does not fit in
//! cache. A stretch keeps, a ply, one 32-bit word (the position's 24-bit tag
//! and the move that made it) and a 2,048-bit filter with two bits a tag
//! (its high and its low 11 bits): a position with either bit clear is new, and
//! nothing else is read (25 plies in 26 in random II 2x6 games, where a
//! stretch holds 41 positions on average; with one bit a tag, 13 in 14).
//! Otherwise its tag is compared with the stretch's tags, and a matching
//! tag sends it to the positions themselves, made again from the stretch's
//! first position by its moves: equal tags never decide anything.
//! The comparisons are what the record costs (cycle counters: 45 cycles a
//! ply with them, 21 without, with a 256-bit filter that sent one position
//! in 7 to them; 37 to 40 with one bit a tag in 512), since the stretches
//! that reach them are the long ones, whose tags are out of cache. Two bits
//! a tag cut the tags compared from 6.8 to 4.5 a ply (17 M plies counted).
//! On 2x12, whose stretches run to the no-capture limit, 512 bits filled
//! up and the comparisons took 28% of the record; 2,048 bits made the
//! whole step 1.04x to 1.08x (II 2x6 and 2x12, medians of 15 paired runs),
//! and 4,096 no better.
//!
//! The positions are not copied into the record as they are played: the
//! sowing has just written the position byte by byte, and a wider copy
//! waits for those stores to reach the cache (measured: more than half of
//! the record's time).

use crate::engine::moves::Move;
use crate::engine::position::Position;
use crate::engine::rules::Rules;

/// The positions since the last capture, by their tags and moves.
#[derive(Debug, Clone)]
pub(crate) struct Stretch {
    /// The two bits of [`filter_bits`] set for each tag recorded (2,048
    /// bits, in the slot's own cache lines).
    filter: [u64; 32],
    /// The stretch's first position.
    first: Position,
    /// A ply each, the first position's included: its tag in the high 24
    /// bits, and in the low 8 the code of the move that made it (0 the
    /// pass, `k + 1` the hole `k`; the first position's is never read).
    /// One array, so that a ply writes one cache line, not two.
    plies: Vec<u32>,
}

impl Stretch {
    /// A stretch whose first position is `first`.
    pub(crate) fn new(first: &Position) -> Stretch {
        let mut stretch = Stretch {
            filter: [0; 32],
            first: *first,
            plies: Vec::new(),
        };
        stretch.restart(first);
        stretch
    }

    /// Forgets every position (a capture happened, or a new game began);
    /// `first` is the stretch's first position, recorded.
    pub(crate) fn restart(&mut self, first: &Position) {
        self.first = *first;
        self.plies.clear();
        self.filter = [0; 32];
        self.push(tag_of(first), 0);
    }

    /// Records `pos`, reached by `mv` from the last position recorded,
    /// without counting it (for rules that count no repetitions: a stretch
    /// of repeated positions then costs no replays).
    #[inline]
    pub(crate) fn extend(&mut self, pos: &Position, mv: Move) {
        self.push(tag_of(pos), move_code(mv));
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
        // A count, not `any`: without an early exit the scan is vectorized.
        let seen = if !self.may_hold(tag) || self.tagged(tag) == 0 {
            1
        } else {
            1 + self.occurrences(tag, pos, rules)
        };
        self.push(tag, move_code(mv));
        seen
    }

    /// Whether the filter's bits of `tag` are set.
    #[inline]
    fn may_hold(&self, tag: u32) -> bool {
        let [a, b] = filter_bits(tag);
        (self.filter[a >> 6] >> (a & 63)) & (self.filter[b >> 6] >> (b & 63)) & 1 == 1
    }

    /// How many positions of the stretch have the tag `tag`: a count in 32
    /// bits without an early exit, so that the scan is vectorized four
    /// tags at a time.
    #[inline]
    fn tagged(&self, tag: u32) -> u32 {
        self.plies.iter().map(|&p| u32::from(p >> 8 == tag)).sum()
    }

    /// Appends a position by its tag and the code of the move that made it.
    #[inline]
    fn push(&mut self, tag: u32, code: u8) {
        for bit in filter_bits(tag) {
            self.filter[bit >> 6] |= 1 << (bit & 63);
        }
        self.plies.push(tag << 8 | u32::from(code));
    }

    /// How often `pos`, whose tag is `tag`, occurs in the stretch: each
    /// position with that tag is made again and compared.
    #[cold]
    fn occurrences(&self, tag: u32, pos: &Position, rules: &Rules) -> u32 {
        let mut at = self.first;
        let mut count = u32::from(self.plies[0] >> 8 == tag && at == *pos);
        for &ply in &self.plies[1..] {
            let mv = match ply & 0xFF {
                0 => Move::Pass,
                code => Move::Sow(code as u8 - 1),
            };
            at = at
                .play_unchecked(rules, mv)
                .expect("a recorded move was legal")
                .0;
            count += u32::from(ply >> 8 == tag && at == *pos);
        }
        count
    }

    /// Positions recorded since the last restart, repeats included.
    pub(crate) fn len(&self) -> usize {
        self.plies.len()
    }
}

/// The two bits of the filter that stand for `tag`: its high 11 bits and
/// its low 11 bits.
#[inline(always)]
fn filter_bits(tag: u32) -> [usize; 2] {
    [(tag >> 13) as usize & 2047, tag as usize & 2047]
}

/// A move's code in a stretch: 0 the pass, `k + 1` the hole `k`.
#[inline]
fn move_code(mv: Move) -> u8 {
    match mv {
        Move::Pass => 0,
        Move::Sow(k) => k + 1,
    }
}

/// A position's tag, 24 bits: the high bits of a sum of products of the
/// board's words and the side to move. The products are independent of each
/// other, unlike [`Position::hash_key`]'s chain: a tag only filters, and
/// equal tags never decide anything.
#[inline]
fn tag_of(pos: &Position) -> u32 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
    ];
    let word =
        |k: usize| u64::from_le_bytes(pos.board[8 * k..8 * k + 8].try_into().expect("eight bytes"));
    let h = (word(0) ^ pos.side as u64).wrapping_mul(K[0])
        ^ word(1).wrapping_mul(K[1])
        ^ word(2).wrapping_mul(K[2])
        ^ word(3).wrapping_mul(K[3]);
    (h >> 40) as u32
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::engine::game::Game;
    use crate::engine::rules::Variant;

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

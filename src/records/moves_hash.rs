//! The game hash: one 64-bit number per game that is equal for equal move
//! sequences, so that repeated games can be counted from `games.csv` alone.
//!
//! The hash is taken over the exact text of the game's `moves.csv` field (the
//! whole game from the start position as space-separated tokens of RULES.md:
//! hole numbers `1..n` of the side to move, or `pass`), so that anyone can
//! recompute it from the record with any FNV-1a implementation. It is computed
//! token by token from the moves, without building the text.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;

use crate::engine::moves::Move;

/// FNV-1a's 64-bit offset basis, the hash of the empty text.
/// Source: Fowler, Noll, Vo, "The FNV Non-Cryptographic Hash Algorithm",
/// draft-eastlake-fnv (IETF), section 2.2 and <http://www.isthe.com/chongo/tech/comp/fnv/>.
pub const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a's 64-bit prime, 2^40 + 2^8 + 0xb3 (same source).
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// The token of a pass, as written in records.
const PASS_TOKEN: &str = "pass";

/// The token of each hole number, `1` to `16`, as written in records.
const HOLE_TOKENS: [&str; 16] = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16",
];

/// The text of one move as written in a record (`3`, `12`, `pass`), without
/// formatting machinery: the hot path of recording.
#[inline]
pub fn move_token(mv: Move) -> &'static str {
    match mv {
        Move::Sow(hole) => HOLE_TOKENS[hole as usize],
        Move::Pass => PASS_TOKEN,
    }
}

/// Appends a game's moves to `out` as the text of its record: tokens separated
/// by one space, nothing for an empty game.
pub fn push_moves_text(out: &mut Vec<u8>, moves: &[Move]) {
    let Some((&first, rest)) = moves.split_first() else {
        return;
    };
    // The hot path of recording: every token, its space first, is copied as
    // one 8-byte word into room made once (at most five bytes a move, " pass",
    // and a word of slack), and the text is then cut to its length.
    let start = out.len();
    out.resize(start + 5 * moves.len() + 8, 0);
    let room = &mut out[start..];
    let token = &SPACED_TOKENS[token_index(first)];
    room[..8].copy_from_slice(&token.bytes[1..9]);
    let mut end = usize::from(token.len) - 1;
    for &mv in rest {
        let token = &SPACED_TOKENS[token_index(mv)];
        room[end..end + 8].copy_from_slice(&token.bytes[..8]);
        end += usize::from(token.len);
    }
    out.truncate(start + end);
}

/// A move's token with a space before it, padded to a word (plus one byte so
/// that the token without its space is a word too).
struct SpacedToken {
    bytes: [u8; 9],
    len: u8,
}

/// [`SPACED_TOKENS`]'s entry of a move: holes 0 to 15, then the pass.
#[inline]
fn token_index(mv: Move) -> usize {
    match mv {
        Move::Sow(hole) => usize::from(hole),
        Move::Pass => 16,
    }
}

/// " 1" to " 16" and " pass", built from [`move_token`] at compile time.
const SPACED_TOKENS: [SpacedToken; 17] = {
    let mut table = [const {
        SpacedToken {
            bytes: [0; 9],
            len: 0,
        }
    }; 17];
    let mut i = 0;
    while i < 17 {
        let text = if i < 16 {
            HOLE_TOKENS[i].as_bytes()
        } else {
            PASS_TOKEN.as_bytes()
        };
        table[i].bytes[0] = b' ';
        let mut k = 0;
        while k < text.len() {
            table[i].bytes[1 + k] = text[k];
            k += 1;
        }
        table[i].len = 1 + text.len() as u8;
        i += 1;
    }
    table
};

/// The 64-bit FNV-1a hash of a game's move sequence, written in `games.csv` as
/// 16 lowercase hexadecimal digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MovesHash(pub u64);

impl MovesHash {
    /// The hash of `bytes`.
    /// Source: FNV-1a as specified by Fowler, Noll and Vo: for each octet,
    /// `hash ^= octet; hash *= FNV_PRIME` (mod 2^64), from [`FNV_OFFSET_BASIS`].
    pub fn of_text(bytes: &[u8]) -> MovesHash {
        MovesHash(fnv1a(FNV_OFFSET_BASIS, bytes))
    }

    /// The hash of the record text of `moves` (what [`push_moves_text`]
    /// writes), computed token by token without building the text.
    pub fn of_moves(moves: &[Move]) -> MovesHash {
        let mut hasher = MovesHasher::new();
        for &mv in moves {
            hasher.push(mv);
        }
        hasher.finish()
    }

    /// The 16 lowercase hexadecimal digits written in records.
    fn hex(self) -> [u8; 16] {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; 16];
        for (i, digit) in text.iter_mut().enumerate() {
            *digit = HEX[((self.0 >> (60 - 4 * i)) & 0xf) as usize];
        }
        text
    }

    /// Appends the 16 hexadecimal digits to `out`.
    pub(crate) fn push_hex(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hex());
    }
}

/// [`MovesHash::of_moves`] taken move by move, for a caller that has the
/// moves one at a time (a run hashes a game's moves on its writer thread,
/// from the moves the worker hands over).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovesHasher {
    hash: u64,
    /// No move yet (no space before the next token).
    empty: bool,
}

impl Default for MovesHasher {
    fn default() -> MovesHasher {
        MovesHasher::new()
    }
}

impl MovesHasher {
    /// The hash of no move.
    pub fn new() -> MovesHasher {
        MovesHasher {
            hash: FNV_OFFSET_BASIS,
            empty: true,
        }
    }

    /// Adds the next move.
    ///
    /// A hole's token is one or two digits; a loop over its bytes would
    /// branch on that length, which random play cannot predict (on 2x12 a
    /// third of the holes have two digits). So the space and the second
    /// digit (0 in a one-digit token's padding) are always hashed, and kept
    /// or not by a select: three multiplications beside the sowing, no
    /// branch but the pass's.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        let Move::Sow(hole) = mv else {
            self.push_pass();
            return;
        };
        let token = &SPACED_TOKENS[usize::from(hole)];
        let spaced = fnv1a_byte(self.hash, b' ');
        let hash = if self.empty { self.hash } else { spaced };
        let hash = fnv1a_byte(hash, token.bytes[1]);
        let both = fnv1a_byte(hash, token.bytes[2]);
        self.hash = if token.len == 3 { both } else { hash };
        self.empty = false;
    }

    /// Adds a pass: the rare case, by the plain loop over its spaced token
    /// (without the space for the first move).
    #[cold]
    fn push_pass(&mut self) {
        let token = &SPACED_TOKENS[token_index(Move::Pass)];
        let text = &token.bytes[usize::from(self.empty)..usize::from(token.len)];
        self.hash = fnv1a(self.hash, text);
        self.empty = false;
    }

    /// The hash of the moves pushed.
    pub fn finish(self) -> MovesHash {
        MovesHash(self.hash)
    }
}

/// One FNV-1a step.
#[inline(always)]
fn fnv1a_byte(hash: u64, byte: u8) -> u64 {
    (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
}

/// FNV-1a of `bytes`, continuing from `hash` ([`FNV_OFFSET_BASIS`] to start).
#[inline]
pub fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

impl fmt::Display for MovesHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Text that is not 16 hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot read moves hash {0:?}: expected 16 hexadecimal digits")]
pub struct ParseMovesHashError(pub String);

impl FromStr for MovesHash {
    type Err = ParseMovesHashError;
    fn from_str(s: &str) -> Result<MovesHash, ParseMovesHashError> {
        if s.len() != 16 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(ParseMovesHashError(s.to_string()));
        }
        u64::from_str_radix(s, 16)
            .map(MovesHash)
            .map_err(|_| ParseMovesHashError(s.to_string()))
    }
}

impl Serialize for MovesHash {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.hex();
        serializer.serialize_str(std::str::from_utf8(&text).expect("hex digits are ASCII"))
    }
}

impl<'de> Deserialize<'de> for MovesHash {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<MovesHash, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV test suite (draft-eastlake-fnv, appendix C / test_fnv.c).
        assert_eq!(MovesHash::of_text(b"").0, 0xcbf29ce484222325);
        assert_eq!(MovesHash::of_text(b"a").0, 0xaf63dc4c8601ec8c);
        assert_eq!(MovesHash::of_text(b"foobar").0, 0x85944171f73967e8);
    }

    /// Every move first, and every move after every move: the branch-free
    /// push hashes the text's bytes, space and second digit included.
    #[test]
    fn every_token_is_hashed_as_its_text_first_and_after_any_other() {
        let all: Vec<Move> = (0..16).map(Move::Sow).chain([Move::Pass]).collect();
        for &a in &all {
            let mut text = Vec::new();
            push_moves_text(&mut text, &[a]);
            assert_eq!(
                MovesHash::of_moves(&[a]),
                MovesHash::of_text(&text),
                "{a:?}"
            );
            for &b in &all {
                for moves in [[a, b, a], [b, a, a]] {
                    let mut text = Vec::new();
                    push_moves_text(&mut text, &moves);
                    assert_eq!(
                        MovesHash::of_moves(&moves),
                        MovesHash::of_text(&text),
                        "{moves:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_hash_of_moves_is_the_hash_of_their_text() {
        let moves = [
            Move::Sow(2),
            Move::Sow(11),
            Move::Pass,
            Move::Sow(15),
            Move::Sow(0),
        ];
        let mut text = Vec::new();
        push_moves_text(&mut text, &moves);
        assert_eq!(text, b"3 12 pass 16 1");
        assert_eq!(MovesHash::of_moves(&moves), MovesHash::of_text(&text));
        assert_eq!(MovesHash::of_moves(&[]), MovesHash::of_text(b""));
        assert_ne!(
            MovesHash::of_moves(&[Move::Sow(0), Move::Sow(1)]),
            MovesHash::of_moves(&[Move::Sow(11)])
        );
    }

    #[test]
    fn the_moves_text_is_the_tokens_joined_by_spaces_after_any_text() {
        let all: Vec<Move> = (0..16).map(Move::Sow).chain([Move::Pass]).collect();
        for first in &all {
            for second in &all {
                let moves = [*first, *second, Move::Sow(9), Move::Pass];
                let mut out = b"7,".to_vec();
                push_moves_text(&mut out, &moves);
                let expected = format!("7,{first} {second} 10 pass");
                assert_eq!(String::from_utf8(out).unwrap(), expected);
            }
            let mut out = b"x".to_vec();
            push_moves_text(&mut out, &[*first]);
            assert_eq!(String::from_utf8(out).unwrap(), format!("x{first}"));
        }
        let mut out = b"x".to_vec();
        push_moves_text(&mut out, &[]);
        assert_eq!(out, b"x");
    }

    #[test]
    fn every_move_token_reads_back_as_its_move() {
        for hole in 0..16 {
            let mv = Move::Sow(hole);
            assert_eq!(move_token(mv), mv.to_string());
            assert_eq!(move_token(mv).parse::<Move>(), Ok(mv));
        }
        assert_eq!(move_token(Move::Pass), Move::Pass.to_string());
    }

    #[test]
    fn the_hash_is_written_as_16_lowercase_hex_digits_and_read_back() {
        let hash = MovesHash(0x00ab_cdef_0123_4567);
        assert_eq!(hash.to_string(), "00abcdef01234567");
        let json = serde_json::to_string(&hash).unwrap();
        assert_eq!(json, "\"00abcdef01234567\"");
        assert_eq!(serde_json::from_str::<MovesHash>(&json).unwrap(), hash);
        assert_eq!("00ABCDEF01234567".parse(), Ok(hash));
        for bad in [
            "",
            "abc",
            "00abcdef0123456",
            "00abcdef012345678",
            "+0abcdef01234567",
            "00abcdef0123456g",
        ] {
            assert!(bad.parse::<MovesHash>().is_err(), "{bad}");
        }
    }
}

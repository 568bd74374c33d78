//! Property tests over random positions and move sequences: the engine against a
//! deliberately naive reference implementation of RULES.md written only for this
//! test (seed by seed, every sowing state remembered in a set), plus the
//! invariants the rules imply.

use std::collections::HashSet;

use hoyito::{CaptureKind, Move, Position, Rules, Side, Step, Trace, Variant};
use proptest::prelude::*;

/// A position of the reference: board in sowing order, side to move (0 = South), captures.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RefPos {
    board: Vec<u32>,
    side: usize,
    caps: [u32; 2],
}

impl RefPos {
    fn of(p: &Position) -> RefPos {
        RefPos {
            board: p.board().iter().map(|&c| c as u32).collect(),
            side: p.side_to_move().index(),
            caps: [p.captures().south as u32, p.captures().north as u32],
        }
    }

    fn n(&self) -> usize {
        self.board.len() / 2
    }

    /// Sows the mover's hole `hole` (0-based in their row); `None` if it never ends.
    fn sow(&self, variant: Variant, hole: usize) -> Option<RefPos> {
        let len = self.board.len();
        let mover = self.side;
        let mut b = self.board.clone();
        let mut from = mover * self.n() + hole;
        let mut hand = b[from];
        b[from] = 0;
        let mut seen = HashSet::new();
        let mut captured = 0;
        loop {
            if !seen.insert((b.clone(), from, hand)) {
                return None;
            }
            let mut h = from;
            for k in 0..hand {
                h = (h + 1) % len;
                b[h] += 1;
                if variant == Variant::I && k + 1 < hand && b[h] == 4 {
                    b[h] = 0;
                    captured += 4;
                }
            }
            if b[h] == 4 {
                b[h] = 0;
                captured += 4;
                if variant == Variant::Ii {
                    let mut j = h;
                    loop {
                        j = (j + len - 1) % len;
                        if b[j] != 4 {
                            break;
                        }
                        b[j] = 0;
                        captured += 4;
                    }
                }
                break;
            } else if b[h] == 1 {
                break;
            }
            hand = b[h];
            b[h] = 0;
            from = h;
        }
        let mut caps = self.caps;
        caps[mover] += captured;
        let mut side = 1 - mover;
        if captured > 0 {
            let left: u32 = b.iter().sum();
            if left <= 4 {
                caps[mover] += left;
                b.iter_mut().for_each(|c| *c = 0);
            } else if variant != Variant::I {
                side = mover;
            }
        }
        Some(RefPos {
            board: b,
            side,
            caps,
        })
    }

    /// Every legal action and its result, as RULES.md defines them.
    fn children(&self, variant: Variant) -> Vec<(Move, RefPos)> {
        if self.board.iter().all(|&c| c == 0) {
            return vec![];
        }
        let n = self.n();
        let mut out: Vec<(Move, RefPos)> = (0..n)
            .filter(|&i| self.board[self.side * n + i] > 0)
            .filter_map(|i| self.sow(variant, i).map(|p| (Move::Sow(i as u8), p)))
            .collect();
        if out.is_empty() {
            let mut p = self.clone();
            p.side = 1 - p.side;
            out.push((Move::Pass, p));
        }
        out
    }
}

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::I), Just(Variant::Ii), Just(Variant::Iii)]
}

/// Random positions: 2..=7 or 12 holes per row, small counts (where casas and
/// endless sowing happen), any captures, either side to move.
fn position() -> impl Strategy<Value = Position> {
    (prop_oneof![2usize..=7, Just(12usize)], 0u32..=6)
        .prop_flat_map(|(n, max)| {
            (
                proptest::collection::vec(0..=max, 2 * n),
                any::<bool>(),
                0u32..=24,
                0u32..=24,
            )
        })
        .prop_map(|(board, north, cs, cn)| {
            let n = board.len() / 2;
            let row = |r: &[u32]| {
                r.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let side = if north { "N" } else { "S" };
            let text = format!("{}/{} {side} {cs}-{cn}", row(&board[..n]), row(&board[n..]));
            text.parse().expect("generated positions are well formed")
        })
}

fn rules_for(variant: Variant, pos: &Position) -> Rules {
    Rules {
        holes: pos.holes(),
        ..Rules::new(variant)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20000, ..ProptestConfig::default() })]

    /// Move generation and every move's result agree with the reference along a
    /// random line of play.
    #[test]
    fn engine_agrees_with_the_naive_reference(
        variant in variant(), start in position(), picks in proptest::collection::vec(any::<u16>(), 0..40)
    ) {
        let rules = rules_for(variant, &start);
        let mut pos = start;
        for pick in picks {
            let mut mine = Vec::new();
            pos.for_each_child(&rules, |mv, child, _| mine.push((mv, RefPos::of(&child))));
            let theirs = RefPos::of(&pos).children(variant);
            prop_assert_eq!(&mine, &theirs, "from {}", pos);
            if mine.is_empty() {
                break;
            }
            let mv = mine[pick as usize % mine.len()].0;
            pos = pos.play(&rules, mv).expect("generated moves are legal").0;
        }
    }

    /// Seeds are conserved, captures come in fours, legal moves end, extra moves
    /// follow captures only in II and III, II and III never capture en passant,
    /// and a capture that leaves at most four seeds ends the game.
    #[test]
    fn invariants_hold_along_random_lines(
        variant in variant(), start in position(), picks in proptest::collection::vec(any::<u16>(), 0..60)
    ) {
        let rules = rules_for(variant, &start);
        let total = start.total_seeds();
        let mut pos = start;
        for pick in picks {
            let moves = pos.legal_moves(&rules);
            if moves.is_empty() {
                prop_assert!(pos.is_over());
                break;
            }
            let mv = moves[pick as usize % moves.len()];
            let mover = pos.side_to_move();
            let mut trace = Trace::new();
            let (next, effect) = pos.play_traced(&rules, mv, &mut trace).expect("legal");
            prop_assert_eq!(next.total_seeds(), total);
            prop_assert_eq!(effect.captured % 4, 0);
            let gained = next.captures()[mover] - pos.captures()[mover];
            let left = pos.seeds_on_board() - effect.captured as u32;
            if effect.game_over {
                prop_assert!(effect.captured > 0 && left <= 4 && next.is_over());
                prop_assert_eq!(gained as u32, effect.captured as u32 + left);
            } else {
                prop_assert_eq!(gained, effect.captured);
                prop_assert!(effect.captured == 0 || next.seeds_on_board() > 4);
            }
            prop_assert_eq!(next.captures()[mover.opponent()], pos.captures()[mover.opponent()]);
            if effect.extra_move {
                prop_assert!(effect.captured > 0 && variant != Variant::I);
                prop_assert_eq!(next.side_to_move(), mover);
            } else if !effect.game_over && mv != Move::Pass {
                prop_assert!(effect.captured == 0 || variant == Variant::I);
                prop_assert_eq!(next.side_to_move(), mover.opponent());
            }
            let captures: Vec<CaptureKind> = trace.iter().filter_map(|s| match s {
                Step::Capture { kind, .. } => Some(*kind),
                _ => None,
            }).collect();
            prop_assert_eq!(captures.len() * 4, effect.captured as usize);
            if variant != Variant::I {
                prop_assert!(!captures.contains(&CaptureKind::EnPassant));
            }
            if variant == Variant::Iii {
                prop_assert!(captures.len() <= 1);
            }
            if mv != Move::Pass {
                // The sowing ended: its last lap fell in an empty hole or made a casa.
                let last_lap = trace.iter().rev().find_map(|s| match s {
                    Step::LapEnd { count, .. } => Some(*count),
                    _ => None,
                });
                prop_assert!(matches!(last_lap, Some(1) | Some(4)));
            }
            pos = next;
        }
    }

    /// Notation reads back what it writes.
    #[test]
    fn notation_round_trips(p in position()) {
        let back: Position = p.to_string().parse().unwrap();
        prop_assert_eq!(back, p);
        prop_assert!(matches!(back.side_to_move(), Side::South | Side::North));
    }
}

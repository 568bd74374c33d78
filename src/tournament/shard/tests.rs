//! The slicing: disjoint, covering, balanced, whole pairs, and `K/N` parsing.

use std::collections::BTreeMap;

use super::*;
use crate::tournament::config::experiment::Experiment;

/// `variants` x `holes` boards, a round-robin of `agents` agents, `games`
/// games per pairing.
fn schedule(variants: &str, holes: &str, agents: usize, games: u64) -> Schedule {
    let names: Vec<String> = (0..agents).map(|i| format!("\"a{i}\"")).collect();
    let text = format!(
        "name = \"t\"\nseed = 1\ngames = {games}\n[rules]\nvariants = [{variants}]\n\
         holes = [{holes}]\n[tournament]\nformat = \"round-robin\"\nagents = [{}]\n",
        names.join(", ")
    );
    let mut e = Experiment::parse(&text, "t.toml").unwrap();
    e.round_to_pairs();
    Schedule::new(&e)
}

#[test]
fn k_of_n_parses_and_bad_slices_are_refused() {
    assert_eq!("0/1".parse::<Shard>().unwrap(), Shard::WHOLE);
    let s: Shard = "3/4".parse().unwrap();
    assert_eq!((s.index(), s.count(), s.to_string()), (3, 4, "3/4".into()));
    assert_eq!(
        "3/3".parse::<Shard>(),
        Err(ShardError::OutOfRange { index: 3, count: 3 })
    );
    assert_eq!("0/0".parse::<Shard>(), Err(ShardError::NoShards(0)));
    for bad in [
        "x", "1/2/3", "", "/", "1/", "/2", "-1/2", "+1/2", " 1/2", "1/2 ", "a/b",
    ] {
        assert_eq!(
            bad.parse::<Shard>(),
            Err(ShardError::Syntax(bad.to_string())),
            "{bad:?}"
        );
    }
    let err = "3/3".parse::<Shard>().unwrap_err().to_string();
    assert!(err.contains("0 to 2"), "{err}");
}

#[test]
fn shards_are_disjoint_cover_every_game_and_keep_pairs_whole() {
    // 2 variants x 2 boards x 3 pairings = 12 blocks, 3 rounds: 36 pairs.
    let s = schedule("\"i\", \"ii\"", "4, 6", 3, 6);
    assert_eq!((s.blocks(), s.rounds(), s.pairs()), (12, 3, 36));
    for count in [1, 2, 3, 4, 5, 7, 12, 36, 50] {
        let mut owner = vec![None; s.len() as usize];
        let mut total = 0;
        for index in 0..count {
            let shard = Shard::new(index, count).unwrap();
            let ids: Vec<u64> = shard.each_id(&s).collect();
            assert_eq!(ids.len() as u64, shard.games(&s), "{shard}");
            assert_eq!(shard.pair_count(&s) * 2, shard.games(&s), "{shard}");
            assert!(ids.windows(2).all(|w| w[0] < w[1]), "{shard}: id order");
            for &id in &ids {
                assert_eq!(owner[id as usize], None, "game {id} in two shards");
                owner[id as usize] = Some(index);
            }
            // Whole pairs: both games of every pair in the same shard.
            for pair in shard.pairs(&s) {
                assert!(s.pair_games(pair).all(|id| ids.contains(&id)));
                assert_eq!(Shard::of_pair(&s, pair, count), index);
            }
            total += ids.len() as u64;
        }
        assert_eq!(total, s.len(), "{count} shards");
        assert!(owner.iter().all(Option::is_some), "{count} shards");
    }
}

#[test]
fn every_block_is_spread_evenly_even_when_blocks_are_a_multiple_of_n() {
    // 12 blocks and 4 shards: dealing by pair id would give each shard 3
    // blocks and none of the others.
    let s = schedule("\"i\", \"ii\"", "4, 6", 3, 16);
    assert_eq!((s.blocks(), s.rounds()), (12, 8));
    for count in [2, 3, 4, 5, 6, 12] {
        let mut per_block: BTreeMap<usize, Vec<u64>> = BTreeMap::new();
        let mut per_shard = Vec::new();
        for index in 0..count {
            let shard = Shard::new(index, count).unwrap();
            per_shard.push(shard.pair_count(&s));
            for pair in shard.pairs(&s) {
                let counts = per_block
                    .entry(s.pair_place(pair).0)
                    .or_insert_with(|| vec![0; count as usize]);
                counts[index as usize] += 1;
            }
        }
        let spread = |v: &[u64]| v.iter().max().unwrap() - v.iter().min().unwrap();
        assert!(spread(&per_shard) <= 1, "{count} shards: {per_shard:?}");
        for (block, counts) in &per_block {
            assert_eq!(counts.iter().sum::<u64>(), 8);
            assert!(
                spread(counts) <= 1,
                "{count} shards, block {block}: {counts:?}"
            );
        }
    }
    // By hand: 12 blocks x 8 rounds = 96 pairs dealt to 4 shards, 24 each;
    // block 0's rounds 0..8 go to shards 0,1,2,3,0,1,2,3.
    let shard1 = Shard::new(1, 4).unwrap();
    let block0: Vec<u64> = shard1.pairs(&s).filter(|&p| p % 12 == 0).collect();
    assert_eq!(block0, [12, 60]);
}

#[test]
fn more_shards_than_pairs_leaves_the_last_ones_empty() {
    let s = schedule("\"ii\"", "6", 2, 2);
    assert_eq!(s.pairs(), 1);
    let first = Shard::new(0, 3).unwrap();
    assert_eq!(first.each_id(&s).collect::<Vec<_>>(), [0, 1]);
    for index in 1..3 {
        let empty = Shard::new(index, 3).unwrap();
        assert_eq!((empty.games(&s), empty.pair_count(&s)), (0, 0));
        assert!(empty.ids(&s, 0).next_chunk(8).is_none());
    }
}

#[test]
fn ids_resume_mid_slice_and_chunk_in_runs() {
    let s = schedule("\"i\", \"ii\"", "4, 6", 3, 6);
    let shard = Shard::new(2, 5).unwrap();
    let all: Vec<u64> = shard.each_id(&s).collect();
    for skip in [0, 1, 3, all.len() as u64 - 1, all.len() as u64, 99] {
        let mut ids = shard.ids(&s, skip);
        assert_eq!(ids.len(), (all.len() as u64).saturating_sub(skip));
        let mut got = Vec::new();
        while let Some(chunk) = ids.next_chunk(3) {
            let games: u64 = chunk.iter().map(|r| r.end - r.start).sum();
            got.extend(chunk.into_iter().flatten());
            assert!(games == 3 || got.len() == all.len() - skip as usize);
        }
        assert_eq!(got, all[(skip as usize).min(all.len())..], "skip {skip}");
    }
    // The whole run is one range, chunked as before.
    let mut whole = Shard::WHOLE.ids(&s, 5);
    let chunk = whole.next_chunk(4).unwrap();
    assert_eq!((chunk.len(), chunk[0].clone()), (1, 5..9));
    assert_eq!(GameIds::from(3..3).next_chunk(4), None);
}

#[test]
fn a_shard_count_beyond_toml_is_refused() {
    // `--shard 0/9223372036854775808` cannot be written to shard.toml: an
    // error when parsed, not a panic when written.
    let err = "0/9223372036854775808".parse::<Shard>().unwrap_err();
    assert!(
        err.to_string()
            .contains("at most 9223372036854775807 shards"),
        "{err}"
    );
    assert!(Shard::new(0, MAX_SHARDS).is_ok());
}

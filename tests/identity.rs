//! Byte identity of the records: fixed experiments must write exactly the
//! `games.csv`, `moves.csv` and `metrics.csv` that the code of commit 2066796
//! wrote, before any of the speed work (digests taken with that binary).
//! The game generator, its draws and the record format must not change
//! however the engine, the harness or its chunking are made faster.
//!
//! The experiments (`tests/identity/*.toml`) use random agents only, so that
//! changes to the searching agents cannot move these digests.

use crate::common::{run_ok, s};

/// FNV-1a, 64 bits (Fowler, Noll, Vo), of a whole file.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Runs `tests/identity/NAME.toml` with `threads` workers and checks the
/// digests and lengths of its three record files.
fn check(name: &str, threads: &str, expected: [(&str, u64, usize); 3]) {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    let config = format!("{}/tests/identity/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let out = tmp.path().join(name);
    run_ok(&[
        "run",
        &config,
        "--out",
        s(&out),
        "--threads",
        threads,
        "--report-every",
        "0",
    ]);
    for (file, digest, len) in expected {
        let bytes = std::fs::read(out.join(file)).expect("the run wrote its records");
        assert_eq!(
            (fnv1a(&bytes), bytes.len()),
            (digest, len),
            "{name}: {file} is not byte-identical to the records of commit 2066796"
        );
    }
}

#[test]
fn fnv1a_of_a_known_text() {
    // Published test vector: FNV-1a 64 of "a".
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
}

/// Random self-play, every variant on 2x6 and 2x12, two threads.
#[test]
fn random_self_play_all_variants_writes_the_same_bytes() {
    check(
        "a",
        "2",
        [
            ("games.csv", 0xf59f_ef00_d4a5_5e56, 1_695_875),
            ("moves.csv", 0x2ccb_b7c6_fe70_984b, 8_726_550),
            ("metrics.csv", 0xe875_a193_c004_32ff, 713_865),
        ],
    );
}

/// Hoyito III in rounds with random openings, one thread.
#[test]
fn rounds_with_openings_write_the_same_bytes() {
    check(
        "b",
        "1",
        [
            ("games.csv", 0x2e6e_5a34_4e66_2837, 440_523),
            ("moves.csv", 0x2381_b024_02b1_0504, 1_374_248),
            ("metrics.csv", 0xcae9_0f49_94d4_cd1d, 157_023),
        ],
    );
}

/// Odd boards and seeds, a short no-capture limit and split leftovers.
#[test]
fn odd_boards_and_stall_options_write_the_same_bytes() {
    check(
        "c",
        "2",
        [
            ("games.csv", 0x85fe_4b80_97c1_477e, 637_138),
            ("moves.csv", 0xb62d_2c37_398d_402b, 948_390),
            ("metrics.csv", 0x06a9_94d1_59e4_7b88, 213_772),
        ],
    );
}

//! Endgame table files and the commands that build and read them (`solve`,
//! `probe`, `captures`, the tablebase agent): every header field checked and
//! damage named with the command that rebuilds the table, every layer checked
//! against the limits (the board, memory, the address-space limit) before
//! anything is built, only the layers a board can reach built, and the
//! tables kept in the cache when no folder is given.

use std::path::Path;
use std::process::{Command, Output};

use hoyito::solver::table::{self, Damage};
use hoyito::solver::Tablebase;
use hoyito::{prepare_tables, shared_tables, AgentSpec, Rules, Variant};

use crate::common::{hoyito, hoyito_in, mkfifo, one_line_error, s, scratch, stderr, stdout, BIN};

/// Builds the tables of `variant` on 2x3 up to 10 seeds into `dir` by the CLI.
fn solve_2x3(variant: &str, dir: &Path) {
    let out = hoyito(&[
        "solve",
        "--variant",
        variant,
        "--holes",
        "3",
        "--max-seeds",
        "10",
        "--only-needed",
        "--tables",
        s(dir),
    ]);
    assert!(out.status.success(), "{out:?}");
}

fn probe(variant: &str, position: &str, dir: &Path) -> Output {
    hoyito(&[
        "probe",
        "--variant",
        variant,
        "--position",
        position,
        "--tables",
        s(dir),
    ])
}

/// A Hoyito I table renamed as a Hoyito II one, its variant byte edited,
/// must not be probed as if it held II's values: the checksum covers the
/// header, so the edit is damage.
#[test]
fn a_renamed_table_with_its_variant_byte_edited_is_refused() {
    let one = scratch("renamed-i");
    let two = scratch("renamed-ii");
    solve_2x3("i", &one);
    for entry in std::fs::read_dir(&one).expect("a directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().unwrap().to_str().unwrap();
        let mut bytes = std::fs::read(&path).expect("readable");
        assert_eq!(bytes[12], 1, "variant byte of {name}");
        bytes[12] = 2;
        let renamed = name.replace("hoyito-i-", "hoyito-ii-");
        std::fs::write(two.join(renamed), bytes).expect("writable");
    }
    let position = "3,0,0/1,3,3 S 0-0";
    let out = probe("ii", position, &two);
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("do not match the checksum")
            && err.contains("hoyito solve --variant ii --holes 3 --max-seeds")
            && err.contains("--only-needed --tables"),
        "{err}"
    );
    // The truth, from tables built for Hoyito II.
    let fresh = scratch("renamed-fresh");
    let out = probe("ii", position, &fresh);
    assert_eq!(stdout(&out), "value 10\nbest 1\n");
    for dir in [one, two, fresh] {
        std::fs::remove_dir_all(dir).expect("cleaned up");
    }
}

/// Every header field is checked against what was asked, and a flipped
/// entry count says what differs (not "12870 data bytes, expected 12870").
#[test]
fn every_header_field_is_checked_and_named() {
    let dir = scratch("header-fields");
    let mut tb = Tablebase::new(Variant::Ii, 3).expect("a valid board");
    tb.ensure(10, Some(&dir), &|_| {}).expect("built");
    let key = tb.key(10);
    let path = dir.join(key.file_name());
    let good = std::fs::read(&path).expect("readable");
    let load_edited = |at: usize, value: u8| {
        let mut bytes = good.clone();
        bytes[at] = value;
        let bad = dir.join("edited.tb");
        std::fs::write(&bad, bytes).expect("writable");
        table::load(&bad, key).expect_err("refused")
    };
    // Holes, seeds, last-seeds rule and leftover rule: each a mismatch.
    for (at, value, says) in [
        (13, 4, "on 2x4"),
        (14, 6, "with 6 seeds"),
        (16, 2, "North takes the last seeds"),
        (17, 1, "stalled leftovers to their row's owner"),
    ] {
        let err = load_edited(at, value);
        assert!(
            matches!(err.damage(), Some(Damage::Mismatch { .. })),
            "{err}"
        );
        assert!(err.to_string().contains(says), "{err}");
    }
    let entries = key.entries();
    let err = load_edited(24, (entries as u8) ^ 1);
    assert_eq!(
        err.damage(),
        Some(&Damage::Count {
            found: entries ^ 1,
            expected: entries
        })
    );
    assert!(
        err.to_string().contains(&format!(
            "claims {} entries, the layer has {entries}",
            entries ^ 1
        )),
        "{err}"
    );
    // A reserved byte is covered by the checksum.
    let err = load_edited(20, 7);
    assert_eq!(err.damage(), Some(&Damage::Checksum));
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// A truncated `.tb` (a build killed while writing) does not block `probe`
/// until deleted by hand: the error says it is truncated and gives the
/// command that rebuilds it, and that command works once it is deleted.
#[test]
fn a_truncated_table_names_the_command_that_rebuilds_it() {
    let dir = scratch("truncated");
    solve_2x3("ii", &dir);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("a directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .collect();
    assert!(
        names
            .iter()
            .all(|n| n.ends_with(".tb") && !n.starts_with('.')),
        "temporary files left behind: {names:?}"
    );
    let path = dir.join("hoyito-ii-2x3-010.tb");
    let bytes = std::fs::read(&path).expect("readable");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).expect("writable");
    let out = probe("ii", "3,0,0/1,3,3 S 0-0", &dir);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let rebuild = format!(
        "hoyito solve --variant ii --holes 3 --max-seeds 10 --only-needed --tables {}",
        dir.display()
    );
    assert!(
        err.contains("is truncated") && err.contains(&format!("`{rebuild}`")),
        "{err}"
    );
    std::fs::remove_file(&path).expect("deleted");
    let args: Vec<&str> = rebuild.split(' ').skip(1).collect();
    assert!(hoyito(&args).status.success());
    assert_eq!(std::fs::read(&path).expect("rebuilt"), bytes);
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// An I/O error says its OS text once, not "table file X: Is a directory
/// (os error 21): Is a directory (os error 21)".
#[test]
fn an_io_error_says_its_cause_once() {
    let dir = scratch("io-error");
    std::fs::create_dir(dir.join("hoyito-ii-2x2-000.tb")).expect("a directory in the way");
    let err = one_line_error(&[
        "probe",
        "--variant",
        "ii",
        "-p",
        "0,0/0,0 S 4-4",
        "--tables",
        s(&dir),
    ]);
    assert_eq!(err.matches("os error").count(), 1, "{err}");
    assert!(err.contains("cannot read table file"), "{err}");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

#[test]
fn a_fifo_as_a_table_file_is_refused_not_read() {
    use hoyito::solver::table::TableKey;
    use hoyito::{LastFour, Leftover, Variant};
    let dir = tempfile::tempdir().unwrap();
    let key = TableKey {
        variant: Variant::Ii,
        holes: 2,
        seeds: 4,
        last_four: LastFour::Capturer,
        leftover: Leftover::None,
    };
    let fifo = dir.path().join(key.file_name());
    mkfifo(&fifo);
    let err = table::load(&fifo, key).unwrap_err();
    let chain = format!("{err}: {}", std::error::Error::source(&err).unwrap());
    assert!(chain.contains("not a regular file"), "{chain}");
}

/// The tablebase agent builds only the layers the board can reach: 2x4 with
/// 1 seed per hole and `max_seeds = 30` builds layers 0 to 8 (every layer up
/// to 30 took 53 s).
#[test]
fn the_tablebase_agent_builds_only_the_layers_the_board_can_reach() {
    let rules = Rules::new(Variant::Ii).with_board(4, 1).expect("a board");
    let spec: AgentSpec = toml::from_str("kind = \"tablebase\"\nmax_seeds = 30").expect("a spec");
    prepare_tables(&spec, &rules).expect("tables up to 8 seeds");
    let tb = shared_tables(&rules, 30)
        .expect("built")
        .expect("tables hold for the default options");
    for k in 0..=8 {
        assert!(tb.has_layer(k), "layer {k}");
    }
    for k in 9..=30 {
        assert!(!tb.has_layer(k), "layer {k} built for nothing");
    }
}

/// A failure to build the tables is an error naming the reason (never
/// dropped, with the agent silently playing by search), and `hoyito run`
/// stops before making its directory.
#[test]
fn a_tablebase_agent_whose_tables_cannot_be_built_fails_to_start() {
    let rules = Rules::new(Variant::Ii).with_board(16, 4).expect("a board");
    let spec: AgentSpec = toml::from_str("kind = \"tablebase\"\nmax_seeds = 120").expect("a spec");
    let err = prepare_tables(&spec, &rules).expect_err("far too large");
    let chain = format!("{err}: {}", err.cause);
    assert!(
        chain.contains("tablebase agent: cannot build its tables up to 120 seeds")
            && chain.contains("too many to solve in memory"),
        "{chain}"
    );

    let dir = scratch("tablebase-run");
    let config = dir.join("big.toml");
    std::fs::write(
        &config,
        "name = \"big\"\nseed = 1\ngames = 2\n[rules]\nvariants = [\"ii\"]\nholes = [16]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"tb\", \"random\"]\n\
         [roster.tb]\nkind = \"tablebase\"\nmax_seeds = 120\n",
    )
    .expect("writable");
    let out_dir = dir.join("out");
    let err = one_line_error(&["run", s(&config), "--out", s(&out_dir)]);
    assert!(
        err.contains("agent tb") && err.contains("cannot build its tables"),
        "{err}"
    );
    assert!(!out_dir.exists(), "the results directory was made");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// Under `ulimit -v`, `probe` would run 44 s and then abort ("memory
/// allocation of 524288 bytes failed"): the address-space limit is part of
/// the up-front check, a clear error and exit 1 at once.
#[test]
fn an_address_space_limit_is_honoured_up_front() {
    if !Path::new("/proc/self/limits").exists() {
        return;
    }
    let script = format!(
        "ulimit -v 600000 && exec '{BIN}' solve --variant ii --holes 6 --max-seeds 20 --only-needed"
    );
    let out = Command::new("sh")
        .args(["-c", &script])
        .output()
        .expect("sh runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: ")
            && err.contains("need about")
            && err.contains("MB of memory are available (")
            && !err.contains("memory allocation"),
        "{err}"
    );
    // Unless the machine itself has less than the limit free, the limit binds.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let free_kb: u64 = meminfo
        .lines()
        .find(|l| l.starts_with("MemAvailable:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0);
    if free_kb > 600_000 {
        assert!(err.contains("ulimit -v"), "{err}");
    }
}

/// `solve --variant ii --holes 4 --max-seeds 121` builds nothing and makes
/// nothing (it would otherwise fail only at layer 121).
#[test]
fn every_layer_is_checked_before_anything_is_built() {
    let dir = scratch("layer-check");
    let tables = dir.join("tables");
    let solve = |max: &str| {
        let out = hoyito(&[
            "solve",
            "--variant",
            "ii",
            "--holes",
            "4",
            "--max-seeds",
            max,
            "--tables",
            s(&tables),
        ]);
        assert!(!out.status.success(), "{out:?}");
        assert_eq!(stdout(&out), "", "layers were built");
        assert!(!tables.exists(), "the table directory was made");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = solve("121");
    assert!(
        err.contains("121 seeds on the board is out of range: tables go from 0 to 120"),
        "{err}"
    );
    // Within range, but some layer of 0..=120 is too large to index.
    let err = solve("120");
    assert!(err.contains("too many to solve in memory"), "{err}");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// `captures --layer` (once `--seeds`) beyond what a board holds is refused
/// before an index is built for it (2^32 seeds would allocate without
/// bound), as `solve` checks every layer first.
#[test]
fn captures_refuses_an_impossible_layer_up_front() {
    let err = one_line_error(&[
        "captures",
        "--variant",
        "ii",
        "--holes",
        "3",
        "--layer",
        "4000000000",
    ]);
    assert!(
        err.contains("4000000000 seeds on the board is out of range: the engine holds 0 to 255"),
        "{err}"
    );
}

/// `probe` without --tables uses the cache, says so, and leaves the working
/// directory alone.
#[test]
fn probe_keeps_its_tables_in_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let out = hoyito_in(
        dir.path(),
        &["probe", "-p", "1,0,1/0,1,0 S 0-0"],
        &[("XDG_CACHE_HOME", &cache)],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let tables = cache.join("hoyito/tables");
    assert!(stderr(&out).contains(&format!("tables: {}", tables.display())));
    assert!(tables.is_dir());
    assert!(!dir.path().join("tables").exists());
}

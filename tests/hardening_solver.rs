//! Issue 9, the solver's share: each test reproduces one case of the report
//! (perft, table files, the tablebase agent, memory limits, the flags and
//! messages of the position and solver commands) and pins its fix.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hoyito::solver::table::{self, Damage};
use hoyito::solver::Tablebase;
use hoyito::{perft, prepare_tables, shared_tables, AgentSpec, Position, Roster, Rules, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_hoyito");

fn hoyito(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Runs a command that must fail and returns its standard error, checked to be
/// one line without a panic.
fn error_of(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    err.trim_end().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hoyito-hardening-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Item 3: perft at depth 100000 on a position that cycles died of a stack
/// overflow. Two seeds go round 2x2 forever: one move each ply, count 1.
#[test]
fn issue9_item3_perft_of_a_cycling_position_at_depth_100000_answers() {
    let args = [
        "perft",
        "--variant",
        "ii",
        "--position",
        "0,1/1,0 S 0-0",
        "--depth",
        "100000",
    ];
    let out = hoyito(&args);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(stdout(&out), "1\n");
    let help = stdout(&hoyito(&["perft", "--help"]));
    assert!(help.contains("ignores the stall rules"), "{help}");
}

/// Item 3: the deep walk (a heap stack beyond 64 plies) counts what plain
/// recursion counts, on a cycling 2x3 position whose tree branches.
#[test]
fn issue9_item3_the_deep_walk_counts_as_recursion_does() {
    fn reference(pos: &Position, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        pos.for_each_child(rules, |_, child, _| {
            total += reference(&child, rules, depth - 1)
        });
        total
    }
    let rules = Rules::new(Variant::Ii);
    let pos: Position = "0,1,0/1,0,0 S 0-0".parse().expect("a position");
    for depth in [63, 64, 65, 70] {
        assert_eq!(
            perft(&pos, &rules, depth),
            reference(&pos, &rules, depth),
            "depth {depth}"
        );
    }
}

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

/// Item 6: a Hoyito I table renamed as a Hoyito II one, its variant byte
/// edited, was probed without complaint and gave a wrong value. The checksum
/// now covers the header, so the edit is damage.
#[test]
fn issue9_item6_a_renamed_table_with_its_variant_byte_edited_is_refused() {
    let one = scratch("item6-i");
    let two = scratch("item6-ii");
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
    let fresh = scratch("item6-fresh");
    let out = probe("ii", position, &fresh);
    assert_eq!(stdout(&out), "value 10\nbest 1\n");
    for dir in [one, two, fresh] {
        std::fs::remove_dir_all(dir).expect("cleaned up");
    }
}

/// Items 6 and 18: every header field is checked against what was asked, and
/// a flipped entry count says what differs (it said "12870 data bytes,
/// expected 12870").
#[test]
fn issue9_item6_item18_every_header_field_is_checked_and_named() {
    let dir = scratch("item6-fields");
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

/// Item 7: the tablebase agent built every layer up to `max_seeds` even when
/// the board holds fewer seeds (2x4 with 1 seed per hole, `max_seeds = 30`
/// took 53 s): now only layers 0 to 8.
#[test]
fn issue9_item7_the_tablebase_agent_builds_only_the_layers_the_board_can_reach() {
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

/// Item 7: a failure to build the tables was dropped (`.ok()?`) and the agent
/// silently played by search; now it is an error naming the reason, and
/// `hoyito run` stops before making its directory.
#[test]
fn issue9_item7_a_tablebase_agent_whose_tables_cannot_be_built_fails_to_start() {
    let rules = Rules::new(Variant::Ii).with_board(16, 4).expect("a board");
    let spec: AgentSpec = toml::from_str("kind = \"tablebase\"\nmax_seeds = 120").expect("a spec");
    let err = prepare_tables(&spec, &rules).expect_err("far too large");
    let chain = format!("{err}: {}", err.cause);
    assert!(
        chain.contains("tablebase agent: cannot build its tables up to 120 seeds")
            && chain.contains("too many to solve in memory"),
        "{chain}"
    );

    let dir = scratch("item7-run");
    let config = dir.join("big.toml");
    std::fs::write(
        &config,
        "name = \"big\"\nseed = 1\ngames = 2\n[rules]\nvariants = [\"ii\"]\nholes = [16]\n\
         [tournament]\nformat = \"round-robin\"\nagents = [\"tb\", \"random\"]\n\
         [roster.tb]\nkind = \"tablebase\"\nmax_seeds = 120\n",
    )
    .expect("writable");
    let out_dir = dir.join("out");
    let err = error_of(&["run", s(&config), "--out", s(&out_dir)]);
    assert!(
        err.contains("agent tb") && err.contains("cannot build its tables"),
        "{err}"
    );
    assert!(!out_dir.exists(), "the results directory was made");
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// Item 12: a truncated `.tb` (a build killed while writing) blocked `probe`
/// until deleted by hand; now the error says it is truncated and gives the
/// command that rebuilds it, and that command works once it is deleted.
#[test]
fn issue9_item12_a_truncated_table_names_the_command_that_rebuilds_it() {
    let dir = scratch("item12");
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

/// Item 14: under `ulimit -v`, `probe` ran 44 s and then aborted ("memory
/// allocation of 524288 bytes failed"). The address-space limit is now part of
/// the up-front check: a clear error and exit 1 at once.
#[test]
fn issue9_item14_an_address_space_limit_is_honoured_up_front() {
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

/// Item 15: `solve --variant ii --holes 4 --max-seeds 121` started building and
/// would fail only at layer 121; now nothing is built or made.
#[test]
fn issue9_item15_every_layer_is_checked_before_anything_is_built() {
    let dir = scratch("item15");
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

/// Item 18: a bad fallback in an agent file said "is out of range; allowed: "
/// and stopped.
#[test]
fn issue9_item18_a_bad_tablebase_fallback_lists_the_allowed_values() {
    let dir = scratch("item18-fallback");
    let cases = [
        (
            "max_seeds = 8\nfallback = { kind = \"alphabeta\", depth = 0 }",
            "field `fallback.depth` is out of range; allowed: 1 to 64",
        ),
        (
            "max_seeds = 8\nfallback = { kind = \"tablebase\", max_seeds = 4 }",
            "field `fallback.kind` is out of range; allowed: random, greedy, alphabeta or mcts",
        ),
    ];
    for (body, expected) in cases {
        std::fs::write(dir.join("tb.toml"), format!("kind = \"tablebase\"\n{body}"))
            .expect("writable");
        let err = Roster::load(&dir).expect_err("refused").to_string();
        assert!(err.contains(expected), "{err}");
    }
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// Item 18: `+3` was accepted as a move while `+4` is refused as a count.
#[test]
fn issue9_item18_a_signed_move_is_refused_like_a_signed_count() {
    let start = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0";
    let err = error_of(&["apply", "--variant", "ii", "-p", start, "+3"]);
    assert!(err.contains("cannot read move \"+3\""), "{err}");
    let err = error_of(&["apply", "--variant", "ii", "-p", "+4,4/4,4 S 0-0", "1"]);
    assert!(
        err.contains("\"+4\" in South's row is not a number"),
        "{err}"
    );
}

/// Item 18: I/O errors repeated their OS text ("table file X: Is a directory
/// (os error 21): Is a directory (os error 21)").
#[test]
fn issue9_item18_an_io_error_says_its_cause_once() {
    let dir = scratch("item18-io");
    std::fs::create_dir(dir.join("hoyito-ii-2x2-000.tb")).expect("a directory in the way");
    let err = error_of(&[
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

/// Item 19: one name for the tables folder (`--tables`, old spellings kept),
/// `--holes` required by both `solve` and `captures`, no `-v` short flag, and
/// `agents --agents-dir` as `run` spells it.
#[test]
fn issue9_item19_flags_are_consistent() {
    let dir = scratch("item19");
    let position = "1,0/0,1 S 0-0";
    for flag in ["--tables", "--dir"] {
        let out = hoyito(&["probe", "--variant", "i", "-p", position, flag, s(&dir)]);
        assert!(out.status.success(), "{flag}: {out:?}");
    }
    for flag in ["--tables", "--out"] {
        let args = [
            "solve",
            "--variant",
            "i",
            "--holes",
            "2",
            "--max-seeds",
            "2",
        ];
        let mut args = args.to_vec();
        args.extend([flag, s(&dir)]);
        assert!(hoyito(&args).status.success(), "{flag}");
    }
    let err = error_of(&["solve", "--variant", "i", "--max-seeds", "2"]);
    assert!(err.contains("--holes"), "{err}");
    let err = error_of(&["captures", "--variant", "i", "--layer", "2"]);
    assert!(err.contains("--holes"), "{err}");
    let err = error_of(&["perft", "-v", "i", "-p", position, "-d", "1"]);
    assert!(err.contains("'-v'"), "{err}");
    for flag in ["--agents-dir", "--dir"] {
        let out = hoyito(&["agents", flag, "agents"]);
        assert!(out.status.success(), "{flag}: {out:?}");
        assert!(stdout(&out).contains("tablebase-8"), "{flag}");
    }
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

/// Same class as item 15: `captures --layer` (once `--seeds`) beyond what a board holds built
/// an index for it (and 2^32 seeds would allocate without bound).
#[test]
fn issue9_captures_refuses_an_impossible_layer_up_front() {
    let err = error_of(&[
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

/// Item 12 (and the class of item 13): a table is written through a temporary
/// file created afresh; a link planted at that name is replaced, never
/// followed, so its target is left alone.
#[cfg(unix)]
#[test]
fn issue9_item12_saving_never_writes_through_a_planted_link() {
    let dir = scratch("item12-link");
    let mut tb = Tablebase::new(Variant::Iii, 2).expect("a valid board");
    tb.ensure(4, None, &|_| {}).expect("built");
    let key = tb.key(4);
    let path = dir.join(key.file_name());
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").expect("writable");
    let temp = dir.join(format!(".{}.{}.tmp", key.file_name(), std::process::id()));
    std::os::unix::fs::symlink(&victim, &temp).expect("a link");
    table::save(&path, key, tb.layer(4).expect("built")).expect("saved");
    assert_eq!(
        std::fs::read_to_string(&victim).expect("readable"),
        "keep me"
    );
    assert!(!temp.exists() && std::fs::symlink_metadata(&temp).is_err());
    assert_eq!(
        table::load(&path, key).expect("a good file").as_slice(),
        tb.layer(4).expect("built")
    );
    std::fs::remove_dir_all(&dir).expect("cleaned up");
}

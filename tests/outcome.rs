//! Who wins a start: the proof-number search's outcomes against the exact
//! values, its certificates and their check, a search stopped and resumed,
//! a killed search resumed, and a table kept within a tiny budget.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hoyito::solver::outcome::certificate::{Child, ProofNode};
use hoyito::solver::outcome::dfpn::{leaf_value, need_at};
use hoyito::solver::outcome::{
    certify, settle_outcome, verify, Certificate, Limits, Outcome, Prover, Refused, Verdict,
};
use hoyito::solver::Tablebase;
use hoyito::{Position, Rules, Side, Variant};

use crate::common::{hoyito, s, BIN};

const VARIANTS: [Variant; 3] = [Variant::I, Variant::Ii, Variant::Iii];

fn scratch(name: &str) -> crate::common::Scratch {
    crate::common::scratch(&format!("outcome-{name}"))
}

/// The outcome of a start with no tables, and the certificates it needs.
fn solve(variant: Variant, holes: u8, bytes: u64) -> (Outcome, Vec<Certificate>, Tablebase) {
    let rules = Rules::new(variant).with_board(holes as u32, 4).unwrap();
    let tables = Tablebase::new(variant, holes).unwrap();
    let start = Position::start(&rules);
    let mut prover = Prover::new(rules, &tables, 0, bytes);
    let search = settle_outcome(|t| prover.prove(&start, t, Limits::default()));
    let outcome = search.outcome.expect("small boards are settled");
    let certificates = search
        .answers
        .iter()
        .map(|a| certify(&mut prover, &start, a).expect("a settled answer has a certificate"))
        .collect();
    drop(prover);
    (outcome, certificates, tables)
}

#[test]
fn rebuilding_a_certificate_does_not_flood_the_progress_report() {
    // Rebuilding a certificate runs one short search per node; each used to
    // print a progress line at its end (hundreds of lines in a second).
    let rules = Rules::new(Variant::Ii).with_board(4, 4).unwrap();
    let tables = Tablebase::new(Variant::Ii, 4).unwrap();
    let start = Position::start(&rules);
    let reports = std::rc::Rc::new(std::cell::Cell::new(0usize));
    let mut prover = Prover::new(rules, &tables, 0, 1 << 24);
    let seen = reports.clone();
    prover.on_progress(Duration::from_secs(3600), move |_| seen.set(seen.get() + 1));
    let search = settle_outcome(|t| prover.prove(&start, t, Limits::default()));
    let certificates: Vec<_> = search
        .answers
        .iter()
        .filter_map(|a| certify(&mut prover, &start, a))
        .collect();
    assert!(!certificates.is_empty() && certificates[0].nodes.len() > 10);
    assert_eq!(
        reports.get(),
        0,
        "no report is due within an hour's interval"
    );
}

/// The exact margins of reports/first-player/exact.json, by variant and board.
fn exact_margins() -> Vec<(String, u8, i32)> {
    let text = std::fs::read_to_string("reports/first-player/exact.json").unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["start_positions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] == "exact")
        .map(|e| {
            (
                e["variant"].as_str().unwrap().to_string(),
                e["holes"].as_u64().unwrap() as u8,
                e["margin"].as_i64().unwrap() as i32,
            )
        })
        .collect()
}

#[test]
fn the_outcome_of_every_start_up_to_2x6_has_the_sign_of_its_exact_value() {
    let margins = exact_margins();
    let mut checked = 0;
    for variant in VARIANTS {
        for holes in 2..=6u8 {
            let margin = margins
                .iter()
                .find(|(v, h, _)| v == variant.name() && *h == holes)
                .map(|&(_, _, m)| m)
                .unwrap_or_else(|| panic!("exact.json has {variant} 2x{holes}"));
            let (outcome, certificates, tables) = solve(variant, holes, 64 << 20);
            let expected = match margin.signum() {
                1 => Outcome::Win,
                0 => Outcome::Draw,
                _ => Outcome::Loss,
            };
            assert_eq!(outcome, expected, "{variant} 2x{holes} (margin {margin})");
            // Every answer's certificate passes the check, and survives
            // being written and read back.
            for cert in certificates {
                verify(&cert, &tables).unwrap_or_else(|e| panic!("{cert}: {e}"));
                let back = Certificate::decode(&cert.encode(), Path::new("memory")).unwrap();
                assert_eq!(back, cert);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
}

/// The II 2x4 proof that South wins, with the position of every node.
fn ii_2x4() -> (Certificate, Tablebase, Vec<(Position, i32)>) {
    let (outcome, mut certs, tables) = solve(Variant::Ii, 4, 16 << 20);
    assert_eq!(outcome, Outcome::Win);
    let cert = certs.remove(0);
    assert_eq!(cert.prover, Side::South);
    let rules = Rules::new(Variant::Ii).with_board(4, 4).unwrap();
    let mut reached: Vec<Option<(Position, i32)>> = vec![None; cert.nodes.len()];
    reached[0] = Some((Position::start(&rules), 1));
    let mut queue = vec![0usize];
    while let Some(i) = queue.pop() {
        let (pos, target) = reached[i].unwrap();
        let mut children = Vec::new();
        pos.for_each_child(&rules, |mv, child, _| children.push((mv, child)));
        let refs: Vec<(Position, Child)> = match &cert.nodes[i] {
            ProofNode::Prover(mv, c) => {
                vec![(children.iter().find(|(m, _)| m == mv).unwrap().1, *c)]
            }
            ProofNode::Opponent(cs) => children
                .iter()
                .map(|(_, p)| *p)
                .zip(cs.iter().copied())
                .collect(),
        };
        for (child, c) in refs {
            if let Child::Node(j) = c {
                if reached[j as usize].is_none() {
                    reached[j as usize] = Some((child, target));
                    queue.push(j as usize);
                }
            }
        }
    }
    let reached = reached.into_iter().map(Option::unwrap).collect();
    (cert, tables, reached)
}

#[test]
fn a_certificate_with_a_leaf_altered_is_refused_naming_the_node() {
    let (cert, tables, reached) = ii_2x4();
    let rules = Rules::new(Variant::Ii).with_board(4, 4).unwrap();
    // A prover node whose move ends at a winning leaf, and another legal
    // move there that the leaf rules do not decide for South.
    let mut tampered = None;
    'search: for (i, node) in cert.nodes.iter().enumerate() {
        let ProofNode::Prover(mv, Child::Leaf) = node else {
            continue;
        };
        let (pos, target) = reached[i];
        let mut other = None;
        pos.for_each_child(&rules, |m, child, _| {
            let leaf = leaf_value(&tables, 0, &child, need_at(&child, target));
            if m != *mv && leaf != Some(true) && other.is_none() {
                other = Some(m);
            }
        });
        if let Some(m) = other {
            let mut c = cert.clone();
            c.nodes[i] = ProofNode::Prover(m, Child::Leaf);
            tampered = Some((i, c));
            break 'search;
        }
    }
    let (i, c) = tampered.expect("the proof has a leaf that another move would not reach");
    // Re-encoded, so the checksum holds and only the proof is wrong.
    let c = Certificate::decode(&c.encode(), Path::new("memory")).unwrap();
    match verify(&c, &tables) {
        Err(Refused::Node { node, why, .. }) => {
            assert_eq!(node as usize, i);
            assert!(why.contains("given as a leaf"), "{why}");
        }
        other => panic!("an altered leaf was not refused: {other:?}"),
    }
    assert!(verify(&cert, &tables).is_ok());
}

#[test]
fn a_certificate_with_a_reply_dropped_is_refused_naming_the_node() {
    let (cert, tables, _) = ii_2x4();
    let i = cert
        .nodes
        .iter()
        .position(|n| matches!(n, ProofNode::Opponent(cs) if cs.len() >= 2))
        .expect("North has a choice somewhere");
    let mut c = cert.clone();
    if let ProofNode::Opponent(cs) = &mut c.nodes[i] {
        cs.pop();
    }
    let c = Certificate::decode(&c.encode(), Path::new("memory")).unwrap();
    match verify(&c, &tables) {
        Err(Refused::Node { node, why, .. }) => {
            assert_eq!(node as usize, i);
            assert!(why.contains("replies are given for the"), "{why}");
        }
        other => panic!("a dropped reply was not refused: {other:?}"),
    }
}

#[test]
fn a_certificate_claiming_more_than_it_proves_is_refused() {
    // The II 2x4 start is worth +8: a proof of +1 relabelled as a proof of
    // +9 must fail at some leaf.
    let (cert, tables, _) = ii_2x4();
    let mut c = cert.clone();
    c.target = 9;
    assert!(matches!(verify(&c, &tables), Err(Refused::Node { .. })));
}

#[test]
fn a_table_far_below_the_search_keeps_its_budget_and_still_proves() {
    // III 2x4 fills about 190,000 entries with room; 256 KB holds 4,096.
    let rules = Rules::new(Variant::Iii).with_board(4, 4).unwrap();
    let tables = Tablebase::new(Variant::Iii, 4).unwrap();
    let start = Position::start(&rules);
    let budget = 256 << 10;
    let mut prover = Prover::new(rules, &tables, 0, budget);
    let verdict = prover.prove(&start, 1, Limits::default());
    assert_eq!(verdict, Verdict::Proved);
    assert!(prover.table.bytes() <= budget);
    assert!(prover.table.replaced() > 0, "the budget was never reached");
    let answer = hoyito::solver::outcome::Answer { target: 1, verdict };
    let cert = certify(&mut prover, &start, &answer).unwrap();
    verify(&cert, &tables).unwrap();
}

fn outcome_args<'a>(variant: &'a str, holes: &'a str, state: &'a str) -> Vec<&'a str> {
    vec![
        "solve",
        "--start",
        "--outcome",
        "--variant",
        variant,
        "--holes",
        holes,
        "--memory",
        "64",
        "--checkpoint",
        state,
    ]
}

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_search_stopped_by_its_node_budget_resumes_to_the_same_outcome() {
    let dir = scratch("budget");
    let state = dir.join("iii-4.state");
    let mut args = outcome_args("iii", "4", s(&state));
    args.extend(["--max-nodes", "20000"]);
    let out = hoyito(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout_of(&out).contains("status open"),
        "{}",
        stdout_of(&out)
    );
    assert!(state.exists());
    let out = hoyito(&outcome_args("iii", "4", s(&state)));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("resuming from"), "{err}");
    assert!(stdout_of(&out).contains("outcome W"), "{}", stdout_of(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_search_killed_with_sigkill_resumes_to_the_same_outcome() {
    let dir = scratch("kill");
    let state = dir.join("iii-4.state");
    let mut args = outcome_args("iii", "4", s(&state));
    args.extend(["--checkpoint-every", "0.05"]);
    let mut child = Command::new(BIN)
        .args(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let clock = Instant::now();
    while !state.exists() && clock.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    // SIGKILL: nothing of the process runs after it.
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(state.exists(), "no checkpoint was written");
    let killed_early = !status.success();
    let out = hoyito(&outcome_args("iii", "4", s(&state)));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout_of(&out).contains("outcome W"), "{}", stdout_of(&out));
    assert!(
        killed_early,
        "the search finished before the kill: the test did not interrupt it"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_state_of_another_start_is_refused_naming_the_file() {
    let dir = scratch("other-state");
    let state = dir.join("ii-3.state");
    let out = hoyito(&outcome_args("ii", "3", s(&state)));
    assert!(out.status.success());
    let before = std::fs::read(&state).unwrap();
    let out = hoyito(&outcome_args("iii", "3", s(&state)));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(s(&state)) && err.contains("another start"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&state).unwrap(),
        before,
        "the state was changed"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_proof_accepts_a_certificate_and_refuses_damaged_or_foreign_ones() {
    let dir = scratch("verify");
    let certs = dir.join("certs");
    let out = hoyito(&[
        "solve",
        "--start",
        "--outcome",
        "--variant",
        "ii",
        "--holes",
        "5",
        "--memory",
        "64",
        "--certificates",
        s(&certs),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = certs.join("hoyito-ii-2x5-south-at-least-1.proof");
    let out = hoyito(&["verify-proof", s(&file)]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout_of(&out).starts_with("verified: ii 2x5: south's margin is at least 1"));

    let refused = |args: &[&str], words: &[&str]| {
        let out = hoyito(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
        for w in words {
            assert!(err.contains(w), "{args:?}: {err} lacks {w}");
        }
    };
    refused(
        &["verify-proof", s(&file), "--variant", "iii"],
        &[s(&file), "Hoyito ii"],
    );
    refused(
        &["verify-proof", s(&file), "--holes", "6"],
        &[s(&file), "2x5"],
    );
    let bytes = std::fs::read(&file).unwrap();
    let cut = dir.join("cut.proof");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();
    refused(
        &["verify-proof", s(&cut)],
        &[s(&cut), "not a whole hoyito proof certificate"],
    );
    let flipped = dir.join("flipped.proof");
    let mut b = bytes.clone();
    let at = b.len() - 12;
    b[at] ^= 1;
    std::fs::write(&flipped, &b).unwrap();
    refused(&["verify-proof", s(&flipped)], &[s(&flipped), "checksum"]);
    refused(
        &["verify-proof", s(&dir.join("missing.proof"))],
        &["missing.proof"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_committed_certificate_passes_the_check_and_matches_exact_json() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/first-player/certificates");
    let text = std::fs::read_to_string("reports/first-player/exact.json").unwrap();
    let exact: serde_json::Value = serde_json::from_str(&text).unwrap();
    let listed: Vec<(String, String)> = exact["start_positions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|e| {
            let mut certs = e["outcome_certificates"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            // Threshold answers (bounds on the margin) carry their own.
            for t in e["outcome_thresholds"].as_array().into_iter().flatten() {
                certs.extend(t["certificates"].as_array().cloned().unwrap_or_default());
            }
            certs
        })
        .map(|c| {
            let file = c["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            (file, c["fnv64"].as_str().unwrap().to_string())
        })
        .collect();
    let mut checked = 0;
    let mut too_large = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "proof"))
        .collect();
    files.sort();
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let bytes = std::fs::read(path).unwrap();
        let sum = format!(
            "{:016x}",
            hoyito::solver::outcome::certificate::fnv64(&bytes)
        );
        assert!(
            listed.contains(&(name.clone(), sum)),
            "{name} is not the certificate exact.json lists"
        );
        let cert = Certificate::load(path).unwrap();
        // Tables above 12 seeds take more than a few seconds to build.
        if cert.tables > 12 {
            too_large.push(name);
            continue;
        }
        let mut tables = Tablebase::new(cert.variant, cert.holes).unwrap();
        for k in Tablebase::dependencies(cert.tables) {
            tables.ensure(k, None, &|_| {}).unwrap();
        }
        verify(&cert, &tables).unwrap_or_else(|e| panic!("{name}: {e}"));
        checked += 1;
    }
    assert_eq!(
        files.len(),
        listed.len(),
        "exact.json lists every certificate once"
    );
    // These use the tables to 16 seeds (a minute and more to build each):
    // `hoyito verify-proof FILE --tables DIR` checks them.
    assert_eq!(
        too_large,
        [
            "hoyito-i-2x7-south-at-least-1.proof",
            "hoyito-ii-2x7-north-at-least-20.proof",
            "hoyito-ii-2x7-south-at-least-minus-20.proof",
            "hoyito-iii-2x7-north-at-least-20.proof",
            "hoyito-iii-2x7-south-at-least-minus-20.proof",
        ]
        .map(String::from)
    );
    assert!(checked >= 28, "{checked} certificates checked");
}

/// `solve --outcome --after LINE --threshold T --certificates DIR` on II 2x6.
fn ii_2x6_shard(line: &str, threshold: &str, dir: &Path) -> std::process::Output {
    hoyito(&[
        "solve",
        "--start",
        "--outcome",
        "--variant",
        "ii",
        "--holes",
        "6",
        "--memory",
        "64",
        "--after",
        line,
        "--threshold",
        threshold,
        "--certificates",
        s(dir),
    ])
}

/// `solve --outcome --after MOVE --threshold 0 --certificates DIR` for each
/// of South's first moves on II 2x6.
fn ii_2x6_shards(dir: &Path) -> Vec<PathBuf> {
    for mv in 1..=6 {
        let mv = mv.to_string();
        let out = ii_2x6_shard(&mv, "0", dir);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout_of(&out).contains(&format!("root after {mv} (North to move)")));
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn shards_of_every_first_move_join_into_the_proof_of_the_start() {
    // II 2x6 is a loss for South (exact value -28): every first move is
    // answered by North winning, and the shards say so together.
    let dir = scratch("shards");
    let files = ii_2x6_shards(&dir);
    assert_eq!(files.len(), 6, "{files:?}");
    let mut args = vec!["verify-proof", "--join"];
    args.extend(files.iter().map(|f| s(f)));
    let out = hoyito(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout_of(&out).contains("joined: ii 2x6: north's margin is at least 1"),
        "{}",
        stdout_of(&out)
    );

    // Two levels: the shard after South's 6 split again by North's replies.
    let deeper = dir.join("deeper");
    std::fs::create_dir_all(&deeper).unwrap();
    let mut replies = 0;
    for reply in 1..=6 {
        let line = format!("6,{reply}");
        let out = ii_2x6_shard(&line, "0", &deeper);
        let err = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            replies += 1;
        } else {
            assert!(
                err.contains("is empty") || err.contains("not a legal move"),
                "{err}"
            );
        }
    }
    assert!(replies >= 2, "North has several replies to South's 6");
    let mut args = vec!["verify-proof", "--join"];
    args.extend(
        files
            .iter()
            .filter(|f| !s(f).contains("after-6-"))
            .map(|f| s(f)),
    );
    // A reply North can lose with has South's certificate instead: only
    // North's proofs join.
    let split: Vec<PathBuf> = std::fs::read_dir(&deeper)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| s(p).contains("north-at-least-1"))
        .collect();
    assert!(!split.is_empty(), "North has a winning reply to South's 6");
    args.extend(split.iter().map(|f| s(f)));
    let out = hoyito(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout_of(&out).contains("joined: ii 2x6: north's margin is at least 1"),
        "{}",
        stdout_of(&out)
    );
    // North's replies are North's choice: one of them proves the claim
    // after 6, but South's first moves all need theirs.
    let mut args = vec!["verify-proof", "--join", s(&split[0])];
    args.extend(
        files
            .iter()
            .filter(|f| !s(f).contains("after-6-") && !s(f).contains("after-2-"))
            .map(|f| s(f)),
    );
    let out = hoyito(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("at the start: no certificate for move 2"),
        "{err}"
    );

    // One shard missing: the opponent's reply 4 is not covered.
    let mut args = vec!["verify-proof", "--join"];
    args.extend(
        files
            .iter()
            .filter(|f| !s(f).contains("after-4-"))
            .map(|f| s(f)),
    );
    let out = hoyito(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("no certificate for move 4"), "{err}");

    // A shard of another claim (South's proof of a lower bound) is refused.
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    let out = ii_2x6_shard("4", "-40", &other);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let foreign = std::fs::read_dir(&other)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let mut args = vec!["verify-proof", "--join"];
    args.extend(
        files
            .iter()
            .filter(|f| !s(f).contains("after-4-"))
            .map(|f| s(f)),
    );
    args.push(s(&foreign));
    let out = hoyito(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("another claim") && err.contains(s(&foreign)),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_certificate_whose_line_cannot_be_played_is_refused() {
    let (mut cert, tables, _) = ii_2x4();
    // Hole 9 does not exist on a row of 4.
    cert.after = vec![hoyito::Move::Sow(8)];
    let err = verify(&cert, &tables).unwrap_err().to_string();
    assert!(
        err.contains("line from the start cannot be played"),
        "{err}"
    );
    // And the line survives the file: the header carries it.
    let dir = scratch("line");
    let path = dir.join("c.proof");
    cert.save(&path).unwrap();
    let back = Certificate::load(&path).unwrap();
    assert_eq!(back.after, cert.after);
    let out = hoyito(&[
        "solve",
        "--start",
        "--outcome",
        "--variant",
        "ii",
        "--holes",
        "4",
        "--after",
        "9",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("--after") && err.contains("move 1 of the line 9"),
        "{err}"
    );
}

#[test]
fn the_state_of_another_root_is_refused() {
    let dir = scratch("other-root");
    let state = dir.join("ii-4.state");
    let mut args = outcome_args("ii", "4", s(&state));
    args.extend(["--after", "1"]);
    assert!(hoyito(&args).status.success());
    let mut args = outcome_args("ii", "4", s(&state));
    args.extend(["--after", "2"]);
    let out = hoyito(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("after=1") && err.contains("after=2"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_committed_split_proofs_check_and_join_as_recorded() {
    // reports/first-player/outcomes/split/: the 2x12 proofs split along
    // their critical line. Each certificate matches its recorded hash and
    // passes the check, and each claim's join says what the JSON records.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("reports/first-player/outcomes/split");
    let mut tested = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.extension().is_some_and(|x| x == "json") {
            continue;
        }
        let split: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut by_claim: std::collections::BTreeMap<String, Vec<PathBuf>> = Default::default();
        for shard in split["shards"].as_array().unwrap() {
            for c in shard["certificates"].as_array().unwrap() {
                let file = root.join(c["file"].as_str().unwrap());
                let bytes = std::fs::read(&file).unwrap();
                let sum = format!(
                    "{:016x}",
                    hoyito::solver::outcome::certificate::fnv64(&bytes)
                );
                assert_eq!(sum, c["fnv64"].as_str().unwrap(), "{}", file.display());
                let cert = Certificate::load(&file).unwrap();
                assert_eq!(
                    cert.after
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    shard["after"].as_str().unwrap()
                );
                let tables = Tablebase::new(cert.variant, cert.holes).unwrap();
                verify(&cert, &tables).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
                let claim = c["claim"]
                    .as_str()
                    .unwrap()
                    .split(": ")
                    .nth(1)
                    .unwrap()
                    .to_string();
                by_claim.entry(claim).or_default().push(file);
            }
        }
        for join in split["joins"].as_array().unwrap() {
            let files = &by_claim[join["claim"].as_str().unwrap()];
            let mut args = vec!["verify-proof", "--join"];
            args.extend(files.iter().map(|f| s(f)));
            let out = hoyito(&args);
            match join["joined"].as_str() {
                Some(claim) => {
                    assert!(out.status.success());
                    assert!(stdout_of(&out).contains(&format!("joined: {claim}")));
                }
                None => {
                    let err = String::from_utf8_lossy(&out.stderr);
                    assert!(!out.status.success());
                    let why = join["refused"].as_str().unwrap();
                    assert!(err.contains(why), "{err}");
                }
            }
            tested += 1;
        }
    }
    assert!(
        tested >= 4,
        "the 2x12 splits of II and III, both claims each"
    );
}

//! `hoyito skill`: the skill study of ladder runs. Its ratings are the
//! report's Bradley-Terry ratings (on a chain they are the summed steps), a
//! depth ladder gives its Elo per rung, a doubling UCT ladder its
//! SkillTrace, its cost comes from `timings.csv`, and what is not a
//! finished ladder run is refused by name.

use std::fs;
use std::path::Path;

use serde_json::Value;

use crate::common::{hoyito, one_line_error, run_ok, s, scratch};

/// Runs `config` into `dir/run` and returns the run's directory.
fn run(dir: &Path, config: &str) -> std::path::PathBuf {
    let cfg = dir.join("experiment.toml");
    fs::write(&cfg, config).expect("writable scratch directory");
    let out = dir.join("run");
    run_ok(&["run", s(&cfg), "--out", s(&out), "--report-every", "0"]);
    out
}

const DEPTH_LADDER: &str = r#"
name = "depth-ladder"
seed = 3
games = 40
threads = 2
[rules]
variants = ["ii"]
holes = [6]
[openings]
random_plies = 8
[tournament]
format = "ladder"
agents = ["d1", "d2", "d4"]
[record]
moves = false
metrics = false
[roster.d1]
kind = "alphabeta"
depth = 1
[roster.d2]
kind = "alphabeta"
depth = 2
[roster.d4]
kind = "alphabeta"
depth = 4
"#;

fn json(path: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(path).expect("written")).expect("JSON")
}

/// A depth ladder: two depth steps make one span whose Elo is the top
/// rung's rating; with no pair repeated (the study counts distinct pairs,
/// the report's fit every game), every rating and its interval is the
/// report's Bradley-Terry rating (anchored at the lowest rung, the first
/// listed);
/// the chain and the split shares are counted from the steps; the tables
/// and the chart are written.
#[test]
fn a_depth_ladder_gives_its_elo_per_rung_and_the_reports_ratings() {
    let dir = scratch("skill-depth");
    let run_dir = run(&dir, DEPTH_LADDER);
    let out = dir.join("study");
    let printed = hoyito(&["skill", s(&run_dir), "--out", s(&out)]);
    assert!(printed.status.success(), "{printed:?}");
    let study = json(&out.join("skill.json"));
    let ladder = &study["ladders"][0];
    assert_eq!(study["ladders"].as_array().map(Vec::len), Some(1));
    let steps = ladder["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[1]["kind"], "depth");
    assert_eq!(
        (steps[1]["from"].as_u64(), steps[1]["to"].as_u64()),
        (Some(2), Some(4))
    );
    let span = &ladder["spans"][0];
    assert_eq!(
        (span["part"].as_str(), span["steps"].as_u64()),
        (Some("depth"), Some(2))
    );
    assert_eq!(
        ladder["repeated_pairs"].as_u64(),
        Some(0),
        "pick another seed"
    );
    let summary = json(&run_dir.join("summary.json"));
    let ratings = &summary["settings"][0]["ratings"];
    assert_eq!(ratings["anchor"], "d1");
    assert_eq!(
        ratings["virtual_draws"], false,
        "a sweep: pick another seed"
    );
    for (k, rating) in ladder["ratings"]
        .as_array()
        .expect("ratings")
        .iter()
        .enumerate()
    {
        let bt = &ratings["ratings"][k];
        assert_eq!(rating["agent"], bt["agent"]);
        for (ours, theirs) in [("value", "elo"), ("low", "low"), ("high", "high")] {
            let (a, b) = (
                rating["elo"][ours].as_f64().expect("finite"),
                bt[theirs].as_f64().expect("finite"),
            );
            assert!(
                (a - b).abs() < 0.01,
                "{} {ours}: {a} against the report's {b}",
                bt["agent"]
            );
        }
    }
    let top = ladder["ratings"][2]["elo"]["value"]
        .as_f64()
        .expect("finite");
    let per_step = span["per_step"]["value"].as_f64().expect("finite");
    assert!((per_step * 2.0 - top).abs() < 1e-6);
    let apart = steps
        .iter()
        .filter(|s| s["told_apart"] == "stronger")
        .count() as u64;
    assert_eq!(ladder["told_apart"].as_u64(), Some(apart));
    for step in steps {
        let penta: Vec<u64> = step["pentanomial"]
            .as_array()
            .expect("counts")
            .iter()
            .map(|n| n.as_u64().expect("a count"))
            .collect();
        let split = penta[2] as f64 / penta.iter().sum::<u64>() as f64;
        assert!((step["split"]["value"].as_f64().expect("share") - split).abs() < 1e-12);
    }
    let cost = &study["runs"][0]["cost"];
    assert_eq!(cost["threads"].as_u64(), Some(2));
    assert!(cost["worker_seconds"].as_f64() > Some(0.0));
    assert_eq!(cost["boards"][0]["holes"].as_u64(), Some(6));
    let md = fs::read_to_string(out.join("skill.md")).expect("written");
    assert!(md.contains("| ii | 2x6 | d1 → d4 |"), "{md}");
    assert!(md.contains("| depth-ladder | "), "{md}");
    let png = fs::metadata(out.join("charts/elo_per_rung.png")).expect("drawn");
    assert!(png.len() > 10_000);
}

/// A UCT ladder that doubles its playouts per legal move gives Ludii's
/// SkillTrace, one result per level, within [0, 1] and inside its
/// interval; the same games give the same study byte for byte.
#[test]
fn a_doubling_uct_ladder_gives_its_skill_trace_reproducibly() {
    let dir = scratch("skill-trace");
    let config = r#"
name = "trace"
seed = 5
games = 20
threads = 2
[rules]
variants = ["iii"]
holes = [4]
[openings]
random_plies = 2
[tournament]
format = "ladder"
agents = ["u1", "u2", "u4"]
[record]
moves = false
metrics = false
[roster.u1]
kind = "mcts"
iterations = 1
per_legal_move = true
[roster.u2]
kind = "mcts"
iterations = 2
per_legal_move = true
[roster.u4]
kind = "mcts"
iterations = 4
per_legal_move = true
"#;
    let run_dir = run(&dir, config);
    let (a, b) = (dir.join("a"), dir.join("b"));
    run_ok(&["skill", s(&run_dir), "--out", s(&a)]);
    run_ok(&["skill", s(&run_dir), "--out", s(&b)]);
    let bytes = |p: &Path| fs::read(p).expect("written");
    assert_eq!(bytes(&a.join("skill.json")), bytes(&b.join("skill.json")));
    let study = json(&a.join("skill.json"));
    let ladder = &study["ladders"][0];
    assert_eq!(ladder["steps"][0]["kind"], "playouts");
    let trace = &ladder["skill_trace"];
    assert_eq!(trace["results"].as_array().map(Vec::len), Some(2));
    let value = trace["value"]["value"].as_f64().expect("a value");
    assert!((0.0..=1.0).contains(&value));
    assert!(trace["value"]["low"].as_f64() <= Some(value));
    assert!(trace["value"]["high"].as_f64() >= Some(value));
    let md = fs::read_to_string(a.join("skill.md")).expect("written");
    assert!(md.contains("## Ludii's SkillTrace"), "{md}");
}

/// A run that is not a ladder, a directory without a run, a `timings.csv`
/// that does not read, and no directory at all are refused, each naming
/// what is wrong.
#[test]
fn what_is_not_a_ladder_run_is_refused_by_name() {
    let dir = scratch("skill-refused");
    let round_robin = DEPTH_LADDER.replace("format = \"ladder\"", "format = \"round-robin\"");
    let run_dir = run(&dir, &round_robin);
    let out = dir.join("study");
    let err = one_line_error(&["skill", s(&run_dir), "--out", s(&out)]);
    assert!(err.contains("round-robin run, not a ladder"), "{err}");
    assert!(!out.join("skill.json").exists());
    let empty = dir.join("empty");
    fs::create_dir_all(&empty).expect("a directory");
    let err = one_line_error(&["skill", s(&empty), "--out", s(&out)]);
    assert!(err.contains("experiment.toml"), "{err}");
    let second = dir.join("ladder");
    fs::create_dir_all(&second).expect("a directory");
    let ladder = run(&second, DEPTH_LADDER);
    let timings = ladder.join("timings.csv");
    let text = fs::read_to_string(&timings).expect("written");
    fs::write(&timings, text.replacen(",2,", ",two,", 1)).expect("writable");
    let err = one_line_error(&["skill", s(&ladder), "--out", s(&out)]);
    assert!(err.contains("timings.csv, line 2: threads"), "{err}");
    let none = hoyito(&["skill"]);
    assert_eq!(none.status.code(), Some(2));
}

/// The committed study (`reports/skill/`) is what `hoyito skill` makes of
/// the committed runs' games, byte for byte: no figure of it was edited by
/// hand or drawn from other games.
#[test]
fn the_committed_skill_study_is_what_its_games_give() {
    let out = scratch("skill-committed");
    let runs = ["skill", "skill-trace", "skill-boards", "skill-book"]
        .map(|r| format!("reports/skill/runs/{r}"));
    let mut args: Vec<&str> = vec!["skill"];
    args.extend(runs.iter().map(String::as_str));
    args.extend(["--out", s(&out)]);
    run_ok(&args);
    for file in ["skill.json", "skill.md"] {
        let committed = fs::read_to_string(Path::new("reports/skill").join(file)).expect(file);
        let made = fs::read_to_string(out.join(file)).expect(file);
        assert!(
            committed == made,
            "reports/skill/{file} differs from what its games give"
        );
    }
}

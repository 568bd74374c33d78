//! `report.html` and `hoyito replay --html`: the page is written beside
//! `report.md`, holds every chart and table, fetches nothing, is the same
//! for any thread count and for `hoyito report`, carries the engine's
//! positions for the games it links, stays within its size budget, and bad
//! requests are refused with one line.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use hoyito::report::html::BUDGET;
use hoyito::{Move, Position, Rules, Variant};

fn hoyito(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hoyito"))
        .args(args)
        .output()
        .expect("run hoyito")
}

fn ok(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn error(args: &[&str]) -> String {
    let out = hoyito(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
    err
}

const SMALL: &str = r#"
name = "html"
seed = 7
games = 4
[rules]
variants = ["i", "ii"]
holes = [4]
no_capture_limit = 40
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
self_play = true
[record]
moves = true
"#;

/// Runs `config` into `dir/NAME` with `threads`, returning the run directory.
fn run(dir: &Path, name: &str, config: &str, threads: &str) -> String {
    let file = dir.join(format!("{name}.toml"));
    fs::write(&file, config).expect("write config");
    let out = dir.join(name);
    ok(&[
        "run",
        &file.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--threads",
        threads,
        "--report-every",
        "0",
    ]);
    out.to_string_lossy().into_owned()
}

fn page(run: &str) -> String {
    fs::read_to_string(Path::new(run).join("report.html")).expect("report.html")
}

/// The JSON of every game the page carries, by id.
fn games_in(page: &str) -> Vec<(u64, serde_json::Value)> {
    let mut games = Vec::new();
    for part in page
        .split("<script type=\"application/json\" class=\"game-data\" data-game=\"")
        .skip(1)
    {
        let (id, rest) = part.split_once("\">").expect("data-game attribute");
        let json = rest.split_once("</script>").expect("closed").0;
        games.push((
            id.parse().expect("an id"),
            serde_json::from_str(json).expect("valid JSON"),
        ));
    }
    games
}

#[test]
fn the_page_holds_every_chart_and_table_and_fetches_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = run(dir.path(), "one", SMALL, "1");
    let html = page(&run);
    let markdown = fs::read_to_string(Path::new(&run).join("report.md")).expect("report.md");
    let svgs = fs::read_dir(Path::new(&run).join("charts"))
        .expect("charts")
        .filter(|e| {
            e.as_ref()
                .expect("entry")
                .path()
                .extension()
                .is_some_and(|x| x == "svg")
        })
        .count();
    assert!(svgs >= 4, "{svgs} charts");
    assert_eq!(html.matches("<figure class=\"chart\"").count(), svgs);
    assert_eq!(html.matches("<svg").count(), svgs);
    let md_tables = markdown
        .lines()
        .filter(|l| l.starts_with("|-") || l.starts_with("|:"))
        .count();
    assert_eq!(
        html.matches("<table").count(),
        md_tables + 1,
        "the games table too"
    );
    for heading in markdown.lines().filter_map(|l| l.strip_prefix("## ")) {
        assert!(
            html.contains(&format!(">{heading}</a></li>")),
            "{heading} not in the contents"
        );
    }
    // The answer opens the page, the caveats follow it before every other
    // section, the experiment is shown.
    let answer = html.find("<h2>The answer</h2>").expect("the answer");
    let caveats = html.find("<h2>Caveats</h2>").expect("caveats");
    assert!(answer < caveats, "the answer first");
    let answer_section = html
        .find("<section id=\"the-answer\">")
        .expect("its section");
    let sections = html[..answer_section].matches("<section").count();
    assert_eq!(sections, 0, "no section before the answer");
    assert!(caveats < html.find("<h2>How to read this</h2>").expect("methods"));
    assert!(html.contains("<pre class=\"experiment\">name = &quot;html&quot;"));
    // Nothing is fetched: the only URLs are the SVG namespace, and the
    // policy forbids every request.
    for bad in [
        "src=\"http",
        "href=\"http",
        "url(http",
        "@import",
        "<link",
        "<img",
    ] {
        assert!(!html.contains(bad), "{bad}");
    }
    let urls = html.matches("http://").count() + html.matches("https://").count();
    assert_eq!(
        urls,
        html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count()
    );
    assert!(html.contains("content=\"default-src 'none';"));
    // The chart font is in the head once, not in every chart.
    assert_eq!(html.matches("@font-face").count(), 1);
}

#[test]
fn the_page_is_the_same_for_any_thread_count_and_for_hoyito_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let one = run(dir.path(), "one", SMALL, "1");
    let two = run(dir.path(), "two", SMALL, "2");
    let first = page(&one);
    assert_eq!(first, page(&two), "1 vs 2 threads");
    let printed = ok(&["report", &one]);
    assert!(printed.contains("report.html"), "{printed}");
    assert_eq!(first, page(&one), "hoyito report rewrote it differently");
    assert!(!first.contains(&one), "the page names its directory");
}

/// A carried position (`b`, `t`, `c`) in the notation of RULES.md.
fn notation(pos: &serde_json::Value) -> String {
    let board: Vec<String> = pos["b"]
        .as_array()
        .expect("board")
        .iter()
        .map(|v| v.to_string())
        .collect();
    let n = board.len() / 2;
    format!(
        "{}/{} {} {}-{}",
        board[..n].join(","),
        board[n..].join(","),
        pos["t"].as_str().expect("side"),
        pos["c"][0],
        pos["c"][1]
    )
}

#[test]
fn carried_games_hold_the_engines_positions_and_are_linked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = run(dir.path(), "one", SMALL, "1");
    let html = page(&run);
    let games = games_in(&html);
    // 2 variants x 3 pairings, each with at least its first pair.
    assert!(games.len() >= 12, "{} games", games.len());
    let moves = fs::read_to_string(Path::new(&run).join("moves.csv")).expect("moves.csv");
    for (id, game) in &games {
        assert!(
            html.contains(&format!("href=\"#game-{id}\"")),
            "game {id} not linked"
        );
        let line = moves
            .lines()
            .find(|l| l.starts_with(&format!("{id},")))
            .expect("a moves row");
        let played: Vec<Move> = line
            .split_once(',')
            .expect("two columns")
            .1
            .split_whitespace()
            .map(|m| m.parse().expect("a move"))
            .collect();
        let variant = match game["title"].as_str().expect("title") {
            t if t.starts_with("Hoyito I ") => Variant::I,
            _ => Variant::Ii,
        };
        let rules = Rules {
            holes: 4,
            ..Rules::new(variant)
        };
        let mut pos = Position::start(&rules);
        let plies = game["plies"].as_array().expect("plies");
        assert_eq!(plies.len(), played.len(), "game {id}");
        assert_eq!(notation(&game["start"]), pos.to_string());
        for (k, mv) in played.iter().enumerate() {
            pos = pos.play(&rules, *mv).expect("legal").0;
            assert_eq!(
                notation(&plies[k]["to"]),
                pos.to_string(),
                "game {id}, ply {}",
                k + 1
            );
            assert_eq!(plies[k]["mv"], mv.to_string());
            // The last lap ends on the move's board unless the last seeds went.
            if let (Some(lap), true) = (
                plies[k]["laps"].as_array().and_then(|l| l.last()),
                plies[k]["ls"].is_null(),
            ) {
                assert_eq!(lap["b"], plies[k]["to"]["b"], "game {id}, ply {}", k + 1);
            }
        }
    }
    assert!(html.contains(&format!("data-embedded=\"{}\"", games.len())));
    assert!(html.contains("hoyito report DIR --game-ids"));
}

#[test]
fn games_asked_for_are_carried_and_bad_ids_are_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let run = run(dir.path(), "one", SMALL, "1");
    let before: Vec<u64> = games_in(&page(&run))
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    let extra = (0..24)
        .find(|id| !before.contains(id))
        .expect("a game left out");
    ok(&["report", &run, "--game-ids", &extra.to_string()]);
    let after: Vec<u64> = games_in(&page(&run))
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    assert!(after.contains(&extra), "game {extra} not carried");
    assert_eq!(after.len(), before.len() + 1);
    let err = error(&["report", &run, "--game-ids", "3,999"]);
    assert!(err.contains("there is no game 999"), "{err}");
    let err = error(&["report", &run, "--game-ids", "3,x"]);
    assert!(err.contains("\"x\""), "{err}");
}

#[test]
fn replay_html_writes_one_games_viewer_and_refuses_what_it_cannot() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bare = run(
        dir.path(),
        "bare",
        &SMALL.replace("moves = true", "moves = false"),
        "2",
    );
    let run = run(dir.path(), "one", SMALL, "1");
    let file = dir.path().join("game5.html");
    let printed = ok(&["replay", &run, "5", "--html", &file.to_string_lossy()]);
    assert!(printed.contains("game5.html"), "{printed}");
    let html = fs::read_to_string(&file).expect("written");
    let games = games_in(&html);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].0, 5);
    assert!(html.contains("id=\"viewer\"") && html.contains("\"open\":5"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
    let err = error(&["replay", &run, "99", "--html", &file.to_string_lossy()]);
    assert!(err.contains("game 99 is not in this experiment"), "{err}");
    let err = error(&["replay", &bare, "5", "--html", &file.to_string_lossy()]);
    assert!(err.contains("no recorded moves for game 5"), "{err}");
    // The report of that run says why it shows no game.
    assert!(page(&bare).contains("did not record its moves"));
    assert!(games_in(&page(&bare)).is_empty());
}

#[test]
fn a_report_without_an_experiment_says_its_games_cannot_be_shown() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::copy("tests/data/games_small.csv", dir.path().join("games.csv")).expect("fixture");
    ok(&["report", &dir.path().to_string_lossy()]);
    let html = page(&dir.path().to_string_lossy());
    assert!(
        html.contains("has no <code>experiment.toml</code>"),
        "no word on the games"
    );
    assert!(games_in(&html).is_empty());
}

#[test]
fn a_run_of_long_games_stays_within_the_pages_budget() {
    // Random play on 2x16 runs to the no-capture limit: long games, many laps.
    let config = r#"
name = "long"
seed = 3
games = 10
[rules]
variants = ["i", "ii", "iii"]
holes = [16]
seeds = 4
[openings]
random_plies = 2
[tournament]
format = "round-robin"
agents = ["random", "greedy"]
self_play = true
[record]
moves = true
"#;
    let dir = tempfile::tempdir().expect("temp dir");
    let run = run(dir.path(), "long", config, "2");
    let html = page(&run);
    let carried: usize = html
        .split("class=\"game-data\"")
        .skip(1)
        .map(|part| part.split_once("</script>").expect("closed").0.len())
        .sum();
    assert!(carried <= BUDGET + 1000, "{carried} bytes of games");
    assert!(
        html.contains("over the page&#39;s size budget"),
        "the budget was never reached"
    );
    assert!(html.contains("were left out to keep the page under"));
}

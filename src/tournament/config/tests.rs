//! Unit tests of `config`, kept in their own file so that the folder's
//! facade stays a list of its files.
use super::*;
use crate::engine::rules::{Leftover, Variant};

const SMALL: &str = r#"
name = "small"
seed = 1
games = 3
[rules]
variants = ["ii"]
holes = [6]
[tournament]
format = "round-robin"
agents = ["a", "b", "c"]
"#;

fn error_of(text: &str) -> String {
    Experiment::parse(text, "x.toml").unwrap_err().to_string()
}

#[test]
fn the_default_experiment_parses_and_round_trips() {
    let e = Experiment::default_experiment();
    let back = Experiment::parse(&e.to_toml(), "saved").unwrap();
    assert_eq!(back, e);
}

#[test]
fn games_round_up_to_pairs_and_round_robin_pairs_each_agent_once() {
    let mut e = Experiment::parse(SMALL, "x.toml").unwrap();
    e.round_to_pairs();
    assert_eq!(e.games, 4);
    assert_eq!(e.tournament.pairings(), vec![(0, 1), (0, 2), (1, 2)]);
    e.tournament.self_play = true;
    assert_eq!(e.tournament.pairings().len(), 6);
}

#[test]
fn gauntlet_and_self_play_pairings() {
    let text = SMALL.replace("round-robin", "gauntlet") + "champion = \"b\"\n";
    let e = Experiment::parse(&text, "x.toml").unwrap();
    assert_eq!(e.tournament.pairings(), vec![(1, 0), (1, 2)]);
    let e = Experiment::parse(&SMALL.replace("round-robin", "self-play"), "x.toml").unwrap();
    assert_eq!(e.tournament.pairings(), vec![(0, 0), (1, 1), (2, 2)]);
}

#[test]
fn errors_name_the_file_the_key_and_the_allowed_values() {
    let e = error_of(&SMALL.replace("games = 3", "games = 0"));
    assert!(
        e.contains("x.toml") && e.contains("`games`") && e.contains("at least 1"),
        "{e}"
    );
    let e = error_of(&SMALL.replace("holes = [6]", "holes = [17]"));
    assert!(e.contains("rules.holes") && e.contains("2 to 16"), "{e}");
    let e = error_of(&SMALL.replace("\"ii\"", "\"iv\""));
    assert!(
        e.contains("x.toml") && e.contains("iv") && e.contains("`iii`"),
        "{e}"
    );
    let e = error_of(&SMALL.replace("seed = 1", "seed = 1\nsede = 2"));
    assert!(
        e.contains("unknown key `sede` (line 4): did you mean `seed`?"),
        "{e}"
    );
    let e = error_of(&SMALL.replace("round-robin", "swiss"));
    assert!(e.contains("swiss") && e.contains("`gauntlet`"), "{e}");
    let e = error_of(&SMALL.replace("round-robin", "gauntlet"));
    assert!(e.contains("tournament.champion"), "{e}");
    let e = error_of("name = ");
    assert!(e.starts_with("x.toml: line 1, column 8: "), "{e}");
    assert!(!e.contains('\n'), "{e}");
    let e = error_of(&SMALL.replace("holes = [6]", "holes = [6]\nseeds = 0"));
    assert!(e.contains("rules.seeds"), "{e}");
    let e = error_of(&SMALL.replace("\"small\"", "\"../up\""));
    assert!(e.contains("`name`"), "{e}");
}

#[test]
fn rules_come_from_the_rules_table() {
    let text = SMALL.replace(
        "holes = [6]",
        "holes = [6]\nleftover = \"split\"\nrepetitions = 0",
    );
    let e = Experiment::parse(&text, "x.toml").unwrap();
    let r = e.rules_for(Variant::Ii, 6);
    assert_eq!(r.stall.leftover, Leftover::Split);
    assert_eq!(r.stall.repetitions, 0);
    assert_eq!(r.stall.no_capture_limit, 200);
    assert_eq!(r.seeds, 4);
}

#[test]
fn a_ladder_pairs_each_agent_with_the_one_before_it() {
    let text = r#"
name = "l"
seed = 1
games = 2
[rules]
variants = ["ii"]
holes = [6]
[tournament]
format = "ladder"
agents = ["random", "greedy", "alphabeta-d8"]
"#;
    let e = Experiment::parse(text, "l.toml").unwrap();
    assert_eq!(e.tournament.pairings(), vec![(1, 0), (2, 1)]);
    let one = text.replace(r#"["random", "greedy", "alphabeta-d8"]"#, r#"["random"]"#);
    let err = Experiment::parse(&one, "l.toml").unwrap_err().to_string();
    assert!(err.contains("a ladder needs at least two agents"), "{err}");
}

/// Counts near `u64::MAX` are checked exactly: never a panic when saved, nor
/// a wrap to 0 when rounded to pairs or multiplied out.
#[test]
fn game_counts_are_checked_exactly() {
    let mut e = Experiment::parse(SMALL, "x.toml").unwrap();
    e.games = u64::MAX;
    e.round_to_pairs();
    assert_eq!(e.games, u64::MAX - 1);
    // 3 pairings x 1 setting: at most 2^53 / 3, rounded down to pairs.
    let largest = (MAX_TOTAL_GAMES / 3) / 2 * 2;
    for games in [u64::MAX, i64::MAX as u64, 1 << 62, largest + 1] {
        let text = SMALL.replace(
            "games = 3",
            &format!("games = {}", games.min(i64::MAX as u64)),
        );
        let mut e = Experiment::parse(SMALL, "x.toml").unwrap();
        e.games = games;
        let err = e.check("x.toml").unwrap_err().to_string();
        assert!(err.contains(&format!("give at most {largest}")), "{err}");
        assert!(err.contains("`games`"), "{err}");
        if games <= i64::MAX as u64 {
            let err = error_of(&text);
            assert!(err.contains(&format!("give at most {largest}")), "{err}");
        }
    }
    let mut e = Experiment::parse(SMALL, "x.toml").unwrap();
    e.games = largest;
    e.check("x.toml").unwrap();
    // 2 variants x 2 boards x 1 pairing of 2^62 games: 2^64, which wraps to 0.
    let text = SMALL
        .replace("games = 3", "games = 4611686018427387904")
        .replace("[\"ii\"]", "[\"ii\", \"iii\"]")
        .replace("holes = [6]", "holes = [6, 8]")
        .replace("[\"a\", \"b\", \"c\"]", "[\"a\", \"b\"]");
    let err = error_of(&text);
    assert!(
        err.contains("make 18446744073709551616 games in all"),
        "{err}"
    );
    assert!(
        err.contains(&format!("give at most {}", MAX_TOTAL_GAMES / 4)),
        "{err}"
    );
}

/// `seeds = 40` names `rules.seeds` (not `rules.holes`) and gives the limit.
#[test]
fn too_many_seeds_names_rules_seeds_and_the_limit() {
    let text = SMALL.replace("holes = [6]", "holes = [6, 12]\nseeds = 40");
    let err = error_of(&text);
    assert!(err.contains("`rules.seeds`"), "{err}");
    assert!(err.contains("put 480 seeds on 2x6, 960 on 2x12;"), "{err}");
    assert!(err.contains("at most 10 seeds per hole"), "{err}");
    let err = error_of(&SMALL.replace("holes = [6]", "holes = [6]\nseeds = 4294967295"));
    assert!(err.contains("51539607540 seeds on 2x6"), "{err}");
}

/// Rules without any stall rule are refused; either one on is enough.
#[test]
fn rules_without_any_stall_rule_are_refused() {
    let text = SMALL.replace(
        "holes = [6]",
        "holes = [2]\nseeds = 1\nno_capture_limit = 0\nrepetitions = 0",
    );
    let err = error_of(&text);
    assert!(
        err.contains("`rules.no_capture_limit`") && err.contains("forever"),
        "{err}"
    );
    for on in [
        "no_capture_limit = 1\nrepetitions = 0",
        "no_capture_limit = 0\nrepetitions = 3",
    ] {
        Experiment::parse(
            &SMALL.replace("holes = [6]", &format!("holes = [6]\n{on}")),
            "x",
        )
        .unwrap();
    }
}

/// Agent names are checked everywhere, inline roster names included.
#[test]
fn agent_names_are_checked_everywhere() {
    let roster = "\n[roster.\"a\\nb\"]\nkind = \"random\"\n";
    let err = error_of(&(SMALL.to_string() + roster));
    assert!(
        err.contains("`roster`") && err.contains("\"a\\nb\""),
        "{err}"
    );
    let err = error_of(&SMALL.replace("\"c\"]", "\" \"]"));
    assert!(
        err.contains("`tournament.agents`") && err.contains("not a usable agent name"),
        "{err}"
    );
    let err = error_of(&SMALL.replace("\"c\"]", "\"\"]"));
    assert!(err.contains("`tournament.agents`"), "{err}");
}

/// Every invalid key is reported at once, not one at a time.
#[test]
fn every_invalid_key_is_reported_at_once() {
    let text = SMALL
        .replace("games = 3", "games = 0\nthreads = 5000")
        .replace("holes = [6]", "holes = [17]\nseeds = 0")
        .replace("\"small\"", "\"../up\"");
    let err = error_of(&text);
    let lines: Vec<&str> = err.lines().collect();
    for key in [
        "`name`",
        "`games`",
        "`threads`",
        "`rules.holes`",
        "`rules.seeds`",
    ] {
        assert_eq!(
            lines.iter().filter(|l| l.contains(key)).count(),
            1,
            "{key} in {err}"
        );
    }
    assert_eq!(lines.len(), 5, "{err}");
    assert!(
        lines.iter().all(|l| l.starts_with("x.toml: key `")),
        "{err}"
    );
}

/// The documented default: an omitted `holes` is the standard board alone.
#[test]
fn omitted_rules_take_the_documented_defaults() {
    let text = "name = \"d\"\nseed = 1\ngames = 2\n[tournament]\nformat = \"self-play\"\nagents = [\"a\"]\n";
    let e = Experiment::parse(text, "d.toml").unwrap();
    assert_eq!(e.rules.holes, vec![6]);
    assert_eq!(e.rules.variants, Variant::ALL.to_vec());
    assert_eq!(e.rules.seeds, 4);
    assert_eq!((e.rules.no_capture_limit, e.rules.repetitions), (200, 3));
    assert_eq!(e.rules.leftover, Leftover::None);
    assert_eq!(e.threads, 0);
    assert!(e.record.moves);
    assert_eq!(e.openings.random_plies, 8);
    assert!(e.sprt.is_none() && e.roster.is_empty() && !e.tournament.self_play);
}

/// The annotated example of configs/README.md, which documents every key and
/// its default, is a valid experiment.
#[test]
fn the_documented_example_is_valid() {
    let readme = include_str!("../../../configs/README.md");
    let section = &readme[readme.find("## Every key").unwrap()..];
    let start = section.find("```toml\n").unwrap() + "```toml\n".len();
    let text = &section[start..start + section[start..].find("```").unwrap()];
    let e = Experiment::parse(text, "configs/README.md").unwrap();
    assert_eq!(e.rules.holes, vec![6]);
    assert!(e.sprt.is_some() && e.roster.contains_key("my-mcts"));
    for key in [
        "name",
        "seed",
        "games",
        "threads",
        "date",
        "variants",
        "holes",
        "seeds",
        "no_capture_limit",
        "repetitions",
        "leftover",
        "random_plies",
        "book",
        "books",
        "moves",
        "elo0",
        "elo1",
        "alpha",
        "beta",
        "model",
        "format",
        "agents",
        "champion",
        "self_play",
        "[roster.",
    ] {
        assert!(text.contains(key), "{key} is not documented");
    }
}

/// Variants are read in any case in a config, as `--variant II` is.
#[test]
fn variants_are_read_in_any_case() {
    let e = Experiment::parse(&SMALL.replace("[\"ii\"]", "[\"II\", \"Iii\"]"), "x").unwrap();
    assert_eq!(e.rules.variants, vec![Variant::Ii, Variant::Iii]);
    assert!(e.to_toml().contains("variants = [\"ii\", \"iii\"]"));
}

/// The run's date is saved, checked and read back, but never tells two
/// experiments apart.
#[test]
fn the_date_is_saved_but_not_part_of_the_identity() {
    let with = |date: &str| SMALL.replace("games = 3", &format!("games = 3\ndate = {date}"));
    let e = Experiment::parse(SMALL, "x.toml").unwrap();
    let dated = e.dated(None);
    assert!(!dated.date.is_unknown());
    assert_eq!(dated, e);
    assert_eq!(dated.to_toml(), e.to_toml());
    assert!(dated.to_saved_toml().contains("date = \""));
    let back = Experiment::parse(&dated.to_saved_toml(), "saved").unwrap();
    assert_eq!(back.date.0, dated.date.0);
    let kept = Experiment::parse(&with("\"2024-02-29\""), "x").unwrap();
    assert_eq!(e.dated(Some(&kept)).date.0.as_deref(), Some("2024-02-29"));
    let unquoted = Experiment::parse(&with("2024-02-29"), "x").unwrap();
    assert_eq!(unquoted.date.0.as_deref(), Some("2024-02-29"));
    let err = error_of(&with("\"29/02/2024\""));
    assert!(
        err.starts_with("x.toml: key `date`: \"29/02/2024\" is not a date"),
        "{err}"
    );
}

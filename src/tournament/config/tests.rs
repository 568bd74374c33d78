use super::*;

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
        e.contains("unknown field `sede`") && e.contains("`seed`"),
        "{e}"
    );
    let e = error_of(&SMALL.replace("round-robin", "swiss"));
    assert!(e.contains("swiss") && e.contains("`gauntlet`"), "{e}");
    let e = error_of(&SMALL.replace("round-robin", "gauntlet"));
    assert!(e.contains("tournament.champion"), "{e}");
    let e = error_of("name = ");
    assert!(e.starts_with("x.toml: TOML parse error"), "{e}");
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

//! The report's charts, drawn on a backend that records what it is asked to
//! draw: every text's box as plotters lays it out with the bundled font,
//! rectangles, lines and dots with their colours. The tests of the charts'
//! presentation (texts that fit, legends clear of the data, no empty chart,
//! no "-0.00") check these shapes against each other and against the
//! image's size, and read the files that `write_report_from_csv` writes.

use std::fs;
use std::path::Path;

use hoyito::report::{
    draw_advantage, draw_heatmap, draw_lengths, draw_ratings, summarize, tally_games_csv,
    write_report_from_csv, Summary,
};
use hoyito::stats::Tally;
use hoyito::Variant;

mod recorder;

use recorder::{record, Box2, Shape};

fn overlap(a: Box2, b: Box2) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn texts(shapes: &[Shape]) -> Vec<(String, Box2)> {
    shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text { text, bounds } => Some((text.clone(), *bounds)),
            _ => None,
        })
        .collect()
}

/// Every text lies inside the image and no two texts overlap.
fn assert_texts_fit(name: &str, size: (u32, u32), shapes: &[Shape]) {
    let texts = texts(shapes);
    assert!(!texts.is_empty(), "{name}: no text drawn");
    let (w, h) = (size.0 as i32, size.1 as i32);
    for (text, b) in &texts {
        assert!(
            b.0 >= 0 && b.1 >= 0 && b.2 <= w && b.3 <= h,
            "{name}: {text:?} at {b:?} leaves the {w}x{h} image"
        );
    }
    for (i, (a, ab)) in texts.iter().enumerate() {
        for (b, bb) in &texts[i + 1..] {
            assert!(
                !overlap(*ab, *bb),
                "{name}: {a:?} at {ab:?} overlaps {b:?} at {bb:?}"
            );
        }
    }
}

/// The legend's box: the last white filled rectangle that is not the
/// image's background.
fn legend_box(shapes: &[Shape], size: (u32, u32)) -> (usize, Box2) {
    let whole = (0, 0, size.0 as i32, size.1 as i32);
    shapes
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, s)| match s {
            Shape::Rect {
                bounds,
                fill: true,
                rgb: (255, 255, 255),
            } if *bounds != whole => Some((i, *bounds)),
            _ => None,
        })
        .expect("a legend box")
}

/// Whether a colour is one of the series' (not black, white or a grey).
fn coloured(rgb: (u8, u8, u8)) -> bool {
    !(rgb.0 == rgb.1 && rgb.1 == rgb.2)
}

/// No data drawn before the legend (series-coloured lines, dots and bars,
/// thick black lines) reaches under the legend's box.
fn assert_legend_clear(name: &str, size: (u32, u32), shapes: &[Shape]) -> usize {
    let (at, legend) = legend_box(shapes, size);
    let mut checked = 0;
    for shape in &shapes[..at] {
        let bounds = match shape {
            Shape::Line { bounds, rgb, width } if coloured(*rgb) || *width >= 2 => {
                // A stroke reaches half its width past its end points.
                let half = (*width as i32 + 1) / 2;
                (
                    bounds.0 - half,
                    bounds.1 - half,
                    bounds.2 + half,
                    bounds.3 + half,
                )
            }
            Shape::Dot { bounds, rgb } if coloured(*rgb) => *bounds,
            Shape::Rect { bounds, rgb, .. } if coloured(*rgb) => *bounds,
            _ => continue,
        };
        checked += 1;
        assert!(
            !overlap(bounds, legend),
            "{name}: {shape:?} reaches under the legend at {legend:?}"
        );
    }
    checked
}

const HEADER: &str = "game_id,pair_id,variant,holes,seeds,south,north,game_seed,opening,\
                      winner,south_captures,north_captures,plies,ending,moves_hash";

/// Rows of `games.csv`, built pair by pair.
#[derive(Default)]
struct Games {
    lines: Vec<String>,
}

impl Games {
    fn game(&mut self, variant: &str, holes: u32, south: &str, north: &str, winner: &str) {
        let id = self.lines.len();
        let all = 2 * holes * 4;
        let (s, n) = match winner {
            "S" => (all / 2 + 6, all / 2 - 6),
            "N" => (all / 2 - 6, all / 2 + 6),
            _ => (all / 2, all / 2),
        };
        let plies = 30 + (id * 7) % 50;
        self.lines.push(format!(
            "{id},{},{variant},{holes},4,{south},{north},{id},,{winner},{s},{n},{plies},normal,{id:016x}",
            id / 2
        ));
    }

    /// A seat-swapped pair: `a` South first, then North; `results` gives
    /// a's result in each ("W", "L" or "D").
    fn pair(&mut self, variant: &str, holes: u32, a: &str, b: &str, results: [&str; 2]) {
        let seat = |r: &str, a_south: bool| match (r, a_south) {
            ("W", true) | ("L", false) => "S",
            ("L", true) | ("W", false) => "N",
            _ => "draw",
        };
        self.game(variant, holes, a, b, seat(results[0], true));
        self.game(variant, holes, b, a, seat(results[1], false));
    }

    fn write(&self, dir: &Path) {
        let text = format!("{HEADER}\n{}\n", self.lines.join("\n"));
        fs::write(dir.join("games.csv"), text).expect("write games.csv");
    }
}

/// The ladder of `reports/ladder`: one setting (ii 2x6 s4), each agent
/// against the next.
fn ladder() -> Games {
    let agents = ["random", "greedy", "alphabeta-d8", "alphabeta-d16"];
    let mut games = Games::default();
    for pair in agents.windows(2) {
        for k in 0..12 {
            let results = match k % 4 {
                0 => ["L", "W"],
                1 => ["D", "L"],
                _ => ["L", "L"],
            };
            games.pair("ii", 6, pair[0], pair[1], results);
        }
    }
    games
}

/// Every agent against itself only, on two settings.
fn self_play() -> Games {
    let mut games = Games::default();
    for (variant, holes) in [("ii", 6), ("iii", 12)] {
        for agent in ["random", "greedy"] {
            for k in 0..8 {
                let results = if k % 3 == 0 { ["W", "L"] } else { ["W", "D"] };
                games.pair(variant, holes, agent, agent, results);
            }
        }
    }
    games
}

/// Three agents on three variants and two boards, the stronger agent
/// winning nearly everything: the ratings of `alphabeta-d4`, on the right,
/// are high and wide, as in `reports/default`.
fn default_like() -> Games {
    let agents = ["random", "greedy", "alphabeta-d4"];
    let mut games = Games::default();
    for variant in ["i", "ii", "iii"] {
        for holes in [6, 12] {
            for (i, a) in agents.iter().enumerate() {
                for b in &agents[i + 1..] {
                    for k in 0..10 {
                        let results = if k == 0 { ["D", "L"] } else { ["L", "L"] };
                        games.pair(variant, holes, a, b, results);
                    }
                }
            }
        }
    }
    games
}

/// Writes `games` as a report into a fresh directory; returns it with the
/// summary the report was drawn from.
fn report(games: &Games) -> (tempfile::TempDir, Summary, Tally) {
    let dir = tempfile::tempdir().expect("temp dir");
    games.write(dir.path());
    write_report_from_csv(dir.path(), None).expect("report written");
    let tally = tally_games_csv(&dir.path().join("games.csv")).expect("tally");
    // As the report orders agents without an experiment: as they appear.
    let summary = summarize(&tally, tally.agents(), None);
    (dir, summary, tally)
}

/// Width and height of a PNG, from its header (IHDR).
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = fs::read(path).expect("png");
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (word(16), word(20))
}

fn chart(dir: &Path, stem: &str, ext: &str) -> std::path::PathBuf {
    dir.join("charts").join(format!("{stem}.{ext}"))
}

#[test]
fn heatmap_title_fits_with_one_setting() {
    let (dir, summary, _) = report(&ladder());
    let size = png_size(&chart(dir.path(), "winrate_heatmap", "png"));
    let shapes = record(size, |root| draw_heatmap(root, &summary).expect("drawn"));
    assert_texts_fit("heatmap", size, &shapes);
    // The title was cut off at 520 pixels: it is broken into lines now.
    let title: Vec<String> = texts(&shapes)
        .into_iter()
        .map(|(t, _)| t)
        .take_while(|t| !t.starts_with("ii 2x6"))
        .collect();
    assert!(title.len() >= 2, "{title:?}");
    assert_eq!(
        title.join(" "),
        "Win rate: score of the row agent against the column agent (red 0, white 0.5, blue 1)"
    );
}

#[test]
fn every_chart_text_fits_its_image() {
    // Narrow charts, long agent names and many settings alike.
    let mut long = Games::default();
    let names = [
        "random",
        "alphabeta-depth-sixteen-x",
        "mcts-iterations-100000",
    ];
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            for k in 0..6 {
                long.pair(
                    "iii",
                    12,
                    a,
                    b,
                    if k % 2 == 0 { ["W", "L"] } else { ["D", "L"] },
                );
            }
        }
    }
    for (case, games) in [
        ("ladder", ladder()),
        ("default", default_like()),
        ("long", long),
    ] {
        let (dir, summary, tally) = report(&games);
        let size = |stem: &str| png_size(&chart(dir.path(), stem, "png"));
        let heatmap = size("winrate_heatmap");
        let shapes = record(heatmap, |root| draw_heatmap(root, &summary).expect("drawn"));
        assert_texts_fit(&format!("{case} heatmap"), heatmap, &shapes);
        let advantage = size("first_player_advantage");
        let shapes = record(advantage, |root| {
            draw_advantage(root, &summary).expect("drawn")
        });
        assert_texts_fit(&format!("{case} advantage"), advantage, &shapes);
        let ratings = size("ratings");
        let shapes = record(ratings, |root| draw_ratings(root, &summary).expect("drawn"));
        assert_texts_fit(&format!("{case} ratings"), ratings, &shapes);
        for variant in Variant::ALL {
            let stem = format!("game_length_{variant}");
            if !chart(dir.path(), &stem, "png").exists() {
                continue;
            }
            let lengths = size(&stem);
            let shapes = record(lengths, |root| {
                draw_lengths(root, variant, &tally, Some(200)).expect("drawn")
            });
            assert_texts_fit(&format!("{case} {stem}"), lengths, &shapes);
        }
    }
}

#[test]
fn ratings_legend_clears_every_error_bar() {
    let (dir, summary, _) = report(&default_like());
    let size = png_size(&chart(dir.path(), "ratings", "png"));
    let shapes = record(size, |root| draw_ratings(root, &summary).expect("drawn"));
    // 6 series of 3 agents: 18 error bars of 3 lines and a dot each.
    let checked = assert_legend_clear("ratings", size, &shapes);
    assert!(checked >= 18 * 4, "only {checked} data shapes checked");
    let size = png_size(&chart(dir.path(), "first_player_advantage", "png"));
    let shapes = record(size, |root| draw_advantage(root, &summary).expect("drawn"));
    assert_legend_clear("advantage", size, &shapes);
}

#[test]
fn length_legend_clears_bars_and_limit_line() {
    let (dir, _, tally) = report(&ladder());
    let size = png_size(&chart(dir.path(), "game_length_ii", "png"));
    // A limit inside the axis, under the legend's corner, as in reports/ladder.
    let shapes = record(size, |root| {
        draw_lengths(root, Variant::Ii, &tally, Some(70)).expect("drawn")
    });
    let checked = assert_legend_clear("lengths", size, &shapes);
    assert!(checked > 3, "only {checked} data shapes checked");
    assert!(texts(&shapes).iter().any(|(t, _)| t == "limit 70"));
    assert_texts_fit("lengths", size, &shapes);
}

#[test]
fn self_play_report_leaves_out_empty_charts() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A ratings chart and heatmap left from an earlier report of the folder.
    ladder().write(dir.path());
    write_report_from_csv(dir.path(), None).expect("first report");
    assert!(chart(dir.path(), "ratings", "svg").exists());
    self_play().write(dir.path());
    let files = write_report_from_csv(dir.path(), None).expect("report");
    let report = fs::read_to_string(dir.path().join("report.md")).expect("report.md");
    for stem in ["ratings", "winrate_heatmap"] {
        assert!(!report.contains(&format!("{stem}.png")), "{stem} linked");
        for ext in ["png", "svg"] {
            assert!(
                !chart(dir.path(), stem, ext).exists(),
                "{stem}.{ext} written"
            );
        }
    }
    for stem in [
        "first_player_advantage",
        "game_length_ii",
        "game_length_iii",
    ] {
        assert!(report.contains(&format!("](charts/{stem}.png)")), "{stem}");
        assert!(chart(dir.path(), stem, "svg").exists(), "{stem}");
    }
    assert_eq!(files.charts.len(), 6, "{:?}", files.charts);
}

#[test]
fn zero_tick_reads_0_00_not_minus() {
    let (dir, summary, tally) = report(&ladder());
    let size = png_size(&chart(dir.path(), "first_player_advantage", "png"));
    let labels: Vec<String> = texts(&record(size, |root| {
        draw_advantage(root, &summary).expect("drawn")
    }))
    .into_iter()
    .map(|(t, _)| t)
    .collect();
    assert!(labels.iter().any(|t| t == "0.00"), "{labels:?}");
    assert!(labels.iter().any(|t| t == "+0.05"), "{labels:?}");
    assert!(labels.iter().any(|t| t == "-0.05"), "{labels:?}");
    for bad in ["-0.00", "+0.00"] {
        assert!(!labels.contains(&bad.to_string()), "{bad} in {labels:?}");
    }
    let labels: Vec<String> = texts(&record((1000, 600), |root| {
        draw_ratings(root, &summary).expect("drawn")
    }))
    .into_iter()
    .map(|(t, _)| t)
    .collect();
    assert!(labels.iter().any(|t| t == "0"), "{labels:?}");
    assert!(!labels.iter().any(|t| t == "-0" || t == "+0"), "{labels:?}");
    let labels: Vec<String> = texts(&record((1000, 600), |root| {
        draw_lengths(root, Variant::Ii, &tally, None).expect("drawn")
    }))
    .into_iter()
    .map(|(t, _)| t)
    .collect();
    assert!(labels.iter().any(|t| t == "0%"), "{labels:?}");
    assert!(!labels.iter().any(|t| t == "-0%"), "{labels:?}");
}

#[test]
fn svgs_name_and_embed_the_bundled_font() {
    let (dir, _, _) = report(&ladder());
    let subset = fs::read("assets/DejaVuSans-charts.ttf").expect("subset font");
    for entry in fs::read_dir(dir.path().join("charts")).expect("charts") {
        let path = entry.expect("entry").path();
        if path.extension() != Some(std::ffi::OsStr::new("svg")) {
            continue;
        }
        let svg = fs::read_to_string(&path).expect("svg");
        let name = path.display();
        assert!(!svg.contains("font-family=\"sans-serif\""), "{name}");
        assert!(svg.contains("font-family=\"DejaVu Sans\""), "{name}");
        assert_eq!(svg.matches("@font-face").count(), 1, "{name}");
        assert_eq!(svg.matches("<style>").count(), 1, "{name}");
        // The style comes first, inside the <svg> element.
        let style = svg.find("<style>").expect("style");
        assert!(svg.find("<svg").expect("svg tag") < style, "{name}");
        assert!(style < svg.find("<text").expect("text"), "{name}");
        assert!(
            svg.contains("text{font-family:\"hoyito-dejavu-sans\",\"DejaVu Sans\",sans-serif;}")
        );
        // The data URI holds the whole subset: a TrueType file (version
        // 0x00010000, "AAEAAA" in base64) of the subset's length.
        let start = svg.find("base64,").expect("data URI") + "base64,".len();
        let len = svg[start..].find('"').expect("end of URI");
        let data = &svg[start..start + len];
        assert!(data.starts_with("AAEAAA"), "{name}");
        assert_eq!(data.len(), subset.len().div_ceil(3) * 4, "{name}");
        assert!(
            svg.len() < subset.len() * 4 / 3 + 40_000,
            "{name}: {} bytes",
            svg.len()
        );
    }
}

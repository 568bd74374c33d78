//! The report's charts, drawn with plotters: a win-rate heatmap, first-player
//! advantage with error bars, game-length histograms and ratings with error
//! bars. Each `draw_*` function is generic over plotters' `DrawingBackend`, so
//! the same code renders the PNG, the SVG or a test backend.
//!
//! Text uses the DejaVu Sans font bundled in `assets/` and registered with
//! plotters' `ab_glyph` support, so rendering needs no system library or font.

mod advantage;
mod axis;
mod balance;
mod error_bars;
mod heatmap;
mod legend;
mod lengths;
mod ratings;
pub(crate) mod skill_chart;
mod start_values;
mod svg_font;
mod text;

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::{
    BitMapBackend, DrawingArea, DrawingAreaErrorKind, DrawingBackend, FontStyle, IntoDrawingArea,
    RGBColor, SVGBackend,
};
use rayon::prelude::*;

use crate::engine::rules::Variant;
use crate::metrics::aggregate::Family;
use crate::stats::tally::Tally;

use super::balance::BalanceSummary;

use super::error::ReportError;
use super::summary::Summary;

pub use advantage::draw_advantage;
pub use heatmap::draw_heatmap;
pub use lengths::draw_lengths;
pub use ratings::draw_ratings;
pub use start_values::{draw_start_values, ValueSeries};

/// What a `draw_*` function returns: the backend's error, passed on.
pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The bundled font: DejaVu Sans (Bitstream Vera licence, `assets/`).
const FONT: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

/// Font family that charts ask for; the bundled font is registered under
/// it, and SVGs name it (and embed a subset of it, see `svg_font`).
pub(crate) const FAMILY: &str = "DejaVu Sans";

/// Font size of the charts' titles.
pub(crate) const TITLE_SIZE: f64 = 22.0;

/// Registers the bundled font with plotters once; `false` if it would not load.
fn font_ready() -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok())
}

/// Registers the bundled font for the public `draw_*` functions, which may
/// be called before any file is rendered; a font that would not load shows
/// as plotters' own font error at the first text drawn.
pub(crate) fn register_font() {
    font_ready();
}

/// Ten distinct colours that read on white: the "tab10" palette of
/// matplotlib (after Tableau).
const SERIES_COLORS: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The colour of series `i`.
pub(crate) fn series_color(i: usize) -> RGBColor {
    SERIES_COLORS[i % SERIES_COLORS.len()]
}

/// A category axis of `n` categories: category `i` is centred at `i`, values
/// in between place series side by side, and ticks fall on the categories
/// (plotters' `with_key_points` cannot take a label formatter on `f64`).
pub(crate) struct Categories(pub usize);

impl Ranged for Categories {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, (low, high): (i32, i32)) -> i32 {
        let t = (value + 0.5) / self.0.max(1) as f64;
        low + (f64::from(high - low) * t).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.0).map(|i| i as f64).collect()
    }

    fn range(&self) -> Range<f64> {
        -0.5..self.0 as f64 - 0.5
    }
}

/// The label of category `v` on an axis whose key points are 0, 1, 2, ...
pub(crate) fn category_label(labels: &[String], v: f64) -> String {
    let i = v.round();
    if (v - i).abs() < 1e-6 && i >= 0.0 {
        labels.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

/// One chart file of the report.
enum Figure<'a> {
    Heatmap(&'a Summary),
    Advantage(&'a Summary),
    Lengths(Variant, &'a Tally, Option<u32>),
    Ratings(&'a Summary),
    Balance(&'a BalanceSummary, Family),
}

impl Figure<'_> {
    fn stem(&self) -> String {
        match self {
            Figure::Heatmap(_) => "winrate_heatmap".to_string(),
            Figure::Advantage(_) => "first_player_advantage".to_string(),
            Figure::Lengths(variant, _, _) => format!("game_length_{variant}"),
            Figure::Ratings(_) => "ratings".to_string(),
            Figure::Balance(_, family) => balance::stem(*family),
        }
    }

    fn title(&self) -> String {
        match self {
            Figure::Heatmap(_) => heatmap::TITLE.to_string(),
            Figure::Advantage(_) => advantage::TITLE.to_string(),
            Figure::Lengths(variant, _, _) => lengths::title(*variant),
            Figure::Ratings(_) => ratings::TITLE.to_string(),
            Figure::Balance(_, family) => balance::title(*family),
        }
    }

    fn size(&self) -> (u32, u32) {
        match self {
            Figure::Heatmap(summary) => heatmap::size(summary),
            Figure::Advantage(summary) => advantage::size(summary),
            Figure::Lengths(..) => (1000, 600),
            Figure::Ratings(summary) => ratings::size(summary),
            Figure::Balance(_, family) => balance::size(*family),
        }
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        match self {
            Figure::Heatmap(summary) => draw_heatmap(root, summary),
            Figure::Advantage(summary) => draw_advantage(root, summary),
            Figure::Lengths(variant, tally, limit) => draw_lengths(root, *variant, tally, *limit),
            Figure::Ratings(summary) => draw_ratings(root, summary),
            Figure::Balance(b, family) => balance::draw_balance(root, b, *family),
        }
    }
}

/// The file stems of every chart a report can have, for clearing away those
/// that a new report of the same directory no longer draws.
pub(crate) fn all_stems() -> Vec<String> {
    let mut stems: Vec<String> = ["winrate_heatmap", "first_player_advantage", "ratings"]
        .map(String::from)
        .into();
    stems.extend(Variant::ALL.map(|v| format!("game_length_{v}")));
    stems.extend(Family::ALL.map(balance::stem));
    stems
}

/// Renders the Balance section's charts (one per metric family) as PNG and
/// SVG into `dir`, returning (title, file name) of each file, PNG first.
pub(crate) fn render_balance(
    dir: &Path,
    summary: &BalanceSummary,
) -> Result<Vec<(String, PathBuf)>, ReportError> {
    let figures: Vec<Figure<'_>> = Family::ALL
        .into_iter()
        .map(|family| Figure::Balance(summary, family))
        .collect();
    render_each(dir, &figures)
}

/// Renders every chart that has something to show as PNG and SVG into
/// `dir`, returning (title, file name) of each file, PNG before SVG. The
/// heatmap and the ratings are left out when no two different agents met
/// (self-play only): they would be a grey grid and an empty axis.
pub(crate) fn render_all(
    dir: &Path,
    summary: &Summary,
    tally: &Tally,
) -> Result<Vec<(String, PathBuf)>, ReportError> {
    let mut figures = Vec::new();
    if heatmap::has_data(summary) {
        figures.push(Figure::Heatmap(summary));
    }
    figures.push(Figure::Advantage(summary));
    let mut variants: Vec<Variant> = summary.settings.iter().map(|s| s.setting.variant).collect();
    variants.dedup();
    figures.extend(
        variants
            .into_iter()
            .map(|v| Figure::Lengths(v, tally, summary.no_capture_limit)),
    );
    if ratings::has_data(summary) {
        figures.push(Figure::Ratings(summary));
    }
    render_each(dir, &figures)
}

/// Renders `figures`, each on its own core where there are several (drawn
/// on one, the charts are the longest part of the end of a run of cheap
/// games, with every core but one idle), returning (title, file name) of
/// each file in the order of `figures`, PNG before SVG; the first error in
/// that order, if any. A chart's bytes do not depend on the thread that
/// draws it.
fn render_each(dir: &Path, figures: &[Figure<'_>]) -> Result<Vec<(String, PathBuf)>, ReportError> {
    let rendered: Vec<Result<[PathBuf; 2], ReportError>> = figures
        .par_iter()
        .map(|figure| render(dir, figure))
        .collect();
    let mut files = Vec::new();
    for (figure, paths) in figures.iter().zip(rendered) {
        for path in paths? {
            files.push((figure.title(), path));
        }
    }
    Ok(files)
}

/// Draws one figure to `dir/STEM.png` and `dir/STEM.svg`.
fn render(dir: &Path, figure: &Figure<'_>) -> Result<[PathBuf; 2], ReportError> {
    let png = dir.join(format!("{}.png", figure.stem()));
    let svg = dir.join(format!("{}.svg", figure.stem()));
    let chart_error = |path: &Path, message: String| ReportError::Chart {
        path: path.to_path_buf(),
        message,
    };
    if !font_ready() {
        return Err(chart_error(
            &png,
            "the bundled font would not load".to_string(),
        ));
    }
    let size = figure.size();
    {
        let root = BitMapBackend::new(&png, size).into_drawing_area();
        figure
            .draw(&root)
            .map_err(|e| chart_error(&png, e.to_string()))?;
        root.present()
            .map_err(|e| chart_error(&png, e.to_string()))?;
    }
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        figure
            .draw(&root)
            .map_err(|e| chart_error(&svg, e.to_string()))?;
        root.present()
            .map_err(|e| chart_error(&svg, e.to_string()))?;
    }
    fs::write(&svg, svg_font::embed_font(&text)).map_err(|source| ReportError::Write {
        path: svg.clone(),
        source,
    })?;
    Ok([png, svg])
}

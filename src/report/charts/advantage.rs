//! First-player advantage (South's score minus 0.5) for each variant and
//! board, with 95% Wilson intervals as error bars: one series for all games
//! and one for each agent's self-play.

use plotters::coord::Shift;
use plotters::prelude::{
    ChartBuilder, Circle, DrawingArea, DrawingBackend, ErrorBar, IntoFont, PathElement,
    SeriesLabelPosition, BLACK, WHITE,
};
use plotters::style::Color;

use crate::report::summary::Summary;
use crate::stats::{Proportion, Scope};

use super::{category_label, series_color, Categories, DrawResult, FAMILY};

/// The chart's title.
pub(crate) const TITLE: &str = "First-player advantage (South's score − 0.5) by variant and board";

/// One series: a label and, per setting, the advantage if measured there.
type Series = (String, Vec<Option<Proportion>>);

fn series(summary: &Summary) -> Vec<Series> {
    let mut scopes = vec![Scope::AllGames];
    for setting in &summary.settings {
        for s in &setting.first_player {
            if matches!(s.scope, Scope::SelfPlay { .. }) && !scopes.contains(&s.scope) {
                scopes.push(s.scope.clone());
            }
        }
    }
    scopes
        .into_iter()
        .map(|scope| {
            let values = summary
                .settings
                .iter()
                .map(|setting| {
                    setting
                        .first_player
                        .iter()
                        .find(|s| s.scope == scope)
                        .map(|s| s.advantage)
                })
                .collect();
            (scope.label(), values)
        })
        .collect()
}

/// Draws the first-player advantage chart.
pub fn draw_advantage<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    summary: &Summary,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let labels: Vec<String> = summary
        .settings
        .iter()
        .map(|s| s.setting.to_string())
        .collect();
    let all = series(summary);
    let (low, high) = all
        .iter()
        .flat_map(|(_, v)| v.iter().flatten())
        .fold((-0.1_f64, 0.1_f64), |(lo, hi), p| {
            (lo.min(p.low), hi.max(p.high))
        });
    // Headroom above the data for the legend.
    let pad = 0.05 * (high - low);
    let headroom = 0.3 * (high - low);
    let n = labels.len();
    let mut chart = ChartBuilder::on(root)
        .caption(TITLE, (FAMILY, 22).into_font())
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(Categories(n), (low - pad)..(high + headroom))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("variant and board")
        .y_desc("South's score − 0.5 (95% interval)")
        .label_style((FAMILY, 14).into_font())
        .axis_desc_style((FAMILY, 15).into_font())
        .x_label_formatter(&|v| category_label(&labels, *v))
        .y_label_formatter(&|v| format!("{v:+.2}"))
        .draw()?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(-0.5, 0.0), (n as f64 - 0.5, 0.0)],
        BLACK.mix(0.6),
    )))?;
    let width = 0.7 / all.len() as f64;
    for (k, (label, values)) in all.iter().enumerate() {
        let color = series_color(k);
        let offset = (k as f64 - (all.len() as f64 - 1.0) / 2.0) * width;
        let points: Vec<(f64, Proportion)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|p| (i as f64 + offset, p)))
            .collect();
        chart
            .draw_series(points.iter().map(|&(x, p)| {
                ErrorBar::new_vertical(x, p.low, p.value, p.high, color.stroke_width(2), 10)
            }))?
            .label(label.as_str())
            .legend(move |(x, y)| Circle::new((x + 10, y), 5, color.filled()));
        chart.draw_series(
            points
                .iter()
                .map(|&(x, p)| Circle::new((x, p.value), 5, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .label_font((FAMILY, 14).into_font())
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    Ok(())
}

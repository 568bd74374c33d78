//! Text that must fit its chart: titles broken into lines (and shrunk if one
//! word is still too wide) so that a narrow chart does not cut them off,
//! widths measured with the bundled font's metrics to size charts and label
//! areas, and tick labels that never read "-0.00".

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingAreaErrorKind, DrawingBackend, IntoFont, BLACK};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::TextStyle;

use super::FAMILY;

/// Space above, between and below the lines of a title, in pixels.
const TITLE_GAP: i32 = 6;
/// Space kept free at each side of a title, in pixels.
const TITLE_SIDE: u32 = 10;
/// The smallest size a title is shrunk to.
const MIN_TITLE_SIZE: f64 = 10.0;

/// Width and height in pixels of `text` set at `size` in the bundled font.
/// A font error (the font is registered before any chart is drawn, so it
/// does not happen) falls back to a generous estimate.
pub(crate) fn text_size(text: &str, size: f64) -> (u32, u32) {
    (FAMILY, size)
        .into_font()
        .box_size(text)
        .unwrap_or_else(|_| {
            (
                (text.chars().count() as f64 * size * 0.7) as u32,
                size as u32,
            )
        })
}

/// Width in pixels of the widest of `texts` at `size`.
pub(crate) fn widest(texts: &[String], size: f64) -> u32 {
    texts
        .iter()
        .map(|t| text_size(t, size).0)
        .max()
        .unwrap_or(0)
}

/// The lines of a title of `text` at `size` within `width` pixels: words
/// are moved to the next line while a line is too wide, and when a single
/// word is still too wide the size shrinks until it fits.
pub(crate) fn wrap_title(text: &str, size: f64, width: u32) -> (Vec<String>, f64) {
    let room = width.saturating_sub(2 * TITLE_SIDE).max(1);
    let word = text
        .split_whitespace()
        .map(|w| text_size(w, size).0)
        .max()
        .unwrap_or(0);
    let size = if word > room {
        (size * f64::from(room) / f64::from(word)).max(MIN_TITLE_SIZE)
    } else {
        size
    };
    let mut lines: Vec<String> = Vec::new();
    for w in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if text_size(&format!("{line} {w}"), size).0 <= room => {
                line.push(' ');
                line.push_str(w);
            }
            _ => lines.push(w.to_string()),
        }
    }
    (lines, size)
}

/// Draws `text` as a title centred at the top of `area`, broken into lines
/// that fit its width, and returns the area below it.
pub(crate) fn draw_title<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    size: f64,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let (width, _) = area.dim_in_pixel();
    let (lines, size) = wrap_title(text, size, width);
    let style = TextStyle::from((FAMILY, size).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top))
        .color(&BLACK);
    let line_height = text_size("Hg", size).1 as i32 + TITLE_GAP / 2;
    let mut y = TITLE_GAP;
    for line in &lines {
        area.draw_text(line, &style, (width as i32 / 2, y))?;
        y += line_height;
    }
    let (_, below) = area.split_vertically(y + TITLE_GAP);
    Ok(below)
}

/// The height in pixels that [`draw_title`] takes for `text` at `size` in a
/// chart `width` pixels wide.
pub(crate) fn title_height(text: &str, size: f64, width: u32) -> u32 {
    let (lines, size) = wrap_title(text, size, width);
    let line_height = text_size("Hg", size).1 + (TITLE_GAP / 2) as u32;
    2 * TITLE_GAP as u32 + lines.len() as u32 * line_height
}

/// `v` with `decimals` decimals and an explicit sign, except that a value
/// that rounds to zero reads "0" (never "-0.00" or "+0.00").
pub(crate) fn signed(v: f64, decimals: usize) -> String {
    let text = format!("{:+.*}", decimals, v);
    if text[1..].chars().all(|c| c == '0' || c == '.') {
        text[1..].to_string()
    } else {
        text
    }
}

/// `v` with `decimals` decimals, a value that rounds to zero reading "0"
/// without a sign.
pub(crate) fn unsigned(v: f64, decimals: usize) -> String {
    signed(v, decimals).trim_start_matches('+').to_string()
}

//! The charts' legend, drawn here rather than by plotters so that its box is
//! known before the data are: a chart measures the legend, keeps a band at
//! the top of its plotting area that tall (see [`headroom`]), and no data
//! point, bar or error bar reaches under the box.

use plotters::coord::Shift;
use plotters::prelude::{
    Circle, DrawingArea, DrawingAreaErrorKind, DrawingBackend, IntoFont, PathElement, Rectangle,
    BLACK, WHITE,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, RGBColor, TextStyle};

use super::text::text_size;
use super::FAMILY;

/// Font size of the legend's labels.
const SIZE: f64 = 14.0;
/// Height of one legend row, in pixels.
const ROW: u32 = 20;
/// Space inside the box around the rows, in pixels.
const PAD: u32 = 8;
/// Width kept for a row's marker, in pixels.
const MARKER: u32 = 24;
/// Distance of the box from the plotting area's top and right edges.
pub(crate) const INSET: u32 = 6;

/// How an entry's series is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Marker {
    /// A filled dot (points with error bars).
    Dot(RGBColor),
    /// A filled square (histogram bars).
    Swatch(RGBColor),
    /// A thick black line (a marked value).
    Line,
}

/// A legend: one row per entry, in the upper right corner of a plotting area.
pub(crate) struct Legend {
    entries: Vec<(String, Marker)>,
}

/// A box in pixels, relative to the plotting area: left, top, right, bottom.
pub(crate) type Rect = (i32, i32, i32, i32);

impl Legend {
    /// A legend of `entries`, in order.
    pub(crate) fn new(entries: Vec<(String, Marker)>) -> Legend {
        Legend { entries }
    }

    /// Width and height of the box in pixels; (0, 0) with no entries.
    pub(crate) fn size(&self) -> (u32, u32) {
        if self.entries.is_empty() {
            return (0, 0);
        }
        let text = self
            .entries
            .iter()
            .map(|(label, _)| text_size(label, SIZE).0)
            .max()
            .unwrap_or(0);
        (
            2 * PAD + MARKER + text,
            2 * PAD + ROW * self.entries.len() as u32,
        )
    }

    /// The band, in pixels from the plotting area's top, that the box and
    /// the gap below it take: data must stay below it.
    pub(crate) fn band(&self) -> u32 {
        match self.size() {
            (_, 0) => 0,
            (_, h) => INSET + h + INSET,
        }
    }

    /// The box on a plotting area `width` pixels wide.
    pub(crate) fn rect(&self, width: u32) -> Rect {
        let (w, h) = self.size();
        let right = width as i32 - INSET as i32;
        (right - w as i32, INSET as i32, right, (INSET + h) as i32)
    }

    /// Draws the legend on `plot`, the chart's plotting area, in its upper
    /// right corner.
    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let (x0, y0, x1, y1) = self.rect(plot.dim_in_pixel().0);
        plot.draw(&Rectangle::new([(x0, y0), (x1, y1)], WHITE.filled()))?;
        plot.draw(&Rectangle::new([(x0, y0), (x1, y1)], BLACK))?;
        let style = TextStyle::from((FAMILY, SIZE).into_font())
            .pos(Pos::new(HPos::Left, VPos::Center))
            .color(&BLACK);
        for (i, (label, marker)) in self.entries.iter().enumerate() {
            let y = y0 + (PAD + ROW * i as u32 + ROW / 2) as i32;
            let x = x0 + PAD as i32 + MARKER as i32 / 2 - 2;
            match *marker {
                Marker::Dot(color) => plot.draw(&Circle::new((x, y), 5, color.filled()))?,
                Marker::Swatch(color) => plot.draw(&Rectangle::new(
                    [(x - 7, y - 6), (x + 7, y + 6)],
                    color.filled(),
                ))?,
                Marker::Line => plot.draw(&PathElement::new(
                    vec![(x - 8, y), (x + 8, y)],
                    BLACK.stroke_width(2),
                ))?,
            }
            // Centring the whole box, descenders included, sets the letters
            // a little high beside the marker.
            plot.draw_text(label, &style, (x0 + (PAD + MARKER) as i32, y + 2))?;
        }
        Ok(())
    }
}

/// The top of a y axis whose data reach `high` from `low`, such that on a
/// plotting area `height` pixels tall the data stay below a band of `band`
/// pixels at the top. The band takes at most three quarters of the height;
/// charts grow with their legends so that this bound is not reached.
pub(crate) fn headroom(low: f64, high: f64, band: u32, height: u32) -> f64 {
    let share = (f64::from(band) / f64::from(height.max(1))).min(0.75);
    high + share * (high - low) / (1.0 - share)
}

//! The charts' legend, drawn here rather than by plotters so that its box is
//! known before the data are: a chart measures the legend, keeps a band at
//! the top of its plotting area that tall (see [`headroom`]), and no data
//! point, bar or error bar reaches under the box. An axis that may not grow
//! (a share ends at 1) has no room for the band; its legend goes to a
//! corner that no data reach instead (see [`Legend::corner`]).

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
    /// A hollow dot (a point that the data alone do not hold).
    Ring(RGBColor),
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

/// A corner of the plotting area, for the legend's box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Corner {
    /// Upper right, where the band of [`headroom`] keeps the box.
    UpperRight,
    /// Upper left.
    UpperLeft,
    /// Lower right.
    LowerRight,
    /// Lower left.
    LowerLeft,
}

impl Corner {
    /// Every corner, in the order they are tried.
    pub(crate) const ALL: [Corner; 4] = [
        Corner::UpperRight,
        Corner::UpperLeft,
        Corner::LowerRight,
        Corner::LowerLeft,
    ];
}

/// Whether two boxes share any pixel.
fn overlap(a: Rect, b: Rect) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

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

    /// The box in `corner` of a plotting area of `size` pixels.
    pub(crate) fn rect(&self, size: (u32, u32), corner: Corner) -> Rect {
        let (w, h) = self.size();
        let (w, h, inset) = (w as i32, h as i32, INSET as i32);
        let (width, height) = (size.0 as i32, size.1 as i32);
        let left = match corner {
            Corner::UpperRight | Corner::LowerRight => width - inset - w,
            Corner::UpperLeft | Corner::LowerLeft => inset,
        };
        let top = match corner {
            Corner::UpperRight | Corner::UpperLeft => inset,
            Corner::LowerRight | Corner::LowerLeft => height - inset - h,
        };
        (left, top, left + w, top + h)
    }

    /// The first corner of a plotting area of `size` pixels whose box
    /// meets none of `data` (the boxes the data take, in pixels relative to
    /// the area), else the corner whose box meets the fewest.
    pub(crate) fn corner(&self, size: (u32, u32), data: &[Rect]) -> Corner {
        let hits = |corner: Corner| {
            let rect = self.rect(size, corner);
            data.iter().filter(|d| overlap(rect, **d)).count()
        };
        Corner::ALL
            .into_iter()
            .min_by_key(|&c| hits(c))
            .unwrap_or(Corner::UpperRight)
    }

    /// Draws the legend on `plot`, the chart's plotting area, in its upper
    /// right corner.
    pub(crate) fn draw<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        self.draw_at(plot, Corner::UpperRight)
    }

    /// Draws the legend on `plot`, the chart's plotting area, in `corner`.
    pub(crate) fn draw_at<DB: DrawingBackend>(
        &self,
        plot: &DrawingArea<DB, Shift>,
        corner: Corner,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let (x0, y0, x1, y1) = self.rect(plot.dim_in_pixel(), corner);
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
                Marker::Ring(color) => plot.draw(&Circle::new((x, y), 5, color.stroke_width(2)))?,
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

#[cfg(test)]
mod tests {
    use super::{Corner, Legend, Marker};
    use plotters::prelude::BLACK;

    #[test]
    fn the_legend_takes_the_first_corner_free_of_data() {
        crate::report::charts::register_font();
        let legend = Legend::new(vec![("a series".to_string(), Marker::Dot(BLACK))]);
        let size = (600, 400);
        assert_eq!(legend.corner(size, &[]), Corner::UpperRight);
        // Data along the top edge, as a share near 1 draws them.
        let top = [(0, 0, 600, 60)];
        assert_eq!(legend.corner(size, &top), Corner::LowerRight);
        // Data everywhere but the lower left.
        let data = [(0, 0, 600, 200), (300, 200, 600, 400)];
        assert_eq!(legend.corner(size, &data), Corner::LowerLeft);
        let (left, top, right, bottom) = legend.rect(size, Corner::LowerLeft);
        assert!(left > 0 && top > 200 && right < 300 && bottom < 400);
    }
}

//! A drawing backend that draws nothing and records what a chart asks it to
//! draw: each text's box as plotters' own text drawing would fill it with
//! the bundled font, and the rectangles, lines and dots with their colours.

use std::cell::RefCell;
use std::convert::Infallible;
use std::rc::Rc;

use plotters::prelude::{DrawingArea, IntoDrawingArea};
use plotters::style::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// A box in pixels: left, top, right, bottom (right and bottom exclusive).
pub type Box2 = (i32, i32, i32, i32);

/// One thing the chart asked the backend to draw.
#[derive(Debug, Clone)]
pub enum Shape {
    /// A text and its box.
    Text { text: String, bounds: Box2 },
    /// A rectangle, filled or outlined (also a filled polygon's extent).
    Rect {
        bounds: Box2,
        fill: bool,
        rgb: (u8, u8, u8),
    },
    /// A line or path: its extent, colour and stroke width.
    Line {
        bounds: Box2,
        rgb: (u8, u8, u8),
        width: u32,
    },
    /// A circle: its extent and colour.
    Dot { bounds: Box2, rgb: (u8, u8, u8) },
}

/// A backend that draws nothing and records every shape.
pub struct Recorder {
    size: (u32, u32),
    shapes: Rc<RefCell<Vec<Shape>>>,
}

fn span(points: &[BackendCoord]) -> Box2 {
    let xs = points.iter().map(|p| p.0);
    let ys = points.iter().map(|p| p.1);
    (
        xs.clone().min().unwrap_or(0),
        ys.clone().min().unwrap_or(0),
        xs.max().unwrap_or(0) + 1,
        ys.max().unwrap_or(0) + 1,
    )
}

impl DrawingBackend for Recorder {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Infallible>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Infallible>> {
        Ok(())
    }

    fn draw_pixel(
        &mut self,
        _point: BackendCoord,
        _color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        self.shapes.borrow_mut().push(Shape::Line {
            bounds: span(&[from, to]),
            rgb: style.color().rgb,
            width: style.stroke_width(),
        });
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        self.shapes.borrow_mut().push(Shape::Rect {
            bounds: span(&[upper_left, bottom_right]),
            fill,
            rgb: style.color().rgb,
        });
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let points: Vec<BackendCoord> = path.into_iter().collect();
        self.shapes.borrow_mut().push(Shape::Line {
            bounds: span(&points),
            rgb: style.color().rgb,
            width: style.stroke_width(),
        });
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        _fill: bool,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let r = radius as i32;
        self.shapes.borrow_mut().push(Shape::Dot {
            bounds: (
                center.0 - r,
                center.1 - r,
                center.0 + r + 1,
                center.1 + r + 1,
            ),
            rgb: style.color().rgb,
        });
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let points: Vec<BackendCoord> = vert.into_iter().collect();
        self.shapes.borrow_mut().push(Shape::Rect {
            bounds: span(&points),
            fill: true,
            rgb: style.color().rgb,
        });
        Ok(())
    }

    /// The box that plotters' own text drawing fills (the default
    /// `draw_text` of `plotters-backend`, less the clipping): the font's
    /// layout box, moved by the anchor, turned by the transform.
    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Infallible>> {
        let ((min_x, min_y), (max_x, max_y)) = style
            .layout_box(text)
            .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
        let (w, h) = (max_x - min_x, max_y - min_y);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0,
            HPos::Right => -w,
            HPos::Center => -w / 2,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0,
            VPos::Center => -h / 2,
            VPos::Bottom => -h,
        };
        let t = style.transform();
        let corners: Vec<BackendCoord> = [(dx, dy), (dx + w - 1, dy + h - 1)]
            .into_iter()
            .map(|(x, y)| {
                let (x, y) = t.transform(x, y);
                (pos.0 + x, pos.1 + y)
            })
            .collect();
        self.shapes.borrow_mut().push(Shape::Text {
            text: text.to_string(),
            bounds: span(&corners),
        });
        Ok(())
    }
}

/// Draws with `draw` on a recorder of `size` and returns the shapes in order.
pub fn record(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Recorder, plotters::coord::Shift>),
) -> Vec<Shape> {
    let shapes = Rc::new(RefCell::new(Vec::new()));
    let root = Recorder {
        size,
        shapes: Rc::clone(&shapes),
    }
    .into_drawing_area();
    draw(&root);
    let recorded = shapes.borrow().clone();
    recorded
}

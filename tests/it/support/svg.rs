//! A terminal screen (ratatui's `Buffer`) as an SVG picture: one `<text>` per row, one
//! `<tspan>` per run of cells drawn alike, stretched to the run's columns so every glyph sits in
//! its cell whatever monospace font the viewer has; backgrounds as rectangles.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

const CELL_W: f64 = 8.4;
const CELL_H: f64 = 18.0;
const FONT: &str = "ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace";

/// The picture of `buffer`, drawn on `background` with `foreground` for cells without colour.
pub(crate) fn render(buffer: &Buffer, background: &str, foreground: &str, title: &str) -> String {
    let (width, height) = (buffer.area.width, buffer.area.height);
    let (w, h) = (f64::from(width) * CELL_W, f64::from(height) * CELL_H);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.1} {h:.1}\" width=\"{w:.0}\" \
         height=\"{h:.0}\" role=\"img\" aria-label=\"{}\">\n<title>{}</title>\n\
         <rect width=\"100%\" height=\"100%\" fill=\"{background}\"/>\n",
        escape(title),
        escape(title)
    );
    // Backgrounds, a run of cells at a time.
    for y in 0..height {
        let mut x = 0;
        while x < width {
            let bg = color(buffer[(x, y)].bg);
            let start = x;
            while x < width && color(buffer[(x, y)].bg) == bg {
                x += 1;
            }
            if let Some(bg) = bg {
                out.push_str(&format!(
                    "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{CELL_H:.1}\" fill=\"{bg}\"/>\n",
                    f64::from(start) * CELL_W,
                    f64::from(y) * CELL_H,
                    f64::from(x - start) * CELL_W
                ));
            }
        }
    }
    out.push_str(&format!(
        "<g font-family=\"{FONT}\" font-size=\"14\" fill=\"{foreground}\" xml:space=\"preserve\">\n"
    ));
    for y in 0..height {
        let baseline = f64::from(y) * CELL_H + CELL_H * 0.75;
        let mut spans = String::new();
        let mut x = 0;
        while x < width {
            let cell = &buffer[(x, y)];
            let look = (color(cell.fg), cell.modifier);
            let start = x;
            let mut text = String::new();
            let mut columns = 0u16;
            while x < width {
                let cell = &buffer[(x, y)];
                if (color(cell.fg), cell.modifier) != look {
                    break;
                }
                // A wide glyph's second cell is empty: it belongs to the glyph before it.
                text.push_str(cell.symbol());
                columns += 1;
                x += 1;
            }
            if text.trim().is_empty() {
                continue;
            }
            let mut attributes = format!(
                "x=\"{:.1}\" textLength=\"{:.1}\" lengthAdjust=\"spacingAndGlyphs\"",
                f64::from(start) * CELL_W,
                f64::from(columns) * CELL_W
            );
            if let Some(fg) = look.0 {
                attributes.push_str(&format!(" fill=\"{fg}\""));
            }
            if look.1.contains(Modifier::BOLD) {
                attributes.push_str(" font-weight=\"bold\"");
            }
            if look.1.contains(Modifier::ITALIC) {
                attributes.push_str(" font-style=\"italic\"");
            }
            if look.1.contains(Modifier::UNDERLINED) {
                attributes.push_str(" text-decoration=\"underline\"");
            }
            spans.push_str(&format!("<tspan {attributes}>{}</tspan>", escape(&text)));
        }
        if !spans.is_empty() {
            out.push_str(&format!("<text y=\"{baseline:.1}\">{spans}</text>\n"));
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

/// A cell's colour as SVG writes it; `None` for the terminal's default.
fn color(color: Color) -> Option<String> {
    let (r, g, b) = match color {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(n) => indexed(n),
        named => indexed(match named {
            Color::Black => 0,
            Color::Red => 1,
            Color::Green => 2,
            Color::Yellow => 3,
            Color::Blue => 4,
            Color::Magenta => 5,
            Color::Cyan => 6,
            Color::Gray => 7,
            Color::DarkGray => 8,
            Color::LightRed => 9,
            Color::LightGreen => 10,
            Color::LightYellow => 11,
            Color::LightBlue => 12,
            Color::LightMagenta => 13,
            Color::LightCyan => 14,
            _ => 15,
        }),
    };
    Some(format!("#{r:02x}{g:02x}{b:02x}"))
}

/// The xterm 256-colour palette.
fn indexed(n: u8) -> (u8, u8, u8) {
    const BASE: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    match n {
        0..=15 => BASE[usize::from(n)],
        16..=231 => {
            let n = n - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(n / 36), level((n / 6) % 6), level(n % 6))
        }
        _ => {
            let grey = 8 + (n - 232) * 10;
            (grey, grey, grey)
        }
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

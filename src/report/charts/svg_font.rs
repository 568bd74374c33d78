//! Makes the chart SVGs self-contained: plotters' SVG backend names a font
//! family and leaves the choice of the face to the viewer, so the same file
//! looked different from one machine to the next. After plotters writes an
//! SVG, a `<style>` element is put at its top with an `@font-face` that
//! carries a subset of the bundled DejaVu Sans (`assets/DejaVuSans-charts.ttf`,
//! about 25 KB; how it was made is in `assets/README.md`) as a base64 data
//! URI, and a rule that sets every text in it, falling back to an installed
//! DejaVu Sans and then to the viewer's sans-serif for characters outside
//! the subset. The text's `font-family` attribute stays "DejaVu Sans" for
//! viewers that ignore style sheets. The style is the same in every file, so
//! SVGs inlined together into one HTML page agree.

use std::sync::OnceLock;

/// The subset of DejaVu Sans embedded in each SVG.
const SUBSET: &[u8] = include_bytes!("../../../assets/DejaVuSans-charts.ttf");

/// The family name under which the embedded face is declared; distinct from
/// "DejaVu Sans" so that an installed full DejaVu Sans still serves the
/// characters that the subset lacks.
pub(crate) const EMBEDDED_FAMILY: &str = "hoyito-dejavu-sans";

/// Base64 of `bytes`, standard alphabet with padding.
///
/// Source: RFC 4648, "The Base16, Base32, and Base64 Data Encodings", §4.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The `<style>` element put into every SVG.
fn style() -> &'static str {
    static STYLE: OnceLock<String> = OnceLock::new();
    STYLE.get_or_init(|| {
        format!(
            "<style>@font-face{{font-family:\"{EMBEDDED_FAMILY}\";\
             src:url(\"data:font/ttf;base64,{}\") format(\"truetype\");}}\
             text{{font-family:\"{EMBEDDED_FAMILY}\",\"DejaVu Sans\",sans-serif;}}</style>\n",
            base64(SUBSET)
        )
    })
}

/// `svg` with the font's `<style>` element right after its opening `<svg>`
/// tag; unchanged if it has none.
pub(crate) fn embed_font(svg: &str) -> String {
    let Some(open) = svg.find("<svg") else {
        return svg.to_string();
    };
    let Some(end) = svg[open..].find('>') else {
        return svg.to_string();
    };
    let at = open + end + 1;
    let style = style();
    let mut out = String::with_capacity(svg.len() + style.len() + 1);
    out.push_str(&svg[..at]);
    out.push('\n');
    out.push_str(style);
    out.push_str(svg[at..].trim_start_matches('\n'));
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_matches_rfc_4648_test_vectors() {
        // RFC 4648 §10.
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
    }
}

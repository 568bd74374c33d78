//! The page's fixed parts: its head (with a content security policy that
//! forbids every request, so a page that tried one would fail loudly in the
//! browser test), the style sheet and the script, kept as plain files under
//! `assets/` and built into the binary.

use super::blocks::escape;

/// The style sheet of the report and the viewer.
const CSS: &str = include_str!("assets/report.css");
/// Sortable tables and the game viewer; no rule of the game is in it.
const JS: &str = include_str!("assets/report.js");

/// Nothing may be fetched: styles and scripts are inline, the charts' font
/// is a `data:` URI.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; \
                      script-src 'unsafe-inline'; font-src data:; img-src data:";

/// From `<!DOCTYPE html>` to the opening `<body>`; `style` is added to the
/// style sheet (the charts' embedded font).
pub fn page_head(title: &str, style: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>\n{CSS}{style}\n</style>\n</head>\n<body>\n",
        escape(title)
    )
}

/// The script and the end of the page.
pub fn page_tail() -> String {
    format!("<script>\n{JS}</script>\n</body>\n</html>\n")
}

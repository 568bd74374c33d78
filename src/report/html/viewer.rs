//! The viewer's markup, shared by the report page and the one-game page of
//! `hoyito replay DIR ID --html FILE`. The script fills it from a game's
//! embedded positions; the board is drawn as the players see it, North's
//! row on top from right to left, and every hole carries its side, number
//! and seeds as `data-` attributes, so a test can read the position back.

use super::assets::{page_head, page_tail};
use super::blocks::escape;
use super::game_view::GameView;

/// The viewer section; `standalone` for a page that holds one game only.
pub fn viewer_section(standalone: bool) -> String {
    let back = match standalone {
        true => "",
        false => "<a href=\"#games-to-watch\" id=\"viewer-close\">&times; back to the report</a>\n",
    };
    format!(
        r#"<section id="viewer" class="viewer" hidden>
<div class="viewer-inner">
{back}<h2 id="viewer-title">Game</h2>
<p id="viewer-sub"></p>
<p id="viewer-missing" class="missing" hidden></p>
<div id="viewer-body">
<div id="board" class="board" data-ply="0" data-lap="-1">
<div class="store" id="store-N" data-side="N">North <b>0</b></div>
<div class="row" id="row-N"></div>
<div class="row" id="row-S"></div>
<div class="store" id="store-S" data-side="S">South <b>0</b></div>
</div>
<p id="to-move" data-side="S"></p>
<p id="step-text" aria-live="polite"></p>
<div class="controls">
<button type="button" id="go-start" title="start (Home)">|&#x25C0; start</button>
<button type="button" id="prev-move" title="previous move (Left arrow)">&#x25C0;&#x25C0; move</button>
<button type="button" id="prev-lap" title="previous lap (Shift+Left)">&#x25C0; lap</button>
<button type="button" id="next-lap" title="next lap (Shift+Right)">lap &#x25B6;</button>
<button type="button" id="next-move" title="next move (Right arrow)">move &#x25B6;&#x25B6;</button>
<button type="button" id="go-end" title="end (End)">end &#x25B6;|</button>
</div>
<input type="range" id="ply-slider" min="0" max="0" value="0" aria-label="ply">
<p id="ply-label"></p>
<p class="hint">Keys: Left and Right arrows step by move, with Shift by lap; Home and End.
Highlighted: the hole picked up (blue), the lap's last seed (orange), captured holes (red).</p>
<p id="ending" hidden></p>
<ol id="move-list"></ol>
</div>
</div>
</section>
"#
    )
}

/// A page with one game's viewer alone.
pub fn game_page(view: &GameView) -> String {
    let mut page = page_head(&format!("Hoyito game {}", view.game_id()), "");
    page.push_str("<main id=\"report\" class=\"standalone\">\n");
    page.push_str(&viewer_section(true));
    page.push_str("</main>\n");
    page.push_str(&game_data(view));
    page.push_str("<script type=\"application/json\" id=\"viewer-config\">");
    page.push_str(&format!(
        "{{\"games\":null,\"open\":{},\"missing\":\"\"}}",
        view.game_id()
    ));
    page.push_str("</script>\n");
    page.push_str(&page_tail());
    page
}

/// The element that carries one game's positions.
pub fn game_data(view: &GameView) -> String {
    format!(
        "<script type=\"application/json\" class=\"game-data\" data-game=\"{}\">{}</script>\n",
        escape(&view.game_id().to_string()),
        view.to_json()
    )
}

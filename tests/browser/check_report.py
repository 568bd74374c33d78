#!/usr/bin/env python3
"""Checks a hoyito report.html in a real browser, headless Chromium driven
through chromedriver's WebDriver HTTP API (W3C WebDriver, plus chromedriver's
`se/log` endpoint for the browser console and the DevTools performance log,
which lists every network request). Python's standard library only.

usage: check_report.py HOYITO RUN_DIR GAME_PAGE SCREENSHOT_DIR

Checks, each failing with one line naming what is wrong:
- no console error and no network request other than the page itself;
- every chart of RUN_DIR/charts is an inline SVG, every table of report.md
  is a table of the page, every section of report.md is in the contents;
- tables sort by column;
- a game opened from the games table, stepped move by move to the end,
  shows at every ply the position that `HOYITO apply` gives for the same
  moves (read from the board's cells), its laps step one by one, and its
  ending is shown at the end; the arrow keys step back and forth;
- a game the page does not carry says how to get it;
- the one-game page of `hoyito replay --html` (GAME_PAGE) plays to the same
  final position.
Saves SCREENSHOT_DIR/report.png and SCREENSHOT_DIR/viewer.png.
"""

import base64
import csv
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ARROW_LEFT, ARROW_RIGHT, SHIFT = "\ue012", "\ue014", "\ue008"


def fail(message):
    print(f"browser test FAILED: {message}")
    sys.exit(1)


class Driver:
    """A chromedriver process and one browser session."""

    def __init__(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            ["chromedriver", f"--port={self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        else:
            fail("chromedriver did not start")
        binary = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
        options = {
            "args": [
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--window-size=1400,1000",
                "--allow-file-access-from-files",
            ]
        }
        if binary:
            options["binary"] = binary
        caps = {
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:chromeOptions": options,
                    "goog:loggingPrefs": {"browser": "ALL", "performance": "ALL"},
                }
            }
        }
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return json.loads(resp.read() or b"{}").get("value")
        except urllib.error.HTTPError as err:
            fail(f"WebDriver {method} {path}: {err.read().decode(errors='replace')[:300]}")

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def go(self, url):
        self.s("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def keys(self, *keys, shift=False):
        actions = []
        if shift:
            actions.append({"type": "keyDown", "value": SHIFT})
        for k in keys:
            actions += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        if shift:
            actions.append({"type": "keyUp", "value": SHIFT})
        self.s("POST", "/actions", {"actions": [{"type": "key", "id": "kb", "actions": actions}]})
        self.s("DELETE", "/actions")

    def log(self, kind):
        return self.s("POST", "/se/log", {"type": kind}) or []

    def screenshot(self, path):
        png = base64.b64decode(self.s("GET", "/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def quit(self):
        try:
            self.s("DELETE", "")
        finally:
            self.proc.terminate()
            self.proc.wait(timeout=10)


READ_BOARD = """
var b = document.getElementById('board');
function row(side) {
  var cs = Array.prototype.slice.call(b.querySelectorAll('.hole[data-side="' + side + '"]'));
  var order = cs.map(function (c) { return +c.dataset.hole; });
  cs.sort(function (x, y) { return x.dataset.hole - y.dataset.hole; });
  return [cs.map(function (c) { return c.querySelector('.seeds').textContent; }).join(','), order];
}
var s = row('S'), n = row('N');
var top = function (id) { return document.getElementById(id).getBoundingClientRect().top; };
return {
  pos: s[0] + '/' + n[0] + ' ' + document.getElementById('to-move').dataset.side + ' ' +
       document.querySelector('#store-S b').textContent + '-' +
       document.querySelector('#store-N b').textContent,
  ply: +b.dataset.ply, lap: +b.dataset.lap,
  northOrder: n[1], southOrder: s[1], northOnTop: top('row-N') < top('row-S'),
  ending: document.getElementById('ending').hidden ? null : document.getElementById('ending').textContent,
  viewer: !document.getElementById('viewer').hidden
};
"""


def apply_positions(hoyito, variant, start, moves):
    """The position after each prefix of `moves`, from `hoyito apply`."""
    out = [start]
    for k in range(1, len(moves) + 1):
        res = subprocess.run(
            [hoyito, "apply", "--variant", variant, "-p", start, *moves[:k]],
            capture_output=True,
            text=True,
        )
        if res.returncode != 0:
            fail(f"hoyito apply failed: {res.stderr.strip()}")
        out.append(res.stdout.strip().splitlines()[-1])
    return out


def check_console(driver, where):
    errors = [e for e in driver.log("browser") if e.get("level") == "SEVERE"]
    if errors:
        fail(f"{where}: console errors: {errors[:3]}")


def check_network(driver, page_url, where):
    urls = []
    for entry in driver.log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    # data: URIs (the charts' embedded font) are read from the page itself.
    others = [u[:80] for u in urls if u.split("#")[0] != page_url and not u.startswith("data:")]
    if others:
        fail(f"{where}: network requests other than the page: {others[:5]}")
    return len(urls)


def game_rows(run_dir):
    with open(os.path.join(run_dir, "games.csv"), newline="") as f:
        games = {int(r["game_id"]): r for r in csv.DictReader(f)}
    with open(os.path.join(run_dir, "moves.csv"), newline="") as f:
        moves = {int(r["game_id"]): r["moves"].split() for r in csv.DictReader(f)}
    return games, moves


def play_through(driver, hoyito, row, moves, where):
    """Steps the open game to its end with the buttons, checking each ply."""
    holes, seeds = int(row["holes"]), int(row["seeds"])
    start = f"{','.join([str(seeds)] * holes)}/{','.join([str(seeds)] * holes)} S 0-0"
    expected = apply_positions(hoyito, row["variant"], start, moves)
    board = driver.js(READ_BOARD)
    if board["northOrder"] != list(range(holes, 0, -1)) or board["southOrder"] != list(range(1, holes + 1)):
        fail(f"{where}: rows not drawn as the players see them: North {board['northOrder']}, South {board['southOrder']}")
    if not board["northOnTop"]:
        fail(f"{where}: North's row is not on top")
    driver.js("document.getElementById('go-start').click();")
    laps_seen = 0
    for ply in range(len(moves) + 1):
        board = driver.js(READ_BOARD)
        if board["ply"] != ply or board["lap"] != -1:
            fail(f"{where}: expected ply {ply}, the board shows ply {board['ply']} lap {board['lap']}")
        if board["pos"] != expected[ply]:
            fail(f"{where}, ply {ply}: the page shows {board['pos']!r}, hoyito apply gives {expected[ply]!r}")
        if (board["ending"] is not None) != (ply == len(moves)):
            fail(f"{where}, ply {ply}: the ending is {'shown' if board['ending'] else 'not shown'}")
        if ply == len(moves):
            break
        # Lap by lap through the next move, then the move's end.
        lap = 0
        while True:
            board = driver.js("document.getElementById('next-lap').click();" + READ_BOARD)
            if board["ply"] != ply + 1:
                fail(f"{where}: lap stepping left ply {ply + 1}")
            if board["lap"] == -1:
                break
            if board["lap"] != lap:
                fail(f"{where}, ply {ply + 1}: lap {board['lap']} after lap {lap - 1}")
            lap += 1
        laps_seen += lap
        driver.js("document.getElementById('prev-move').click();")
        board = driver.js("document.getElementById('next-move').click();" + READ_BOARD)
        if board["ply"] != ply + 1 or board["lap"] != -1:
            fail(f"{where}: the move button went to ply {board['ply']} lap {board['lap']}")
    if row["ending"] not in (board["ending"] or ""):
        fail(f"{where}: the ending {row['ending']!r} is not stated: {board['ending']!r}")
    return expected, laps_seen


def main():
    if len(sys.argv) != 5:
        fail("usage: check_report.py HOYITO RUN_DIR GAME_PAGE SCREENSHOT_DIR")
    hoyito, run_dir, game_page, shots = sys.argv[1:]
    run_dir = os.path.abspath(run_dir)
    os.makedirs(shots, exist_ok=True)
    page = "file://" + os.path.join(run_dir, "report.html")
    games, moves = game_rows(run_dir)
    driver = Driver()
    try:
        driver.go(page)
        time.sleep(0.5)
        check_console(driver, "report")
        requests = check_network(driver, page, "report")
        if requests < 1:
            fail("the performance log saw no request at all (not even the page)")
        counts = driver.js(
            "return {svgs: document.querySelectorAll('figure.chart > svg').length,"
            " tables: document.querySelectorAll('main table').length,"
            " toc: Array.prototype.map.call(document.querySelectorAll('#toc a'), function (a) { return a.textContent; }),"
            " links: Array.prototype.map.call(document.querySelectorAll('a.game-link'), function (a) { return +a.dataset.game; }),"
            " embedded: Array.prototype.map.call(document.querySelectorAll('script.game-data'), function (s) { return +s.dataset.game; })};"
        )
        charts = [f for f in os.listdir(os.path.join(run_dir, "charts")) if f.endswith(".svg")]
        if counts["svgs"] != len(charts):
            fail(f"{counts['svgs']} inline SVG charts, but charts/ holds {len(charts)} SVGs")
        with open(os.path.join(run_dir, "report.md")) as f:
            markdown = f.read()
        md_tables = len(re.findall(r"^\|[-:| ]+\|$", markdown, re.M))
        if counts["tables"] != md_tables + 1:
            fail(f"{counts['tables']} tables in the page, report.md has {md_tables} (+1 games table)")
        for heading in re.findall(r"^#{2,3} (.+)$", markdown, re.M):
            plain = heading.replace("`", "").replace("**", "")
            if plain not in counts["toc"]:
                fail(f"section {heading!r} of report.md is not in the contents")
        driver.screenshot(os.path.join(shots, "report.png"))

        # Sorting: the games table by plies, both ways.
        order = driver.js(
            "var t = document.querySelector('#games-to-watch table');"
            "var col = Array.prototype.map.call(t.tHead.rows[0].cells, function (c) { return c.textContent; }).indexOf('plies');"
            "var read = function () { return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return +r.cells[col].textContent; }); };"
            "var b = t.tHead.rows[0].cells[col].querySelector('button'); b.click(); var up = read(); b.click(); return [up, read()];"
        )
        if order[0] != sorted(order[0]) or order[1] != sorted(order[1], reverse=True):
            fail(f"sorting by plies gave {order[0][:8]} then {order[1][:8]}")

        # A game from the table: the one with the most plies among those linked.
        linked = [g for g in counts["links"] if g in counts["embedded"]]
        if not linked:
            fail("no game of the games table is carried by the page")
        game = max(linked, key=lambda g: (len(moves[g]), -g))
        driver.js(f"document.querySelector('a.game-link[data-game=\"{game}\"]').click();")
        board = driver.js(READ_BOARD)
        if not board["viewer"]:
            fail(f"clicking game {game} did not open the viewer")
        expected, laps = play_through(driver, hoyito, games[game], moves[game], f"game {game}")

        # Keyboard: from the end, back two moves and forward one; a lap with Shift.
        driver.js("document.activeElement && document.activeElement.blur();")
        end = len(moves[game])
        driver.keys(ARROW_LEFT, ARROW_LEFT)
        board = driver.js(READ_BOARD)
        if board["ply"] != end - 2 or board["pos"] != expected[end - 2]:
            fail(f"ArrowLeft twice from ply {end} shows ply {board['ply']}: {board['pos']}")
        driver.keys(ARROW_RIGHT)
        board = driver.js(READ_BOARD)
        if board["ply"] != end - 1 or board["pos"] != expected[end - 1]:
            fail(f"ArrowRight shows ply {board['ply']}: {board['pos']}")
        driver.keys(ARROW_RIGHT, shift=True)
        board = driver.js(READ_BOARD)
        if board["ply"] != end or board["lap"] not in (0, -1):
            fail(f"Shift+ArrowRight shows ply {board['ply']} lap {board['lap']}")
        # The viewer's screenshot: mid-game, in the middle of a move's laps.
        mid = max(1, end // 2)
        driver.js(f"document.getElementById('ply-slider').value = '{mid - 1}';"
                  "document.getElementById('ply-slider').dispatchEvent(new Event('input'));")
        driver.keys(ARROW_RIGHT, shift=True)
        board = driver.js(READ_BOARD)
        if board["ply"] != mid or board["pos"] == "":
            fail(f"the slider and Shift+ArrowRight show ply {board['ply']}, expected {mid}")
        driver.screenshot(os.path.join(shots, "viewer.png"))

        # A game the page does not carry says how to get it.
        absent = next((g for g in sorted(games) if g not in counts["embedded"]), None)
        if absent is not None:
            driver.js(f"location.hash = '#game-{absent}';")
            time.sleep(0.2)
            text = driver.js("var m = document.getElementById('viewer-missing'); return m.hidden ? '' : m.textContent;")
            if "--game-ids" not in text:
                fail(f"game {absent}, not carried, shows {text!r}")
        check_console(driver, "viewer")
        check_network(driver, page, "viewer")

        # The one-game page of hoyito replay --html.
        single = "file://" + os.path.abspath(game_page)
        driver.go(single)
        time.sleep(0.3)
        m = re.search(r"data-game=\"(\d+)\"", open(game_page).read())
        if not m:
            fail("the replay page carries no game")
        gid = int(m.group(1))
        board = driver.js("document.getElementById('go-end').click();" + READ_BOARD)
        final = apply_positions(hoyito, games[gid]["variant"],
                                f"{','.join([games[gid]['seeds']] * int(games[gid]['holes']))}/"
                                f"{','.join([games[gid]['seeds']] * int(games[gid]['holes']))} S 0-0",
                                moves[gid])[-1]
        if board["pos"] != final or board["ending"] is None:
            fail(f"replay page of game {gid} ends on {board['pos']!r}, hoyito apply gives {final!r}")
        check_console(driver, "replay page")
        check_network(driver, single, "replay page")
    finally:
        driver.quit()
    print(f"browser test passed: {counts['svgs']} charts, {counts['tables']} tables, "
          f"{len(counts['embedded'])} games carried; game {game} checked at all {end + 1} "
          f"plies ({laps} laps) against hoyito apply; keyboard, sorting, replay page ok")


if __name__ == "__main__":
    main()

// Sortable tables and the game viewer of a hoyito report. The viewer only
// shows positions that the engine computed and the page embeds (per ply
// and per lap); there is no rule of the game in this script.
"use strict";
(function () {
  // ---- sortable tables ----
  function sortKey(text) {
    var t = text.trim().replace(/\u2212/g, "-");
    var m = t.match(/^[([]?([-+]?\d+(?:\.\d+)?)/);
    return m ? { n: parseFloat(m[1]), t: t } : { n: null, t: t };
  }
  function sortTable(th) {
    var table = th.closest("table");
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    Array.prototype.forEach.call(th.parentNode.children, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var sign = dir === "ascending" ? 1 : -1;
    rows.sort(function (a, b) {
      var x = sortKey(a.cells[col] ? a.cells[col].textContent : "");
      var y = sortKey(b.cells[col] ? b.cells[col].textContent : "");
      if (x.n !== null && y.n !== null) return sign * (x.n - y.n);
      if (x.n !== null) return -1;
      if (y.n !== null) return 1;
      return sign * x.t.localeCompare(y.t);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("table.sortable th button").forEach(function (b) {
    b.addEventListener("click", function () { sortTable(b.parentNode); });
  });

  // ---- the viewer ----
  var viewer = document.getElementById("viewer");
  if (!viewer) return;
  var configEl = document.getElementById("viewer-config");
  var config = configEl ? JSON.parse(configEl.textContent) : { games: null, open: null, missing: "" };
  var el = function (id) { return document.getElementById(id); };
  var cache = {};
  var game = null;   // the game shown
  var frames = [];   // {ply, lap}: lap -1 is the position after the ply
  var plyFrame = []; // frame index of each ply's position
  var at = 0;        // current frame
  var cells = {};    // board index -> hole element
  var SIDE = { S: "South", N: "North" };

  function loadGame(id) {
    if (cache[id]) return cache[id];
    var data = document.querySelector('script.game-data[data-game="' + id + '"]');
    if (!data) return null;
    cache[id] = JSON.parse(data.textContent);
    return cache[id];
  }

  function holeElement(side, number, index) {
    var d = document.createElement("div");
    d.className = "hole";
    d.dataset.side = side;
    d.dataset.hole = String(number);
    d.dataset.index = String(index);
    var num = document.createElement("span");
    num.className = "num";
    num.textContent = side + number;
    var seeds = document.createElement("span");
    seeds.className = "seeds";
    d.appendChild(num);
    d.appendChild(seeds);
    cells[index] = d;
    return d;
  }

  function setup(g) {
    game = g;
    var n = g.n;
    var rowN = el("row-N"), rowS = el("row-S");
    rowN.textContent = "";
    rowS.textContent = "";
    cells = {};
    // As the players see it: North's row on top, its hole 1 on the right.
    for (var k = n; k >= 1; k--) rowN.appendChild(holeElement("N", k, n + k - 1));
    for (var j = 1; j <= n; j++) rowS.appendChild(holeElement("S", j, j - 1));
    frames = [{ ply: 0, lap: -1 }];
    plyFrame = [0];
    g.plies.forEach(function (p, i) {
      p.laps.forEach(function (_, k) { frames.push({ ply: i + 1, lap: k }); });
      plyFrame.push(frames.length);
      frames.push({ ply: i + 1, lap: -1 });
    });
    el("viewer-title").textContent = "Game " + g.id + " (pair " + g.pair + ")";
    el("viewer-sub").textContent = g.title + "; South: " + g.south + ", North: " + g.north + ".";
    var slider = el("ply-slider");
    slider.max = String(g.plies.length);
    var list = el("move-list");
    list.textContent = "";
    g.plies.forEach(function (p, i) {
      var li = document.createElement("li");
      li.textContent = p.by + " " + p.mv;
      if (p.cap > 0) {
        var c = document.createElement("span");
        c.className = "cap";
        c.textContent = " \u00d7" + p.cap;
        li.appendChild(c);
      }
      if (p.xm) {
        var x = document.createElement("span");
        x.className = "xm";
        x.textContent = " +";
        li.appendChild(x);
      }
      li.title = p.who;
      li.addEventListener("click", function () { show(plyFrame[i + 1]); });
      list.appendChild(li);
    });
    show(0);
  }

  function moveWords(p) {
    var s = SIDE[p.by] + " plays " + p.mv + " (" + p.who + ")";
    if (p.cap > 0) s += ", captures " + p.cap;
    if (p.ls) s += "; " + SIDE[p.ls[0]] + " takes the last " + p.ls[1] + " seed(s)";
    if (p.xm) s += "; extra move: " + SIDE[p.by] + " moves again";
    return s + ".";
  }

  function show(i) {
    if (!game) return;
    at = Math.max(0, Math.min(frames.length - 1, i));
    var f = frames[at];
    var ply = f.ply ? game.plies[f.ply - 1] : null;
    var board, stores, pick = null, last = null, taken = [], text, mover;
    if (f.lap >= 0) {
      var lap = ply.laps[f.lap];
      board = lap.b;
      stores = lap.c;
      pick = lap.f;
      last = lap.e;
      taken = lap.x.map(function (x) { return x[0]; });
      mover = ply.by;
      text = "Ply " + f.ply + ", lap " + (f.lap + 1) + " of " + ply.laps.length + ": " + lap.d + ".";
    } else {
      var pos = ply ? ply.to : game.start;
      board = pos.b;
      stores = pos.c;
      mover = pos.t;
      if (ply && ply.laps.length) {
        pick = ply.laps[0].f;
        last = ply.laps[ply.laps.length - 1].e;
        ply.laps.forEach(function (l) { l.x.forEach(function (x) { taken.push(x[0]); }); });
      }
      text = ply ? "Ply " + f.ply + ": " + moveWords(ply) : "Start position.";
    }
    for (var k = 0; k < board.length; k++) {
      var c = cells[k];
      c.dataset.seeds = String(board[k]);
      c.querySelector(".seeds").textContent = String(board[k]);
      c.classList.toggle("pick", k === pick);
      c.classList.toggle("last", k === last && k !== pick);
      c.classList.toggle("captured", taken.indexOf(k) >= 0);
    }
    ["S", "N"].forEach(function (side, s) {
      var store = el("store-" + side);
      store.dataset.seeds = String(stores[s]);
      store.querySelector("b").textContent = String(stores[s]);
      store.classList.toggle("mover", side === mover);
    });
    var end = f.ply === game.plies.length && f.lap < 0;
    var toMove = el("to-move");
    toMove.dataset.side = mover;
    toMove.textContent = f.lap >= 0 ? SIDE[mover] + " is sowing" : end ? "Game over" : SIDE[mover] + " to move";
    el("step-text").textContent = text;
    var b = el("board");
    b.dataset.ply = String(f.ply);
    b.dataset.lap = String(f.lap);
    b.dataset.frame = String(at);
    el("ply-slider").value = String(f.ply);
    el("ply-label").textContent = "ply " + f.ply + " of " + game.plies.length +
      (f.lap >= 0 ? ", lap " + (f.lap + 1) + " of " + ply.laps.length : "");
    var ending = el("ending");
    ending.hidden = !end;
    ending.dataset.ending = game.ending;
    ending.textContent = "Result: " + game.result + ".";
    var items = el("move-list").children;
    for (var m = 0; m < items.length; m++) items[m].classList.toggle("current", m === f.ply - 1);
  }

  // By move: back to the position before the move shown, or on to the end
  // of the move (the one being sown, or the next).
  function stepMove(d) {
    if (!game) return;
    var f = frames[at];
    var target = d < 0 ? f.ply - 1 : f.lap >= 0 ? f.ply : f.ply + 1;
    show(plyFrame[Math.max(0, Math.min(game.plies.length, target))]);
  }

  function open(id) {
    var g = loadGame(id);
    viewer.hidden = false;
    el("viewer-missing").hidden = !!g;
    el("viewer-body").hidden = !g;
    if (g) {
      if (game !== g) setup(g);
      return;
    }
    game = null;
    el("viewer-title").textContent = "Game " + id;
    el("viewer-sub").textContent = "";
    var text = config.games !== null && id >= config.games
      ? "There is no game " + id + ": this run's games are 0 to " + (config.games - 1) + "."
      : config.missing.replace(/\{id\}/g, String(id));
    el("viewer-missing").textContent = text;
  }

  function route() {
    var m = location.hash.match(/^#game-(\d+)$/);
    if (m) {
      open(parseInt(m[1], 10));
    } else if (config.open !== null) {
      open(config.open);
    } else {
      viewer.hidden = true;
    }
  }

  el("go-start").addEventListener("click", function () { show(0); });
  el("go-end").addEventListener("click", function () { show(frames.length - 1); });
  el("prev-move").addEventListener("click", function () { stepMove(-1); });
  el("next-move").addEventListener("click", function () { stepMove(1); });
  el("prev-lap").addEventListener("click", function () { show(at - 1); });
  el("next-lap").addEventListener("click", function () { show(at + 1); });
  el("ply-slider").addEventListener("input", function (e) {
    show(plyFrame[parseInt(e.target.value, 10)]);
  });
  document.addEventListener("keydown", function (e) {
    if (viewer.hidden || !game) return;
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA") return;
    var done = true;
    if (e.key === "ArrowRight") e.shiftKey ? show(at + 1) : stepMove(1);
    else if (e.key === "ArrowLeft") e.shiftKey ? show(at - 1) : stepMove(-1);
    else if (e.key === "Home") show(0);
    else if (e.key === "End") show(frames.length - 1);
    else if (e.key === "Escape" && config.open === null) location.hash = "#games-to-watch";
    else done = false;
    if (done) e.preventDefault();
  });
  var form = el("open-game");
  if (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var v = el("open-game-id").value;
      if (/^\d+$/.test(v)) location.hash = "#game-" + v;
    });
  }
  window.addEventListener("hashchange", route);
  route();
})();

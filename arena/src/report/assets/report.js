// report.html's script (arena/src/report/html.rs embeds it): the game list and the game viewer.
//
// The games come from <script id="data"> as JSON; their moves and board pictures ("frames", drawn by the
// games crate: arena/src/frames) from <script id="frames">, one line a game (gzip'd JSON, base64),
// decoded when the game is first opened.
// A game's board is drawn by the one renderer, ArenaBoard (arena/src/frames/board.js), which knows no
// game's rules. The browser test (arena/tests/report_browser.rs) compares the pieces drawn with the
// games crate ply by ply.
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('data').textContent);
  var ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
  var OWNER = ['first', 'second'];
  var $ = function (id) { return document.getElementById(id); };
  var esc = function (s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  };
  D.games.forEach(function (g, k) { g.k = k; });
  // The moves and pictures of each game opened so far, by its index in D.games; the lines of the block.
  var VIEWS = {}, LINES = null;
  function view(g) {
    if (VIEWS[g.k]) return Promise.resolve(VIEWS[g.k]);
    if (!LINES) LINES = $('frames').textContent.trim().split('\n');
    // decode() may throw before it has a promise (bad base64, no DecompressionStream): a rejection too.
    return new Promise(function (ok) { ok(ArenaBoard.decode(LINES[g.k])); }).then(function (v) {
      v.r = ArenaBoard.expand(v.f);
      VIEWS[g.k] = v;
      return v;
    });
  }

  // The move times of html.rs's compact_ms: base 32, the digits before the last from the upper half of
  // the alphabet.
  function decodeMs(s) {
    var out = [], acc = 0;
    for (var k = 0; k < s.length; k++) {
      var d = ALPHABET.indexOf(s[k]);
      if (d >= 32) { acc = acc * 32 + d - 32; } else { out.push(acc * 32 + d); acc = 0; }
    }
    return out;
  }

  // ---- The game list: filtered, a page at a time. ----
  var PAGE = 100, filtered = D.games, page = 0, current = null;
  function resultText(g) {
    return g.res + (g.s ? ' (' + g.s[0] + ':' + g.s[1] + ')' : '');
  }
  function renderList() {
    var pages = Math.max(1, Math.ceil(filtered.length / PAGE));
    page = Math.min(page, pages - 1);
    var rows = [];
    for (var k = page * PAGE; k < Math.min(filtered.length, (page + 1) * PAGE); k++) {
      var g = filtered[k];
      rows.push('<tr data-game="' + esc(g.i) + '"' + (current && current.g === g ? ' class="open"' : '') + '><td>' + esc(g.i) + '</td><td>' + g.r + '</td><td>' + esc(D.bots[g.a]) + '</td><td>' + esc(D.bots[g.b]) +
        '</td><td>' + g.res + '</td><td>' + esc(g.t) + (g.d ? ': ' + esc(g.d) : '') + '</td><td>' + g.n + '</td><td>' + (g.s ? g.s[0] + ':' + g.s[1] : '') + '</td><td>' + esc(g.dt) + '</td></tr>');
    }
    document.querySelector('#game-list tbody').innerHTML = rows.join('');
    $('count').textContent = filtered.length + ' of ' + D.games.length + ' games';
    $('page').textContent = 'page ' + (page + 1) + ' of ' + pages;
  }
  function applyFilter() {
    var words = $('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
    filtered = !words.length ? D.games : D.games.filter(function (g) {
      var text = (g.i + ' ' + D.bots[g.a] + ' ' + D.bots[g.b] + ' ' + g.res + ' ' + g.t + ' ' + g.d).toLowerCase();
      return words.every(function (w) { return text.indexOf(w) >= 0; });
    });
    page = 0;
    renderList();
  }
  var byId = null;
  function findGame(id) {
    if (!byId) { byId = {}; D.games.forEach(function (g) { byId[g.i] = g; }); }
    return byId[id];
  }

  // ---- The viewer: a game's board at any ply, from its frames. ----
  // The game last asked for: a game still decoding when another is clicked is not drawn over it.
  var wanted = null;
  function open(g, ply) {
    wanted = g;
    if (!VIEWS[g.k]) {
      return view(g).then(function () { if (wanted === g) open(g, ply); }, function (e) {
        if (wanted !== g) return;
        $('viewer').hidden = false;
        $('viewer-info').textContent = g.i + ': its pictures cannot be read (' + e + ')';
      });
    }
    var view_ = VIEWS[g.k], spec = D.variants[g.v];
    var replay = new ArenaBoard.Replay(view_.r);
    current = { g: g, moves: view_.m, movers: view_.r.movers, replay: replay, ms: decodeMs(g.ms), ply: 0, last: replay.length() - 1 };
    $('viewer').hidden = false;
    $('viewer-title').textContent = g.i + ': ' + D.bots[g.a] + ' vs ' + D.bots[g.b];
    var info = spec + ' — round ' + g.r + ', game pair ' + g.p + ' — ' + resultText(g) + ', ' + g.t + (g.d ? ' (' + g.d + ')' : '') + ', ' + g.n + ' plies';
    if (g.o) info += ', ' + g.o + ' opening plies';
    if (g.su) info += ' — setup dots: ' + g.su;
    if (g.tc[0]) info += ' — time control ' + g.tc[0] + (g.tc[1] !== g.tc[0] ? ' / ' + g.tc[1] : '') + ' ms';
    if (view_.r.error) info += ' — the pictures stop at ply ' + current.last + ': ' + view_.r.error;
    $('viewer-info').textContent = info;
    var list = [];
    for (var k = 0; k < current.moves.length; k++) {
      var t = moveMs(k + 1), who = OWNER[+current.movers[k] || 0];
      list.push('<span data-ply="' + (k + 1) + '" class="' + who + (k < g.o ? ' op' : '') + '">' + (k + 1) + '. ' + esc(current.moves[k]) + (t != null ? ' ' + t + 'ms' : '') + '</span>');
    }
    $('moves').innerHTML = list.join('');
    var links = [], x = g.x || [];
    if (D.exports.sgf && x.indexOf('sgf') >= 0) links.push('<a href="export/' + encodeURIComponent(g.i) + '.sgf">' + esc(g.i) + '.sgf</a>');
    if (D.exports.pgn) links.push('<a href="export/games.pgn">games.pgn</a>');
    if (D.exports.pons && x.indexOf('pons') >= 0) links.push('<a href="export/games.pons">games.pons</a>');
    $('links').innerHTML = links.length ? 'Records: ' + links.join(' ') : '';
    $('ply').max = current.last;
    renderList();
    go(ply == null ? current.last : ply);
  }
  // The time of ply k (1-based), ms, or null for an opening ply or a move without a time.
  function moveMs(k) {
    var j = k - 1 - current.g.o;
    return j >= 0 && j < current.ms.length ? current.ms[j] : null;
  }
  function go(ply) {
    var c = current;
    if (!c) return;
    ply = Math.max(0, Math.min(c.last, ply | 0));
    c.ply = ply;
    var frame = c.replay.frame(ply);
    var board = $('board');
    board.innerHTML = ArenaBoard.svg(frame);
    var svg = board.firstChild;
    svg.setAttribute('data-game', c.g.i);
    svg.setAttribute('data-ply', ply);
    $('ply').value = ply;
    $('ply-label').textContent = 'ply ' + ply + ' / ' + c.last;
    if (ply === 0) {
      $('move-info').textContent = c.g.su ? 'start: the variant\'s dots and ' + c.g.su : 'start position';
    } else {
      var t = moveMs(ply), who = OWNER[+c.movers[ply - 1] || 0];
      $('move-info').innerHTML = 'ply ' + ply + ': <b class="' + who + '">' + esc(who === 'first' ? D.bots[c.g.a] : D.bots[c.g.b]) + '</b> ' + esc(c.moves[ply - 1]) +
        (ply <= c.g.o ? ' (opening)' : t != null ? ' in ' + t + ' ms' : '');
    }
    ArenaBoard.showPanel($('score'), ArenaBoard.panel(frame));
    var old = document.querySelector('#moves span.cur');
    if (old) old.classList.remove('cur');
    var cur = document.querySelector('#moves span[data-ply="' + ply + '"]');
    if (cur) {
      cur.classList.add('cur');
      var box = $('moves');
      if (cur.offsetTop < box.scrollTop || cur.offsetTop > box.scrollTop + box.clientHeight - 20) box.scrollTop = cur.offsetTop - box.clientHeight / 2;
    }
  }
  // Opens the game the address names (`#g0042@17`); resolves once it is drawn.
  function openHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (!h) return Promise.resolve();
    var parts = h.split('@'), g = findGame(parts[0]);
    if (!g) return Promise.resolve();
    wanted = g;
    // A game whose pictures cannot be read is opened all the same: open() says so. A game clicked
    // while this one decodes is not replaced by it.
    return view(g).catch(function () {}).then(function () {
      if (wanted !== g) return;
      open(g, parts.length > 1 ? +parts[1] : null);
      $('viewer').scrollIntoView();
    });
  }

  document.querySelector('#game-list tbody').addEventListener('click', function (e) {
    var tr = e.target.closest('tr');
    if (tr) { history.replaceState(null, '', '#' + tr.getAttribute('data-game')); open(findGame(tr.getAttribute('data-game'))); $('viewer').scrollIntoView(); }
  });
  $('moves').addEventListener('click', function (e) {
    var span = e.target.closest('span[data-ply]');
    if (span) go(+span.getAttribute('data-ply'));
  });
  $('filter').addEventListener('input', applyFilter);
  $('prev-page').addEventListener('click', function () { if (page > 0) { page--; renderList(); } });
  $('next-page').addEventListener('click', function () { page++; renderList(); });
  $('first').addEventListener('click', function () { go(0); });
  $('prev').addEventListener('click', function () { if (current) go(current.ply - 1); });
  $('next').addEventListener('click', function () { if (current) go(current.ply + 1); });
  $('last').addEventListener('click', function () { if (current) go(current.last); });
  $('ply').addEventListener('input', function () { go(+this.value); });
  document.addEventListener('keydown', function (e) {
    if (!current || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    var to = { ArrowLeft: current.ply - 1, ArrowRight: current.ply + 1, Home: 0, End: current.last }[e.key];
    if (to != null) { e.preventDefault(); go(to); }
  });
  window.addEventListener('hashchange', openHash);

  renderList();
  // How long the page took to list its games, and to draw the game the address names (at once without
  // one), ms from the start of navigation (read by the report benchmark).
  document.body.setAttribute('data-ready-ms', Math.round(performance.now()));
  openHash().then(function () { document.body.setAttribute('data-frames-ms', Math.round(performance.now())); });
})();

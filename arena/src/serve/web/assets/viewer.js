// The contest server's board pages (arena/src/serve/web/pages/games.rs): a finished game's replay page
// and a competition's live board. Both draw with the one renderer, ArenaBoard (/assets/board.js), from
// the board pictures the server sends (arena/src/frames); neither knows a game's rules.
(function () {
  'use strict';
  var $ = function (id) { return document.getElementById(id); };
  var esc = function (s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  };
  var OWNER = ['first', 'second'];

  // ---- A finished game: <script id="replay"> holds {id, first, second, moves, movers, replay}. ----
  function replayPage(g) {
    var replay = new ArenaBoard.Replay(g.replay), last = replay.length() - 1, cur = 0;
    var list = [];
    for (var k = 0; k < g.moves.length; k++) {
      var who = OWNER[+g.replay.movers[k] || 0];
      list.push('<span data-ply="' + (k + 1) + '" class="' + who + (k < g.opening ? ' op' : '') + '">' + (k + 1) + '. ' + esc(g.moves[k]) + '</span>');
    }
    $('moves').innerHTML = list.join('');
    $('ply').max = last;
    function go(ply) {
      cur = Math.max(0, Math.min(last, ply | 0));
      var frame = replay.frame(cur);
      $('board').innerHTML = ArenaBoard.svg(frame);
      var svg = $('board').firstChild;
      svg.setAttribute('data-game', g.id);
      svg.setAttribute('data-ply', cur);
      $('ply').value = cur;
      $('ply-label').textContent = 'ply ' + cur + ' / ' + last;
      if (cur === 0) {
        $('move-info').textContent = 'start position';
      } else {
        var who = OWNER[+g.replay.movers[cur - 1] || 0], t = g.move_ms[cur - 1 - g.opening];
        $('move-info').innerHTML = 'ply ' + cur + ': <b class="' + who + '">' + esc(who === 'first' ? g.first : g.second) + '</b> ' + esc(g.moves[cur - 1]) +
          (cur <= g.opening ? ' (opening)' : t != null ? ' in ' + t + ' ms' : '');
      }
      ArenaBoard.showPanel($('score'), ArenaBoard.panel(frame));
      var old = document.querySelector('#moves span.cur');
      if (old) old.classList.remove('cur');
      var span = document.querySelector('#moves span[data-ply="' + cur + '"]');
      if (span) span.classList.add('cur');
    }
    $('first').addEventListener('click', function () { go(0); });
    $('prev').addEventListener('click', function () { go(cur - 1); });
    $('next').addEventListener('click', function () { go(cur + 1); });
    $('last').addEventListener('click', function () { go(last); });
    $('ply').addEventListener('input', function () { go(+this.value); });
    $('moves').addEventListener('click', function (e) {
      var span = e.target.closest('span[data-ply]');
      if (span) go(+span.getAttribute('data-ply'));
    });
    document.addEventListener('keydown', function (e) {
      if (e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
      var to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: last }[e.key];
      if (to != null) { e.preventDefault(); go(to); }
    });
    var at = /^#ply=(\d+)$/.exec(location.hash);
    go(at ? +at[1] : last);
  }

  // ---- The live board: the games in progress, polled every 2 s. ----
  function clock(ms) {
    if (ms == null) return 'no clock';
    var s = ms / 1000, m = Math.floor(s / 60);
    return m + ':' + (s - 60 * m).toFixed(1).padStart(4, '0');
  }
  function liveCard(g) {
    var colors = g.frame && g.frame.board.colors ? g.frame.board.colors : ArenaBoard.colors;
    var side = function (i, name) {
      var moving = g.to_move === OWNER[i];
      return '<div class="side ' + OWNER[i] + (moving ? ' to-move' : '') + '" data-side="' + OWNER[i] + '">' +
        '<svg class="swatch" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="' + esc(colors[i]) + '"/></svg> ' + esc(name) + ' <span class="role">(' + OWNER[i] + ')</span>' +
        ' <span class="clock">' + clock(g.clocks_ms[i]) + '</span>' + (moving ? ' <span class="turn">to move</span>' : '') + '</div>';
    };
    return '<section class="live-game" data-game="' + esc(g.id) + '" data-ply="' + g.moves.length + '">' +
      '<h2>' + esc(g.id) + ', ply ' + g.moves.length + '</h2>' + side(0, g.first) + side(1, g.second) +
      '<div class="board">' + (g.frame ? ArenaBoard.svg(g.frame) : '<pre>' + esc(g.board) + '</pre>') + '</div>' +
      '<div class="panel">' + (g.frame ? ArenaBoard.panel(g.frame) : '') + '</div>' +
      '<p class="last">' + (g.moves.length ? 'last move: ' + esc(g.moves[g.moves.length - 1]) : 'no move yet') + '</p></section>';
  }
  function livePage(box) {
    var src = box.getAttribute('data-src');
    function show(games) {
      box.innerHTML = games.length ? games.map(liveCard).join('') : '<p class="none">No game in progress.</p>';
      box.setAttribute('data-updated', Date.now());
    }
    function poll() {
      fetch(src, { credentials: 'same-origin' }).then(function (r) {
        if (!r.ok) throw new Error('live board: HTTP ' + r.status);
        return r.json();
      }).then(show).catch(function (e) {
        box.setAttribute('data-error', String(e));
      }).then(function () { setTimeout(poll, 2000); });
    }
    show(JSON.parse($('live-data').textContent));
    setTimeout(poll, 2000);
  }

  var data = $('replay');
  if (data) replayPage(JSON.parse(data.textContent));
  var live = $('live');
  if (live) livePage(live);
})();

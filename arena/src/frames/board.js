// The arena's one board renderer (arena/src/frames/board.js): draws the board picture ("frame") of any
// game as SVG, from the vocabulary of games/src/frame.rs (docs/games.md): a board (a grid of cells or
// a lattice of points), areas, lines, pieces, a highlight and a text panel. It knows no game's rules:
// the games crate builds every frame, and a replay (arena/src/frames/mod.rs) carries them as steps.
//
// Every piece drawn carries its frame fields as data attributes, for the browser tests: data-x, data-y,
// data-kind, data-owner, data-label, data-faded, data-win (a ringed piece).
var ArenaBoard = (function () {
  'use strict';
  var COLORS = ['#1f5fbf', '#c8322b'];
  var OWNER = { first: 0, second: 1 };
  var WIN = '#1fd36b';
  var esc = function (s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  };

  // The geometry of a board: cell (or point gap) size, margins, and the centre of spot x, y.
  function geometry(b) {
    var points = b.layout === 'points';
    var S = points ? 20 : (b.style === 'wood' ? 64 : b.style === 'holes' ? 50 : 60);
    var left = b.row_labels && b.row_labels.length ? (points ? 16 : 22) : 6;
    var top = 6, bottom = b.col_labels && b.col_labels.length ? (points ? 16 : 22) : 6;
    return {
      S: S, points: points, left: left, top: top,
      width: left + b.cols * S + 6, height: top + b.rows * S + bottom,
      cx: function (x) { return left + (x + 0.5) * S; },
      cy: function (y) { return top + (b.rows - 1 - y + 0.5) * S; }
    };
  }

  function colorOf(b, owner) {
    if (owner == null) return '#777';
    var i = OWNER[owner];
    return b.colors ? b.colors[i] : COLORS[i];
  }

  function attrs(p) {
    var a = ' data-x="' + p.x + '" data-y="' + p.y + '" data-kind="' + esc(p.kind) + '" data-owner="' + (p.owner || '') + '"';
    if (p.label != null) a += ' data-label="' + esc(p.label) + '"';
    if (p.faded) a += ' data-faded="1"';
    if (p.ring) a += ' data-win="1"';
    return a;
  }

  function background(b, g, out) {
    var W = b.cols * g.S, H = b.rows * g.S, x0 = g.left, y0 = g.top, k;
    if (b.style === 'holes') {
      out.push('<rect x="' + (x0 - 5) + '" y="' + (y0 - 5) + '" width="' + (W + 10) + '" height="' + (H + 10) + '" rx="8" fill="#2d4f9e"/>');
      for (var y = 0; y < b.rows; y++) {
        for (var x = 0; x < b.cols; x++) out.push('<circle cx="' + g.cx(x) + '" cy="' + g.cy(y) + '" r="' + g.S * 0.4 + '" fill="#fff"/>');
      }
    } else if (b.style === 'wood') {
      out.push('<rect x="' + (x0 - 4) + '" y="' + (y0 - 4) + '" width="' + (W + 8) + '" height="' + (H + 8) + '" rx="' + g.S * 0.45 + '" fill="#c08a52" stroke="#8a5a2b" stroke-width="3"/>');
    } else if (b.style === 'paper') {
      out.push('<rect x="' + x0 + '" y="' + y0 + '" width="' + W + '" height="' + H + '" fill="#fdfdf8"/>');
      var grid = [];
      for (k = 0; k < b.cols; k++) grid.push('M' + g.cx(k) + ' ' + g.cy(b.rows - 1) + 'V' + g.cy(0));
      for (k = 0; k < b.rows; k++) grid.push('M' + g.cx(0) + ' ' + g.cy(k) + 'H' + g.cx(b.cols - 1));
      out.push('<path d="' + grid.join('') + '" stroke="#d7dde8" stroke-width="1"/>');
    } else {
      out.push('<rect x="' + x0 + '" y="' + y0 + '" width="' + W + '" height="' + H + '" fill="#fff" stroke="#999"/>');
      for (k = 1; k < b.cols; k++) out.push('<line x1="' + (x0 + k * g.S) + '" y1="' + y0 + '" x2="' + (x0 + k * g.S) + '" y2="' + (y0 + H) + '" stroke="#999"/>');
      for (k = 1; k < b.rows; k++) out.push('<line x1="' + x0 + '" y1="' + (y0 + k * g.S) + '" x2="' + (x0 + W) + '" y2="' + (y0 + k * g.S) + '" stroke="#999"/>');
    }
    var fs = g.points ? 7 : 12;
    (b.col_labels || []).forEach(function (t, x) {
      if (t) out.push('<text x="' + g.cx(x) + '" y="' + (g.top + H + fs + 4) + '" font-size="' + fs + '" text-anchor="middle" fill="#888">' + esc(t) + '</text>');
    });
    (b.row_labels || []).forEach(function (t, y) {
      if (t) out.push('<text x="' + (g.left - 4) + '" y="' + (g.cy(y) + fs / 3) + '" font-size="' + fs + '" text-anchor="end" fill="#888">' + esc(t) + '</text>');
    });
  }

  // The two strokes of a cross of half-size r at x, y, with `extra` attributes.
  function cross(x, y, r, extra) {
    return '<line x1="' + (x - r) + '" y1="' + (y - r) + '" x2="' + (x + r) + '" y2="' + (y + r) + '"' + extra + '/>' +
      '<line x1="' + (x - r) + '" y1="' + (y + r) + '" x2="' + (x + r) + '" y2="' + (y - r) + '"' + extra + '/>';
  }

  function piece(b, g, p, out) {
    var c = colorOf(b, p.owner), S = g.S, x = g.cx(p.x), y = g.cy(p.y), w = p.w || 1, h = p.h || 1;
    var op = p.faded ? ' fill-opacity="0.4" stroke-opacity="0.4"' : '';
    var a = attrs(p), r;
    if (p.shape === 'disc') {
      out.push('<circle class="piece disc"' + a + ' cx="' + x + '" cy="' + y + '" r="' + S * 0.4 + '" fill="' + c + '"' + op +
        (p.ring ? ' stroke="' + WIN + '" stroke-width="5"' : '') + '/>');
    } else if (p.shape === 'cross') {
      r = S * 0.3;
      out.push('<g class="piece cross"' + a + ' stroke="' + c + '" stroke-width="5"' + op + '>' +
        // A ringed cross: a halo of the win colour drawn under its strokes (attributes, not a style, so
        // that a page whose Content-Security-Policy forbids inline styles shows it too).
        (p.ring ? cross(x, y, r, ' stroke="' + WIN + '" stroke-width="11" stroke-opacity="0.55"') : '') +
        cross(x, y, r, '') + '</g>');
    } else if (p.shape === 'ring') {
      out.push('<circle class="piece ring"' + a + ' cx="' + x + '" cy="' + y + '" r="' + S * 0.3 + '" fill="none" stroke="' + c + '" stroke-width="5"' + op + '/>');
    } else if (p.shape === 'dot') {
      r = g.points ? (p.faded ? 3.5 : 5) : S * (p.faded ? 0.12 : 0.16);
      out.push('<circle class="piece dot"' + a + ' cx="' + x + '" cy="' + y + '" r="' + r + '" fill="' + c + '"' + op + '/>');
    } else if (p.shape === 'square' || p.shape === 'outline') {
      r = g.points ? 3 : S * 0.12;
      out.push('<rect class="piece ' + p.shape + '"' + a + ' x="' + (x - r) + '" y="' + (y - r) + '" width="' + 2 * r + '" height="' + 2 * r + '"' +
        (p.shape === 'square' ? ' fill="' + c + '" fill-opacity="' + (p.faded ? 0.35 : 0.8) + '"' : ' fill="none" stroke="' + c + '" stroke-width="1" stroke-opacity="0.8"') + '/>');
    } else if (p.shape === 'pit') {
      // A bowl spanning w × h cells, its label (the seeds) in the middle.
      var x0 = g.cx(p.x) - S / 2 + 5, y0 = g.cy(p.y + h - 1) - S / 2 + 5, pw = w * S - 10, ph = h * S - 10;
      out.push('<g class="piece pit"' + a + '><rect x="' + x0 + '" y="' + y0 + '" width="' + pw + '" height="' + ph + '" rx="' + Math.min(pw, ph) / 2 +
        '" fill="#7a4a22" stroke="' + (p.owner ? c : '#5a3412') + '" stroke-width="' + (p.owner ? 3 : 1.5) + '"' + op + '/>' +
        (p.label != null ? '<text x="' + (x0 + pw / 2) + '" y="' + (y0 + ph / 2 + S * 0.14) + '" font-size="' + S * 0.4 + '" font-weight="bold" text-anchor="middle" fill="#fff4e0">' + esc(p.label) + '</text>' : '') + '</g>');
    } else {
      out.push('<circle class="piece"' + a + ' cx="' + x + '" cy="' + y + '" r="' + S * 0.3 + '" fill="' + c + '"/>');
    }
  }

  // The SVG of `frame`.
  function svg(frame) {
    var b = frame.board, g = geometry(b), out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + g.width + ' ' + g.height + '" data-layout="' + b.layout + '" data-style="' + b.style + '">');
    background(b, g, out);
    var pts = function (list) { return list.map(function (s) { return g.cx(s[0]) + ',' + g.cy(s[1]); }).join(' '); };
    (frame.areas || []).forEach(function (area) {
      var c = colorOf(b, area.owner);
      out.push('<polygon class="area" data-kind="' + esc(area.kind) + '" data-owner="' + (area.owner || '') + '" points="' + pts(area.points) + '" fill="' + c + '" fill-opacity="0.22" stroke="' + c + '" stroke-width="' + (g.points ? 2.5 : 4) + '" stroke-linejoin="round"/>');
    });
    (frame.lines || []).forEach(function (line) {
      var win = line.kind === 'win';
      out.push('<polyline class="line" data-kind="' + line.kind + '" data-owner="' + (line.owner || '') + '" points="' + pts(line.points) + '" fill="none" stroke="' +
        (win ? WIN : colorOf(b, line.owner)) + '" stroke-width="' + (win ? g.S * 0.12 : 2.5) + '" stroke-linecap="round" stroke-opacity="' + (win ? 0.8 : 1) + '"/>');
    });
    (frame.pieces || []).forEach(function (p) { piece(b, g, p, out); });
    var mark = b.style === 'holes' ? '#fff' : '#000';
    (frame.highlight || []).forEach(function (s) {
      var r = g.points ? 7.5 : g.S * 0.46;
      out.push('<circle class="highlight" data-x="' + s[0] + '" data-y="' + s[1] + '" cx="' + g.cx(s[0]) + '" cy="' + g.cy(s[1]) + '" r="' + r + '" fill="none" stroke="' + mark + '" stroke-width="' + (g.points ? 1.5 : 3) + '" stroke-opacity="0.75"/>');
    });
    out.push('</svg>');
    return out.join('');
  }

  // The text panel of `frame` as HTML: one line each, its owner's colour in data-color (put into
  // `el`, paint() gives each line its colour).
  function panel(frame) {
    return (frame.panel || []).map(function (t) {
      return '<div class="panel-line"' + (t.owner ? ' data-owner="' + t.owner + '" data-color="' + esc(colorOf(frame.board, t.owner)) + '"' : '') + '>' + esc(t.text) + '</div>';
    }).join('');
  }

  // Shows `html` (of panel()) in `el`, each line in its colour. The colours are set through the DOM,
  // not as style attributes, which a Content-Security-Policy without 'unsafe-inline' would drop.
  function showPanel(el, html) {
    el.innerHTML = html;
    Array.prototype.forEach.call(el.querySelectorAll('[data-color]'), function (line) {
      line.style.color = line.getAttribute('data-color');
    });
  }

  // A replay of arena/src/frames/mod.rs: the frame of any position, from snapshots every 64 steps.
  function Replay(r) {
    this.r = r; this.snaps = {};
  }
  Replay.prototype.length = function () { return this.r.steps.length; };
  Replay.prototype.frame = function (ply) {
    var r = this.r, EVERY = 64;
    // A game the rules could not replay from its start (its error is in r.error): an empty board.
    if (!r.steps.length) return { board: r.board, areas: [], lines: [], pieces: [], highlight: [], panel: [] };
    ply = Math.max(0, Math.min(r.steps.length - 1, ply | 0));
    var base = Math.floor(ply / EVERY) * EVERY, on, k, from;
    for (from = base; from > 0 && !this.snaps[from]; from -= EVERY) {}
    on = from > 0 ? this.snaps[from].slice() : new Uint8Array(r.items.length);
    for (k = from > 0 ? from + 1 : 0; k <= ply; k++) {
      var st = r.steps[k];
      (st.d || []).forEach(function (i) { on[i] = 0; });
      (st.a || []).forEach(function (i) { on[i] = 1; });
      if (k % EVERY === 0 && k > 0 && !this.snaps[k]) this.snaps[k] = on.slice();
    }
    // A step without a panel keeps the one before it.
    var text = [];
    for (k = ply; k >= 0; k--) if (r.steps[k].p) { text = r.steps[k].p; break; }
    var f = { board: r.board, areas: [], lines: [], pieces: [], highlight: r.steps[ply].h || [], panel: text };
    for (k = 0; k < r.items.length; k++) {
      if (!on[k]) continue;
      var it = r.items[k];
      if (it.piece) f.pieces.push(it.piece); else if (it.line) f.lines.push(it.line); else if (it.area) f.areas.push(it.area);
    }
    return f;
  };

  // A replay from the compact form report.html embeds (arena/src/frames/compact.rs).
  var SHAPES = ['disc', 'cross', 'ring', 'dot', 'square', 'outline', 'pit'];
  var OWNERS = [null, 'first', 'second'];
  function expand(c) {
    var items = c.i.map(function (it) {
      if (!Array.isArray(it)) return it.l ? { line: it.l } : { area: it.a };
      var p = { x: it[0], y: it[1], shape: SHAPES[it[2]], kind: c.k[it[3]] };
      if (it[4]) p.owner = OWNERS[it[4]];
      if (it[5] & 1) p.faded = true;
      if (it[5] & 2) p.ring = true;
      if (it[6] != null) p.label = it[6];
      if (it.length > 7) { p.w = it[7]; p.h = it[8]; }
      return { piece: p };
    });
    var next = 0;
    var steps = c.s.map(function (s) {
      var a = [], k;
      for (k = 0; k < s[0]; k++) a.push(next++);
      var st = { a: a.concat(s[1] || []), d: s[2] || [], h: [] };
      if (s.length > 3) {
        for (k = 0; k + 1 < s[3].length; k += 2) st.h.push([s[3][k], s[3][k + 1]]);
      } else {
        // Left out: the spots of the new pieces.
        for (k = 0; k < s[0]; k++) if (items[a[k]].piece) st.h.push([items[a[k]].piece.x, items[a[k]].piece.y]);
      }
      if (s.length > 4) st.p = s[4].map(function (t) { return t.length > 1 ? { text: t[0], owner: OWNERS[t[1]] } : { text: t[0] }; });
      return st;
    });
    return { board: c.b, items: items, steps: steps, movers: c.w, error: c.e };
  }

  // The replays of report.html: base64 of gzip'd JSON, decoded in the browser.
  function decode(text) {
    var bin = atob(text.trim()), bytes = new Uint8Array(bin.length);
    for (var k = 0; k < bin.length; k++) bytes[k] = bin.charCodeAt(k);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).json();
  }

  return { svg: svg, panel: panel, showPanel: showPanel, Replay: Replay, expand: expand, decode: decode, colors: COLORS };
})();

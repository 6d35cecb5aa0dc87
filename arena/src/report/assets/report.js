// report.html's script (arena/src/report/html.rs embeds it): the game list and the game viewer.
//
// The games come from <script id="data"> as JSON; a game's board is built only when the game is opened,
// by replaying its moves with the rules below. Tic-tac-toe and Connect Four are plain; Dots is a port of
// games/src/dots (cell.rs, capture.rs, mod.rs): the same cell flags, the same walk, flood and house
// rules, so that every quirk of the Russian rules of docs/dots-rules.md comes out the same. The browser
// test (arena/tests/report_browser.rs) compares the pieces drawn with the games crate ply by ply.
//
// Every piece drawn carries data attributes for that test: data-cell (the point in the game's
// notation), data-owner (first|second), data-captured (Dots: 1 for a captured dot), data-dead (Dots: 1
// for an empty point inside a base), data-house (Dots: 1 for an empty point inside a house, R9, owned by
// data-owner).
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

  // ---- Moves: the compact strings of html.rs's compact_moves, decoded to the notation. ----
  function decodeMoves(game, kind) {
    if (game.m == null) return game.mm ? game.mm.split(' ') : [];
    var s = game.m, out = [], k;
    if (kind === 'connect4') {
      for (k = 0; k < s.length; k++) out.push(s[k]);
    } else if (kind === 'dots') {
      for (k = 0; k + 1 < s.length; k += 2) {
        out.push(s[k] === '!' ? 'ground' : (ALPHABET.indexOf(s[k]) + 1) + '-' + (ALPHABET.indexOf(s[k + 1]) + 1));
      }
    } else {
      for (k = 0; k + 1 < s.length; k += 2) {
        out.push(String.fromCharCode(97 + ALPHABET.indexOf(s[k])) + (ALPHABET.indexOf(s[k + 1]) + 1));
      }
    }
    return out;
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

  // ---- Tic-tac-toe (games/src/tictactoe.rs): squares a1.., column letter, row from the bottom. ----
  function TicTacToe(w, h) {
    this.w = w; this.h = h; this.cells = new Int8Array(w * h).fill(-1); this.ply = 0; this.last = -1;
  }
  TicTacToe.prototype.play = function (m) {
    var col = m.charCodeAt(0) - 97, row = parseInt(m.slice(1), 10) - 1;
    if (col >= 0 && col < this.w && row >= 0 && row < this.h && this.cells[row * this.w + col] < 0) {
      this.cells[row * this.w + col] = this.ply & 1;
      this.last = row * this.w + col;
    }
    this.ply++;
  };
  TicTacToe.prototype.save = function () { return { cells: this.cells.slice(), ply: this.ply, last: this.last }; };
  TicTacToe.prototype.load = function (s) { this.cells = s.cells.slice(); this.ply = s.ply; this.last = s.last; };
  TicTacToe.prototype.svg = function () {
    var S = 60, w = this.w, h = this.h, out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="-20 -10 ' + (w * S + 30) + ' ' + (h * S + 30) + '">');
    out.push('<rect x="0" y="0" width="' + w * S + '" height="' + h * S + '" fill="#fff" stroke="#999"/>');
    for (var k = 1; k < w; k++) out.push('<line x1="' + k * S + '" y1="0" x2="' + k * S + '" y2="' + h * S + '" stroke="#999"/>');
    for (k = 1; k < h; k++) out.push('<line x1="0" y1="' + k * S + '" x2="' + w * S + '" y2="' + k * S + '" stroke="#999"/>');
    for (k = 0; k < w; k++) out.push('<text x="' + (k * S + S / 2) + '" y="' + (h * S + 16) + '" font-size="12" text-anchor="middle" fill="#888">' + String.fromCharCode(97 + k) + '</text>');
    for (k = 0; k < h; k++) out.push('<text x="-10" y="' + ((h - 1 - k) * S + S / 2 + 4) + '" font-size="12" text-anchor="middle" fill="#888">' + (k + 1) + '</text>');
    for (var i = 0; i < this.cells.length; i++) {
      var p = this.cells[i];
      if (p < 0) continue;
      var col = i % w, row = (i / w) | 0, cx = col * S + S / 2, cy = (h - 1 - row) * S + S / 2, r = S * 0.3;
      var cell = String.fromCharCode(97 + col) + (row + 1);
      var mark = p === 0
        ? '<line x1="' + (cx - r) + '" y1="' + (cy - r) + '" x2="' + (cx + r) + '" y2="' + (cy + r) + '"/><line x1="' + (cx - r) + '" y1="' + (cy + r) + '" x2="' + (cx + r) + '" y2="' + (cy - r) + '"/>'
        : '<circle cx="' + cx + '" cy="' + cy + '" r="' + r + '" fill="none"/>';
      out.push('<g class="mark" data-cell="' + cell + '" data-owner="' + OWNER[p] + '" stroke="var(--' + OWNER[p] + ')" stroke-width="' + (i === this.last ? 7 : 5) + '">' + mark + '</g>');
    }
    out.push('</svg>');
    return out.join('');
  };

  // ---- Connect Four (games/src/connect4.rs): a move is the column 1..W; discs fall to the bottom. ----
  function Connect4(w, h) {
    this.w = w; this.h = h; this.cells = new Int8Array(w * h).fill(-1); this.heights = new Int8Array(w); this.ply = 0; this.last = -1;
  }
  Connect4.prototype.play = function (m) {
    var col = parseInt(m, 10) - 1;
    if (col >= 0 && col < this.w && this.heights[col] < this.h) {
      var row = this.heights[col]++;
      this.cells[row * this.w + col] = this.ply & 1;
      this.last = row * this.w + col;
    }
    this.ply++;
  };
  Connect4.prototype.save = function () { return { cells: this.cells.slice(), heights: this.heights.slice(), ply: this.ply, last: this.last }; };
  Connect4.prototype.load = function (s) { this.cells = s.cells.slice(); this.heights = s.heights.slice(); this.ply = s.ply; this.last = s.last; };
  Connect4.prototype.svg = function () {
    var S = 50, w = this.w, h = this.h, out = [];
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="-5 -5 ' + (w * S + 10) + ' ' + (h * S + 28) + '">');
    out.push('<rect x="-5" y="-5" width="' + (w * S + 10) + '" height="' + (h * S + 10) + '" rx="8" fill="#2d4f9e"/>');
    for (var k = 0; k < w; k++) out.push('<text x="' + (k * S + S / 2) + '" y="' + (h * S + 22) + '" font-size="13" text-anchor="middle" fill="#666">' + (k + 1) + '</text>');
    for (var i = 0; i < this.cells.length; i++) {
      var col = i % w, row = (i / w) | 0, p = this.cells[i];
      var cx = col * S + S / 2, cy = (h - 1 - row) * S + S / 2;
      if (p < 0) {
        out.push('<circle cx="' + cx + '" cy="' + cy + '" r="' + S * 0.4 + '" fill="#fff"/>');
      } else {
        out.push('<circle class="disc" data-cell="' + (col + 1) + '-' + (row + 1) + '" data-owner="' + OWNER[p] + '" cx="' + cx + '" cy="' + cy + '" r="' + S * 0.4 + '" fill="' + (p === 0 ? '#f2c81b' : '#d8342b') + '"' + (i === this.last ? ' stroke="#fff" stroke-width="3"' : '') + '/>');
      }
    }
    out.push('</svg>');
    return out.join('');
  };

  // ---- Dots: a port of games/src/dots. Cell flags of cell.rs. ----
  var PLAYER = 1, PUT = 2, CAPTURED = 4, BOUND = 8, HOUSE = 16, BORDER = 32;
  var N = 0, NE = 1, E = 2, SE = 3, S = 4, SW = 5, W = 6, NW = 7;
  // capture.rs's INPUTS: for each mask of the new dot's live neighbours, its input points (step 1): the
  // direction of the walk's first dot and the seed's side, in the order W, S, E, N.
  var INPUTS = (function () {
    var sides = [[W, NW, N], [S, SW, W], [E, SE, S], [N, NE, E]], table = [];
    for (var m = 0; m < 256; m++) {
      var list = [];
      for (var k = 0; k < 4; k++) {
        var side = sides[k][0], diag = sides[k][1], before = sides[k][2];
        if ((m >> side & 1) === 0) {
          if (m >> diag & 1) list.push([diag, side]);
          else if (m >> before & 1) list.push([before, side]);
        }
      }
      table.push(list);
    }
    return table;
  })();
  function isLive(c, p) { return (c & (PUT | CAPTURED | PLAYER)) === (PUT | p); }
  function isBound(c, p) { return (c & (PUT | BOUND | PLAYER)) === (PUT | BOUND | p); }
  function isFree(c) { return (c & (PUT | CAPTURED | BORDER)) === 0; }
  // cell.rs's owner(): who a point counts for when grounding (R12), -1 for none.
  function ownerOf(c) {
    var put = (c & PUT) !== 0, cap = (c & CAPTURED) !== 0;
    if (put && !cap) return c & PLAYER;
    if (put && cap) return (c & PLAYER) ^ 1;
    if (cap) return c & PLAYER;
    return -1;
  }

  function Dots(w, h, start, setup) {
    this.w = w; this.h = h; this.stride = w + 1;
    var s = this.stride;
    this.dirs = [-s, -s + 1, 1, s + 1, s, s - 1, -1, -s - 1];
    this.cells = new Uint8Array((h + 2) * s + 1).fill(BORDER);
    for (var row = 1; row <= h; row++) this.cells.fill(0, row * s + 1, row * s + w + 1);
    this.place = new Int32Array(this.cells.length);
    this.scores = [0, 0];
    this.bases = []; // [player, chain of point indices] of every base made (for the walls)
    this.ply = 0; this.last = -1; this.grounded = -1;
    var dots = this.variantDots(start).concat(setup);
    this.setupCount = setup.length;
    this.startDots = dots;
    for (var k = 0; k < dots.length; k++) this.cells[this.index(dots[k][0], dots[k][1])] = PUT | dots[k][2];
  }
  Dots.prototype.index = function (x, y) { return (this.h + 1 - y) * this.stride + x; };
  // mod.rs's variant_dots (R4): the cross at ⌈W/2⌉-⌈H/2⌉, or KataGoDots's four crosses.
  Dots.prototype.variantDots = function (start) {
    var w = this.w, h = this.h;
    var cross = function (x0, y0) { return [[x0, y0 + 1, 0], [x0 + 1, y0, 0], [x0, y0, 1], [x0 + 1, y0 + 1, 1]]; };
    if (start === 'cross') return cross(Math.ceil(w / 2), Math.ceil(h / 2));
    if (start === 'four-crosses') {
      var ox = (w === 39 && h === 32) ? 11 : Math.floor((w - 3) / 3), oy = (w === 39 && h === 32) ? 10 : Math.floor((h - 3) / 3);
      var sx = w - 2 - ox, sy = h - 2 - oy;
      var at = function (a, b) { return cross(a + 1, h - b - 1); };
      return [].concat(at(ox, oy), at(sx, oy), at(sx, sy), at(ox, sy));
    }
    return [];
  };
  // The live neighbours of colour p of point i, bit d for direction d.
  Dots.prototype.liveMask = function (i, p) {
    var m = 0;
    for (var d = 0; d < 8; d++) if (isLive(this.cells[i + this.dirs[d]], p)) m |= 1 << d;
    return m;
  };
  // capture.rs's walk (step 2): from `start`, first step `d`, through the live dots of p, taking at each
  // dot the first live dot or padding clockwise from a quarter turn back, cutting off loops.
  Dots.prototype.walk = function (start, p, d) {
    var cells = this.cells, dirs = this.dirs, place = this.place;
    var buf = [start], center = start + dirs[d], len = 2, row = d, next;
    place[center] = 1; buf[1] = center;
    for (;;) {
      var mask = 0;
      for (var k = 0; k < 8; k++) {
        var c = cells[center + dirs[k]];
        if ((c & BORDER) || isLive(c, p)) mask |= 1 << k;
      }
      var first = ((row + 6) | 1) & 7, dir = first;
      for (k = 0; k < 8; k++) {
        var dd = (first + k) & 7;
        if (mask >> dd & 1) { dir = dd; break; }
      }
      row = dir;
      next = center + dirs[dir];
      if ((cells[next] & BORDER) || next === start) break;
      var at = place[next];
      if (!(at < len && buf[at] === next)) at = len;
      buf[at] = next; place[next] = at; len = at + 1;
      center = next;
    }
    if (next !== start) return { kind: 'open' };
    buf.length = len;
    // Twice the signed area on the indices, rows down (capture.rs's shoelace).
    var prev = buf[len - 1], area = 0;
    for (k = 0; k < len; k++) {
      var j = buf[k], delta = j - prev;
      area += (j + prev) * ((delta > 1 ? 1 : 0) - (delta < -1 ? 1 : 0));
      prev = j;
    }
    return area < 0 ? { kind: 'encloses', chain: buf } : { kind: 'outward', len: len };
  };
  // search_captures (steps 1-3): true if some chain enclosed its seed.
  Dots.prototype.findCaptures = function (i, p) {
    var inputs = INPUTS[this.liveMask(i, p)], n = inputs.length;
    if (n < 2) return false;
    var limit = n - 1, found = [];
    for (var k = 0; k < n; k++) {
      var r = this.walk(i, p, inputs[k][0]);
      if (r.kind === 'encloses') {
        found.push({ chain: r.chain, seed: i + this.dirs[inputs[k][1]] });
        if (found.length === limit) break;
      } else if (r.kind === 'outward' && r.len < 4) {
        limit--;
        if (found.length === limit) break;
      }
    }
    // Shortest first (R8), stable among equals (Array.prototype.sort is stable).
    found.sort(function (a, b) { return a.chain.length - b.chain.length; });
    for (k = 0; k < found.length; k++) this.enclose(found[k].chain, found[k].seed, p);
    return found.length > 0;
  };
  // enclose (step 3): flood from the seed inside the chain; a base if it holds an enemy dot (R7, R10),
  // else a house (R9).
  Dots.prototype.enclose = function (chain, seed, p) {
    var cells = this.cells, s = this.stride, mark = new Uint8Array(cells.length), k, j, c;
    for (k = 0; k < chain.length; k++) mark[chain[k]] = 1;
    var floodable = function (c) { return (c & BORDER) === 0 && !isBound(c, p); };
    var queue = [], captured = 0, freed = 0;
    if (!mark[seed] && floodable(cells[seed])) { mark[seed] = 1; queue.push(seed); }
    for (var head = 0; head < queue.length; head++) {
      j = queue[head]; c = cells[j];
      var dot = (c & PUT) !== 0, own = (c & PLAYER) === p;
      if (dot && !own) captured++;
      if (dot && own && (c & CAPTURED)) freed++;
      var around = [j - s, j + s, j - 1, j + 1];
      for (var a = 0; a < 4; a++) {
        var q = around[a];
        if (!mark[q] && floodable(cells[q])) { mark[q] = 1; queue.push(q); }
      }
    }
    if (captured > 0) {
      this.scores[p] += captured;
      this.scores[p ^ 1] -= freed;
      for (k = 0; k < chain.length; k++) cells[chain[k]] |= BOUND;
      for (k = 0; k < queue.length; k++) {
        j = queue[k]; c = cells[j];
        if ((c & PUT) === 0) cells[j] = (c & ~(HOUSE | PLAYER)) | CAPTURED | p;
        else if ((c & PLAYER) !== p) cells[j] = (c & ~BOUND) | CAPTURED;
        else cells[j] = c & ~CAPTURED;
      }
      this.bases.push([p, chain.slice()]);
    } else {
      for (k = 0; k < queue.length; k++) {
        j = queue[k]; c = cells[j];
        if ((c & PUT) === 0) cells[j] = (c & ~PLAYER) | HOUSE | p;
      }
    }
    return captured > 0;
  };
  Dots.prototype.dissolveHouses = function (i) {
    var cells = this.cells, s = this.stride, stack = [];
    if (cells[i] & HOUSE) { cells[i] &= ~HOUSE; stack.push(i); }
    while (stack.length) {
      var j = stack.pop(), around = [j - s, j + s, j - 1, j + 1];
      for (var a = 0; a < 4; a++) {
        if (cells[around[a]] & HOUSE) { cells[around[a]] &= ~HOUSE; stack.push(around[a]); }
      }
    }
  };
  // R9: a dot of p played into a house of the other colour that captured nothing is captured by the
  // house's owner: walk west to the owner's dots and trace from there until a chain encloses it.
  Dots.prototype.houseCapture = function (i, p) {
    var q = p ^ 1, b = i;
    for (;;) {
      for (;;) {
        b--;
        if (b <= this.stride) return;
        if (isLive(this.cells[b], q)) break;
      }
      var inputs = INPUTS[this.liveMask(b, q)];
      for (var k = 0; k < inputs.length; k++) {
        var r = this.walk(b, q, inputs[k][0]);
        if (r.kind === 'encloses' && this.ringContains(r.chain, i)) {
          this.enclose(r.chain, b + this.dirs[inputs[k][1]], q);
          return;
        }
      }
    }
  };
  // Whether point i lies inside the chain: a ray to the west, counting crossings of i's row.
  Dots.prototype.ringContains = function (chain, i) {
    var s = this.stride, px = i % s, py = (i / s) | 0;
    var AWAY = 0, ABOVE = 1, ON = 2, BELOW = 3;
    var side = function (j) {
      var x = j % s, y = (j / s) | 0;
      if (x > px) return AWAY;
      if (y + 1 === py) return ABOVE;
      if (y === py) return ON;
      if (y === py + 1) return BELOW;
      return AWAY;
    };
    var crossings = 0, state = AWAY, k, t;
    for (k = 0; k < chain.length; k++) {
      t = side(chain[k]);
      if (t === ON) continue;
      if (t === AWAY) { state = AWAY; continue; }
      if (state !== AWAY && state !== t) crossings++;
      state = t;
    }
    if (state !== AWAY) {
      var first = AWAY;
      for (k = 0; k < chain.length; k++) { t = side(chain[k]); if (t !== ON) { first = t; break; } }
      if (first !== AWAY && first !== state) crossings++;
    }
    return crossings % 2 === 1;
  };
  // R13: p grounds; its live dots with no 4-connected path of its own points to the edge go to the other.
  Dots.prototype.ground = function (p) {
    var cells = this.cells, s = this.stride, w = this.w, h = this.h, mark = new Uint8Array(cells.length), stack = [];
    for (var row = 1; row <= h; row++) {
      for (var col = 1; col <= w; col++) {
        var j = row * s + col;
        if ((row === 1 || row === h || col === 1 || col === w) && ownerOf(cells[j]) === p) { mark[j] = 1; stack.push(j); }
      }
    }
    while (stack.length) {
      var i = stack.pop(), around = [i - s, i + s, i - 1, i + 1];
      for (var a = 0; a < 4; a++) {
        var k = around[a];
        if (!mark[k] && ownerOf(cells[k]) === p) { mark[k] = 1; stack.push(k); }
      }
    }
    var lost = 0;
    for (var n = 0; n < cells.length; n++) {
      if (isLive(cells[n], p) && !mark[n]) { cells[n] |= CAPTURED; lost++; }
    }
    this.scores[p ^ 1] += lost;
    this.grounded = p;
  };
  Dots.prototype.play = function (m) {
    var p = this.ply & 1;
    this.ply++;
    if (this.grounded >= 0) return;
    if (m === 'ground') { this.ground(p); this.last = -1; return; }
    var xy = m.split('-'), x = +xy[0], y = +xy[1];
    if (!(x >= 1 && x <= this.w && y >= 1 && y <= this.h)) return;
    var i = this.index(x, y), c = this.cells[i];
    if (!isFree(c)) return;
    this.last = i;
    if ((c & HOUSE) === 0) {
      this.cells[i] = (c & ~PLAYER) | PUT | p;
      this.findCaptures(i, p);
      return;
    }
    var dot = (c & ~PLAYER) | PUT | p;
    if ((c & PLAYER) === p) {
      this.cells[i] = dot & ~HOUSE;
    } else {
      this.cells[i] = dot;
      if (this.findCaptures(i, p)) this.dissolveHouses(i);
      else this.houseCapture(i, p);
    }
  };
  Dots.prototype.save = function () {
    return { cells: this.cells.slice(), scores: this.scores.slice(), bases: this.bases.length, ply: this.ply, last: this.last, grounded: this.grounded };
  };
  Dots.prototype.load = function (s) {
    this.cells = s.cells.slice(); this.scores = s.scores.slice(); this.bases.length = s.bases;
    this.ply = s.ply; this.last = s.last; this.grounded = s.grounded;
  };
  Dots.prototype.score = function () { return [Math.max(0, this.scores[0]), Math.max(0, this.scores[1])]; };
  Dots.prototype.svg = function () {
    var G = 20, w = this.w, h = this.h, s = this.stride, cells = this.cells, out = [], k;
    var X = function (i) { return (i % s) * G; }, Y = function (i) { return ((i / s) | 0) * G; };
    out.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="' + (G / 2 - 14) + ' ' + (G / 2) + ' ' + (w * G + 20) + ' ' + (h * G + 18) + '">');
    out.push('<rect x="' + (G / 2) + '" y="' + (G / 2) + '" width="' + (w * G) + '" height="' + (h * G) + '" fill="#fdfdf8"/>');
    var grid = [];
    for (k = 1; k <= w; k++) grid.push('M' + k * G + ' ' + G + 'V' + h * G);
    for (k = 1; k <= h; k++) grid.push('M' + G + ' ' + k * G + 'H' + w * G);
    out.push('<path d="' + grid.join('') + '" stroke="#d7dde8" stroke-width="1"/>');
    for (k = 1; k <= w; k++) if (k === 1 || k % 5 === 0 || k === w) out.push('<text x="' + k * G + '" y="' + ((h + 1) * G + 6) + '" font-size="7" text-anchor="middle" fill="#999">' + k + '</text>');
    for (k = 1; k <= h; k++) if (k === 1 || k % 5 === 0 || k === h) out.push('<text x="' + (G / 2 - 3) + '" y="' + ((h + 1 - k) * G + 3) + '" font-size="7" text-anchor="end" fill="#999">' + k + '</text>');
    // Empty points inside bases: small filled squares in the capturer's colour; inside houses: hollow
    // ones in the owner's colour.
    for (var i = 0; i < cells.length; i++) {
      var c = cells[i];
      if ((c & (BORDER | PUT | CAPTURED)) === CAPTURED) {
        var p = c & PLAYER;
        out.push('<rect class="dead" data-cell="' + this.cell(i) + '" data-owner="' + OWNER[p] + '" data-dead="1" x="' + (X(i) - 3) + '" y="' + (Y(i) - 3) + '" width="6" height="6" fill="var(--' + OWNER[p] + ')" fill-opacity="0.35"/>');
      } else if ((c & (BORDER | PUT | CAPTURED | HOUSE)) === HOUSE) {
        // An empty point inside a house (R9): still free for both players, so only a hollow square in
        // the owner's colour, unlike a dead point's filled one.
        p = c & PLAYER;
        out.push('<rect class="house" data-cell="' + this.cell(i) + '" data-owner="' + OWNER[p] + '" data-house="1" x="' + (X(i) - 2.5) + '" y="' + (Y(i) - 2.5) + '" width="5" height="5" fill="none" stroke="var(--' + OWNER[p] + ')" stroke-width="1" stroke-opacity="0.8"/>');
      }
    }
    // The bases whose walls still stand (none of their wall dots captured since): area and walls.
    for (k = 0; k < this.bases.length; k++) {
      var b = this.bases[k], chain = b[1], standing = true;
      for (var j = 0; j < chain.length; j++) if (!isLive(cells[chain[j]], b[0])) { standing = false; break; }
      if (!standing) continue;
      var pts = chain.map(function (q) { return X(q) + ',' + Y(q); }).join(' ');
      out.push('<polygon class="base" data-owner="' + OWNER[b[0]] + '" points="' + pts + '" fill="var(--' + OWNER[b[0]] + '-area)" stroke="var(--' + OWNER[b[0]] + ')" stroke-width="2.5" stroke-linejoin="round"/>');
    }
    for (i = 0; i < cells.length; i++) {
      c = cells[i];
      if ((c & BORDER) || !(c & PUT)) continue;
      p = c & PLAYER;
      var cap = (c & CAPTURED) !== 0;
      out.push('<circle class="dot" data-cell="' + this.cell(i) + '" data-owner="' + OWNER[p] + '" data-captured="' + (cap ? 1 : 0) + '" cx="' + X(i) + '" cy="' + Y(i) + '" r="' + (cap ? 3.5 : 5) + '" fill="var(--' + OWNER[p] + ')"' + (cap ? ' fill-opacity="0.4"' : '') + (i === this.last ? ' stroke="#000" stroke-width="2"' : '') + '/>');
    }
    out.push('</svg>');
    return out.join('');
  };
  Dots.prototype.cell = function (i) { return (i % this.stride) + '-' + (this.h + 1 - ((i / this.stride) | 0)); };

  function newBoard(spec, setup) {
    var words = spec.split(' '), kind = words[0];
    if (kind === 'tictactoe') return new TicTacToe(+words[1], +words[2]);
    if (kind === 'connect4') return new Connect4(+words[1], +words[2]);
    var dots = [];
    if (setup) {
      var side = 0;
      setup.split(' ').forEach(function (t) {
        if (t === 'first') side = 0; else if (t === 'second') side = 1;
        else { var xy = t.split('-'); dots.push([+xy[0], +xy[1], side]); }
      });
    }
    return new Dots(+words[1], +words[2], words[3] || 'cross', dots);
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

  // ---- The viewer: a game's board at any ply, built on opening; snapshots every 64 plies. ----
  var EVERY = 64;
  function open(g, ply) {
    var spec = D.variants[g.v], kind = spec.split(' ')[0];
    var moves = decodeMoves(g, kind);
    var board = newBoard(spec, g.su);
    current = { g: g, kind: kind, moves: moves, board: board, snaps: [board.save()], ms: decodeMs(g.ms), ply: 0 };
    $('viewer').hidden = false;
    $('viewer-title').textContent = g.i + ': ' + D.bots[g.a] + ' vs ' + D.bots[g.b];
    var info = spec + ' — round ' + g.r + ', game pair ' + g.p + ' — ' + resultText(g) + ', ' + g.t + (g.d ? ' (' + g.d + ')' : '') + ', ' + g.n + ' plies';
    if (g.o) info += ', ' + g.o + ' opening plies';
    if (g.su) info += ' — setup dots: ' + g.su;
    if (g.tc[0]) info += ' — time control ' + g.tc[0] + (g.tc[1] !== g.tc[0] ? ' / ' + g.tc[1] : '') + ' ms';
    $('viewer-info').textContent = info;
    var list = [];
    for (var k = 0; k < moves.length; k++) {
      var t = moveMs(k + 1);
      list.push('<span data-ply="' + (k + 1) + '"' + (k < g.o ? ' class="op"' : '') + '>' + (k + 1) + '. ' + esc(moves[k]) + (t != null ? ' ' + t + 'ms' : '') + '</span>');
    }
    $('moves').innerHTML = list.join('');
    var links = [];
    if (D.exports.sgf && kind === 'dots') links.push('<a href="export/' + encodeURIComponent(g.i) + '.sgf">' + esc(g.i) + '.sgf</a>');
    if (D.exports.pgn) links.push('<a href="export/games.pgn">games.pgn</a>');
    if (D.exports.pons && kind === 'connect4') links.push('<a href="export/games.pons">games.pons</a>');
    $('links').innerHTML = links.length ? 'Records: ' + links.join(' ') : '';
    $('ply').max = moves.length;
    renderList();
    go(ply == null ? moves.length : ply);
  }
  // The time of ply k (1-based), ms, or null for an opening ply or a move without a time.
  function moveMs(k) {
    var j = k - 1 - current.g.o;
    return j >= 0 && j < current.ms.length ? current.ms[j] : null;
  }
  function go(ply) {
    var c = current;
    if (!c) return;
    ply = Math.max(0, Math.min(c.moves.length, ply | 0));
    var b = c.board;
    if (ply < b.ply) {
      var snap = Math.min(Math.floor(ply / EVERY), c.snaps.length - 1);
      b.load(c.snaps[snap]);
    }
    while (b.ply < ply) {
      b.play(c.moves[b.ply]);
      if (b.ply % EVERY === 0 && c.snaps.length === b.ply / EVERY) c.snaps.push(b.save());
    }
    c.ply = ply;
    var board = $('board');
    board.innerHTML = b.svg();
    var svg = board.firstChild;
    svg.setAttribute('data-game', c.g.i);
    svg.setAttribute('data-ply', ply);
    // Connect Four: the winning line, ringed on the last ply.
    if (c.g.w && ply === c.moves.length) {
      c.g.w.forEach(function (cell) {
        var disc = svg.querySelector('.disc[data-cell="' + cell + '"]');
        if (disc) {
          disc.setAttribute('data-win', '1');
          disc.setAttribute('stroke', '#1fd36b');
          disc.setAttribute('stroke-width', '5');
        }
      });
    }
    $('ply').value = ply;
    $('ply-label').textContent = 'ply ' + ply + ' / ' + c.moves.length;
    if (ply === 0) {
      $('move-info').textContent = c.g.su ? 'start: the variant\'s dots and ' + c.g.su : 'start position';
    } else {
      var t = moveMs(ply), who = OWNER[(ply - 1) & 1];
      $('move-info').innerHTML = 'ply ' + ply + ': <b class="' + who + '">' + esc(who === 'first' ? D.bots[c.g.a] : D.bots[c.g.b]) + '</b> ' + esc(c.moves[ply - 1]) +
        (ply <= c.g.o ? ' (opening)' : t != null ? ' in ' + t + ' ms' : '');
    }
    if (b.score) {
      var sc = b.score();
      svg.setAttribute('data-score', sc[0] + ':' + sc[1]);
      $('score').innerHTML = 'captured: <span class="first">' + esc(D.bots[c.g.a]) + ' ' + sc[0] + '</span> — <span class="second">' + esc(D.bots[c.g.b]) + ' ' + sc[1] + '</span>';
    } else {
      $('score').textContent = '';
    }
    var old = document.querySelector('#moves span.cur');
    if (old) old.classList.remove('cur');
    var cur = document.querySelector('#moves span[data-ply="' + ply + '"]');
    if (cur) {
      cur.classList.add('cur');
      var box = $('moves');
      if (cur.offsetTop < box.scrollTop || cur.offsetTop > box.scrollTop + box.clientHeight - 20) box.scrollTop = cur.offsetTop - box.clientHeight / 2;
    }
  }
  function openHash() {
    var h = decodeURIComponent(location.hash.slice(1));
    if (!h) return;
    var parts = h.split('@'), g = findGame(parts[0]);
    if (g) {
      open(g, parts.length > 1 ? +parts[1] : null);
      $('viewer').scrollIntoView();
    }
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
  $('last').addEventListener('click', function () { if (current) go(current.moves.length); });
  $('ply').addEventListener('input', function () { go(+this.value); });
  document.addEventListener('keydown', function (e) {
    if (!current || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
    var to = { ArrowLeft: current.ply - 1, ArrowRight: current.ply + 1, Home: 0, End: current.moves.length }[e.key];
    if (to != null) { e.preventDefault(); go(to); }
  });
  window.addEventListener('hashchange', openHash);

  renderList();
  openHash();
  // How long the page took to be ready, ms from the start of navigation (read by the report benchmark).
  document.body.setAttribute('data-ready-ms', Math.round(performance.now()));
})();

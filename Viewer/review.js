/* Quire viewer: the review mode (docs/review.md). Each source page's capture (layout.json
 * `capture`) with what Quire decided drawn over it (the quad, the deskewed crop, the split line,
 * the turn, the confidence) beside the written page; the least sure pages first. Fixes by hand
 * (corners, quarter turns, split/join, exclude) are entries of the corrections file, in source
 * pixels, kept by corrections.js; they are downloaded (file://) or saved and reprocessed
 * (`quire view --serve`, which puts a token in the page). viewer.js opens and closes it.
 * Classic script: Quire.Review. */
(function (Q) {
  'use strict';
  /* A page quad found with less confidence than this is marked for checking (the detector's
   * scores for pages it got right sit above it on the bundled samples). */
  var LOW_QUAD = 0.5;
  /* Tesseract's orientation confidence under which Quire does not turn a page (OrientationPolicy.minimumConfidence). */
  var LOW_ROTATION = 2.0;
  /* The orientation confidence counted as sure (OrientationPolicy.sureConfidence): scores are scaled by it to 0-1. */
  var SURE_ROTATION = 8.0;
  /* Largest believable pixel count on a side of a capture or source (as sources.js). */
  var MAX_SIDE = 1 << 20;
  /* Arrow keys move a corner by one screen pixel, with Shift by this many. */
  var SHIFT_STEP = 10;
  /* The capture is drawn at most this share of the screen's height (vh), so the tools stay in view. */
  var CAPTURE_MAX_VH = 62;
  /* The list draws this many entries at most, from this many before the one shown. */
  var LIST_WINDOW = 60, LIST_BEFORE = 20;
  /* Said when a move would cross the corners (quire process refuses such a quad). */
  var NOT_CONVEX = 'Not moved: the corners must stay in order (top-left, top-right, bottom-right, bottom-left) around the page.';
  var CORNERS = ['Top-left', 'Top-right', 'Bottom-right', 'Bottom-left'];
  var SVG = 'http://www.w3.org/2000/svg';

  function side(v) { return typeof v === 'number' && isFinite(v) && v >= 1 && v <= MAX_SIDE ? v : null; }
  function finite(v) { return typeof v === 'number' && isFinite(v); }
  function quadOk(q) {
    return Array.isArray(q) && q.length === 4 && q.every(function (c) { return Array.isArray(c) && finite(c[0]) && finite(c[1]); });
  }
  function lerp(a, b, t) { return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]; }
  function fmt(v, d) { return finite(v) ? String(Math.round(v * Math.pow(10, d)) / Math.pow(10, d)) : '–'; }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function button(cls, label, text) {
    var b = el('button', cls); b.type = 'button'; b.setAttribute('aria-label', label); b.title = label;
    b.textContent = text; return b;
  }
  function keyOf(p) { return Q.Corrections.keyOf(p); }

  /* The capture's sizes, range-checked: {file, w, h, W, H} or null. */
  function captureOf(p) {
    var c = p && p.capture;
    if (!c || typeof c.file !== 'string') return null;
    var w = side(c.width), h = side(c.height), W = side(c.sourceWidth), H = side(c.sourceHeight);
    return w && h && W && H ? { file: c.file, w: w, h: h, W: W, H: H } : null;
  }
  /* 0 (unsure) .. 1 (sure): the lower of the quad's confidence and the orientation's (scaled). */
  function score(p) {
    var q = finite(p.quadConfidence) ? Math.max(0, Math.min(1, p.quadConfidence)) : 1;
    var r = finite(p.rotationConfidence) ? Math.max(0, Math.min(1, p.rotationConfidence / SURE_ROTATION)) : 1;
    return Math.min(q, r);
  }
  function low(p) {
    return (finite(p.quadConfidence) && p.quadConfidence < LOW_QUAD) ||
      (finite(p.rotationConfidence) && p.rotationConfidence < LOW_ROTATION);
  }
  /* Review items: one per source page (both parts of a split spread together), in batch order,
   * then the pages Quire already left out (layout.json `excluded`), which can only be included again. */
  function itemsOf(data) {
    var byKey = new Map(), items = [];
    (Array.isArray(data.pages) ? data.pages : []).forEach(function (p) {
      var k = keyOf(p), it = byKey.get(k);
      if (!it) { it = { key: k, pages: [], order: items.length }; byKey.set(k, it); items.push(it); }
      it.pages.push(p);
    });
    (Array.isArray(data.excluded) ? data.excluded : []).forEach(function (x) {
      if (!x || typeof x !== 'object' || byKey.has(keyOf(x))) return;
      var it = { key: keyOf(x), pages: [], order: items.length, gone: x };
      byKey.set(it.key, it); items.push(it);
    });
    items.forEach(function (it) {
      it.score = it.pages.length ? Math.min.apply(null, it.pages.map(score)) : 1;
      it.low = it.pages.some(low);
      it.capture = it.pages.length ? captureOf(it.pages[0]) : null;
    });
    return items;
  }
  /* The split parts, left then right (by `split.side`). */
  function parts(it) {
    var ps = it.pages.slice();
    ps.sort(function (a, b) { return (a.split && a.split.side === 'right' ? 1 : 0) - (b.split && b.split.side === 'right' ? 1 : 0); });
    return ps;
  }
  /* The deskewed crop drawn back on the source: the crop rect (pixels of the deskewed image, whose
   * canvas libvips grew to the rotated bounding box) turned back by the skew about the centre. */
  function cropQuad(p, W, H) {
    var c = p.crop, a = finite(p.skewDegrees) ? p.skewDegrees * Math.PI / 180 : 0;
    if (!c || !finite(c.x) || !finite(c.y) || !(c.width > 0) || !(c.height > 0)) return null;
    var cos = Math.cos(a), sin = Math.sin(a);
    var kept = c.width <= W + 1 && c.height <= H + 1 && Math.abs(c.width - W) < 2 && Math.abs(c.height - H) < 2;
    var Wd = kept ? W : W * Math.abs(cos) + H * Math.abs(sin), Hd = kept ? H : W * Math.abs(sin) + H * Math.abs(cos);
    return [[c.x, c.y], [c.x + c.width, c.y], [c.x + c.width, c.y + c.height], [c.x, c.y + c.height]].map(function (pt) {
      var x = pt[0] - Wd / 2, y = pt[1] - Hd / 2;
      return [x * cos + y * sin + W / 2, -x * sin + y * cos + H / 2];
    });
  }
  /* The quad Quire used for the item (a split photo's two halves joined), else the crop, else the frame. */
  function detectedQuad(it, W, H) {
    var ps = parts(it);
    if (ps.length === 2 && quadOk(ps[0].quad) && quadOk(ps[1].quad)) return [ps[0].quad[0], ps[1].quad[1], ps[1].quad[2], ps[0].quad[3]];
    if (ps.length && quadOk(ps[0].quad)) return ps[0].quad;
    var c = ps.length ? cropQuad(ps[0], W, H) : null;
    return c || [[0, 0], [W, 0], [W, H], [0, H]];
  }
  /* Where Quire split the spread, as a fraction of its width (the left half's share). */
  function detectedSplit(it) {
    var ps = parts(it);
    if (ps.length !== 2 || !ps[0].split || !ps[1].split) return 0.5;
    var a = ps[0].split.rect && ps[0].split.rect.width, b = ps[1].split.rect && ps[1].split.rect.width;
    return a > 0 && b > 0 ? a / (a + b) : 0.5;
  }

  function Review(root, ctx) {
    this.root = root; this.ctx = ctx;
    this.order = 'confidence'; this.current = null; this.open = false; this.draft = null; this.busy = false;
    this.token = (document.querySelector('meta[name="quire-token"]') || {}).content || null;
    this.build();
    var self = this;
    ctx.corrections.onChange(function () { if (self.open) self.render(); });
  }
  Review.prototype.build = function () {
    var r = this.root, self = this;
    r.textContent = '';
    r.appendChild(el('h1', 'sr-only', 'Review and fix pages'));
    var list = el('nav', 'rv-list'); list.setAttribute('aria-label', 'Pages to review');
    var head = el('div', 'rv-list-head');
    this.orderBtn = button('rv-order', 'Order: least sure first (switch to batch order)', 'Least sure first');
    this.orderBtn.addEventListener('click', function () { self.order = self.order === 'confidence' ? 'batch' : 'confidence'; self.render(); });
    head.appendChild(this.orderBtn); list.appendChild(head);
    this.listEl = el('ol', 'rv-items'); list.appendChild(this.listEl);
    r.appendChild(list);

    var main = el('div', 'rv-main');
    var tools = el('div', 'rv-tools'); tools.setAttribute('role', 'toolbar'); tools.setAttribute('aria-label', 'Fix this page');
    var mk = function (name, label, text, f) { var b = button('rv-' + name, label, text); b.dataset.act = name; b.addEventListener('click', f); tools.appendChild(b); return b; };
    this.btn = {
      prev: mk('prev', 'Previous page to review', '‹'),
      next: mk('next', 'Next page to review', '›'),
      left: mk('left', 'Turn left by 90°', '⟲ Left'),
      right: mk('right', 'Turn right by 90°', '⟳ Right'),
      split: mk('split', 'Split into two pages', 'Split'),
      exclude: mk('exclude', 'Exclude from the batch', 'Exclude'),
      reset: mk('reset', 'Reset this page’s fixes', 'Reset'),
      undo: mk('undo', 'Undo (Ctrl+Z)', '↶ Undo'),
      redo: mk('redo', 'Redo (Ctrl+Shift+Z)', '↷ Redo')
    };
    this.btn.prev.addEventListener('click', function () { self.step(-1); });
    this.btn.next.addEventListener('click', function () { self.step(1); });
    this.btn.left.addEventListener('click', function () { self.turn(-90); });
    this.btn.right.addEventListener('click', function () { self.turn(90); });
    this.btn.split.addEventListener('click', function () { self.toggleSplit(); });
    this.btn.exclude.addEventListener('click', function () { self.toggleExclude(); });
    this.btn.reset.addEventListener('click', function () { self.ctx.corrections.set(self.current, null); self.say('Fixes of this page removed.'); });
    this.btn.undo.addEventListener('click', function () { self.undo(); });
    this.btn.redo.addEventListener('click', function () { self.redo(); });
    main.appendChild(tools);
    var save = el('div', 'rv-save');
    main.appendChild(save);

    var panes = el('div', 'rv-panes');
    var cap = el('figure', 'rv-capture');
    this.frame = el('div', 'rv-frame');
    this.capImg = el('img', 'rv-capture-img'); this.capImg.draggable = false;
    this.svg = document.createElementNS(SVG, 'svg'); this.svg.setAttribute('class', 'rv-overlay');
    this.svg.setAttribute('aria-hidden', 'true'); this.svg.setAttribute('preserveAspectRatio', 'none');
    this.frame.appendChild(this.capImg); this.frame.appendChild(this.svg);
    this.handles = CORNERS.map(function (name, i) {
      var h = button('rv-handle', name + ' corner', ''); h.dataset.corner = i;
      self.dragHandle(h, function (pt) { self.moveCorner(i, pt); }, function () { self.commitCorners(); });
      h.addEventListener('keydown', function (ev) { self.cornerKey(ev, i); });
      self.frame.appendChild(h); return h;
    });
    this.splitHandle = button('rv-handle rv-split-handle', 'Split line', '');
    this.dragHandle(this.splitHandle, function (pt) { self.moveSplit(pt); }, function () { self.commitSplit(); });
    this.splitHandle.addEventListener('keydown', function (ev) { self.splitKey(ev); });
    this.frame.appendChild(this.splitHandle);
    this.capCaption = el('figcaption', 'rv-caption');
    cap.appendChild(this.frame); cap.appendChild(this.capCaption);
    var written = el('figure', 'rv-written');
    this.writtenBox = el('div', 'rv-written-box');
    this.writtenCaption = el('figcaption', 'rv-caption');
    written.appendChild(this.writtenBox); written.appendChild(this.writtenCaption);
    panes.appendChild(cap); panes.appendChild(written);
    main.appendChild(panes);

    this.saveBtn = button('rv-save-btn', this.token ? 'Save and reprocess' : 'Download corrections.json',
      this.token ? 'Save and reprocess' : 'Download corrections.json');
    this.saveBtn.addEventListener('click', function () { if (self.token) self.saveServed(); else self.download(); });
    this.count = el('span', 'rv-count');
    this.status = el('p', 'rv-status'); this.status.setAttribute('role', 'status'); this.status.setAttribute('aria-live', 'polite');
    this.command = el('code', 'rv-command'); this.command.hidden = true;
    save.appendChild(this.saveBtn); save.appendChild(this.count); save.appendChild(this.status); save.appendChild(this.command);
    r.appendChild(main);

    r.addEventListener('keydown', function (ev) { self.key(ev); });
  };

  /* ---- data ---- */
  /* The items in the order shown, worked out once per layout.json and order (not per render). */
  Review.prototype.items = function () {
    var d = this.ctx.data(), c = this.cache;
    if (c && c.data === d && c.order === this.order) return c.items;
    var items = itemsOf(d);
    if (this.order === 'confidence') items.sort(function (a, b) { return a.score - b.score || a.order - b.order; });
    var byKey = new Map();
    items.forEach(function (it, i) { it.position = i; byKey.set(it.key, it); });
    this.cache = { data: d, order: this.order, items: items, byKey: byKey };
    return items;
  };
  Review.prototype.item = function () {
    var items = this.items();
    return this.cache.byKey.get(this.current) || items[0] || null;
  };
  Review.prototype.entry = function () { return this.ctx.corrections.get(this.current) || {}; };

  /* ---- showing ---- */
  /* Opens on batch page `n` (from 1), or the least sure page. */
  Review.prototype.show = function (n) {
    this.open = true; this.root.hidden = false;
    var items = this.items();
    var hit = n ? items.find(function (it) { return it.pages.some(function (p) { return p.index + 1 === n; }); }) : null;
    if (hit) this.current = hit.key;
    else if (!items.some(function (it) { return it.key === this.current; }, this)) this.current = items.length ? items[0].key : null;
    this.render();
  };
  Review.prototype.hide = function () { this.open = false; this.root.hidden = true; this.draft = null; };
  Review.prototype.isOpen = function () { return this.open; };
  Review.prototype.select = function (key, focusList) {
    this.current = key; this.draft = null; this.render();
    if (focusList) { var b = this.listEl.querySelector('[aria-current="true"]'); if (b) b.focus(); }
  };
  Review.prototype.step = function (by) {
    var items = this.items(), cur = this.item(), i = cur ? cur.position : 0;
    var j = Math.max(0, Math.min(items.length - 1, i + by));
    if (items[j]) this.select(items[j].key);
  };
  /* The batch page number shown (from 1), for the address. */
  Review.prototype.pageNumber = function () {
    var it = this.item();
    return it && it.pages.length ? it.pages[0].index + 1 : null;
  };
  Review.prototype.render = function () {
    var it = this.item(), c = this.ctx.corrections, self = this;
    if (!it) { this.listEl.textContent = ''; this.say('No pages in this batch.'); return; }
    this.current = it.key;
    /* the list */
    this.orderBtn.textContent = this.order === 'confidence' ? 'Least sure first' : 'Batch order';
    this.orderBtn.setAttribute('aria-label', this.order === 'confidence'
      ? 'Order: least sure first (switch to batch order)' : 'Order: batch order (switch to least sure first)');
    this.listEl.textContent = '';
    /* Only a window of the list is drawn (a 5,000-page batch would be 5,000 buttons); the
     * arrows, Page Up/Down and ‹ › go through all of it. */
    var all = this.items(), from = Math.max(0, Math.min(it.position - LIST_BEFORE, all.length - LIST_WINDOW)), to = Math.min(all.length, from + LIST_WINDOW);
    var more = function (n, where) {
      if (n > 0) self.listEl.appendChild(el('li', 'rv-more', n + (n === 1 ? ' more page ' : ' more pages ') + where + ': ‹ › or Page Up/Down'));
    };
    more(from, 'before');
    all.slice(from, to).forEach(function (x) {
      var li = el('li'), b = el('button', 'rv-item'); b.type = 'button'; b.dataset.key = x.key;
      var ex = c.excluded(x.key), fixed = !!c.get(x.key) && !ex;
      var what = x.pages.length ? 'Page ' + x.pages.map(function (p) { return p.index + 1; }).join('–') : 'Left out: ' + x.key;
      var th = x.pages.length && x.pages[0].files ? x.pages[0].files.thumbnail : null;
      if (th) { var im = el('img'); im.alt = ''; im.loading = 'lazy'; im.src = th; im.draggable = false; b.appendChild(im); }
      var t = el('span', 'rv-item-text');
      /* the name read out starts with the text shown (axe: label-content-name-mismatch), then says more */
      t.appendChild(el('span', 'rv-item-title', what));
      t.appendChild(el('span', 'rv-item-conf', x.pages.length ? ' sure ' + fmt(x.score, 2) : ex ? ' excluded' : ' included at the next save'));
      t.appendChild(el('span', 'sr-only', (x.pages.length ? ', ' + x.key : '') + (x.low ? ', low confidence' : '') +
        (ex && x.pages.length ? ', excluded' : '') + (fixed ? ', fixed' : '')));
      b.appendChild(t);
      if (x.low) b.classList.add('low');
      if (ex) b.classList.add('excluded');
      if (fixed) b.classList.add('fixed');
      if (x.key === it.key) b.setAttribute('aria-current', 'true');
      b.tabIndex = x.key === it.key ? 0 : -1;
      b.addEventListener('click', function () { self.select(x.key); });
      li.appendChild(b); self.listEl.appendChild(li);
    });
    more(all.length - to, 'after');
    var cur = this.listEl.querySelector('[aria-current="true"]');
    if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    this.renderPage(it);
    this.renderButtons(it);
    if (this.ctx.changed) this.ctx.changed();   /* the address and the header follow */
  };
  Review.prototype.renderButtons = function (it) {
    var c = this.ctx.corrections, e = this.entry(), ex = c.excluded(it.key), has = it.pages.length > 0;
    var split = this.isSplit(it);
    this.btn.split.textContent = split ? 'Join' : 'Split';
    this.btn.split.setAttribute('aria-label', split ? 'Join: keep the spread as one page' : 'Split into two pages');
    this.btn.exclude.textContent = ex ? 'Include' : 'Exclude';
    this.btn.exclude.setAttribute('aria-label', ex ? 'Include in the batch again' : 'Exclude from the batch');
    this.btn.exclude.setAttribute('aria-pressed', ex ? 'true' : 'false');
    this.btn.left.disabled = this.btn.right.disabled = this.btn.split.disabled = !has;
    this.btn.reset.disabled = !Object.keys(e).length;
    this.btn.undo.disabled = !c.canUndo(); this.btn.redo.disabled = !c.canRedo();
    var n = c.count();
    this.count.textContent = n === 1 ? '1 page fixed' : n + ' pages fixed';
  };
  Review.prototype.isSplit = function (it) {
    var e = this.ctx.corrections.get(it.key) || {};
    return e.split !== undefined ? e.split !== false : it.pages.length > 1;
  };
  Review.prototype.rotation = function (it) {
    var e = this.ctx.corrections.get(it.key) || {}, base = it.pages.length ? (it.pages[0].rotation || 0) : 0;
    return e.rotate !== undefined ? e.rotate : base;
  };
  /* The quad being edited: a drag in progress, else the entry's corners, else Quire's. */
  Review.prototype.quad = function (it) {
    if (this.draft && this.draft.corners) return this.draft.corners;
    var e = this.ctx.corrections.get(it.key) || {}, cap = it.capture;
    if (quadOk(e.corners)) return e.corners;
    return cap ? detectedQuad(it, cap.W, cap.H) : null;
  };
  Review.prototype.splitAt = function (it) {
    if (this.draft && this.draft.split !== undefined) return this.draft.split;
    var e = this.ctx.corrections.get(it.key) || {};
    return typeof e.split === 'number' ? e.split : detectedSplit(it);
  };
  Review.prototype.renderPage = function (it) {
    var cap = it.capture, p = it.pages[0], ex = this.ctx.corrections.excluded(it.key);
    this.root.classList.toggle('rv-is-excluded', ex);
    /* the capture with the decisions over it */
    this.frame.hidden = !cap;
    if (cap) {
      if (this.capImg.getAttribute('src') !== cap.file) this.capImg.src = cap.file;
      this.capImg.alt = 'Capture of ' + it.key + ' as it came in';
      this.frame.style.aspectRatio = cap.w + ' / ' + cap.h;
      /* as wide as the pane, but no taller than most of the screen (the shape kept: the overlay maps by it) */
      this.frame.style.maxWidth = 'calc(' + (CAPTURE_MAX_VH * cap.w / cap.h).toFixed(3) + 'vh)';
      this.svg.setAttribute('viewBox', '0 0 ' + cap.W + ' ' + cap.H);
      this.drawOverlay(it, cap);
    }
    /* what Quire decided, in words */
    this.capCaption.textContent = '';
    var facts = [];
    if (!it.pages.length) facts.push('Left out of the batch by a correction: Include brings it back at the next save.');
    else {
      facts.push(it.key);
      if (!cap) facts.push('No capture in layout.json: rerun quire process to review the corners here.');
      if (p.correction === 'perspective') facts.push('Straightened from the page’s corners, confidence ' + fmt(p.quadConfidence, 2));
      else if (p.correction === 'deskew') facts.push('Scan deskewed by ' + fmt(p.skewDegrees, 2) + '° and trimmed');
      else facts.push('Kept as it is' + (finite(p.quadConfidence) ? ' (page found with confidence ' + fmt(p.quadConfidence, 2) + ')' : ''));
      facts.push('Turned ' + (p.rotation || 0) + '°' + (finite(p.rotationConfidence) ? ', orientation confidence ' + fmt(p.rotationConfidence, 1) : ''));
      var gutter = p.split && p.split.gutter, at = Math.round(detectedSplit(it) * 100) + '% across';
      if (it.pages.length > 1) facts.push(gutter === 'given' ? 'Split in two where your correction says, ' + at : 'Split in two at the ' + (gutter === 'fold' ? 'fold' : 'margin') + ', ' + at);
      if (it.low) facts.push('Low confidence: check this page');
    }
    var e = this.entry(), fixes = [];
    if (e.corners) fixes.push('corners moved');
    if (e.rotate !== undefined) fixes.push('turn ' + e.rotate + '°');
    if (e.split === false) fixes.push('joined'); else if (e.split === true) fixes.push('split'); else if (typeof e.split === 'number') fixes.push('split at ' + Math.round(e.split * 100) + '%');
    if (e.exclude) fixes.push('excluded');
    if (fixes.length) facts.push('Your fixes: ' + fixes.join(', '));
    var self = this;
    facts.forEach(function (f, i) { var s = el('span', i === facts.length - 1 && fixes.length ? 'rv-fixes' : '', f); self.capCaption.appendChild(s); });
    /* the written page(s), turned by the fix so the effect shows before reprocessing */
    this.writtenBox.textContent = '';
    var turn = it.pages.length ? this.rotation(it) - (p.rotation || 0) : 0;
    it.pages.forEach(function (q) {
      var box = el('div', 'rv-written-page'), im = el('img');
      im.src = q.files.preview; im.alt = 'Page ' + (q.index + 1) + ' as written' + (ex ? ' (excluded)' : '');
      im.draggable = false; im.style.transform = turn ? 'rotate(' + turn + 'deg)' : '';
      box.appendChild(im); self.writtenBox.appendChild(box);
    });
    this.writtenCaption.textContent = it.pages.length
      ? (ex ? 'Excluded: left out at the next save.' : turn ? 'Shown turned by your fix (' + ((turn + 360) % 360) + '° more); reprocessing writes it.' : 'The written page' + (it.pages.length > 1 ? 's' : '') + '.')
      : '';
  };
  Review.prototype.drawOverlay = function (it, cap) {
    var svg = this.svg, q = this.quad(it), self = this;
    svg.textContent = '';
    var poly = function (pts, cls) {
      var e = document.createElementNS(SVG, 'polygon'); e.setAttribute('class', cls);
      e.setAttribute('points', pts.map(function (c) { return c[0] + ',' + c[1]; }).join(' ')); svg.appendChild(e);
    };
    var line = function (a, b, cls) {
      var e = document.createElementNS(SVG, 'line'); e.setAttribute('class', cls);
      e.setAttribute('x1', a[0]); e.setAttribute('y1', a[1]); e.setAttribute('x2', b[0]); e.setAttribute('y2', b[1]); svg.appendChild(e);
    };
    /* Quire's decision, dashed: each part's quad, or the deskewed crop */
    it.pages.forEach(function (p) {
      if (quadOk(p.quad)) poly(p.quad, 'rv-detected');
      else { var c = cropQuad(p, cap.W, cap.H); if (c) poly(c, 'rv-detected'); }
    });
    poly(q, 'rv-edit');
    /* the top edge, thicker: where the written page's top is. A photo's quad is already in reading
     * order (TL is the upright page's), so only a turn added by hand moves it; a scan's crop is in
     * the source's order, so the whole turn does. */
    var readingOrder = it.pages.some(function (p) { return quadOk(p.quad); });
    var turned = this.rotation(it) - (readingOrder && it.pages.length ? it.pages[0].rotation || 0 : 0);
    var r = (turned % 360 + 360) % 360;
    var top = r === 0 ? [q[0], q[1]] : r === 90 ? [q[3], q[0]] : r === 180 ? [q[2], q[3]] : [q[1], q[2]];
    line(top[0], top[1], 'rv-top');
    var split = this.isSplit(it), f = this.splitAt(it);
    if (split) line(lerp(q[0], q[1], f), lerp(q[3], q[2], f), 'rv-splitline');
    var at = function (h, pt) { h.style.left = (pt[0] / cap.W * 100) + '%'; h.style.top = (pt[1] / cap.H * 100) + '%'; };
    q.forEach(function (pt, i) {
      var h = self.handles[i]; at(h, pt);
      h.setAttribute('aria-label', CORNERS[i] + ' corner at ' + Math.round(pt[0]) + ', ' + Math.round(pt[1]) +
        ' source pixels: drag, or arrows to move (Shift: ' + SHIFT_STEP + ')');
    });
    this.splitHandle.hidden = !split;
    if (split) {
      at(this.splitHandle, lerp(lerp(q[0], q[1], f), lerp(q[3], q[2], f), 0.5));
      this.splitHandle.setAttribute('aria-label', 'Split line at ' + Math.round(f * 100) + '% across: drag, or Left and Right arrows to move');
    }
  };

  /* ---- fixing ---- */
  /* Source pixels per screen pixel, and the source point under a pointer. */
  Review.prototype.scale = function () {
    var r = this.frame.getBoundingClientRect(), cap = this.item().capture;
    return r.width > 0 ? cap.W / r.width : 1;
  };
  Review.prototype.dragHandle = function (h, move, done) {
    var self = this, id = null, start = null, grab = null;
    h.addEventListener('pointerdown', function (ev) {
      if (id !== null || !self.item() || !self.item().capture) return;
      id = ev.pointerId; h.setPointerCapture(id); ev.preventDefault(); h.focus({ preventScroll: true });
      var s = self.scale(); start = [ev.clientX, ev.clientY]; grab = s;
      self.draft = { corners: self.quad(self.item()).map(function (c) { return c.slice(); }), split: self.splitAt(self.item()), moved: false };
      self.draft.start = self.draft.corners.map(function (c) { return c.slice(); });
    });
    h.addEventListener('pointermove', function (ev) {
      if (ev.pointerId !== id) return;
      self.draft.moved = true;
      move([(ev.clientX - start[0]) * grab, (ev.clientY - start[1]) * grab], ev);
    });
    var up = function (ev) {
      if (ev.pointerId !== id) return;
      id = null;
      if (self.draft && self.draft.moved) done(); else { self.draft = null; self.render(); }
    };
    h.addEventListener('pointerup', up);
    h.addEventListener('pointercancel', up);
  };
  /* Corner i moved by d (source pixels) from where the drag began; kept on the capture. */
  Review.prototype.moveCorner = function (i, d) {
    var cap = this.item().capture, s = this.draft.start[i];
    this.draft.corners[i] = [Math.max(0, Math.min(cap.W, s[0] + d[0])), Math.max(0, Math.min(cap.H, s[1] + d[1]))];
    this.drawOverlay(this.item(), cap);
  };
  Review.prototype.commitCorners = function () {
    var q = this.draft.corners; this.draft = null;
    if (!Q.Corrections.convex(q)) { this.render(); this.say(NOT_CONVEX); return; }
    if (this.ctx.corrections.update(this.current, 'corners', q)) this.say('Corners moved. Save to reprocess the page.');
    else this.render();
  };
  /* The split line follows the pointer: its fraction across the quad, from the top and bottom edges. */
  Review.prototype.moveSplit = function (d) {
    var it = this.item(), q = this.draft.start, f0 = this.splitAt(it);
    if (this.draft.f0 === undefined) this.draft.f0 = f0;
    var mid = lerp(lerp(q[0], q[1], this.draft.f0), lerp(q[3], q[2], this.draft.f0), 0.5);
    var pt = [mid[0] + d[0], mid[1] + d[1]];
    var along = function (a, b) { var vx = b[0] - a[0], vy = b[1] - a[1], n = vx * vx + vy * vy; return n > 0 ? ((pt[0] - a[0]) * vx + (pt[1] - a[1]) * vy) / n : 0.5; };
    var f = (along(q[0], q[1]) + along(q[3], q[2])) / 2;
    this.draft.split = Math.round(Math.max(Q.Corrections.SPLIT_MIN, Math.min(Q.Corrections.SPLIT_MAX, f)) * 1000) / 1000;
    this.draft.corners = null;
    this.drawOverlay(it, it.capture);
  };
  Review.prototype.commitSplit = function () {
    var f = this.draft.split; this.draft = null;
    if (this.ctx.corrections.update(this.current, 'split', f)) this.say('Split line moved to ' + Math.round(f * 100) + '% across.');
    else this.render();
  };
  Review.prototype.cornerKey = function (ev, i) {
    var d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
    if (!d || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault(); ev.stopPropagation();
    var it = this.item(), cap = it.capture, by = (ev.shiftKey ? SHIFT_STEP : 1) * this.scale();
    var q = this.quad(it).map(function (c) { return c.slice(); });
    q[i] = [Math.max(0, Math.min(cap.W, q[i][0] + d[0] * by)), Math.max(0, Math.min(cap.H, q[i][1] + d[1] * by))];
    if (!Q.Corrections.convex(q)) { this.say(NOT_CONVEX); return; }
    this.ctx.corrections.update(this.current, 'corners', q);
    this.handles[i].focus({ preventScroll: true });
  };
  Review.prototype.splitKey = function (ev) {
    var d = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (!d || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    ev.preventDefault(); ev.stopPropagation();
    var it = this.item(), f = this.splitAt(it) + d * (ev.shiftKey ? 0.05 : 0.01);
    f = Math.round(Math.max(Q.Corrections.SPLIT_MIN, Math.min(Q.Corrections.SPLIT_MAX, f)) * 1000) / 1000;
    this.ctx.corrections.update(this.current, 'split', f);
    this.splitHandle.focus({ preventScroll: true });
  };
  /* A quarter turn more (clockwise) or less; back at Quire's own decision the entry drops it. */
  Review.prototype.turn = function (by) {
    var it = this.item(); if (!it || !it.pages.length) return;
    var base = it.pages[0].rotation || 0, r = ((this.rotation(it) + by) % 360 + 360) % 360;
    this.ctx.corrections.update(this.current, 'rotate', r === base ? undefined : r);
    this.say('Turned to ' + r + '° from the straightened page.');
  };
  Review.prototype.toggleSplit = function () {
    var it = this.item(); if (!it || !it.pages.length) return;
    var want = !this.isSplit(it), base = it.pages.length > 1;
    this.ctx.corrections.update(this.current, 'split', want === base ? undefined : want);
    this.say(want ? 'Split into two pages; drag the line to move it.' : 'Joined: kept as one page.');
  };
  Review.prototype.toggleExclude = function () {
    var it = this.item(); if (!it) return;
    var ex = this.ctx.corrections.excluded(it.key);
    this.ctx.corrections.update(it.key, 'exclude', ex ? undefined : true);
    this.say(ex ? 'Included again.' : 'Excluded: left out of the batch at the next save. Undo brings it back.');
  };
  Review.prototype.undo = function () {
    var s = this.ctx.corrections.undo();
    if (s) { this.current = s.key; this.render(); this.say('Undone.'); }
  };
  Review.prototype.redo = function () {
    var s = this.ctx.corrections.redo();
    if (s) { this.current = s.key; this.render(); this.say('Redone.'); }
  };
  Review.prototype.say = function (text) { this.status.textContent = text; };
  /* Keys: Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y) undo and redo; PageUp/PageDown, and arrows on the list, change page. */
  Review.prototype.key = function (ev) {
    var k = ev.key;
    if ((ev.ctrlKey || ev.metaKey) && (k === 'z' || k === 'Z' || k === 'y')) {
      if (k === 'y' || ev.shiftKey) this.redo(); else this.undo();
      ev.preventDefault(); return;
    }
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var onList = ev.target.classList && ev.target.classList.contains('rv-item');
    var by = k === 'PageDown' || (onList && (k === 'ArrowDown' || k === 'ArrowRight')) ? 1
      : k === 'PageUp' || (onList && (k === 'ArrowUp' || k === 'ArrowLeft')) ? -1 : 0;
    if (!by) return;
    ev.preventDefault();
    this.step(by);
    if (onList) { var b = this.listEl.querySelector('[aria-current="true"]'); if (b) b.focus(); }
  };

  /* ---- saving ---- */
  /* The command that applies a downloaded file: OUT is this folder; the inputs are the batch's own. */
  Review.prototype.commandLine = function () {
    var path = decodeURIComponent(location.pathname).replace(/\/[^/]*\.html?$/i, '').replace(/\/$/, '');
    var quote = function (s) { return /^[\w@%+=:,./-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'"; };
    return 'quire process INPUTS -o ' + quote(path || '.') + ' --corrections ~/Downloads/corrections.json';
  };
  Review.prototype.download = function () {
    var text = this.ctx.corrections.text();
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    a.download = 'corrections.json';
    document.body.appendChild(a); a.click(); a.remove();
    setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
    this.command.textContent = this.commandLine();
    this.command.hidden = false;
    this.say('corrections.json downloaded (' + this.ctx.corrections.count() + ' entries). Run this with the batch’s inputs in place of INPUTS; only the pages you fixed are redone:');
  };
  /* POST the whole file to the server (docs/review.md#saved-by-the-server), then reload layout.json
   * and every image with a fresh query, so the browser does not show the old files. */
  Review.prototype.saveServed = function () {
    if (this.busy) return;
    var self = this, text = this.ctx.corrections.text();
    this.busy = true; this.saveBtn.disabled = true; this.root.setAttribute('aria-busy', 'true');
    this.say('Saving corrections.json and reprocessing the changed pages…');
    var finish = function (msg) { self.busy = false; self.saveBtn.disabled = false; self.root.removeAttribute('aria-busy'); self.say(msg); };
    fetch('api/corrections', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Quire-Token': this.token }, body: text })
      .then(function (r) {
        return r.text().then(function (body) {
          var j = null; try { j = JSON.parse(body); } catch (e) { /* not JSON: shown as the status */ }
          if (!r.ok) throw new Error('Save refused (' + r.status + '): ' + (j && typeof j.error === 'string' ? j.error : r.statusText || 'no reason given'));
          return j || {};
        });
      })
      .then(function (res) {
        self.say('Reprocessing done; loading the new pages…');
        return fetch('layout.json?v=' + Date.now(), { cache: 'no-store' }).then(function (r) {
          if (!r.ok) throw new Error('cannot read the new layout.json (' + r.status + ')');
          return r.json();
        }).then(function (data) {
          var v = String(Date.now());
          bust(data, v);
          self.ctx.reload(data);
          var redone = Array.isArray(res.redone) ? res.redone.length : 0, errors = Array.isArray(res.errors) ? res.errors : [];
          finish('Saved. ' + redone + (redone === 1 ? ' page' : ' pages') + ' redone, ' + (finite(res.excluded) ? res.excluded : 0) + ' excluded' +
            (errors.length ? '; errors: ' + errors.map(function (e) { return (e && e.source) + ': ' + (e && e.message); }).join('; ') : '.'));
        });
      })
      .catch(function (e) { finish(String(e && e.message || e)); });
  };
  /* A query on every file name so the reloaded images are fetched again, not taken from the cache. */
  function bust(data, v) {
    (Array.isArray(data.pages) ? data.pages : []).forEach(function (p) {
      if (p.files) Object.keys(p.files).forEach(function (k) { if (typeof p.files[k] === 'string') p.files[k] += '?v=' + v; });
      if (p.capture && typeof p.capture.file === 'string') p.capture.file += '?v=' + v;
    });
  }

  Review.prototype.state = function () {
    var it = this.item();
    return { open: this.open, order: this.order, key: it ? it.key : null, page: this.pageNumber(),
      items: this.items().map(function (x) { return { key: x.key, score: x.score, low: x.low, pages: x.pages.map(function (p) { return p.index + 1; }) }; }),
      quad: it && it.capture ? this.quad(it) : null, split: it ? this.isSplit(it) : null, rotation: it ? this.rotation(it) : null,
      entry: this.entry(), text: this.ctx.corrections.text(), served: !!this.token, busy: this.busy, status: this.status.textContent };
  };
  Review.itemsOf = itemsOf;
  Q.Review = Review;
})(window.Quire = window.Quire || {});

/* Quire viewer: the reader, one page zoomed and panned (zoom.js holds the geometry). Opens from
 * the pager (double-click or double-tap, pinch, the Zoom button, Enter) and draws the page with
 * the smallest file that is sharp at the current zoom (sources.js): the preview, then the page
 * file, or the IIIF tiles instead of the page file when OUT/iiif exists and the page is served.
 * The preview stays underneath as the placeholder while a larger file loads.
 * Classic script: Quire.Reader. */
(function (Q) {
  'use strict';
  /* Wheel deltas to zoom: a mouse notch (100) zooms ~1.2x; a trackpad pinch (ctrl+wheel) is finer-grained, so faster. */
  var WHEEL_RATE = 0.0018, PINCH_WHEEL_RATE = 0.01;
  /* Two taps closer than this in time (ms) and distance (px) are a double-tap. */
  var DOUBLE_TAP_MS = 300, DOUBLE_TAP_PX = 24;

  function Reader(el, host) {
    this.el = el; this.host = host;     /* host: {page(i), count(), options, label(i), onIndex(i), onClose(), onDraw()} */
    this.view = el.querySelector('.reader-view');
    this.canvas = el.querySelector('.reader-canvas');
    this.previewImg = this.canvas.querySelector('.reader-preview');
    this.pageImg = this.canvas.querySelector('.reader-page');
    this.tileLayer = this.canvas.querySelector('.reader-tiles');
    this.zoom = null; this.index = -1; this.source = null; this.info = null; this.returnFocus = null;
    this.tileEls = new Map();
    this.input();
    var self = this;
    el.querySelector('[data-act=close]').addEventListener('click', function () { self.close(); });
    el.querySelector('[data-act=in]').addEventListener('click', function () { self.zoomBy(Q.Zoom.STEP); });
    el.querySelector('[data-act=out]').addEventListener('click', function () { self.zoomBy(1 / Q.Zoom.STEP); });
    el.querySelector('[data-act=width]').addEventListener('click', function () { self.fit('width'); });
    el.querySelector('[data-act=page]').addEventListener('click', function () { self.fit('page'); });
    this.pageImg.addEventListener('load', function () { self.pageImg.classList.add('loaded'); });
    this.pageImg.addEventListener('error', function () { self.pageImg.classList.remove('loaded'); });
  }
  Reader.prototype.isOpen = function () { return !this.el.hidden; };
  Reader.prototype.box = function () { var r = this.view.getBoundingClientRect(); return { width: r.width, height: r.height }; };
  Reader.prototype.open = function (index) {
    if (!this.isOpen()) { this.returnFocus = document.activeElement; this.el.hidden = false; }
    this.show(index);
    this.view.focus();
  };
  Reader.prototype.close = function () {
    if (!this.isOpen()) return;
    this.el.hidden = true; this.index = -1; this.source = null;
    this.pageImg.removeAttribute('src'); this.pageImg.classList.remove('loaded');
    this.clearTiles();
    if (this.returnFocus && this.returnFocus.focus) this.returnFocus.focus();
    this.host.onClose();
  };
  /* Shows page `index` at fit page (paging inside the reader keeps it open). */
  Reader.prototype.show = function (index) {
    var page = this.host.page(index);
    if (!page) return;
    var size = Q.sources.pageSize(page) || { width: 1000, height: 1000 / (page.aspectRatio || 1) };
    this.index = index; this.info = null; this.source = null;
    this.zoom = new Q.Zoom(this.box(), size);
    this.canvas.style.width = size.width + 'px'; this.canvas.style.height = size.height + 'px';
    this.previewImg.src = page.files.preview;
    this.previewImg.alt = this.host.label(index);
    this.pageImg.removeAttribute('src'); this.pageImg.classList.remove('loaded'); this.clearTiles();
    this.el.querySelector('.reader-title').textContent = 'Page ' + (index + 1) + ' of ' + this.host.count();
    var self = this;
    Q.iiif.load(page, function (info) { if (self.index === index) { self.info = info; self.draw(); } });
    this.draw();
  };
  Reader.prototype.fit = function (mode) { if (this.zoom) { this.zoom.fit(mode); this.draw(); } };
  Reader.prototype.zoomBy = function (factor, px, py) { if (this.zoom) { this.zoom.zoomAt(factor, px, py); this.draw(); } };
  Reader.prototype.resize = function () { if (this.isOpen() && this.zoom) { this.zoom.resize(this.box()); this.draw(); } };
  /* Places the canvas and chooses the file for this zoom. */
  Reader.prototype.draw = function () {
    var z = this.zoom, page = this.host.page(this.index);
    if (!z || !page) return;
    this.canvas.style.transform = 'translate(' + z.x + 'px,' + z.y + 'px) scale(' + z.s + ')';
    var dpr = window.devicePixelRatio || 1;
    var pick = Q.sources.pick(page, this.host.options(), { width: z.w * z.s * dpr, height: z.h * z.s * dpr }, 'page');
    var source = pick === 'page' ? (this.info ? 'tiles' : 'page') : 'preview';
    if (source === 'page' && this.source !== 'page') this.pageImg.src = page.files.page;
    if (source !== 'page' && this.source === 'page') { this.pageImg.removeAttribute('src'); this.pageImg.classList.remove('loaded'); }
    if (source === 'tiles') this.drawTiles(page, z, dpr); else if (this.source === 'tiles') this.clearTiles();
    this.source = source;
    this.el.querySelector('.reader-level').textContent = Math.round(z.s * 100) + '%';
    if (this.host.onDraw) this.host.onDraw();   /* what sits on the page (search hits) follows */
  };
  Reader.prototype.drawTiles = function (page, z, dpr) {
    var f = Q.iiif.factorFor(this.info, z.s * dpr), seen = new Set(), self = this;
    Q.iiif.tiles(page, this.info, f, z.visible()).forEach(function (t) {
      seen.add(t.url);
      if (self.tileEls.has(t.url)) return;
      var img = document.createElement('img');
      img.alt = ''; img.draggable = false; img.src = t.url;
      img.style.left = t.x + 'px'; img.style.top = t.y + 'px'; img.style.width = t.width + 'px'; img.style.height = t.height + 'px';
      self.tileLayer.appendChild(img); self.tileEls.set(t.url, img);
    });
    this.tileEls.forEach(function (img, url) { if (!seen.has(url)) { img.remove(); self.tileEls.delete(url); } });
  };
  Reader.prototype.clearTiles = function () { this.tileEls.forEach(function (img) { img.remove(); }); this.tileEls.clear(); };
  /* Keys while open: + and − zoom, 0 fits the page, w the width, Escape closes, Tab stays inside. */
  Reader.prototype.key = function (ev) {
    var k = ev.key;
    if (k === 'Escape') this.close();
    else if (k === '+' || k === '=') this.zoomBy(Q.Zoom.STEP);
    else if (k === '-' || k === '_') this.zoomBy(1 / Q.Zoom.STEP);
    else if (k === '0') this.fit('page');
    else if (k === 'w' || k === 'W') this.fit('width');
    else if (k === 'Tab') {
      var f = Array.from(this.el.querySelectorAll('button, [tabindex="0"]'));
      var i = f.indexOf(document.activeElement), n = ev.shiftKey ? i - 1 : i + 1;
      f[(n + f.length) % f.length].focus();
    } else return false;
    return true;
  };
  Reader.prototype.state = function () {
    var z = this.zoom;
    return { open: this.isOpen(), index: this.index, source: this.source, scale: z ? z.s : null, mode: z ? z.mode : null,
      x: z ? z.x : null, y: z ? z.y : null, fitPage: z ? z.fitPageScale() : null, fitWidth: z ? z.fitWidthScale() : null,
      src: this.source === 'page' ? this.pageImg.getAttribute('src') : this.source === 'preview' ? this.previewImg.getAttribute('src') : null,
      tiles: Array.from(this.tileEls.keys()) };
  };
  /* Drag pans; two fingers pinch; the wheel (and a trackpad pinch) zooms at the pointer; double-click or double-tap toggles. */
  Reader.prototype.input = function () {
    var self = this, v = this.view, pts = new Map(), pinch = null, lastTap = null, lastToggle = -1e9;
    /* a double-tap can also arrive as a dblclick: one toggle per gesture */
    function toggle(p) { if (performance.now() - lastToggle < 2 * DOUBLE_TAP_MS) return; lastToggle = performance.now(); self.zoom.toggleAt(p[0], p[1]); self.draw(); }
    function local(ev) { var r = v.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
    function pair() { var a = Array.from(pts.values()); return { d: Math.hypot(a[0][0] - a[1][0], a[0][1] - a[1][1]), c: [(a[0][0] + a[1][0]) / 2, (a[0][1] + a[1][1]) / 2] }; }
    v.addEventListener('pointerdown', function (ev) {
      v.setPointerCapture(ev.pointerId);
      pts.set(ev.pointerId, local(ev));
      if (pts.size === 2) pinch = pair();
    });
    v.addEventListener('pointermove', function (ev) {
      if (!pts.has(ev.pointerId) || !self.zoom) return;
      var p = local(ev), q = pts.get(ev.pointerId);
      pts.set(ev.pointerId, p);
      if (pts.size === 2 && pinch) {
        var now = pair();
        if (pinch.d > 0) self.zoom.zoomAt(now.d / pinch.d, now.c[0], now.c[1]);
        self.zoom.panBy(now.c[0] - pinch.c[0], now.c[1] - pinch.c[1]);
        pinch = now; self.draw();
      } else if (pts.size === 1) { self.zoom.panBy(p[0] - q[0], p[1] - q[1]); self.draw(); }
    });
    function up(ev) {
      if (!pts.has(ev.pointerId)) return;
      pts.delete(ev.pointerId);
      if (pts.size < 2) pinch = null;
      if (ev.pointerType === 'touch' && ev.type === 'pointerup') {
        var p = local(ev), t = ev.timeStamp;
        if (lastTap && t - lastTap.t < DOUBLE_TAP_MS && Math.hypot(p[0] - lastTap.p[0], p[1] - lastTap.p[1]) < DOUBLE_TAP_PX) {
          lastTap = null; toggle(p);
        } else lastTap = { t: t, p: p };
      }
    }
    v.addEventListener('pointerup', up);
    v.addEventListener('pointercancel', up);
    v.addEventListener('dblclick', function (ev) {
      if (!self.zoom) return;
      toggle(local(ev));
    });
    v.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      if (!self.zoom) return;
      var p = local(ev), dy = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaY;
      self.zoomBy(Math.exp(-dy * (ev.ctrlKey ? PINCH_WHEEL_RATE : WHEEL_RATE)), p[0], p[1]);
    }, { passive: false });
  };
  Q.Reader = Reader;
})(window.Quire = window.Quire || {});

/* Quire viewer: draws a processed folder (OUT/layout.json, loaded as layout.js) with the
 * geometry modules in layouts/. Every position comes from those modules; this file only
 * keeps the state (offsets, active page, expanding rate, cell updates), turns input into
 * state changes, and puts the visible items in the DOM (only those: a 5,000-page batch has a
 * few dozen elements). Reading a page zoomed is reader.js, the address route.js, the
 * remembered "Delete from view" hidden.js (an `exclude` of corrections.js), the choice of image
 * file sources.js, the review mode (#review) review.js, the text search search.js.
 * window.quireViewer is a small hook for tests and embedding apps. */
(function (Q) {
  'use strict';
  var A = Q.animations;
  var data = window.QUIRE_LAYOUT;
  var $ = function (id) { return document.getElementById(id); };
  var pagerEl = $('pager'), stripEl = $('strip'), altEl = $('alt');
  var allPages = [], pages = [], stripHeight = 66, pager, strip, alt = null, hidden = null, reader = null, search = null;
  var corrections = null, review = null;
  var batchName = Q.route.batchName(location);
  var S = { layout: 'pager', po: 0, so: 0, active: 0, altOffset: 0, altOffsets: [0, 0] };
  var running = 0;              /* animations in flight (tests wait for 0) */
  var scrollAnimation = null, deleting = false;
  /* prefers-reduced-motion: every animation jumps to its end (the geometry is the same, only the frames go). */
  var reducedMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };
  function animate(duration, easing, tick, done) { return A.animate(reducedMotion.matches ? 0 : duration, easing, tick, done); }
  function options() { return (data && data.options) || {}; }
  /* "Page 3 of 21, IMG_0042.jpg (page 2)": the alt text and the labels name the page and its source. */
  function sourceOf(p) { return p.source + (p.sourcePage ? ' (page ' + (p.sourcePage + 1) + ')' : ''); }
  function label(i) { var p = pages[i]; return p ? 'Page ' + (i + 1) + ' of ' + pages.length + ', ' + sourceOf(p) : ''; }

  function ratioOf(p) { return p.aspectRatio > 0 && isFinite(p.aspectRatio) ? p.aspectRatio : null; }

  /* ---- sizes and layouts ---- */
  function build() {
    var W = stage().width, H = stage().height;
    var ratios = pages.map(ratioOf);
    var ph = Math.max(0, H - stripHeight);
    pagerEl.style.height = ph + 'px'; stripEl.style.height = stripHeight + 'px';
    var rate = strip ? strip.expandingRate : 1, updates = strip ? strip.updates : {};
    pager = new Q.Pager({ width: W, height: ph }, ratios);
    strip = new Q.Strip({ width: W, height: stripHeight }, ratios);
    strip.expandingRate = rate; strip.updates = updates;
  }
  function stage() { var r = $('stage').getBoundingClientRect(); return { width: r.width, height: r.height }; }
  /* Rotation/resizing ("configuring"): keep the active page, force both offsets from it. */
  function configure() {
    build();
    S.active = Math.min(Math.max(0, S.active), Math.max(0, pages.length - 1));
    S.po = S.active * pager.W;
    S.so = strip.offsetForIndex(S.active);
    if (alt) setLayout(S.layout);
    render();
  }

  /* ---- drawing (only visible items) ---- */
  function pool(container, cls, make) {
    var byIndex = new Map(), seen = new Set();
    return {
      get: function (i) {
        seen.add(i);
        var el = byIndex.get(i);
        if (!el) { el = make(i); el.className = cls; el.dataset.index = i; container.appendChild(el); byIndex.set(i, el); }
        return el;
      },
      sweep: function () {
        byIndex.forEach(function (el, i) { if (!seen.has(i)) { el.remove(); byIndex.delete(i); } });
        seen = new Set();
      },
      clear: function () { byIndex.forEach(function (el) { el.remove(); }); byIndex.clear(); seen = new Set(); }
    };
  }
  function img(src, alt) {
    var i = document.createElement('img'); i.alt = alt || ''; i.draggable = false; i.decoding = 'async';
    i.addEventListener('load', function () { i.classList.add('loaded'); });
    i.addEventListener('error', function () { i.classList.remove('loaded'); });
    i.src = src; return i;
  }
  function cssURL(u) { return 'url("' + String(u).replace(/["\\\n]/g, encodeURIComponent) + '")'; }
  /* The thumbnail, already loaded for the strip, is the mask's background until the preview has loaded. */
  var cells = pool(pagerEl, 'cell', function (i) {
    var el = document.createElement('div'), mask = document.createElement('div');
    mask.className = 'mask'; mask.style.backgroundImage = cssURL(pages[i].files.thumbnail);
    mask.appendChild(img(pages[i].files.preview, label(i))); el.appendChild(mask); return el;
  });
  /* Thumbnails are buttons: one tab stop (the active page's), Enter or Space goes to the page. */
  var thumbs = pool(stripEl, 'thumb', function (i) {
    var el = document.createElement('button'); el.type = 'button';
    el.appendChild(img(pages[i].files.thumbnail, label(i))); return el;
  });
  function place(el, x, y, w, h) {
    el.style.left = x + 'px'; el.style.top = y + 'px'; el.style.width = w + 'px'; el.style.height = h + 'px';
  }

  function render() {
    if (S.layout === 'review') { updateBar(); return; }
    if (S.layout !== 'pager') { renderAlt(); updateBar(); if (search) search.paint(); return; }
    pager.items(S.po).forEach(function (it) {
      var el = cells.get(it.index), m = it.mask;
      /* screen x = frame.x − o_x + ρ·44; the mask stays, the image moves by t_img inside it */
      place(el, it.frame.x - S.po + it.tx, it.frame.y, it.frame.width, it.frame.height);
      var mask = el.firstChild; place(mask, m.x, m.y, m.width, m.height);
      mask.firstChild.style.transform = 'translateX(' + it.imageTranslation + 'px)';
    });
    cells.sweep();
    strip.items(S.so).forEach(function (it) {
      var el = thumbs.get(it.index), f = it.frame;
      place(el, f.x - S.so, f.y, f.width, f.height);
      el.style.opacity = it.alpha;
      var on = it.index === S.active;
      el.tabIndex = on ? 0 : -1;
      if (on) el.setAttribute('aria-current', 'page'); else el.removeAttribute('aria-current');
    });
    thumbs.sweep();
    var focused = document.activeElement;
    if (focused && focused.classList.contains('thumb') && +focused.dataset.index !== S.active) {
      var now = stripEl.querySelector('.thumb[data-index="' + S.active + '"]');
      if (now) now.focus({ preventScroll: true });
    }
    preload();
    updateBar();
    if (search) search.paint();
  }
  /* Previews load only near the active page: the neighbours are fetched ahead. */
  var preloaded = new Set();
  function preload() {
    [S.active - 1, S.active + 1].forEach(function (i) {
      if (i >= 0 && i < pages.length && !preloaded.has(i)) { preloaded.add(i); new Image().src = pages[i].files.preview; }
    });
  }
  function updateBar() {
    $('pageno').textContent = pages.length ? (S.active + 1) + ' / ' + pages.length : 'no pages';
    var p = pages[S.active];
    $('source').textContent = p ? sourceOf(p) : '';
    $('undo').hidden = !(hidden && hidden.canUndo());
    pagerEl.setAttribute('aria-label', p ? label(S.active) : 'No pages');
    document.title = p ? Q.route.title(batchName, p.index + 1, allPages.length) : batchName;
    addressLater();
  }

  /* ---- the address: #page=N, one history entry per page stopped on (route.js) ---- */
  var addressTimer = null, addressReady = false;
  /* Pages passed while scrolling are not history: the address follows once the view rests. */
  var ADDRESS_SETTLE_MS = 250;
  function addressLater() {
    if (!addressReady) return;
    clearTimeout(addressTimer);
    addressTimer = setTimeout(function () {
      if (running > 0 || deleting) { addressLater(); return; }
      if (S.layout === 'review') {
        var n = review.pageNumber(), want = n ? Q.route.formatReview(n) : '#review';
        if (location.hash !== want) try { history.pushState(null, '', want); } catch (e) { /* file:// in some browsers */ }
        return;
      }
      var p = pages[S.active];
      if (!p || Q.route.parse(location.hash) === p.index + 1) return;
      try { history.pushState(null, '', Q.route.format(p.index + 1)); } catch (e) { /* file:// in some browsers */ }
    }, ADDRESS_SETTLE_MS);
  }
  /* The position in the view of batch page n (from 1); a page deleted from the view gives the next shown one. */
  function positionOf(n) {
    for (var i = 0; i < pages.length; i++) if (pages[i].index + 1 >= n) return i;
    return pages.length - 1;
  }
  function followAddress() {
    var n = Q.route.parse(location.hash);
    if (Q.route.isReview(location.hash)) {
      if (S.layout !== 'review') setLayout('review', n); else if (n !== null && n !== review.pageNumber()) review.show(n);
      return;
    }
    if (S.layout === 'review') setLayout('pager');
    if (n === null || !pages.length) return;
    var k = positionOf(n);
    if (k === S.active) return;
    if (reader.isOpen()) { S.active = k; reader.show(k); }
    goTo(k);
  }
  window.addEventListener('popstate', followAddress);
  window.addEventListener('hashchange', followAddress);
  /* Jumps without animating (address, history): the pager, the strip and any other view. */
  function goTo(k) {
    S.active = k;
    if (S.layout !== 'pager') { altShow(k); return; }
    S.po = k * pager.W; S.so = strip.offsetForIndex(k); strip.updates = {}; strip.expandingRate = 1;
    render();
  }

  /* ---- synchronisation (docs/layout-formulas.md#sync-and-animations) ---- */
  function setPagerOffset(po) {
    S.po = po;
    S.so = Q.sync.stripOffsetForPager(pager, strip, po);
    var n = strip.nearestIndex(S.so);
    if (n !== null) S.active = n;
    render();
  }
  function setStripOffset(so) {
    S.so = so;
    var jump = Q.sync.pagerOffsetForStrip(pager, strip, so, S.active);
    if (jump) { S.active = jump.index; S.po = jump.offset; }
    render();
  }
  function tween(from, to, duration, set, done) {
    running++;
    return animate(duration, A.easings.easeInOut, function (e) { set(from + (to - from) * e); },
      function () { running--; if (done) done(); });
  }
  /* scroll animation: expandingRate to 0 on begin, to 1 on end, 0.15·|R₀ − T| s */
  function rateTo(target) {
    var anim = A.scroll(strip.expandingRate, target);
    running++;
    scrollAnimation = animate(anim.duration, anim.easing, function (e, p) {
      strip.expandingRate = anim.frame(strip, p, S.so).expandingRate; render();
    }, function () { running--; });
  }
  /* Tap on a thumbnail (and keyboard): the pager jumps, the strip plays the move animation. */
  function moveTo(index) {
    if (index < 0 || index >= pages.length || deleting) return;
    if (S.layout !== 'pager') { S.active = index; altShow(index); return; }
    var anim = A.move(strip, S.so, index);
    if (!anim) return;
    S.active = index; S.po = index * pager.W;
    var start = S.so;
    running++;
    animate(anim.duration, anim.easing, function (e, p) {
      var f = anim.frame(strip, p, start);
      S.so = f.offset; strip.expandingRate = f.expandingRate; strip.updates = f.updates; render();
    }, function () { running--; });
  }
  /* Delete from the view: collapse (0.15 s), delete (0.15 s), then the page leaves the lists. */
  function deleteActive() {
    if (pages.length <= 2 || deleting || S.layout !== 'pager') return;
    var k = S.active, c = A.collapse(k), d = A.deletion(strip, k);
    deleting = true; running++;
    animate(c.duration, c.easing, function (e, p) {
      var f = c.frame(strip, p, S.so, strip.expandingRate); strip.updates = f.updates; render();
    }, function () {
      animate(d.duration, d.easing, function (e, p) {
        var f = d.frame(strip, p, S.so, strip.expandingRate); strip.updates = f.updates; render();
      }, function () {
        var last = k === pages.length - 1;
        hidden.hide(pages[k]);
        pages = hidden.filter(allPages);        /* both parts of a split source page go */
        preloaded.clear(); cells.clear(); thumbs.clear();
        strip.updates = {};
        if (last) S.active = pages.length - 1;
        deleting = false; running--;
        configure();
        announce('Page deleted from the view. Undo brings it back.');
      });
    });
  }
  /* Undo: the last page deleted from the view comes back in its place in the batch and is shown. */
  function undoDelete() {
    if (deleting || !hidden) return;
    var id = hidden.undo();
    if (id === null) return;
    pages = hidden.filter(allPages);
    var k = pages.findIndex(function (p) { return String(p.files.page) === id; });
    preloaded.clear(); cells.clear(); thumbs.clear();
    if (strip) strip.updates = {};
    S.active = Math.max(0, k);
    if (S.layout === 'pager') configure(); else { build(); setLayout(S.layout); }
    announce('Page ' + (S.active + 1) + ' is back in the view.');
  }
  function announce(text) { $('announce').textContent = text; }

  /* ---- input: drag with momentum, wheel, keyboard, double-click/pinch ---- */
  function dragger(el, axis, h) {
    var id = null, start = 0, last = 0, lastT = 0, v = 0, moved = false, touches = new Map(), pinch0 = 0;
    el.addEventListener('pointerdown', function (ev) {
      touches.set(ev.pointerId, ev);
      if (touches.size === 2) {
        /* a second finger makes it a pinch: the one-finger drag ends where it is, without momentum */
        pinch0 = spread();
        if (id !== null) { id = null; h.end(0, moved); }
        return;
      }
      if (id !== null || deleting) return;
      id = ev.pointerId; el.setPointerCapture(id);
      start = last = ev[axis]; lastT = ev.timeStamp; v = 0; moved = false;
      h.begin && h.begin();
    });
    function spread() { var a = Array.from(touches.values()); return Math.hypot(a[0].clientX - a[1].clientX, a[0].clientY - a[1].clientY); }
    el.addEventListener('pointermove', function (ev) {
      if (touches.has(ev.pointerId)) touches.set(ev.pointerId, ev);
      if (touches.size === 2 && pinch0 > 0 && spread() > 1.4 * pinch0) { pinch0 = 0; openReader(); }
      if (ev.pointerId !== id) return;
      var x = ev[axis], dt = Math.max(1, ev.timeStamp - lastT);
      v = 0.8 * ((x - last) / dt) + 0.2 * v; last = x; lastT = ev.timeStamp;
      if (Math.abs(x - start) > 4) moved = true;
      if (moved) h.move(x - start);
    });
    function up(ev) {
      touches.delete(ev.pointerId);
      if (ev.pointerId !== id) return;
      id = null;
      if (!moved) { h.tap && h.tap(ev); h.end(0, false); } else h.end(v, true);
    }
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
  }

  var dragStart = 0;
  dragger(pagerEl, 'clientX', {
    begin: function () { dragStart = S.po; },
    move: function (dx) { setPagerOffset(dragStart - dx); },
    end: function (v, moved) {
      if (!moved) return;
      /* paging: a flick goes to the next page, a slow release to the nearest one */
      var target = pager.nearestIndex(S.po), from = Math.round(dragStart / pager.W);
      if (Math.abs(v) > 0.3) target = Math.min(pages.length - 1, Math.max(0, from + (v < 0 ? 1 : -1)));
      tween(S.po, target * pager.W, 0.3, setPagerOffset);
    }
  });
  var stripStart = 0;
  function stripEnd(v) {
    /* momentum: the proposal is where a decelerating scroll would stop; then snap to a cell */
    var proposal = S.so - v * 325;
    var target = strip.targetOffset(proposal);
    tween(S.so, target, Math.min(0.6, 0.2 + Math.abs(target - S.so) / 3000), setStripOffset, function () { rateTo(1); });
  }
  dragger(stripEl, 'clientX', {
    begin: function () { stripStart = S.so; },
    move: function (dx) {
      if (strip.expandingRate === 1 && !scrollAnimationRunning()) rateTo(0);
      var r = strip.offsetRange();
      setStripOffset(Math.min(r[1], Math.max(r[0], stripStart - dx)));
    },
    tap: function (ev) {
      /* the pointer is captured by the strip, so find the thumbnail under it */
      var under = document.elementFromPoint(ev.clientX, ev.clientY);
      var t = under && under.closest('.thumb');
      if (t) moveTo(+t.dataset.index);
    },
    end: function (v, moved) { if (moved) stripEnd(v); }
  });
  function scrollAnimationRunning() { return strip.expandingRate < 1; }
  var wheelTimer = null;
  function onWheel(ev) {
    ev.preventDefault();
    if (deleting) return;
    var delta = Math.abs(ev.deltaX) > Math.abs(ev.deltaY) ? ev.deltaX : ev.deltaY;
    if (S.layout !== 'pager') { altScroll(delta); return; }
    if (!wheelTimer) rateTo(0);
    var r = strip.offsetRange();
    setStripOffset(Math.min(r[1], Math.max(r[0], S.so + delta * 0.5)));
    clearTimeout(wheelTimer);
    wheelTimer = setTimeout(function () { wheelTimer = null; stripEnd(0); }, 150);
  }
  pagerEl.addEventListener('wheel', onWheel, { passive: false });
  stripEl.addEventListener('wheel', onWheel, { passive: false });
  altEl.addEventListener('wheel', onWheel, { passive: false });
  pagerEl.addEventListener('dblclick', function () { openReader(); });
  altEl.addEventListener('dblclick', function () { openReader(); });
  var typed = '';
  /* Keys: arrows, Home and End always page (also in the reader; a closed View menu keeps its
   * own arrows only while it has focus, and it gives focus back to the view once chosen);
   * digits then Enter go to a page; Enter alone opens the reader; F is full screen. */
  document.addEventListener('keydown', function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.target.tagName === 'SELECT' || S.layout === 'review') return;   /* review.js has its own keys */
    var onControl = ev.target.tagName === 'BUTTON' || ev.target.tagName === 'A';
    var n = pages.length, k = ev.key;
    if (reader.isOpen()) {
      var step = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 }[k];
      if (step) { var to = S.active + step; if (to >= 0 && to < n) { goTo(to); reader.show(to); } }
      else if (k === 'Home' || k === 'End') { goTo(k === 'Home' ? 0 : n - 1); reader.show(S.active); }
      else if (k === 'f' || k === 'F') toggleFullscreen();
      else if ((k === 'Enter' || k === ' ') && onControl) return;
      else if (!reader.key(ev)) return;
      ev.preventDefault();
      return;
    }
    var by = S.layout === 'halves' ? 2 : 1;          /* the spread pages by two facing pages */
    if (k === 'ArrowRight' || k === 'ArrowDown' || k === 'PageDown') moveTo(S.active + by);
    else if (k === 'ArrowLeft' || k === 'ArrowUp' || k === 'PageUp') moveTo(S.active - by);
    else if (k === 'Home') moveTo(0);
    else if (k === 'End') moveTo(n - 1);
    else if (/^[0-9]$/.test(k)) { typed += k; $('pageno').textContent = 'go to ' + typed; return; }
    else if (k === 'Enter' && typed) { moveTo(Math.min(n, Math.max(1, parseInt(typed, 10))) - 1); typed = ''; }
    else if (k === 'Escape' && typed) { typed = ''; updateBar(); }
    else if ((k === 'Enter' || k === ' ') && onControl) return;
    else if (k === 'Enter') openReader();
    else if (k === 'Delete') deleteActive();
    else if (k === 'f' || k === 'F') toggleFullscreen();
    else return;
    ev.preventDefault();
  });
  /* Thumbnails chosen with Enter or Space (a click with no pointer position); pointer taps go through the dragger. */
  stripEl.addEventListener('click', function (ev) {
    var t = ev.target.closest && ev.target.closest('.thumb');
    if (t && ev.detail === 0) moveTo(+t.dataset.index);
  });
  function openReader() { if (pages[S.active]) reader.open(S.active); }
  /* Full screen: the whole viewer (the reader is inside it), where the browser allows it. */
  function toggleFullscreen() {
    var el = document.documentElement;
    if (document.fullscreenElement) { if (document.exitFullscreen) document.exitFullscreen(); }
    else if (el.requestFullscreen) el.requestFullscreen().catch(function () { announce('Full screen is not allowed here.'); });
  }
  document.addEventListener('fullscreenchange', function () {
    $('fullscreen').setAttribute('aria-pressed', document.fullscreenElement ? 'true' : 'false');
  });
  $('fullscreen').addEventListener('click', toggleFullscreen);
  $('zoom').addEventListener('click', openReader);
  $('delete').addEventListener('click', deleteActive);
  $('undo').addEventListener('click', undoDelete);
  $('menu').addEventListener('change', function (ev) {
    setLayout(ev.target.value);
    if (S.layout === 'review') { var cur = document.querySelector('#review .rv-item[aria-current]'); if (cur) cur.focus({ preventScroll: true }); }
    else (S.layout === 'pager' ? pagerEl : altEl).focus({ preventScroll: true });
  });
  window.addEventListener('resize', function () { configure(); if (reader) reader.resize(); });

  /* ---- the other layouts (spread, carousel, featured), each from its module ---- */
  /* A page drawn whole inside a frame: the aspect-fit rectangle (AVMakeRect, as the pager's mask),
   * aligned left, right or centred across. */
  function fitIn(fw, fh, ratio, align) {
    var r = ratio > 0 && isFinite(ratio) ? ratio : fw / fh, w = Math.min(fw, fh * r), h = w / r;
    var x = align === 'left' ? 0 : align === 'right' ? fw - w : (fw - w) / 2;
    return { x: x, y: (fh - h) / 2, width: w, height: h };
  }
  /* The file for a page drawn w x h points: the smallest with enough pixels, at most the preview;
   * a larger one already shown is kept (no flicker back to a blurred one). */
  var ORDER = { thumbnail: 0, preview: 1, page: 2 };
  function drawPage(holder, i, w, h) {
    var p = pages[i], dpr = window.devicePixelRatio || 1;
    var want = Q.sources.pick(p, options(), { width: w * dpr, height: h * dpr }, 'preview');
    var im = holder.querySelector('img');
    if (!im || holder.dataset.page !== String(i)) {
      if (im) im.remove();
      im = img(p.files[want], label(i)); im.dataset.kind = want; holder.dataset.page = i;
      holder.insertBefore(im, holder.firstChild);
    } else if (ORDER[want] > ORDER[im.dataset.kind]) { im.src = p.files[want]; im.dataset.kind = want; }
    return im;
  }
  var altPool = null;
  /* Spread: rows of facing pages (1-2, 3-4, ...) in the halves drum; the row in the middle is the one being read. */
  function spreadRows() { return Math.ceil(pages.length / 2); }
  /* The row height for a portrait page as wide as a column (A4 is 1.41 high per unit of width). */
  var SPREAD_PAGE_RATIO = 1.45;
  /* Rows at most this share of the screen's height, so the neighbouring spreads still show. */
  var SPREAD_MAX_SHARE = 0.85;
  /* The drum's row height P (pizzaSize, docs/layout-formulas.md#halves): the engine's default on a
   * phone, taller on a larger screen so the spread being read is page-sized. */
  function spreadRowHeight(w, H) {
    var standard = 2 * w + 1 > 320 ? 300 : 230;
    return Math.max(standard, Math.round(Math.min(SPREAD_MAX_SHARE * H, SPREAD_PAGE_RATIO * w)));
  }
  /* The review mode (review.js) takes the stage; leaving it, the views show the pages its fixes left in. */
  function setLayout(name, pageNumber) {
    var was = S.layout;
    S.layout = name; $('menu').value = name;
    if (name === 'review') {
      pagerEl.hidden = stripEl.hidden = altEl.hidden = true;
      altEl.textContent = ''; altPool = null; alt = null;
      /* from the menu: the page being read; from the address: its page, or (`#review`) the least sure */
      review.show(pageNumber !== undefined ? pageNumber : pages[S.active] ? pages[S.active].index + 1 : null);
      updateBar();
      return;
    }
    if (was === 'review') { review.hide(); refilter(); }
    var isPager = name === 'pager';
    pagerEl.hidden = stripEl.hidden = !isPager; altEl.hidden = isPager;
    altEl.textContent = ''; altPool = null; alt = null;
    if (isPager) { configure(); return; }
    var W = stage().width, H = stage().height, n = pages.length;
    var make = function (i) { return document.createElement('div'); };
    if (name === 'halves') {
      var w = (W - 1) / 2, P = spreadRowHeight(w, H);
      alt = [new Q.Halves({ width: w, height: H }, spreadRows(), 'left', { pizzaSize: P }),
             new Q.Halves({ width: w, height: H }, spreadRows(), 'right', { pizzaSize: P })];
      altPool = alt.map(function (l, side) {
        var col = document.createElement('div'); col.className = 'half'; col.dataset.side = side;
        col.style.left = (side ? w + 1 : 0) + 'px'; col.style.width = w + 'px'; altEl.appendChild(col);
        return pool(col, 'alt-item', make);
      });
      var row = Math.floor(S.active / 2);
      S.altOffsets = [alt[0].offsetFor(row), alt[1].offsetFor(row)];
    } else if (name === 'carousel') {
      alt = new Q.Carousel({ width: W, height: H }, n, S.active);
      altPool = pool(altEl, 'alt-item', make);
      S.altOffset = alt.restOffset();
    } else {
      alt = new Q.Featured({ width: W, height: H }, n);
      altPool = pool(altEl, 'alt-item', function (i) {
        var el = document.createElement('div');
        var c = document.createElement('div'); c.className = 'cover'; el.appendChild(c);
        var t = document.createElement('div'); t.className = 'title'; t.textContent = sourceOf(pages[i]); el.appendChild(t); return el;
      });
      S.altOffset = S.active * alt.G;
    }
    render();
  }
  function altShow(index) {
    if (S.layout === 'halves') { var row = Math.floor(index / 2); S.altOffsets = [alt[0].offsetFor(row), alt[1].offsetFor(row)]; }
    else if (S.layout === 'carousel') { alt.centerIndex = index; S.altOffset = alt.restOffset(); }
    else S.altOffset = index * alt.G;
    render();
  }
  function renderAlt() {
    if (!alt) return;
    if (S.layout === 'halves') {
      alt.forEach(function (l, side) {
        l.items(S.altOffsets[side]).forEach(function (it) {
          var el = altPool[side].get(it.index), f = it.frame, i = 2 * it.index + side;
          place(el, f.x, f.y - S.altOffsets[side], f.width, f.height); el.style.opacity = it.alpha;
          if (i >= pages.length) { el.textContent = ''; delete el.dataset.page; return; }
          /* the left page against the gutter on the right of its column, the right page on the left */
          var r = fitIn(f.width, f.height, pages[i].aspectRatio, side ? 'left' : 'right');
          place(drawPage(el, i, r.width, r.height), r.x, r.y, r.width, r.height);
        });
        altPool[side].sweep();
      });
      var k = Math.min(spreadRows() - 1, Math.max(0, Math.trunc(alt[0].pizzaIndex(S.altOffsets[0]))));
      if (Math.floor(S.active / 2) !== k) S.active = Math.min(pages.length - 1, 2 * k);
    } else if (S.layout === 'carousel') {
      S.altOffset = alt.recentre(S.altOffset);
      alt.items(S.altOffset).forEach(function (it) {
        var el = altPool.get(it.slot), f = it.frame, r = fitIn(f.width, f.height, pages[it.index].aspectRatio, 'center');
        place(el, f.x - S.altOffset, f.y, f.width, f.height); el.style.zIndex = it.zIndex;
        place(drawPage(el, it.index, r.width, r.height), r.x, r.y, r.width, r.height);
      });
      altPool.sweep();
      S.active = alt.centerIndex;
    } else {
      alt.items(S.altOffset).forEach(function (it) {
        var el = altPool.get(it.index), f = it.frame;
        place(el, f.x, f.y - S.altOffset, f.width, f.height); el.style.zIndex = it.zIndex;
        /* the whole page at the row's left, inset by FEATURED_INSET, its source name on the right */
        var r = fitIn(f.width / 2, Math.max(1, f.height - 2 * FEATURED_INSET), pages[it.index].aspectRatio, 'left');
        place(drawPage(el, it.index, r.width, r.height), r.x + FEATURED_INSET, r.y + FEATURED_INSET, r.width, r.height);
        el.querySelector('.cover').style.opacity = it.coverAlpha;
        el.querySelector('.title').style.left = (r.x + r.width + 3 * FEATURED_INSET) + 'px';
        el.querySelector('.title').style.transform = 'translateY(-50%) scale(' + it.titleScale + ')';
      });
      altPool.sweep();
      S.active = alt.state(S.altOffset).f;
    }
  }
  /* The shown pages again from the corrections (excluded in the review mode), staying on the same page. */
  function refilter() {
    var cur = pages[S.active];
    pages = hidden.filter(allPages);
    preloaded.clear(); cells.clear(); thumbs.clear();
    if (strip) strip.updates = {};
    var k = cur ? pages.indexOf(cur) : -1;
    S.active = k >= 0 ? k : cur ? Math.max(0, positionOf(cur.index + 1)) : 0;
    build();
  }
  /* Featured rows keep this margin (points) around their page. */
  var FEATURED_INSET = 6;
  var altTimer = null;
  function altScroll(delta) {
    if (S.layout === 'halves') { S.altOffsets[0] += delta; S.altOffsets[1] += delta; }
    else S.altOffset += delta;
    render();
    clearTimeout(altTimer);
    altTimer = setTimeout(function () {
      if (S.layout === 'halves') {
        var t = alt[0].targetOffset(S.altOffsets[0]), s0 = S.altOffsets[0];
        tween(s0, t, 0.3, function (y) { S.altOffsets = [y, y]; render(); });
      } else {
        var target = alt.targetOffset(S.altOffset);
        tween(S.altOffset, target, 0.3, function (y) { S.altOffset = y; render(); });
      }
    }, 150);
  }
  dragger(altEl, 'clientY', {
    begin: function () { dragStart = S.layout === 'halves' ? S.altOffsets[0] : S.altOffset; },
    move: function (d) {
      if (S.layout === 'carousel') return;
      var y = dragStart - d;
      if (S.layout === 'halves') S.altOffsets = [y, y]; else S.altOffset = y;
      render();
    },
    end: function (v, moved) { if (moved && S.layout !== 'carousel') altScroll(0); }
  });
  dragger(altEl, 'clientX', {
    begin: function () { dragStart = S.altOffset; },
    move: function (d) { if (S.layout === 'carousel') { S.altOffset = dragStart - d; render(); } },
    end: function (v, moved) { if (moved && S.layout === 'carousel') altScroll(-v * 100); }
  });

  /* ---- the test/embedding hook ---- */
  function relRect(el, box) {
    var r = el.getBoundingClientRect();
    return { x: r.left - box.left, y: r.top - box.top, width: r.width, height: r.height };
  }
  window.quireViewer = {
    /* Sets a state without animating: {layout, pagerOffset, stripOffset, expandingRate,
     * updates, animation: {kind: move|delete|scrollBegin|scrollEnd, index, phase, progress},
     * altOffset, centerIndex}. Mirrors a `quire layout` request. */
    setState: function (s) {
      if (s.layout && s.layout !== S.layout) setLayout(s.layout);
      if (S.layout !== 'pager') {
        if (s.centerIndex !== undefined) alt.centerIndex = s.centerIndex;
        if (s.altOffset !== undefined) { if (S.layout === 'halves') S.altOffsets = [s.altOffset, s.altOffset]; else S.altOffset = s.altOffset; }
        render(); return this.state();
      }
      if (s.pagerOffset !== undefined) { S.po = s.pagerOffset; }
      strip.expandingRate = s.expandingRate !== undefined ? s.expandingRate : 1;
      strip.updates = s.updates || {};
      var so = s.stripOffset !== undefined ? s.stripOffset : S.so;
      if (s.animation) {
        var a = s.animation, anim;
        if (a.kind === 'scrollBegin') anim = A.scroll(s.expandingRate !== undefined ? s.expandingRate : 1, 0);
        else if (a.kind === 'scrollEnd') anim = A.scroll(s.expandingRate !== undefined ? s.expandingRate : 0, 1);
        else if (a.kind === 'move') anim = A.move(strip, so, a.index);
        else anim = a.phase === 'collapse' ? A.collapse(a.index) : A.deletion(strip, a.index);
        var f = anim.frame(strip, a.progress, so, strip.expandingRate);
        var merged = {};
        Object.keys(strip.updates).forEach(function (k) { merged[k] = strip.updates[k].slice(); });
        Object.keys(f.updates).forEach(function (k) { merged[k] = (merged[k] || []).concat(f.updates[k]); });
        strip.updates = merged; strip.expandingRate = f.expandingRate; so = f.offset;
      }
      S.so = so;
      if (s.active !== undefined) S.active = s.active;
      render();
      return this.state();
    },
    /* The drawn items' rectangles, measured with getBoundingClientRect, relative to their view. */
    rects: function () {
      function list(container, sel, extra) {
        var box = container.getBoundingClientRect();
        return Array.from(container.querySelectorAll(sel)).map(function (el) {
          var o = relRect(el, box); o.index = +el.dataset.index; if (extra) extra(el, o, box); return o;
        }).sort(function (a, b) { return a.index - b.index; });
      }
      /* each alternative item also gives the page drawn in it: its image's rectangle (relative to
       * the item), the file kind chosen and the image's pixel size */
      function drawn(el, o) {
        var im = el.querySelector('img');
        if (el.dataset.page === undefined || !im) return;
        o.page = +el.dataset.page; o.kind = im.dataset.kind; o.src = im.getAttribute('src');
        o.image = relRect(im, el.getBoundingClientRect()); o.natural = { width: im.naturalWidth, height: im.naturalHeight };
      }
      if (S.layout === 'halves') {
        return { halves: Array.from(altEl.querySelectorAll('.half')).map(function (col) { return list(col, '.alt-item', drawn); }) };
      }
      if (S.layout !== 'pager') {
        return { items: list(altEl, '.alt-item', function (el, o) { drawn(el, o); if (o.page !== undefined) o.index = o.page; }) };
      }
      return {
        pagerBox: relRect(pagerEl, document.body.getBoundingClientRect()),
        stripBox: relRect(stripEl, document.body.getBoundingClientRect()),
        pager: list(pagerEl, '.cell', function (el, o) {
          var cell = el.getBoundingClientRect();
          o.mask = relRect(el.firstChild, cell); o.image = relRect(el.firstChild.firstChild, cell);
        }),
        strip: list(stripEl, '.thumb', function (el, o) { o.alpha = +el.style.opacity; })
      };
    },
    state: function () {
      return { layout: S.layout, active: S.active, pagerOffset: S.po, stripOffset: S.so, count: pages.length,
        expandingRate: strip.expandingRate, animating: running > 0 || deleting,
        pagerSize: { width: pager.W, height: pager.H }, stripSize: { width: strip.W, height: strip.H },
        domElements: document.querySelectorAll('.cell, .thumb, .alt-item').length,
        spreadRow: S.layout === 'halves' && alt ? alt[0].P : null,
        page: pages[S.active] ? pages[S.active].index + 1 : null, hidden: hidden ? hidden.ids.length : 0,
        reader: reader.state(), review: review ? review.state() : null };
    },
    moveTo: moveTo, deleteActive: deleteActive, setLayout: setLayout, undo: undoDelete, goTo: goTo,
    openReader: openReader, reader: function () { return reader; }, search: function () { return search; },
    review: function () { return review; }, reload: reload
  };

  /* The strip's height from layout.json, when it is a believable number of points. */
  var MIN_STRIP = 16, MAX_STRIP = 400;
  function start(d) {
    data = d;
    allPages = Array.isArray(d.pages) ? d.pages.slice() : [];
    var storage = null;
    try { storage = window.localStorage; } catch (e) { /* refused (file:// in some browsers) */ }
    var where = location.protocol === 'file:' ? location.pathname : location.host + location.pathname;
    if (!corrections) corrections = new Q.Corrections(storage || { getItem: function () { return null; }, setItem: function () {}, removeItem: function () {} }, where, d);
    hidden = new Q.Hidden(corrections, allPages);
    pages = hidden.filter(allPages);
    if (!review) review = new Q.Review($('review'), { data: function () { return data; }, corrections: corrections,
      reload: function (d2) { reload(d2); }, changed: function () { if (S.layout === 'review') updateBar(); } });
    var sh = d.viewport && d.viewport.stripHeight;
    stripHeight = typeof sh === 'number' && sh >= MIN_STRIP && sh <= MAX_STRIP ? sh : 66;
    if (!reader) reader = new Q.Reader($('reader'), {
      page: function (i) { return pages[i]; }, count: function () { return pages.length; }, options: options,
      label: label, onClose: function () {}, onDraw: function () { if (search) search.paint(); }
    });
    if (!search) search = new Q.Search({
      pages: function () { return pages; }, active: function () { return S.active; },
      show: function (k) { if (reader.isOpen()) { S.active = k; reader.show(k); } goTo(k); },
      readerIndex: function () { return reader.isOpen() ? reader.index : -1; },
      hasText: allPages.some(function (p) { return p && p.text; })
    });
    var n = Q.route.parse(location.hash);
    if (n !== null && pages.length) S.active = positionOf(n);
    configure();
    if (Q.route.isReview(location.hash)) setLayout('review', n);
    if (window.performance && performance.mark) performance.mark('quire-ready');   /* load time, for Scripts/viewer_figures.py */
    addressReady = true;
    if (pages[S.active] && S.layout !== 'review') {
      try { history.replaceState(null, '', Q.route.format(pages[S.active].index + 1)); } catch (e) { /* file:// in some browsers */ }
    }
  }
  /* A new layout.json (after `quire view --serve` reprocessed the batch): every view drawn again from it. */
  function reload(d) {
    preloaded.clear(); cells.clear(); thumbs.clear();
    if (strip) strip.updates = {};
    var layout = S.layout, n = review && review.isOpen() ? review.pageNumber() : null;
    start(d);
    if (layout === 'review') setLayout('review', n); else if (layout !== 'pager') setLayout(layout);
  }
  if (data) start(data);
  else fetch('layout.json').then(function (r) { return r.json(); }).then(start)
    .catch(function (e) { $('pageno').textContent = 'cannot read layout.json: ' + e; });
})(window.Quire = window.Quire || {});

/* Quire viewer: draws a processed folder (OUT/layout.json, loaded as layout.js) with the
 * geometry modules in layouts/. Every position comes from those modules; this file only
 * keeps the state (offsets, active page, expanding rate, cell updates), turns input into
 * state changes, and puts the visible items in the DOM (only those: a 5,000-page batch has a
 * few dozen elements). window.quireViewer is a small hook for tests and embedding apps. */
(function (Q) {
  'use strict';
  var A = Q.animations;
  var data = window.QUIRE_LAYOUT;
  var $ = function (id) { return document.getElementById(id); };
  var pagerEl = $('pager'), stripEl = $('strip'), altEl = $('alt');
  var pages = [], stripHeight = 66, pager, strip, alt = null;
  var S = { layout: 'pager', po: 0, so: 0, active: 0, altOffset: 0, altOffsets: [0, 0] };
  var running = 0;              /* animations in flight (tests wait for 0) */
  var scrollAnimation = null, deleting = false;

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
  function img(src) { var i = document.createElement('img'); i.src = src; i.alt = ''; i.draggable = false; i.decoding = 'async'; return i; }
  var cells = pool(pagerEl, 'cell', function (i) {
    var el = document.createElement('div'), mask = document.createElement('div');
    mask.className = 'mask'; mask.appendChild(img(pages[i].files.preview)); el.appendChild(mask); return el;
  });
  var thumbs = pool(stripEl, 'thumb', function (i) { var el = document.createElement('div'); el.appendChild(img(pages[i].files.thumbnail)); return el; });
  function place(el, x, y, w, h) {
    el.style.left = x + 'px'; el.style.top = y + 'px'; el.style.width = w + 'px'; el.style.height = h + 'px';
  }

  function render() {
    if (S.layout !== 'pager') { renderAlt(); updateBar(); return; }
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
    });
    thumbs.sweep();
    preload();
    updateBar();
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
    $('source').textContent = p ? p.source + (p.sourcePage ? ' (page ' + (p.sourcePage + 1) + ')' : '') : '';
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
    return A.animate(duration, A.easings.easeInOut, function (e) { set(from + (to - from) * e); },
      function () { running--; if (done) done(); });
  }
  /* scroll animation: expandingRate to 0 on begin, to 1 on end, 0.15·|R₀ − T| s */
  function rateTo(target) {
    var anim = A.scroll(strip.expandingRate, target);
    running++;
    scrollAnimation = A.animate(anim.duration, anim.easing, function (e, p) {
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
    A.animate(anim.duration, anim.easing, function (e, p) {
      var f = anim.frame(strip, p, start);
      S.so = f.offset; strip.expandingRate = f.expandingRate; strip.updates = f.updates; render();
    }, function () { running--; });
  }
  /* Delete from the view: collapse (0.15 s), delete (0.15 s), then the page leaves the lists. */
  function deleteActive() {
    if (pages.length <= 2 || deleting || S.layout !== 'pager') return;
    var k = S.active, c = A.collapse(k), d = A.deletion(strip, k);
    deleting = true; running++;
    A.animate(c.duration, c.easing, function (e, p) {
      var f = c.frame(strip, p, S.so, strip.expandingRate); strip.updates = f.updates; render();
    }, function () {
      A.animate(d.duration, d.easing, function (e, p) {
        var f = d.frame(strip, p, S.so, strip.expandingRate); strip.updates = f.updates; render();
      }, function () {
        var last = k === pages.length - 1;
        pages.splice(k, 1);
        preloaded.clear(); cells.clear(); thumbs.clear();
        strip.updates = {};
        if (last) S.active = pages.length - 1;
        deleting = false; running--;
        configure();
      });
    });
  }

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
      if (touches.size === 2 && pinch0 > 0 && spread() > 1.4 * pinch0) { pinch0 = 0; openFull(); }
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
  pagerEl.addEventListener('dblclick', openFull);
  var typed = '';
  document.addEventListener('keydown', function (ev) {
    if (ev.target.tagName === 'SELECT') return;
    if (!$('full').hidden) { if (ev.key === 'Escape') closeFull(); return; }
    var n = pages.length;
    if (ev.key === 'ArrowRight' || ev.key === 'ArrowDown') moveTo(S.active + 1);
    else if (ev.key === 'ArrowLeft' || ev.key === 'ArrowUp') moveTo(S.active - 1);
    else if (ev.key === 'Home') moveTo(0);
    else if (ev.key === 'End') moveTo(n - 1);
    else if (/^[0-9]$/.test(ev.key)) { typed += ev.key; $('pageno').textContent = 'go to ' + typed; return; }
    else if (ev.key === 'Enter' && typed) { moveTo(Math.min(n, Math.max(1, parseInt(typed, 10))) - 1); typed = ''; }
    else if (ev.key === 'Delete') deleteActive();
    else return;
    ev.preventDefault();
  });
  /* Full resolution: double-click or pinch opens the page image; a click or Escape closes it. */
  function openFull() {
    var p = pages[S.active]; if (!p) return;
    var f = $('full'); f.firstChild.src = p.files.page; f.hidden = false;
  }
  function closeFull() { $('full').hidden = true; $('full').firstChild.removeAttribute('src'); }
  $('full').addEventListener('click', closeFull);
  $('delete').addEventListener('click', deleteActive);
  $('menu').addEventListener('change', function (ev) { setLayout(ev.target.value); });
  window.addEventListener('resize', configure);

  /* ---- the other layouts (halves, carousel, featured), each from its module ---- */
  var altPool = null;
  function setLayout(name) {
    S.layout = name; $('menu').value = name;
    var isPager = name === 'pager';
    pagerEl.hidden = stripEl.hidden = !isPager; altEl.hidden = isPager;
    altEl.textContent = ''; altPool = null; alt = null;
    if (isPager) { configure(); return; }
    var W = stage().width, H = stage().height, n = pages.length;
    if (name === 'halves') {
      var w = (W - 1) / 2;
      alt = [new Q.Halves({ width: w, height: H }, n, 'left'), new Q.Halves({ width: w, height: H }, n, 'right')];
      altPool = alt.map(function (l, side) {
        var col = document.createElement('div'); col.className = 'half'; col.dataset.side = side;
        col.style.left = (side ? w + 1 : 0) + 'px'; col.style.width = w + 'px'; altEl.appendChild(col);
        return pool(col, 'alt-item', function (i) { var el = document.createElement('div'); el.appendChild(img(pages[i].files.thumbnail)); return el; });
      });
      S.altOffsets = [alt[0].offsetFor(S.active), alt[1].offsetFor(S.active)];
    } else if (name === 'carousel') {
      alt = new Q.Carousel({ width: W, height: H }, n, S.active);
      altPool = pool(altEl, 'alt-item', function (i) { var el = document.createElement('div'); el.style.borderRadius = '8px'; return el; });
      S.altOffset = alt.restOffset();
    } else {
      alt = new Q.Featured({ width: W, height: H }, n);
      altPool = pool(altEl, 'alt-item', function (i) {
        var el = document.createElement('div'); el.appendChild(img(pages[i].files.thumbnail));
        var c = document.createElement('div'); c.className = 'cover'; el.appendChild(c);
        var t = document.createElement('div'); t.className = 'title'; t.textContent = pages[i].source; el.appendChild(t); return el;
      });
      S.altOffset = S.active * alt.G;
    }
    render();
  }
  function altShow(index) {
    if (S.layout === 'halves') S.altOffsets = [alt[0].offsetFor(index), alt[1].offsetFor(index)];
    else if (S.layout === 'carousel') { alt.centerIndex = index; S.altOffset = alt.restOffset(); }
    else S.altOffset = index * alt.G;
    render();
  }
  function renderAlt() {
    if (!alt) return;
    if (S.layout === 'halves') {
      alt.forEach(function (l, side) {
        l.items(S.altOffsets[side]).forEach(function (it) {
          var el = altPool[side].get(it.index), f = it.frame;
          place(el, f.x, f.y - S.altOffsets[side], f.width, f.height); el.style.opacity = it.alpha;
          /* the left half shows the page's left half, the right half its right half */
          el.firstChild.style.objectPosition = side ? 'right' : 'left';
        });
        altPool[side].sweep();
      });
      var k = Math.min(pages.length - 1, Math.max(0, Math.trunc(alt[0].pizzaIndex(S.altOffsets[0]))));
      S.active = k;
    } else if (S.layout === 'carousel') {
      S.altOffset = alt.recentre(S.altOffset);
      alt.items(S.altOffset).forEach(function (it) {
        var el = altPool.get(it.slot), f = it.frame;
        if (el.dataset.page !== String(it.index)) { el.textContent = ''; el.appendChild(img(pages[it.index].files.preview)); el.dataset.page = it.index; }
        place(el, f.x - S.altOffset, f.y, f.width, f.height); el.style.zIndex = it.zIndex;
      });
      altPool.sweep();
      S.active = alt.centerIndex;
    } else {
      alt.items(S.altOffset).forEach(function (it) {
        var el = altPool.get(it.index), f = it.frame;
        place(el, f.x, f.y - S.altOffset, f.width, f.height); el.style.zIndex = it.zIndex;
        el.children[1].style.opacity = it.coverAlpha;
        el.children[2].style.transform = 'translateY(-50%) scale(' + it.titleScale + ')';
      });
      altPool.sweep();
      S.active = alt.state(S.altOffset).f;
    }
  }
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
      if (S.layout === 'halves') {
        return { halves: Array.from(altEl.querySelectorAll('.half')).map(function (col) { return list(col, '.alt-item'); }) };
      }
      if (S.layout !== 'pager') {
        return { items: list(altEl, '.alt-item', function (el, o) { if (el.dataset.page !== undefined) o.index = +el.dataset.page; }) };
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
        domElements: document.querySelectorAll('.cell, .thumb, .alt-item').length };
    },
    moveTo: moveTo, deleteActive: deleteActive, setLayout: setLayout
  };

  function start(d) {
    data = d;
    pages = (d.pages || []).slice();
    stripHeight = (d.viewport && d.viewport.stripHeight) || 66;
    configure();
  }
  if (data) start(data);
  else fetch('layout.json').then(function (r) { return r.json(); }).then(start)
    .catch(function (e) { $('pageno').textContent = 'cannot read layout.json: ' + e; });
})(window.Quire = window.Quire || {});

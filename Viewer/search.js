/* Quire viewer: search the batch's text (pages processed with --ocr). The index, OUT/text/search.js
 * (written by quire from the hOCR: per page its words and a flat array of boxes in page pixels),
 * is loaded with a script element on the first search, as it works from file:// where fetch does
 * not. A query is one or more words; a hit is that run of words on one page, compared without case,
 * accents or the punctuation around a word. Each hit on a page drawn (pager, other views, reader)
 * is a box over its words, placed in percent of the page inside a layer that sits on the page's
 * image with the image's own position and transform, so it follows zoom and pan exactly.
 * Classic script: Quire.Search (and Quire.searchText, the pure matching). */
(function (Q) {
  'use strict';
  /* Where quire writes the index, relative to index.html. */
  var INDEX_SRC = 'text/search.js';
  /* The index's format version this script reads (SearchIndex.version in Swift). */
  var INDEX_VERSION = 1;
  /* Typing settles for this long (ms) before the batch is searched, so each key does not search. */
  var TYPE_SETTLE_MS = 150;
  /* Hits kept at most: a one-letter word can match every page of a huge batch; past this the count says "more than". */
  var MAX_HITS = 50000;
  /* Words per query at most (a pasted paragraph is not a search). */
  var MAX_TERMS = 32;

  /* ---- matching (pure) ---- */
  /* A word as compared: compatibility forms unfolded (ﬁ → fi), Latin/Greek/Cyrillic accents dropped,
   * lower case, and the punctuation around it gone ("Word," matches "word"). */
  function fold(s) {
    return String(s).normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
      .replace(/^[^\p{L}\p{N}\p{M}]+|[^\p{L}\p{N}\p{M}]+$/gu, '');
  }
  function terms(query) {
    return String(query).split(/\s+/).map(fold).filter(function (t) { return t.length > 0; }).slice(0, MAX_TERMS);
  }
  /* Hits of `t` (folded terms) in the pages {index, folded} listed, in their order: {page, word, count}. */
  function find(pages, t) {
    var hits = [];
    if (!t.length) return hits;
    for (var p = 0; p < pages.length; p++) {
      var f = pages[p].folded;
      for (var i = 0; i + t.length <= f.length; i++) {
        var j = 0;
        while (j < t.length && f[i + j] === t[j]) j++;
        if (j === t.length) {
          hits.push({ page: pages[p].index, word: i, count: t.length });
          if (hits.length >= MAX_HITS) return hits;
        }
      }
    }
    return hits;
  }
  Q.searchText = { fold: fold, terms: terms, find: find, MAX_HITS: MAX_HITS };

  /* ---- the index ---- */
  var PIXEL_MAX = 1 << 20;
  function okSide(v) { return typeof v === 'number' && isFinite(v) && v >= 1 && v <= PIXEL_MAX; }
  /* The pages of window.QUIRE_SEARCH that can be used, by batch index, their words folded once. */
  function prepare(raw) {
    var byIndex = new Map();
    if (!raw || raw.version !== INDEX_VERSION || !Array.isArray(raw.pages)) return null;
    raw.pages.forEach(function (p) {
      if (!p || !Array.isArray(p.words) || !Array.isArray(p.boxes) || p.boxes.length !== 4 * p.words.length) return;
      if (!okSide(p.width) || !okSide(p.height) || typeof p.index !== 'number') return;
      byIndex.set(p.index, { index: p.index, width: p.width, height: p.height, words: p.words, boxes: p.boxes, folded: p.words.map(fold) });
    });
    return byIndex;
  }

  /* host: {pages() (the pages shown, in order), active() (position), show(position),
   * readerIndex() (position in the reader, -1 when closed), hasText} */
  function Search(host) {
    this.host = host;
    var $ = function (id) { return document.getElementById(id); };
    this.form = $('search'); this.input = $('search-q'); this.count = $('search-count');
    this.opener = $('search-open');
    this.index = null; this.loading = false; this.loadMs = null;
    this.query = ''; this.hits = []; this.current = -1; this.byPage = new Map(); this.painted = false;
    this.timer = null;
    var self = this;
    this.opener.addEventListener('click', function () { self.open(); });
    $('search-next').addEventListener('click', function () { self.step(1); });
    $('search-prev').addEventListener('click', function () { self.step(-1); });
    $('search-close').addEventListener('click', function () { self.close(); });
    this.form.addEventListener('submit', function (ev) { ev.preventDefault(); });
    this.input.addEventListener('input', function () {
      clearTimeout(self.timer);
      self.timer = setTimeout(function () { self.run(false); }, TYPE_SETTLE_MS);
    });
    /* The field keeps its keys (the viewer's arrows and Enter do not page while typing). */
    this.input.addEventListener('keydown', function (ev) {
      ev.stopPropagation();
      if (ev.key === 'Enter') { ev.preventDefault(); self.enter(ev.shiftKey ? -1 : 1); }
      else if (ev.key === 'Escape') { ev.preventDefault(); self.close(); }
    });
    this.form.addEventListener('keydown', function (ev) {
      if (ev.key === 'Escape') { ev.preventDefault(); ev.stopPropagation(); self.close(); }
    });
    /* "/" opens the search from anywhere in the viewer (not inside the reader, a dialog of its own). */
    document.addEventListener('keydown', function (ev) {
      if (ev.key !== '/' || ev.altKey || ev.ctrlKey || ev.metaKey || host.readerIndex() >= 0) return;
      if (/^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName)) return;
      ev.preventDefault(); self.open();
    });
  }
  Search.prototype.isNarrow = function () { return getComputedStyle(this.opener).display !== 'none'; };
  Search.prototype.open = function () {
    this.form.classList.add('open'); this.opener.setAttribute('aria-expanded', 'true');
    this.input.focus(); this.input.select();
  };
  /* Escape: the hits go, the field empties (and folds back to its icon on a phone), focus returns. */
  Search.prototype.close = function () {
    clearTimeout(this.timer);
    this.input.value = ''; this.query = ''; this.hits = []; this.byPage = new Map(); this.current = -1;
    this.say('');
    var wasOpen = this.form.classList.contains('open');
    this.form.classList.remove('open'); this.opener.setAttribute('aria-expanded', 'false');
    this.paint();
    if (wasOpen && this.isNarrow()) this.opener.focus();
    else { var pager = document.getElementById('pager'); (pager.hidden ? document.getElementById('alt') : pager).focus({ preventScroll: true }); }
  };
  /* The count or message, announced (aria-live); whole in the tooltip when the header cuts it short. */
  Search.prototype.say = function (text) { this.count.textContent = text; this.count.title = text; };
  /* Enter: search now when the query changed, else the next (Shift: previous) hit. */
  Search.prototype.enter = function (dir) {
    clearTimeout(this.timer);
    if (this.input.value !== this.query || !this.index) this.run(dir < 0); else this.step(dir);
  };
  /* Loads text/search.js once; `then` runs when the index is there (not at all when it fails). */
  Search.prototype.load = function (then) {
    var self = this;
    if (this.index) { then(); return; }
    this.pending = then;
    if (this.loading) return;
    this.loading = true;
    this.say('Loading the text…');
    var t0 = performance.now(), s = document.createElement('script');
    s.src = INDEX_SRC;
    s.onload = function () {
      self.loading = false;
      self.index = prepare(window.QUIRE_SEARCH);
      self.loadMs = performance.now() - t0;
      if (!self.index) { self.say('The search index (' + INDEX_SRC + ') is not one this viewer reads: run quire view again.'); return; }
      if (self.pending) self.pending();
    };
    s.onerror = function () {
      self.loading = false;
      self.say('Cannot load ' + INDEX_SRC + ': run quire view on this folder again.');
    };
    document.head.appendChild(s);
  };
  /* Searches the pages in the view for the field's words; goes to the first hit from the page
   * shown on (or the last before it, for Shift+Enter). */
  Search.prototype.run = function (backwards) {
    var self = this, value = this.input.value;
    if (!terms(value).length) { this.query = value; this.hits = []; this.byPage = new Map(); this.current = -1; this.say(''); this.paint(); return; }
    if (!this.host.hasText) { this.query = value; this.say('No text in this batch: process it with quire process --ocr to search it.'); return; }
    this.load(function () {
      var t = terms(self.input.value), shown = self.host.pages(), list = [];
      shown.forEach(function (p) { var ip = self.index.get(p.index); if (ip) list.push(ip); });
      self.query = self.input.value;
      self.hits = find(list, t);
      self.byPage = new Map();
      self.hits.forEach(function (h, n) { if (!self.byPage.has(h.page)) self.byPage.set(h.page, []); self.byPage.get(h.page).push(n); });
      if (!self.hits.length) { self.current = -1; self.say('No match for “' + t.join(' ') + '”'); self.paint(); return; }
      var here = shown[self.host.active()], at = here ? here.index : 0, k;
      if (backwards) { k = self.hits.length - 1; while (k > 0 && self.hits[k].page > at) k--; if (self.hits[k].page > at) k = self.hits.length - 1; }
      else { k = 0; while (k < self.hits.length && self.hits[k].page < at) k++; if (k === self.hits.length) k = 0; }
      self.go(k);
    });
  };
  Search.prototype.step = function (dir) {
    if (!this.hits.length) { if (this.input.value.trim()) this.run(dir < 0); return; }
    this.go((this.current + dir + this.hits.length) % this.hits.length);
  };
  /* Makes hit k the current one: its page is shown (the reader too, when open) and announced. */
  Search.prototype.go = function (k) {
    var h = this.hits[k], shown = this.host.pages();
    this.current = k;
    var position = shown.findIndex(function (p) { return p.index === h.page; });
    if (position >= 0) this.host.show(position);
    var more = this.hits.length >= MAX_HITS ? 'more than ' : '';
    this.say((k + 1) + ' of ' + more + this.hits.length + ', page ' + (h.page + 1));
    this.paint();
  };

  /* ---- drawing the hits ---- */
  /* The layer over `img` (created after it), placed as the image is. */
  function layerOver(img) {
    var layer = img.nextElementSibling;
    if (!layer || !layer.classList.contains('hits')) {
      layer = document.createElement('div'); layer.className = 'hits'; layer.setAttribute('aria-hidden', 'true');
      img.insertAdjacentElement('afterend', layer);
    }
    var s = img.style, l = layer.style;
    if (l.left !== s.left) l.left = s.left;
    if (l.top !== s.top) l.top = s.top;
    if (l.width !== s.width) l.width = s.width;
    if (l.height !== s.height) l.height = s.height;
    if (l.transform !== s.transform) l.transform = s.transform;
    return layer;
  }
  function pct(v, of) { return (100 * v / of) + '%'; }
  /* Fills `layer` with the boxes of the hits on batch page `index`. */
  Search.prototype.fill = function (layer, index) {
    var ids = this.byPage.get(index) || [], key = ids.length ? index + ':' + this.current + ':' + this.hits.length + ':' + this.query : '';
    if (layer.dataset.key === key) return;
    layer.dataset.key = key; layer.textContent = '';
    var page = this.index && this.index.get(index), self = this;
    if (!page) return;
    ids.forEach(function (n) {
      var h = self.hits[n];
      for (var w = h.word; w < h.word + h.count; w++) {
        var b = page.boxes, i = 4 * w, d = document.createElement('div');
        d.className = n === self.current ? 'hit current' : 'hit';
        d.style.left = pct(b[i], page.width); d.style.top = pct(b[i + 1], page.height);
        d.style.width = pct(Math.max(0, b[i + 2] - b[i]), page.width); d.style.height = pct(Math.max(0, b[i + 3] - b[i + 1]), page.height);
        layer.appendChild(d);
      }
    });
  };
  /* Draws the hits over every page on screen; called after each frame the viewer or the reader draws. */
  Search.prototype.paint = function () {
    if (!this.hits.length && !this.painted) return;
    this.painted = this.hits.length > 0;
    var self = this, shown = this.host.pages();
    document.querySelectorAll('#pager .cell, #alt .alt-item').forEach(function (el) {
      var position = el.classList.contains('cell') ? +el.dataset.index : (el.dataset.page === undefined ? -1 : +el.dataset.page);
      var img = el.classList.contains('cell') ? el.querySelector('.mask > img') : el.querySelector(':scope > img');
      var p = shown[position];
      if (img && p) self.fill(layerOver(img), p.index);
    });
    var r = this.host.readerIndex(), canvas = document.querySelector('#reader .reader-canvas');
    var layer = canvas && canvas.querySelector(':scope > .hits');
    if (r >= 0 && shown[r] && canvas) {
      if (!layer) { layer = document.createElement('div'); layer.className = 'hits'; layer.setAttribute('aria-hidden', 'true'); canvas.appendChild(layer); }
      this.fill(layer, shown[r].index);
    } else if (layer) { layer.textContent = ''; layer.dataset.key = ''; }   /* the closed reader keeps no old hits */
  };
  /* For tests: the query, the hits and the current one with its boxes in page pixels. */
  Search.prototype.state = function () {
    var h = this.hits[this.current], page = h && this.index.get(h.page), boxes = [];
    if (page) for (var w = h.word; w < h.word + h.count; w++) boxes.push(page.boxes.slice(4 * w, 4 * w + 4));
    return { loaded: !!this.index, loadMs: this.loadMs, query: this.query, count: this.hits.length, current: this.current,
      page: h ? h.page : null, boxes: boxes, size: page ? { width: page.width, height: page.height } : null,
      message: this.count.textContent, open: this.form.classList.contains('open') };
  };
  Q.Search = Search;
})(window.Quire = window.Quire || {});

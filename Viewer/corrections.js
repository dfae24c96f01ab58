/* Quire viewer: the batch's corrections (docs/review.md), the one place a fix by hand is kept.
 * An entry per source page, keyed as the corrections file keys it (layout.json's `correctionKey`):
 * {corners, rotate, split, exclude}, in source pixels. Kept in localStorage per batch (its address),
 * so fixes survive a reload; every change is an action on an undo/redo stack, kept too.
 * "Delete from view" (hidden.js) is an `exclude` here. Pure apart from the storage it is given:
 * no DOM. Classic script: Quire.Corrections. */
(function (Q) {
  'use strict';
  /* Entries past this are not a batch's (layout.json's page limit): a stored list this long is damaged. */
  var MAX_ENTRIES = 1000000;
  /* Undo steps kept: enough for a session of fixes, small enough for localStorage. */
  var MAX_HISTORY = 500;
  /* The corrections file's range for a corner coordinate (pixels; Schemas/quire.corrections-1). */
  var MAX_COORD = 10000000;
  /* The split fraction the corrections file accepts (contract: 0.2 <= x <= 0.8). */
  var SPLIT_MIN = 0.2, SPLIT_MAX = 0.8;

  /* The corrections file's key for a page: CornersFile.key(source:page:) when layout.json predates `correctionKey`. */
  function keyOf(p) {
    if (p && typeof p.correctionKey === 'string' && p.correctionKey) return p.correctionKey;
    var n = p && typeof p.sourcePage === 'number' ? p.sourcePage : 0, s = String(p && p.source);
    return n > 0 || s.indexOf('#') >= 0 ? s + '#' + (n + 1) : s;
  }
  function finite(v) { return typeof v === 'number' && isFinite(v); }
  /* An entry checked as the corrections file's reader checks it; unknown or wrong fields are dropped, null when nothing is left. */
  function clean(e) {
    if (Array.isArray(e)) e = { corners: e };
    if (!e || typeof e !== 'object') return null;
    var out = {};
    if (Array.isArray(e.corners) && e.corners.length === 4 && e.corners.every(function (c) {
      return Array.isArray(c) && c.length === 2 && inRange(c[0]) && inRange(c[1]);
    }) && convex(e.corners)) out.corners = e.corners.map(function (c) { return [round2(c[0]), round2(c[1])]; });
    if ([0, 90, 180, 270].indexOf(e.rotate) >= 0) out.rotate = e.rotate;
    if (typeof e.split === 'boolean') out.split = e.split;
    else if (finite(e.split) && e.split >= SPLIT_MIN && e.split <= SPLIT_MAX) out.split = Math.round(e.split * 1000) / 1000;
    if (e.exclude === true) out.exclude = true;
    return Object.keys(out).length ? out : null;
  }
  function inRange(v) { return finite(v) && v >= 0 && v <= MAX_COORD; }
  /* TL, TR, BR, BL turning the same way at every corner: the only quads `quire process` straightens. */
  function convex(q) {
    var sign = 0;
    for (var i = 0; i < 4; i++) {
      var a = q[i], b = q[(i + 1) % 4], c = q[(i + 2) % 4];
      var z = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0]);
      if (z === 0 || (sign && Math.sign(z) !== sign)) return false;
      sign = Math.sign(z);
    }
    return true;
  }
  function round2(v) { return Math.round(v * 100) / 100; }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  /* `where` names the batch (its folder's address); `layout` seeds the entries Quire already
   * applied (pages' `corrected`, top-level `excluded`) when nothing is stored yet. */
  function Corrections(storage, where, layout) {
    this.storage = storage;
    this.key = 'quire.corrections:' + where;
    this.listeners = [];
    var stored = this.read();
    if (stored) { this.entries = stored.entries; this.done = stored.done; this.undone = stored.undone; }
    else { this.entries = seed(layout); this.done = []; this.undone = []; }
  }
  function seed(layout) {
    var entries = {};
    var pages = layout && Array.isArray(layout.pages) ? layout.pages : [];
    pages.forEach(function (p) { var e = clean(p.corrected); if (e) entries[keyOf(p)] = e; });
    (layout && Array.isArray(layout.excluded) ? layout.excluded : []).forEach(function (x) {
      if (x && typeof x === 'object') entries[keyOf(x)] = Object.assign({}, entries[keyOf(x)], { exclude: true });
    });
    return entries;
  }
  /* The stored state, checked: entries cleaned, history steps well formed; null when absent or damaged. */
  Corrections.prototype.read = function () {
    try {
      var v = JSON.parse(this.storage.getItem(this.key) || 'null');
      if (!v || typeof v.entries !== 'object' || !Array.isArray(v.done) || !Array.isArray(v.undone)) return null;
      var keys = Object.keys(v.entries);
      if (keys.length > MAX_ENTRIES) return null;
      var entries = {};
      keys.forEach(function (k) { var e = clean(v.entries[k]); if (e) entries[k] = e; });
      var step = function (s) { return s && typeof s.key === 'string' && { key: s.key, before: clean(s.before), after: clean(s.after) }; };
      return { entries: entries, done: v.done.slice(-MAX_HISTORY).map(step).filter(Boolean), undone: v.undone.slice(-MAX_HISTORY).map(step).filter(Boolean) };
    } catch (e) { return null; /* storage refused or damaged: start from layout.json */ }
  };
  Corrections.prototype.write = function () {
    try {
      this.storage.setItem(this.key, JSON.stringify({ entries: this.entries, done: this.done, undone: this.undone }));
    } catch (e) { /* storage full or refused: the fixes still work, they are only not remembered */ }
    var self = this;
    this.listeners.forEach(function (f) { f(self); });
  };
  Corrections.prototype.onChange = function (f) { this.listeners.push(f); };
  Corrections.prototype.get = function (key) { return this.entries[key] || null; };
  /* Sets `key`'s entry (null or {} removes it) as one undoable step; false when nothing changed. */
  Corrections.prototype.set = function (key, entry) {
    var before = this.get(key), after = clean(entry);
    if (same(before, after)) return false;
    this.apply(key, after);
    this.done.push({ key: key, before: before, after: after });
    if (this.done.length > MAX_HISTORY) this.done.shift();
    this.undone = [];
    this.write();
    return true;
  };
  /* Changes one field of `key`'s entry (undefined removes it). */
  Corrections.prototype.update = function (key, field, value) {
    var e = Object.assign({}, this.get(key));
    if (value === undefined) delete e[field]; else e[field] = value;
    return this.set(key, e);
  };
  Corrections.prototype.apply = function (key, entry) {
    if (entry) this.entries[key] = entry; else delete this.entries[key];
  };
  Corrections.prototype.canUndo = function () { return this.done.length > 0; };
  Corrections.prototype.canRedo = function () { return this.undone.length > 0; };
  Corrections.prototype.lastStep = function () { return this.done[this.done.length - 1] || null; };
  /* Undoes the last step: returns it ({key, before, after}) or null. */
  Corrections.prototype.undo = function () {
    var s = this.done.pop();
    if (!s) return null;
    this.apply(s.key, s.before); this.undone.push(s); this.write();
    return s;
  };
  Corrections.prototype.redo = function () {
    var s = this.undone.pop();
    if (!s) return null;
    this.apply(s.key, s.after); this.done.push(s); this.write();
    return s;
  };
  Corrections.prototype.excluded = function (key) { var e = this.get(key); return !!(e && e.exclude); };
  Corrections.prototype.count = function () { return Object.keys(this.entries).length; };
  /* The corrections file as Quire writes it: one entry per line, keys sorted (outer and inner). */
  Corrections.prototype.text = function () {
    var self = this, keys = Object.keys(this.entries).sort();
    if (!keys.length) return '{}\n';
    return '{\n' + keys.map(function (k) {
      var e = self.entries[k], inner = Object.keys(e).sort().map(function (f) { return JSON.stringify(f) + ': ' + JSON.stringify(e[f]); });
      return '  ' + JSON.stringify(k) + ': {' + inner.join(', ') + '}';
    }).join(',\n') + '\n}\n';
  };
  Corrections.keyOf = keyOf;
  Corrections.clean = clean;
  Corrections.convex = convex;
  Corrections.SPLIT_MIN = SPLIT_MIN;
  Corrections.SPLIT_MAX = SPLIT_MAX;
  Q.Corrections = Corrections;
})(window.Quire = window.Quire || {});

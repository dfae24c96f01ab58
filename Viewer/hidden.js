/* Quire viewer: "Delete from view", remembered. The pages hidden from a batch's view are kept in
 * localStorage under a key naming the batch (its address and its pages), so a reload shows the
 * same view and another batch is not affected; Undo brings back the last hidden page in its place.
 * Files are never touched. Classic script: Quire.Hidden. */
(function (Q) {
  'use strict';
  /* A short fingerprint of the batch's page files: a rerun with other pages gets a fresh view. */
  function fingerprint(pages) {
    var h = 2166136261;
    pages.forEach(function (p) {
      var s = String(p.files && p.files.page) + '\n';
      for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    });
    return pages.length + '-' + (h >>> 0).toString(16);
  }
  function idOf(p) { return String(p.files && p.files.page); }
  function Hidden(storage, where, pages) {
    this.storage = storage;
    this.key = 'quire.hidden:' + where + ':' + fingerprint(pages);
    this.ids = this.read(pages.length);
  }
  /* The stored list, checked: an array of at most `count` strings, else nothing hidden. */
  Hidden.prototype.read = function (count) {
    try {
      var v = JSON.parse(this.storage.getItem(this.key) || '[]');
      if (Array.isArray(v) && v.length <= count && v.every(function (s) { return typeof s === 'string'; })) return v;
    } catch (e) { /* storage refused or damaged: show everything */ }
    return [];
  };
  Hidden.prototype.write = function () {
    try {
      if (this.ids.length) this.storage.setItem(this.key, JSON.stringify(this.ids));
      else this.storage.removeItem(this.key);
    } catch (e) { /* storage full or refused: the view still works, it is only not remembered */ }
  };
  /* The pages still shown, in order. */
  Hidden.prototype.filter = function (pages) {
    var gone = new Set(this.ids);
    return pages.filter(function (p) { return !gone.has(idOf(p)); });
  };
  /* Hides `page`. The list is in the order pages were hidden, so it is also the undo stack,
   * and Undo still works after a reload. */
  Hidden.prototype.hide = function (page) { this.ids.push(idOf(page)); this.write(); };
  Hidden.prototype.canUndo = function () { return this.ids.length > 0; };
  /* Shows the last hidden page again (in its place in the batch): returns its id, or null. */
  Hidden.prototype.undo = function () {
    var id = this.ids.pop();
    if (id === undefined) return null;
    this.write();
    return id;
  };
  Q.Hidden = Hidden;
})(window.Quire = window.Quire || {});

/* Quire viewer: "Delete from view", remembered. Deleting a page is an `exclude` correction
 * (corrections.js), so there is one notion of removing a page: it survives a reload, Undo brings
 * it back in its place, the review mode lists it, and the corrections file (downloaded or saved
 * with --serve) leaves it out of the next `quire process`. All parts of a split source page go
 * together, as `exclude` does in the file. Files are never touched. Classic script: Quire.Hidden. */
(function (Q) {
  'use strict';
  function idOf(p) { return String(p.files && p.files.page); }
  function Hidden(corrections, pages) {
    this.corrections = corrections;
    this.pages = pages;
  }
  /* The file names of the pages left out of the view (tests and the viewer's state count them). */
  Object.defineProperty(Hidden.prototype, 'ids', {
    get: function () {
      var c = this.corrections;
      return this.pages.filter(function (p) { return c.excluded(Q.Corrections.keyOf(p)); }).map(idOf);
    }
  });
  /* The pages still shown, in order. */
  Hidden.prototype.filter = function (pages) {
    var c = this.corrections;
    return pages.filter(function (p) { return !c.excluded(Q.Corrections.keyOf(p)); });
  };
  /* Hides `page`: an `exclude` added to its entry (corners or turns already there are kept). */
  Hidden.prototype.hide = function (page) { this.corrections.update(Q.Corrections.keyOf(page), 'exclude', true); };
  /* Undo in the reading views is offered when the last step excluded or included a page. */
  Hidden.prototype.canUndo = function () {
    var s = this.corrections.lastStep();
    return !!s && !!(s.before && s.before.exclude) !== !!(s.after && s.after.exclude);
  };
  /* Undoes that step: returns the id of the first page it concerns, or null. */
  Hidden.prototype.undo = function () {
    if (!this.canUndo()) return null;
    var s = this.corrections.undo();
    var p = this.pages.find(function (q) { return Q.Corrections.keyOf(q) === s.key; });
    return p ? idOf(p) : null;
  };
  Q.Hidden = Hidden;
})(window.Quire = window.Quire || {});

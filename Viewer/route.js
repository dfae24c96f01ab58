/* Quire viewer: the address and the tab's title. `#page=N` (N from 1, the page's number in the
 * batch) opens that page; the viewer keeps it in the address as you page, one history entry per
 * page you stop on, so Back and Forward page too; `#review&page=N` opens the review mode there.
 * Pure: no DOM. Classic script: Quire.route. */
(function (Q) {
  'use strict';
  /* Page numbers past this are not numbers a batch can have (layout.json's count limit). */
  var MAX_PAGE = 10000000;
  /* The page number in a hash such as `#page=12` (also `#view=halves&page=12`); null when absent or out of range. */
  function parse(hash) {
    var m = /(?:^#?|&)page=(\d{1,8})(?:&|$)/.exec(hash || '');
    if (!m) return null;
    var n = parseInt(m[1], 10);
    return n >= 1 && n <= MAX_PAGE ? n : null;
  }
  function format(n) { return '#page=' + n; }
  /* The review mode's address: `#review`, `#review&page=N` (docs/review.md). */
  function isReview(hash) { return /^#?review(?:&|$)/.test(hash || ''); }
  function formatReview(n) { return '#review&page=' + n; }
  /* The batch's name: the output folder's (the directory holding index.html), else the host. */
  function batchName(loc) {
    var parts = (loc.pathname || '').split('/').filter(Boolean);
    if (parts.length && /\.html?$/i.test(parts[parts.length - 1])) parts.pop();
    var name = parts.length ? parts[parts.length - 1] : '';
    try { name = decodeURIComponent(name); } catch (e) { /* keep it as written */ }
    return name || loc.host || 'Quire';
  }
  function title(name, n, count) { return count ? name + ' – page ' + n + ' of ' + count : name; }
  Q.route = { parse: parse, format: format, isReview: isReview, formatReview: formatReview, batchName: batchName, title: title };
})(window.Quire = window.Quire || {});

/* Quire viewer: the pager <-> strip synchroniser of docs/layout-formulas.md#sync-and-animations.
 * Classic script: adds Quire.sync. */
(function (Q) {
  'use strict';
  Q.sync = {
    /* Preview -> thumbnails: x_thumb = N(w+d)·((o_x/W_preview)/N) − farInset. */
    stripOffsetForPager: function (pager, strip, pagerOffset) {
      var n = strip.count;
      if (n === 0) return -strip.farInset;
      return n * strip.pitch * ((pagerOffset / pager.W) / n) - strip.farInset;
    },
    /* Thumbnails -> preview: the pager jumps to nearestIndex·W_preview when the index changes,
     * otherwise it stays (it moves page by page). Returns the new pager offset or null. */
    pagerOffsetForStrip: function (pager, strip, stripOffset, activeIndex) {
      var n = strip.nearestIndex(stripOffset);
      if (n === null || n === activeIndex) return null;
      return { index: n, offset: n * pager.W };
    }
  };
})(window.Quire = window.Quire || {});

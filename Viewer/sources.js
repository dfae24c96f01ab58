/* Quire viewer: which image file to draw for a page at a given size on screen. Each page has three
 * renditions (thumbnail, preview, page) and, when `quire iiif` ran, tiles; the smallest that has
 * enough pixels for the box on screen is chosen, so nothing is drawn upscaled while a larger file
 * exists, and nothing larger than needed is fetched. Pure: no DOM. Classic script: Quire.sources. */
(function (Q) {
  'use strict';
  /* quire process's defaults (RenditionOptions), for a layout.json written before `options`. */
  var DEFAULT_PREVIEW = 1600, DEFAULT_THUMBNAIL = 256;
  /* Largest believable pixel count on a side: a number past it in layout.json is treated as absent. */
  var MAX_SIDE = 1 << 20;

  function side(v) { return typeof v === 'number' && isFinite(v) && v >= 1 && v <= MAX_SIDE ? v : null; }
  /* A page's pixel size (width, height) from layout.json, range-checked; null when unusable. */
  function pageSize(page) {
    var w = side(page.width), h = side(page.height);
    return w && h ? { width: w, height: h } : null;
  }
  /* The size of a rendition written to fit a square of `longest` pixels (never enlarged). */
  function fitLongest(size, longest) {
    var s = Math.min(1, longest / Math.max(size.width, size.height));
    return { width: Math.max(1, Math.round(size.width * s)), height: Math.max(1, Math.round(size.height * s)) };
  }
  /* Pixel sizes of the page's renditions, in order of size. */
  function sizes(page, options) {
    var full = pageSize(page) || { width: DEFAULT_PREVIEW, height: DEFAULT_PREVIEW };
    var o = options || {};
    return {
      thumbnail: fitLongest(full, side(o.thumbnailSize) || DEFAULT_THUMBNAIL),
      preview: fitLongest(full, side(o.previewSize) || DEFAULT_PREVIEW),
      page: full
    };
  }
  /* The smallest rendition whose pixels cover a box of `need` device pixels (width, height),
   * up to `largest` ('preview' for lists of pages, 'page' when reading one); the largest
   * allowed one when none covers it. Returns 'thumbnail', 'preview' or 'page'. */
  function pick(page, options, need, largest) {
    var s = sizes(page, options), order = ['thumbnail', 'preview', 'page'];
    var last = order.indexOf(largest || 'page');
    for (var i = 0; i < last; i++) {
      var r = s[order[i]];
      if (r.width >= need.width - 0.5 && r.height >= need.height - 0.5) return order[i];
    }
    return order[last];
  }
  Q.sources = { sizes: sizes, pick: pick, pageSize: pageSize, DEFAULT_PREVIEW: DEFAULT_PREVIEW };
})(window.Quire = window.Quire || {});

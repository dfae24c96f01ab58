/* Quire viewer: a page's IIIF tiles (OUT/iiif, written by `quire iiif`), for reading a zoomed page
 * without fetching the whole page file. Only when served over HTTP: a page opened from file://
 * cannot read info.json. The tile names follow docs/exports.md#every-advertised-tile-exists.
 * Classic script: Quire.iiif. */
(function (Q) {
  'use strict';
  /* Tile sizes and scale factors outside these bounds mean info.json is not one quire wrote. */
  var MIN_TILE = 16, MAX_TILE = 8192, MAX_FACTOR = 1 << 16;
  var cache = new Map();

  /* The image service's folder: the page file's stem (pages/0001.jpg -> 0001), as IIIFExport.pageID. */
  function pageID(page) {
    var name = String(page.files.page).split('/').pop(), stem = name.replace(/\.[^.]*$/, '');
    if (stem && stem[0] !== '.' && /^[A-Za-z0-9._-]+$/.test(stem)) return stem;
    return String(page.index + 1).padStart(4, '0');
  }
  function isInt(v, lo, hi) { return typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi; }
  /* info.json checked against the page: same pixel size, sane tiles; null when anything is off. */
  function validate(info, page) {
    if (!info || info.width !== page.width || info.height !== page.height || !Array.isArray(info.tiles) || !info.tiles[0]) return null;
    var t = info.tiles[0], f = t.scaleFactors;
    if (!isInt(t.width, MIN_TILE, MAX_TILE) || !Array.isArray(f) || !f.length) return null;
    if (!f.every(function (s) { return isInt(s, 1, MAX_FACTOR); })) return null;
    return { width: info.width, height: info.height, tile: t.width,
      tileHeight: isInt(t.height, MIN_TILE, MAX_TILE) ? t.height : t.width,
      factors: f.slice().sort(function (a, b) { return a - b; }) };
  }
  /* Calls done(info or null) once; remembers the answer per page. */
  function load(page, done) {
    if (!/^https?:$/.test(location.protocol) || !window.fetch) { done(null); return; }
    var id = pageID(page);
    if (cache.has(id)) { var c = cache.get(id); if (c instanceof Promise) c.then(done); else done(c); return; }
    var p = fetch('iiif/' + id + '/info.json').then(function (r) { return r.ok ? r.json() : null; })
      .then(function (j) { return validate(j, page); }, function () { return null; })
      .then(function (v) { cache.set(id, v); return v; });
    cache.set(id, p);
    p.then(done);
  }
  /* The coarsest scale factor whose tiles still have a pixel per device pixel at `deviceScale`
   * (device pixels per page pixel). */
  function factorFor(info, deviceScale) {
    var best = info.factors[0];
    info.factors.forEach(function (f) { if (f <= 1 / deviceScale + 1e-9) best = Math.max(best, f); });
    return best;
  }
  /* The tiles at factor f meeting `rect` (page pixels): {url, x, y, width, height} in page pixels. */
  function tiles(page, info, f, rect) {
    var step = info.tile * f, stepY = info.tileHeight * f, out = [], base = 'iiif/' + pageID(page) + '/';
    var n0 = Math.max(0, Math.floor(rect.x / step)), n1 = Math.min(Math.ceil(info.width / step) - 1, Math.floor((rect.x + rect.width) / step));
    var m0 = Math.max(0, Math.floor(rect.y / stepY)), m1 = Math.min(Math.ceil(info.height / stepY) - 1, Math.floor((rect.y + rect.height) / stepY));
    for (var m = m0; m <= m1; m++) for (var n = n0; n <= n1; n++) {
      var x = n * step, y = m * stepY, w = Math.min(step, info.width - x), h = Math.min(stepY, info.height - y);
      var whole = x === 0 && y === 0 && w === info.width && h === info.height;
      var region = whole ? 'full' : x + ',' + y + ',' + w + ',' + h;
      var size = whole && f === 1 ? 'max' : Math.ceil(w / f) + ',' + Math.ceil(h / f);
      out.push({ url: base + region + '/' + size + '/0/default.jpg', x: x, y: y, width: w, height: h });
    }
    return out;
  }
  Q.iiif = { load: load, factorFor: factorFor, tiles: tiles, pageID: pageID, validate: validate };
})(window.Quire = window.Quire || {});

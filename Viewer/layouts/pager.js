/* Quire viewer: the preview pager, docs/layout-formulas.md#pager (PreviewLayout). Pure geometry, no DOM.
 * Classic script: adds Quire.Pager. */
(function (Q) {
  'use strict';
  /* viewport {width W, height H}; ratios r_i = imageWidth/imageHeight (null: fill the cell). */
  function Pager(viewport, ratios, params) {
    params = params || {};
    this.W = viewport.width; this.H = viewport.height;
    this.ratios = ratios;
    this.count = this.W > 0 ? ratios.length : 0;
    this.offsetBetweenCells = params.offsetBetweenCells !== undefined ? params.offsetBetweenCells : 44;
    this.imageParallaxFactor = params.imageParallaxFactor !== undefined ? params.imageParallaxFactor : 0.3;
  }
  /* F_i = (i·W, 0, W, H) */
  Pager.prototype.frame = function (i) { return { x: i * this.W, y: 0, width: this.W, height: this.H }; };
  /* content size (N·W, H) */
  Pager.prototype.contentWidth = function () { return this.count * this.W; };
  /* mask: aspect-fit rect of the image in the cell, cell-local (AVMakeRect) */
  Pager.prototype.mask = function (i) {
    var r = this.ratios[i];
    if (!(r > 0) || !isFinite(r)) r = this.W / this.H;
    var iw = r, ih = 1, s = Math.min(this.W / iw, this.H / ih);
    var w = iw * s, h = ih * s;
    return { x: (this.W - w) / 2, y: (this.H - h) / 2, width: w, height: h };
  };
  /* ρ_i = ((c_i.x − o_x) − W/2) / W; |ρ| ≥ 1 gives no parallax */
  Pager.prototype.parallax = function (i, ox) {
    var cx = i * this.W + this.W / 2;
    var rho = ((cx - ox) - this.W / 2) / this.W;
    return Math.abs(rho) >= 1 ? null : rho;
  };
  /* Item i at offset ox: frame, cell translation (ρ·44), image translation −(W·0.3·ρ), mask. */
  Pager.prototype.item = function (i, ox) {
    var rho = this.parallax(i, ox);
    return { index: i, frame: this.frame(i), parallax: rho,
      tx: rho === null ? 0 : rho * this.offsetBetweenCells,
      imageTranslation: -(this.W * this.imageParallaxFactor * (rho === null ? 0 : rho)) + 0,
      mask: this.mask(i) };
  };
  /* The items whose frame meets the viewport at ox (closed intervals). */
  Pager.prototype.items = function (ox) {
    if (this.count === 0) return [];
    var lo = Math.max(0, Math.ceil(ox / this.W) - 1), hi = Math.min(this.count - 1, Math.floor((ox + this.W) / this.W));
    var out = [];
    for (var i = lo; i <= hi; i++) out.push(this.item(i, ox));
    return out;
  };
  /* Snapping: nearest page clamp(floor(o_x/W + 0.5), 0, N−1) */
  Pager.prototype.nearestIndex = function (ox) {
    if (this.count === 0) return null;
    return Math.min(this.count - 1, Math.max(0, Math.floor(ox / this.W + 0.5)));
  };
  Q.Pager = Pager;
})(window.Quire = window.Quire || {});

/* Quire viewer: the geometry of reading one page, zoomed and panned (the reader). Pure: no DOM.
 * State: the image's size in page pixels (w, h), the box on screen (W, H), the scale s (screen
 * points per page pixel) and the image's top-left corner (x, y) in the box. Classic script: Quire.Zoom. */
(function (Q) {
  'use strict';
  /* Deepest zoom: 4 screen points per page pixel, enough to read the finest print at 300 dpi. */
  var MAX_SCALE = 4;
  /* One + or − key press, or one double-click step, multiplies the scale by this. */
  var STEP = Math.SQRT2;

  function Zoom(box, image) {
    this.W = box.width; this.H = box.height;
    this.w = image.width; this.h = image.height;
    this.fit('page');
  }
  /* s that shows the whole page, and s that fills the box's width. */
  Zoom.prototype.fitPageScale = function () { return Math.min(this.W / this.w, this.H / this.h); };
  Zoom.prototype.fitWidthScale = function () { return this.W / this.w; };
  /* Zooming out stops at the whole page; in, at MAX_SCALE (or fit width, if that is deeper). */
  Zoom.prototype.minScale = function () { return this.fitPageScale(); };
  Zoom.prototype.maxScale = function () { return Math.max(MAX_SCALE, this.fitWidthScale()); };
  /* fit('page') centres the whole page; fit('width') fills the width from the page's top. */
  Zoom.prototype.fit = function (mode) {
    this.mode = mode;
    this.s = mode === 'width' ? this.fitWidthScale() : this.fitPageScale();
    this.x = (this.W - this.w * this.s) / 2;
    this.y = mode === 'width' ? 0 : (this.H - this.h * this.s) / 2;
    return this.clamp();
  };
  /* Pan limits: an image smaller than the box on an axis is centred on it; a larger one
   * cannot leave a gap at either edge. */
  Zoom.prototype.clamp = function () {
    var dw = this.w * this.s, dh = this.h * this.s;
    this.x = dw <= this.W ? (this.W - dw) / 2 : Math.min(0, Math.max(this.W - dw, this.x));
    this.y = dh <= this.H ? (this.H - dh) / 2 : Math.min(0, Math.max(this.H - dh, this.y));
    return this;
  };
  /* Scale by `factor` about the box point (px, py): the page pixel under it stays under it. */
  Zoom.prototype.zoomAt = function (factor, px, py) {
    var s = Math.min(this.maxScale(), Math.max(this.minScale(), this.s * factor));
    if (px === undefined) { px = this.W / 2; py = this.H / 2; }
    this.x = px - (px - this.x) * s / this.s;
    this.y = py - (py - this.y) * s / this.s;
    this.s = s; this.mode = null;
    return this.clamp();
  };
  Zoom.prototype.zoomIn = function (px, py) { return this.zoomAt(STEP, px, py); };
  Zoom.prototype.zoomOut = function (px, py) { return this.zoomAt(1 / STEP, px, py); };
  Zoom.prototype.panBy = function (dx, dy) { this.x += dx; this.y += dy; this.mode = null; return this.clamp(); };
  /* Double-click/-tap: from a fit, zoom to twice the fit at that point; when zoomed, back to fit page. */
  Zoom.prototype.toggleAt = function (px, py) {
    if (this.s > this.fitPageScale() * 1.01 && this.mode !== 'width') return this.fit('page');
    return this.zoomAt(2 * STEP, px, py);
  };
  /* The new box keeps the same page pixel at its centre (rotation, resizing). */
  Zoom.prototype.resize = function (box) {
    var cx = (this.W / 2 - this.x) / this.s, cy = (this.H / 2 - this.y) / this.s, mode = this.mode;
    this.W = box.width; this.H = box.height;
    if (mode) return this.fit(mode);
    this.s = Math.min(this.maxScale(), Math.max(this.minScale(), this.s));
    this.x = this.W / 2 - cx * this.s; this.y = this.H / 2 - cy * this.s;
    return this.clamp();
  };
  /* The part of the page on screen, in page pixels (for tiles). */
  Zoom.prototype.visible = function () {
    var x0 = Math.max(0, -this.x / this.s), y0 = Math.max(0, -this.y / this.s);
    var x1 = Math.min(this.w, (this.W - this.x) / this.s), y1 = Math.min(this.h, (this.H - this.y) / this.s);
    return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
  };
  Zoom.MAX_SCALE = MAX_SCALE; Zoom.STEP = STEP;
  Q.Zoom = Zoom;
})(window.Quire = window.Quire || {});

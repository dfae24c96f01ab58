/* Quire viewer: the halves layout, docs/layout-formulas.md#halves (TableLayout, a vertical "drum" column; the
 * viewer shows a left and a right column side by side). Classic script: Quire.Halves. */
(function (Q) {
  'use strict';
  function Halves(viewport, count, orientation, params) {
    params = params || {};
    this.W = viewport.width; this.H = viewport.height; this.count = count; this.orientation = orientation;
    /* P = 300 when the screen (2W + 1) is wider than 320, else 230 */
    this.P = params.pizzaSize || (2 * this.W + 1 > 320 ? 300 : 230);
    this.critical = 200; this.scaleFactor = 0.6; this.spaceBetweenHalves = 4;
  }
  /* default frame F_i = (0, P·i, W, P) */
  Halves.prototype.defaultFrame = function (i) { return { x: 0, y: this.P * i, width: this.W, height: this.P }; };
  /* content inset top = bottom = (H − P)/2; offsetFor(k) = P·k + P/2 − H/2 */
  Halves.prototype.offsetFor = function (k) { return this.P * k + this.P / 2 - this.H / 2; };
  /* pizzaIndex(o) = (o_y + H/2)/P */
  Halves.prototype.pizzaIndex = function (oy) { return (oy + this.H / 2) / this.P; };
  /* Cell i: Δ = midY(F_i) − screenCenterY, n = clamp(Δ/200, −1, 1), s = 1 − 0.6|n|,
   * hOff = (W − W·s)/2, vOff = (−Δ/4)·s, dx = ±(hOff − 2), scale s about the centre. */
  Halves.prototype.cell = function (i, oy) {
    var F = this.defaultFrame(i), screenCenterY = oy + this.H / 2;
    var delta = (F.y + F.height / 2) - screenCenterY;
    var n = Math.min(1, Math.max(-1, delta / this.critical));
    var s = Math.min(1, Math.max(0, 1 - this.scaleFactor * Math.abs(n)));
    var hOff = (this.W - this.W * s) / 2, vOff = (-delta / 4) * s, inner = this.spaceBetweenHalves / 2;
    var dx = this.orientation === 'left' ? hOff - inner : -hOff + inner;
    var cx = F.x + F.width / 2 + dx, cy = F.y + F.height / 2 + vOff;
    var w = F.width * s, h = F.height * s;
    return { index: i, scale: s, alpha: s, n: n, frame: { x: cx - w / 2, y: cy - h / 2, width: w, height: h } };
  };
  /* Rows whose default frame meets the viewport [o_y, o_y + H] (closed). */
  Halves.prototype.items = function (oy) {
    if (this.count === 0) return [];
    var lo = Math.max(0, Math.ceil(oy / this.P) - 1), hi = Math.min(this.count - 1, Math.floor((oy + this.H) / this.P));
    var out = [];
    for (var i = lo; i <= hi; i++) {
      var F = this.defaultFrame(i);
      if (F.y <= oy + this.H && F.y + F.height >= oy) out.push(this.cell(i, oy));
    }
    return out;
  };
  /* Snapping: k = Int(pizzaIndex(p)), target offsetFor(k) (k clamped to the pages here). */
  Halves.prototype.targetOffset = function (p) {
    var k = Math.min(this.count - 1, Math.max(0, Math.trunc(this.pizzaIndex(p))));
    return this.offsetFor(k);
  };
  Q.Halves = Halves;
})(window.Quire = window.Quire || {});

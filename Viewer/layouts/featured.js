/* Quire viewer: the Ultravisual featured list, docs/layout-formulas.md#featured. Classic script: Quire.Featured. */
(function (Q) {
  'use strict';
  function Featured(viewport, count) {
    this.W = viewport.width; this.H = viewport.height; this.count = count;
    this.S = 100; this.F = 280; this.G = 180;               /* standard, featured, drag offset */
  }
  /* f = Int(o_y/G) (clamped to the pages), π = o_y/G − f */
  Featured.prototype.state = function (oy) {
    var q = oy / this.G, f = Math.min(this.count - 1, Math.max(0, Math.trunc(q)));
    var pi = q - f, featuredY = oy - this.S * pi, nextHeight = this.S + Math.max((this.F - this.S) * pi, 0);
    return { f: f, pi: pi, featuredY: featuredY, nextHeight: nextHeight, tailY: featuredY + this.F + this.S };
  };
  /* frames: before f stacked from 0; f at o_y − S·π, height F; f+1 grows upward from under it. */
  Featured.prototype.item = function (i, st) {
    var y, h;
    if (i < st.f) { y = i * this.S; h = this.S; }
    else if (i === st.f) { y = st.featuredY; h = this.F; }
    else if (i === st.f + 1) { y = st.tailY - st.nextHeight; h = st.nextHeight; }
    else { y = st.tailY + (i - st.f - 2) * this.S; h = this.S; }
    /* δ = 1 − (F − h)/(F − S); cover alpha 0.75 − 0.45δ; title scale max(δ, 0.5) */
    var delta = Math.min(1, Math.max(0, 1 - (this.F - h) / (this.F - this.S)));
    return { index: i, zIndex: i, delta: delta, coverAlpha: 0.75 - 0.45 * delta, titleScale: Math.max(delta, 0.5),
      frame: { x: 0, y: y, width: this.W, height: h } };
  };
  Featured.prototype.items = function (oy) {
    if (this.count === 0) return [];
    var st = this.state(oy), out = [];
    var lo = Math.max(0, st.f - Math.ceil(this.H / this.S) - 1), hi = Math.min(this.count - 1, st.f + Math.ceil(this.H / this.S) + 2);
    for (var i = lo; i <= hi; i++) {
      var it = this.item(i, st), f = it.frame;
      if (f.y <= oy + this.H && f.y + f.height >= oy) out.push(it);
    }
    return out;
  };
  /* content height N·G + (H − G); snapping y = round(p_y/G)·G (half away from zero) */
  Featured.prototype.contentHeight = function () { return this.count * this.G + (this.H - this.G); };
  Featured.prototype.targetOffset = function (p) {
    var q = p / this.G, r = q < 0 ? -Math.round(-q) : Math.round(q);
    return Math.min(this.count - 1, Math.max(0, r)) * this.G;
  };
  Q.Featured = Featured;
})(window.Quire = window.Quire || {});

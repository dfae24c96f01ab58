/* Quire viewer: the three-view infinite carousel, docs/layout-formulas.md#carousel. Classic script: Quire.Carousel. */
(function (Q) {
  'use strict';
  function Carousel(viewport, count, centerIndex) {
    this.W = viewport.width; this.H = viewport.height; this.count = count;
    this.sideOffset = 16; this.spacing = 8; this.insetLeft = 16;
    this.iw = this.W - 2 * this.sideOffset;                 /* item width iw = W − 32 */
    this.step = this.iw + this.spacing;
    this.centerIndex = centerIndex || 0;
  }
  Carousel.prototype.wrap = function (i) { return ((i % this.count) + this.count) % this.count; };
  /* slot frames: left (0,0,iw,H), centre (iw+8,0,iw,H), right (2iw+16,0,iw,H) */
  Carousel.prototype.slotX = function (slot) { return slot * this.step; };
  /* rest offset o_x = iw − 8 (centre slot at screen x = 16) */
  Carousel.prototype.restOffset = function () { return this.step + this.iw / 2 - this.W / 2; };
  Carousel.prototype.forwardThreshold = function () {
    return 3 * this.iw + 2 * this.spacing - this.iw / 3 - this.W - this.insetLeft;
  };
  /* Recentring until stable: past a threshold the offset moves one slot and c steps by one. */
  Carousel.prototype.recentre = function (ox) {
    var steps = 0, f = this.forwardThreshold(), b = this.iw / 3;
    if (ox > f) steps = Math.ceil((ox - f) / this.step);
    else if (ox < b) steps = -Math.ceil((b - ox) / this.step);
    if (steps !== 0 && isFinite(steps)) { this.centerIndex = this.wrap(this.centerIndex + steps % this.count); ox -= steps * this.step; }
    return ox;
  };
  /* data indices [c−1, c, c+1] wrapped; z order left < centre < right */
  Carousel.prototype.items = function (ox) {
    if (this.count === 0) return [];
    var out = [];
    for (var slot = 0; slot < 3; slot++) {
      var x = this.slotX(slot);
      if (x <= ox + this.W && x + this.iw >= ox)
        out.push({ index: this.wrap(this.centerIndex + slot - 1), slot: slot, zIndex: slot,
          frame: { x: x, y: 0, width: this.iw, height: this.H } });
    }
    return out;
  };
  /* Snapping with g = iw/3: right slot, left slot or centre, by the proposal t. */
  Carousel.prototype.targetOffset = function (t) {
    var g = this.iw / 3, slot = 1;
    if (this.slotX(2) + g < t + this.W) slot = 2;
    else if (this.slotX(0) + this.iw - g > t) slot = 0;
    return this.slotX(slot) + this.iw / 2 - this.W / 2;
  };
  Q.Carousel = Carousel;
})(window.Quire = window.Quire || {});

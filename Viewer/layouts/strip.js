/* Quire viewer: the thumbnail strip, docs/layout-formulas.md#strip (ThumbnailLayout), as QuireLayout's
 * Layouts.Strip computes it (only the cells around the focus line and the updated cells have
 * a state, so a frame costs the same for 5 or 5,000,000 pages). Classic script: Quire.Strip. */
(function (Q) {
  'use strict';
  /* viewport {width W, height H (the strip height)}; ratios a_i (null: defaultAspectRatio). */
  function Strip(viewport, ratios, params) {
    params = params || {};
    this.W = viewport.width; this.H = viewport.height; this.ratios = ratios;
    this.defaultAspectRatio = params.defaultAspectRatio || 0.5;
    this.d = params.spacing !== undefined ? params.spacing : 4;                 /* distanceBetween */
    this.focusedSpacing = params.focusedSpacing !== undefined ? params.focusedSpacing : 20;
    /* Quire's robust delete: the deleted cell's push closes w + d, not w (docs/layout-formulas.md#where-quire-differs-from-the-originals). */
    this.deletionClosesSpacing = params.deletionClosesSpacing !== undefined ? params.deletionClosesSpacing : true;
    this.expandingRate = 1;
    this.updates = {};                    /* index -> [['expand', r] | ['collapse', r] | ['delete', r, dir]] */
    this.w = this.H * this.defaultAspectRatio;              /* item size w = H·0.5 */
    this.pitch = this.w + this.d;                            /* w + d */
    this.farInset = (this.W - this.w - this.d) / 2;          /* (W − w − d)/2 */
    this.count = this.H > 0 && this.pitch > 0 ? ratios.length : 0;
  }
  Strip.prototype.aspectRatio = function (i) {
    var r = this.ratios[i];
    return (r > 0 && isFinite(r)) ? r : this.defaultAspectRatio;
  };
  /* default centre C_i = (i(w+d) + w/2, h/2) */
  Strip.prototype.centerX = function (i) { return i * this.pitch + this.w / 2; };
  Strip.prototype.contentWidth = function () { return this.count * this.pitch; };
  /* Per-cell state: e = (1 − D/(w+d))·expandingRate with D = |L_i − X|, then the updates. */
  Strip.prototype.state = function (i, ox) {
    var st = { e: 0, k: 0, del: 0, dir: 'left' };
    var x = ox + this.farInset;
    var left = (i * this.pitch + this.w / 2) - this.w / 2;
    var raw = Math.abs(left - x);
    var D = raw < this.pitch * 1e-9 ? 0 : raw;
    if (D < this.pitch) st.e = (1 - D / this.pitch) * this.expandingRate;
    var list = this.updates[i] || [];
    for (var j = 0; j < list.length; j++) {
      var u = list[j];
      if (u[0] === 'expand') st.e = u[1];
      else if (u[0] === 'collapse') st.k = u[1];
      else if (u[0] === 'delete') { st.del = u[1]; st.dir = u[2]; }
    }
    return st;
  };
  /* additionalWidth A = (h·a − w)·e; sym = (A + 20e)/2·(1 − δ); leftShift/rightShift by dir. */
  Strip.prototype.shifts = function (i, st) {
    var A = (this.H * this.aspectRatio(i) - this.w) * st.e;
    var sym = (A + this.focusedSpacing * st.e) / 2 * (1 - st.del);
    var gap = this.deletionClosesSpacing ? this.pitch : this.w;
    var towardLeft = sym, towardRight = sym - gap * st.del;
    return st.dir === 'left' ? { left: towardRight, right: towardLeft, A: A } : { left: towardLeft, right: towardRight, A: A };
  };
  Strip.prototype.isDefault = function (st) { return st.e === 0 && st.k === 0 && st.del === 0 && st.dir === 'left'; };
  /* The cells with a state: the ones around the focus line and the updated ones, by index. */
  Strip.prototype.activeCells = function (ox) {
    var set = {}, self = this;
    Object.keys(this.updates).forEach(function (k) { var i = +k; if (i >= 0 && i < self.count) set[i] = true; });
    var x = (ox + this.farInset) / this.pitch;
    if (isFinite(x) && x > -2 && x < this.count + 1) {
      var b = Math.floor(x);
      for (var i = b - 1; i <= b + 1; i++) if (i >= 0 && i < this.count) set[i] = true;
    }
    return Object.keys(set).map(Number).sort(function (a, b) { return a - b; }).map(function (i) {
      var st = self.state(i, ox);
      if (self.isDefault(st)) return null;
      var s = self.shifts(i, st);
      return { index: i, left: s.left, right: s.right };
    }).filter(Boolean);
  };
  /* Item i: size (ceil((w + A)(1 − k)), h(1 − k)), alpha 1 − k, centre C_i,
   * translation t_i = Σ_{j>i} −leftShift_j + Σ_{j<i} rightShift_j (summed in index order). */
  Strip.prototype.item = function (i, ox, active) {
    active = active || this.activeCells(ox);
    var st = this.state(i, ox), own = this.shifts(i, st), t = 0;
    for (var j = 0; j < active.length; j++) {
      var c = active[j];
      if (c.index !== i) t += c.index > i ? -c.left : c.right;
    }
    var width = Math.max(0, Math.ceil((this.w + own.A) * (1 - st.k)));
    var height = Math.max(0, this.H * (1 - st.k));
    var cx = this.centerX(i);
    return { index: i, state: st, tx: t, alpha: Math.min(1, Math.max(0, 1 - st.k)),
      frame: { x: cx + t - width / 2, y: this.H / 2 - height / 2, width: width, height: height } };
  };
  /* The items that meet the screen [ox, ox + W] (closed), by index. */
  Strip.prototype.items = function (ox) {
    if (this.count === 0) return [];
    var active = this.activeCells(ox), reach = this.W;
    for (var j = 0; j < active.length; j++) reach += Math.abs(active[j].left) + Math.abs(active[j].right);
    var lo = Math.max(0, Math.floor((ox - reach) / this.pitch) - 1);
    var hi = Math.min(this.count - 1, Math.ceil((ox + this.W + reach) / this.pitch) + 1);
    var out = [];
    for (var i = lo; i <= hi; i++) {
      var it = this.item(i, ox, active), f = it.frame;
      if (f.x <= ox + this.W && f.x + f.width >= ox) out.push(it);
    }
    return out;
  };
  /* nearestIndex = clamp(floor(relativeOffset·N + 0.5), 0, N−1) */
  Strip.prototype.nearestIndex = function (ox) {
    if (this.count === 0) return null;
    var n = this.count, rel = (ox + this.farInset) / (n * this.pitch);
    return Math.min(n - 1, Math.max(0, Math.floor(rel * n + 0.5)));
  };
  /* offset for an index: N(w+d)·(idx/N) − farInset */
  Strip.prototype.offsetForIndex = function (idx) {
    if (this.count === 0) return 0;
    var i = Math.min(this.count - 1, Math.max(0, idx)), n = this.count;
    return n * this.pitch * (i / n) - this.farInset;
  };
  /* scroll range [−farInset, N(w+d) − W + farInset] */
  Strip.prototype.offsetRange = function () {
    var lo = -this.farInset, hi = this.count * this.pitch - this.W + this.farInset;
    return [lo, Math.max(lo, hi)];
  };
  /* Snapping: nearer of the cells around q = (p + inset)/(w+d), ties right; proposal clamped. */
  Strip.prototype.targetOffset = function (p) {
    if (this.count === 0) return -this.farInset;
    var r = this.offsetRange();
    p = Math.min(r[1], Math.max(r[0], p));
    var q = (p + this.farInset) / this.pitch;
    var l = Math.min(this.count - 1, Math.max(0, Math.floor(q)));
    var rr = Math.min(this.count - 1, Math.max(0, Math.ceil(q)));
    var xl = l * this.pitch - this.farInset, xr = rr * this.pitch - this.farInset;
    return Math.abs(xl - p) < Math.abs(xr - p) ? xl : xr;
  };
  Q.Strip = Strip;
})(window.Quire = window.Quire || {});

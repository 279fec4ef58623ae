// Zoom and pan on the battle map (issue 13, item 3) — by the SVG's viewBox, so the map keeps its place and size in
// the page (nothing can overflow): the buttons (− 100% + fit), Ctrl+wheel (or a touchpad's pinch) zooms about the
// pointer, the wheel or a drag pans once zoomed in, the keys + − 0 (keys.js) zoom in, out and back to the whole map.
// table.js redraws the map on every change and calls D20.mapView.apply(svg, w, h) each time: the view survives.
"use strict";
(() => {
  const MIN = 1;
  const MAX = 4;
  const STEP = 1.25;
  const V = { zoom: 1, x: 0, y: 0, w: 0, h: 0, svg: null };

  function clamp() {
    V.zoom = Math.min(MAX, Math.max(MIN, V.zoom));
    const vw = V.w / V.zoom;
    const vh = V.h / V.zoom;
    V.x = Math.min(Math.max(0, V.x), V.w - vw);
    V.y = Math.min(Math.max(0, V.y), V.h - vh);
  }

  function draw() {
    const svg = V.svg;
    if (!svg || !V.w) return;
    clamp();
    svg.setAttribute("viewBox", `${V.x} ${V.y} ${V.w / V.zoom} ${V.h / V.zoom}`);
    svg.dataset.zoom = V.zoom.toFixed(2);
    svg.classList.toggle("zoomed", V.zoom > 1);
    const level = document.querySelector('[data-testid="zoom-level"]');
    if (level) level.textContent = `${Math.round(V.zoom * 100)}%`;
    const out = document.querySelector('[data-testid="zoom-out"]');
    if (out) out.disabled = V.zoom <= MIN;
    const inn = document.querySelector('[data-testid="zoom-in"]');
    if (inn) inn.disabled = V.zoom >= MAX;
  }

  // The map point under a screen point (in the viewBox's units).
  function toMap(clientX, clientY) {
    const svg = V.svg;
    const ctm = svg && svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    return [p.x, p.y];
  }

  // Zoom by ``factor`` keeping the map point at (clientX, clientY) — or the centre of the view — where it is.
  function zoomBy(factor, clientX, clientY) {
    if (!V.w) return;
    const vw = V.w / V.zoom;
    const vh = V.h / V.zoom;
    const at = clientX === undefined ? null : toMap(clientX, clientY);
    const [px, py] = at || [V.x + vw / 2, V.y + vh / 2];
    const fx = (px - V.x) / vw;
    const fy = (py - V.y) / vh;
    V.zoom = Math.min(MAX, Math.max(MIN, V.zoom * factor));
    V.x = px - fx * (V.w / V.zoom);
    V.y = py - fy * (V.h / V.zoom);
    draw();
  }

  function reset() {
    V.zoom = 1;
    V.x = 0;
    V.y = 0;
    draw();
  }

  function panBy(dx, dy) {
    V.x += dx;
    V.y += dy;
    draw();
  }

  // Keep ``[x, y]`` (map units) in view: stepping with the keyboard follows the cursor.
  function show(x, y, margin) {
    if (V.zoom <= 1) return;
    const vw = V.w / V.zoom;
    const vh = V.h / V.zoom;
    if (x - margin < V.x) V.x = x - margin;
    else if (x + margin > V.x + vw) V.x = x + margin - vw;
    if (y - margin < V.y) V.y = y - margin;
    else if (y + margin > V.y + vh) V.y = y + margin - vh;
    draw();
  }

  function apply(svg, w, h) {
    const first = V.svg !== svg;
    if (V.w !== w || V.h !== h) {
      V.w = w;
      V.h = h;
    }
    V.svg = svg;
    if (first) listen(svg);
    draw();
  }

  // A drag that moved more than a few pixels pans and swallows the click that ends it.
  const drag = { on: false, moved: false, sx: 0, sy: 0, vx: 0, vy: 0 };
  function listen(svg) {
    svg.addEventListener("wheel", (e) => {
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        zoomBy(e.deltaY < 0 ? STEP : 1 / STEP, e.clientX, e.clientY);
      } else if (V.zoom > 1) {
        e.preventDefault();
        const scale = (V.w / V.zoom) / Math.max(1, svg.getBoundingClientRect().width);
        panBy((e.shiftKey ? e.deltaY : e.deltaX) * scale, (e.shiftKey ? 0 : e.deltaY) * scale);
      }
    }, { passive: false });
    svg.addEventListener("pointerdown", (e) => {
      if (e.button !== 0 || V.zoom <= 1) return;
      Object.assign(drag, { on: true, moved: false, sx: e.clientX, sy: e.clientY, vx: V.x, vy: V.y });
    });
    window.addEventListener("pointermove", (e) => {
      if (!drag.on) return;
      const dx = e.clientX - drag.sx;
      const dy = e.clientY - drag.sy;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      drag.moved = true;
      svg.classList.add("panning");
      const scale = (V.w / V.zoom) / Math.max(1, svg.getBoundingClientRect().width);
      V.x = drag.vx - dx * scale;
      V.y = drag.vy - dy * scale;
      draw();
    });
    window.addEventListener("pointerup", () => {
      drag.on = false;
      svg.classList.remove("panning");
    });
    svg.addEventListener("click", (e) => {
      if (drag.moved) {
        drag.moved = false;
        e.stopImmediatePropagation();
        e.preventDefault();
      }
    }, true);
  }

  function bindButtons() {
    const on = (id, fn) => {
      const b = document.querySelector(`[data-testid="${id}"]`);
      if (b) b.addEventListener("click", fn);
    };
    on("zoom-in", () => zoomBy(STEP));
    on("zoom-out", () => zoomBy(1 / STEP));
    on("zoom-reset", reset);
  }

  window.D20 = window.D20 || {};
  window.D20.mapView = { apply, zoomBy, reset, panBy, show, toMap, STEP, get zoom() { return V.zoom; } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", bindButtons);
  else bindButtons();
})();

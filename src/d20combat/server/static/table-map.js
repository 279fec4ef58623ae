// Drawing the battle map: terrain, elevation and light, tokens, the overlay of the current choice, the legend.
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const { CELL, MARGIN, GM, $, S, h, s, key, sq, pct, creature, sideColour, shortLabel, isDown, svg } = T;

  // ------------------------------------------------------------------ rendering: the map
  function terrainSets(map) {
    const set = (list) => new Set((list || []).map((p) => key(p[0], p[1])));
    const conceal = new Map((map.concealing || []).map((p) => [key(p[0], p[1]), p[2]]));
    return {
      walls: set(map.walls), low: set(map.low_walls), difficult: set(map.difficult), pits: set(map.pits),
      water: set(map.water), climb: set(map.climb), dim: set(map.dim), dark: set(map.dark), conceal,
    };
  }

  function terrainNames(t, k) {
    const out = [];
    if (t.walls.has(k)) out.push("wall");
    if (t.low.has(k)) out.push("low wall");
    if (t.conceal.has(k)) out.push(`${t.difficult.has(k) ? "bushes" : "fog"} (${t.conceal.get(k)}% concealment)`);
    else if (t.difficult.has(k)) out.push("difficult terrain");
    if (t.pits.has(k)) out.push("pit");
    if (t.water.has(k)) out.push("water");
    if (t.climb.has(k)) out.push("climbing surface");
    if (t.dark.has(k)) out.push("darkness");
    else if (t.dim.has(k)) out.push("dim light");
    return out;
  }

  function defs(root) {
    const d = s("defs", {}, root);
    const pattern = (id, size, draw, bg) => {
      const p = s("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse" }, d);
      if (bg) s("rect", { width: size, height: size, fill: bg }, p);
      draw(p);
    };
    pattern("pat-difficult", 8, (p) => s("path", { d: "M0,8 L8,0", stroke: "#8b7a4a", "stroke-width": 1.6 }, p),
      "#e3d6b0");
    pattern("pat-bush", 17, (p) => {
      s("circle", { cx: 4.5, cy: 4.5, r: 4, fill: "#3f7d35" }, p);
      s("circle", { cx: 12.5, cy: 12.5, r: 4, fill: "#3f7d35" }, p);
      s("circle", { cx: 12.5, cy: 3.5, r: 2.6, fill: "#5c9b45" }, p);
    }, "#8fbf6e");
    pattern("pat-fog", 17, (p) => {
      s("path", { d: "M1,5 q3,-3 6,0 t6,0 M4,13 q3,-3 6,0 t6,0", stroke: "#7f8fa3", "stroke-width": 1.4,
        fill: "none" }, p);
    }, "#d5dde6");
    pattern("pat-water", 12, (p) => {
      s("path", { d: "M0,6 q3,-3 6,0 t6,0", stroke: "#d7e9ff", "stroke-width": 1.3, fill: "none" }, p);
    }, "#4c84c9");
    pattern("pat-low", 10, (p) => {
      s("rect", { x: 0, y: 0, width: 10, height: 5, fill: "#a98b63", stroke: "#6f5a3c", "stroke-width": 0.8 }, p);
      s("rect", { x: -5, y: 5, width: 10, height: 5, fill: "#b89a70", stroke: "#6f5a3c", "stroke-width": 0.8 }, p);
      s("rect", { x: 5, y: 5, width: 10, height: 5, fill: "#b89a70", stroke: "#6f5a3c", "stroke-width": 0.8 }, p);
    });
    pattern("pat-climb", 12, (p) => {
      s("path", { d: "M1,9 L6,3 L11,9", stroke: "#6b4f2a", "stroke-width": 1.6, fill: "none" }, p);
    }, "#cdb38a");
    const glow = s("filter", { id: "glow", x: "-50%", y: "-50%", width: "200%", height: "200%" }, d);
    s("feGaussianBlur", { stdDeviation: 2.5 }, glow);
  }

  let overlayLayer = null;

  function renderMap() {
    const st = S.state;
    const map = st.map;
    const W = map.width * CELL;
    const H = map.height * CELL;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${W + MARGIN} ${H + MARGIN}`);
    svg.setAttribute("width", W + MARGIN);
    svg.setAttribute("height", H + MARGIN);
    window.D20.mapView.apply(svg, W + MARGIN, H + MARGIN);
    defs(svg);
    for (let c = 0; c < map.width; c++) {
      s("text", { x: MARGIN + c * CELL + CELL / 2, y: 12, class: "axis", text: c }, svg);
    }
    for (let r = 0; r < map.height; r++) {
      s("text", { x: 9, y: MARGIN + r * CELL + CELL / 2 + 4, class: "axis", text: r }, svg);
    }
    const g = s("g", { transform: `translate(${MARGIN},${MARGIN})` }, svg);
    const t = terrainSets(map);
    const terrain = s("g", { class: "terrain", "data-testid": "terrain" }, g);
    s("rect", { x: 0, y: 0, width: W, height: H, class: "floor" }, terrain);
    const cell = (k, attrs) => {
      const [c, r] = k.split(",").map(Number);
      return s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, ...attrs }, terrain);
    };
    for (const k of t.water) cell(k, { fill: "url(#pat-water)", "data-terrain": "water" });
    for (const k of t.difficult) if (!t.conceal.has(k)) cell(k, { fill: "url(#pat-difficult)", "data-terrain": "difficult" });
    for (const k of t.climb) cell(k, { fill: "url(#pat-climb)", "data-terrain": "climb" });
    for (const [k, p] of t.conceal) {
      const bush = t.difficult.has(k);
      cell(k, { fill: bush ? "url(#pat-bush)" : "url(#pat-fog)", "data-terrain": bush ? "bushes" : "fog",
        opacity: bush ? 1 : 0.9 });
      const [c, r] = k.split(",").map(Number);
      s("text", { x: c * CELL + CELL - 2, y: r * CELL + 9, class: "pct", text: `${p}%` }, terrain);
    }
    for (const k of t.pits) {
      const [c, r] = k.split(",").map(Number);
      s("circle", { cx: c * CELL + CELL / 2, cy: r * CELL + CELL / 2, r: CELL * 0.4, fill: "#17130f",
        stroke: "#7a5c33", "stroke-width": 3, "data-terrain": "pit" }, terrain);
    }
    T.ep.drawTerrain(terrain, map);
    for (const k of t.low) cell(k, { fill: "url(#pat-low)", "data-terrain": "low-wall" });
    for (const k of t.walls) cell(k, { class: "wall", "data-terrain": "wall" });
    for (const [c, r, ft] of map.elevation || []) {
      s("rect", { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2, class: "elev",
        "data-terrain": "elevation", "data-height": ft, testid: `elev-${c}-${r}` }, terrain);
      s("text", { x: c * CELL + 3, y: r * CELL + CELL - 4, class: "elev-text", text: `▲${ft}` }, terrain);
    }
    for (const k of t.dim) if (!t.dark.has(k)) cell(k, { class: "dim", "data-terrain": "dim" });
    for (const k of t.dark) cell(k, { class: "dark", "data-terrain": "dark" });
    const clip = s("clipPath", { id: "map-clip" }, svg);
    s("rect", { x: 0, y: 0, width: W, height: H }, clip);
    const lights = s("g", { "clip-path": "url(#map-clip)" }, terrain);
    for (const [c, r, bright, dim] of map.lights || []) {
      // a torch: bright light within its first radius, dim light as far again (PFB-CONC-16)
      const cx = (c + 0.5) * CELL;
      const cy = (r + 0.5) * CELL;
      s("circle", { cx, cy, r: ((bright + dim) / 5 + 0.5) * CELL, class: "light-dim" }, lights);
      s("circle", { cx, cy, r: (bright / 5 + 0.5) * CELL, class: "light-bright" }, lights);
      const torch = s("g", { "data-terrain": "torch", testid: `light-${c}-${r}`, "data-bright": bright,
        "data-dim": dim }, terrain);
      s("path", { d: `M${cx},${cy - 8} q6,7 0,12 q-6,-5 0,-12 z`, class: "torch" }, torch);
    }
    let grid = "";
    for (let c = 0; c <= map.width; c++) grid += `M${c * CELL},0 V${H} `;
    for (let r = 0; r <= map.height; r++) grid += `M0,${r * CELL} H${W} `;
    s("path", { d: grid, class: "grid" }, g);

    overlayLayer = s("g", { class: "overlay", "data-testid": "overlay" }, g);

    const hits = s("g", { class: "hits" }, g);
    for (let r = 0; r < map.height; r++) {
      for (let c = 0; c < map.width; c++) {
        const rect = s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, class: "sq",
          "data-c": c, "data-r": r, testid: `sq-${c}-${r}` }, hits);
        const names = [...terrainNames(t, key(c, r)), ...T.ep.terrainNames(map, c, r)];
        const height = (map.elevation || []).find((e) => e[0] === c && e[1] === r);
        if (height) names.push(`raised ${height[2]} ft`);
        if ((map.lights || []).some((l) => l[0] === c && l[1] === r)) names.push("torch");
        s("title", { text: `(${c},${r})${names.length ? ` ${names.join(", ")}` : ""}` }, rect);
      }
    }
    renderTokens(s("g", { class: "tokens" }, g));
    renderOverlay();
  }

  function renderTokens(layer) {
    const st = S.state;
    const order = st.combatants.slice().sort((a, b) => Number(isDown(b)) - Number(isDown(a)));
    // creatures sharing a square (a standing one over a downed one, two downed ones) are drawn side by side
    const sharing = new Map();
    for (const c of order) {
      if (!c.position) continue;
      const k = `${key(c.position[0], c.position[1])}/${c.size || 1}`;
      if (!sharing.has(k)) sharing.set(k, []);
      sharing.get(k).push(c.id);
    }
    for (const c of order) {
      if (!c.position) continue;
      const size = c.size || 1;
      const group = sharing.get(`${key(c.position[0], c.position[1])}/${size}`);
      const n = group.length;
      const i = group.indexOf(c.id);
      // one alone fills its space; two or more share it in a grid two wide (each slot a smaller token)
      const side = size * CELL;
      const cols = n === 1 ? 1 : 2;
      const rows = Math.ceil(n / cols);
      const slot = side / Math.max(cols, rows);
      const cx = c.position[0] * CELL + (side - cols * slot) / 2 + ((i % cols) + 0.5) * slot;
      const cy = c.position[1] * CELL + (side - rows * slot) / 2 + (Math.floor(i / cols) + 0.5) * slot;
      const rad = slot * 0.42;
      const hidden = c.conditions.includes("hidden") || c.conditions.includes("invisible");
      const classes = ["token", `status-${c.status}`];
      if (c.id === st.active) classes.push("active");
      if (hidden) classes.push("hidden-creature");
      const sel = S.selected;
      if (sel && ((sel.type === "mover" && sel.id === c.id) || (sel.type === "target" && sel.target === c.id))) {
        classes.push("selected");
      }
      const g = s("g", { class: classes.join(" "), "data-id": c.id, testid: `token-${c.id}`,
        "data-status": c.status, "data-position": `${c.position[0]},${c.position[1]}`,
        "data-shared": n > 1 ? n : null }, layer);
      const tip = [`${c.name} (${c.id}, ${c.side})`, c.hp !== null ? `hp ${c.hp}/${c.max_hp}` : null,
        c.status, ...(c.labels || c.conditions)].filter(Boolean).join(" · ");
      s("title", { text: tip }, g);
      if (c.id === st.active) {
        s("circle", { cx, cy, r: rad + (n === 1 ? 5 : 2.5), class: "active-ring", filter: "url(#glow)" }, g);
        s("circle", { cx, cy, r: rad + (n === 1 ? 3.5 : 1.5), class: "active-ring-solid" }, g);
      }
      s("circle", { cx, cy, r: rad, fill: sideColour(c.side), class: "body" }, g);
      s("text", { x: cx, y: cy + 4 * (n === 1 ? size : 0.6), class: "label",
        "font-size": n === 1 ? 11 * Math.min(size, 2) : 8, text: shortLabel(c) }, g);
      if (c.hp !== null && c.max_hp) {
        const w = rad * 1.6;
        const frac = Math.max(0, Math.min(1, c.hp / c.max_hp));
        const y = cy + rad - 3;
        s("rect", { x: cx - w / 2, y, width: w, height: 4, class: "hpbar-bg" }, g);
        s("rect", { x: cx - w / 2, y, width: w * frac, height: 4,
          class: frac > 0.5 ? "hpbar ok" : frac > 0 ? "hpbar low" : "hpbar out" }, g);
      }
      if (c.status === "dead") {
        s("path", { d: `M${cx - rad * 0.6},${cy - rad * 0.6} L${cx + rad * 0.6},${cy + rad * 0.6} `
          + `M${cx + rad * 0.6},${cy - rad * 0.6} L${cx - rad * 0.6},${cy + rad * 0.6}`, class: "dead-x" }, g);
      } else if (c.status === "dying") {
        s("circle", { cx, cy, r: rad + 1.5, class: "dying-ring" }, g);
        s("text", { x: cx + rad * 0.75, y: cy - rad * 0.5, class: "status-mark", text: "✚" }, g);
      } else if (isDown(c)) {
        s("text", { x: cx + rad * 0.75, y: cy - rad * 0.5, class: "status-mark", text: "z" }, g);
      }
    }
  }

  function centre(p, size = 1) {
    return [(p[0] + size / 2) * CELL, (p[1] + size / 2) * CELL];
  }

  function renderOverlay() {
    if (!overlayLayer) return;
    overlayLayer.replaceChildren();
    const sel = S.selected;
    if (sel && sel.type === "mover" && S.moves) {
      for (const q of S.moves.values()) {
        const [c, r] = q.to;
        const provokes = q.provokes && q.provokes.length > 0;
        s("rect", { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2,
          class: provokes ? "reach provokes" : "reach", testid: `reach-${c}-${r}`,
          "data-cost": q.cost_ft }, overlayLayer);
        s("text", { x: c * CELL + CELL - 3, y: r * CELL + CELL - 4, class: "cost", text: q.cost_ft }, overlayLayer);
        if (provokes) s("text", { x: c * CELL + 4, y: r * CELL + 12, class: "provoke-mark", text: "!" }, overlayLayer);
      }
    }
    if (sel && sel.type === "mover") {
      for (const st of T.stepOptions()) {
        const [c, r] = st.to;
        s("rect", { x: c * CELL + 4, y: r * CELL + 4, width: CELL - 8, height: CELL - 8, class: "step-sq",
          testid: `step-${c}-${r}` }, overlayLayer);
      }
      S.via.forEach((p, i) => {
        const [x, y] = centre(p);
        s("circle", { cx: x, cy: y, r: 7, class: "waypoint", testid: `waypoint-${i + 1}`,
          "data-square": key(p[0], p[1]) }, overlayLayer);
        s("text", { x, y: y + 3, class: "waypoint-text", text: i + 1 }, overlayLayer);
      });
      if (S.cursor) {
        s("rect", { x: S.cursor[0] * CELL + 2, y: S.cursor[1] * CELL + 2, width: CELL - 4, height: CELL - 4,
          class: "cursor", testid: "cursor", "data-square": key(S.cursor[0], S.cursor[1]) }, overlayLayer);
      }
    }
    if (sel && sel.type === "mover" && S.move) {
      const { to, data, locked } = S.move;
      const mover = creature(sel.id);
      const size = (mover && mover.size) || 1;
      s("rect", { x: to[0] * CELL, y: to[1] * CELL, width: CELL * size, height: CELL * size,
        class: data.legal ? (locked ? "dest locked" : "dest") : "dest illegal" }, overlayLayer);
      if (data.path && data.path.length && mover) {
        const pts = [mover.position, ...data.path].map((p) => centre(p, size).join(",")).join(" ");
        s("polyline", { points: pts, class: "path", testid: "path" }, overlayLayer);
        for (const p of data.path) {
          const [x, y] = centre(p, size);
          s("circle", { cx: x, cy: y, r: 3, class: "path-dot" }, overlayLayer);
        }
      }
      for (const pr of data.provokes || []) {
        const by = creature(pr.by);
        if (by && by.position) {
          const [x, y] = centre(by.position, by.size || 1);
          s("circle", { cx: x, cy: y, r: (by.size || 1) * CELL * 0.5, class: "provoker" }, overlayLayer);
        }
        if (pr.square) {
          s("rect", { x: pr.square[0] * CELL + 3, y: pr.square[1] * CELL + 3, width: CELL - 6, height: CELL - 6,
            class: "provoke-square" }, overlayLayer);
        }
      }
    }
    if (sel && sel.type === "target") {
      const a = creature(sel.attacker);
      const t = creature(sel.target);
      if (a && t && a.position && t.position) {
        const [x1, y1] = centre(a.position, a.size || 1);
        const [x2, y2] = centre(t.position, t.size || 1);
        const ok = !S.attack || S.attack.legal;
        s("line", { x1, y1, x2, y2, class: ok ? "aim" : "aim illegal" }, overlayLayer);
        s("circle", { cx: x2, cy: y2, r: (t.size || 1) * CELL * 0.5, class: "target-ring" }, overlayLayer);
      }
    }
    T.ep.drawScatter(overlayLayer);
  }

  function renderLegend() {
    const items = [
      ["wall", "swatch wall"], ["low wall", "swatch low"], ["difficult", "swatch difficult"],
      ["bushes (conceal)", "swatch bush"], ["fog (conceal)", "swatch fog"], ["pit", "swatch pit"],
      ["water", "swatch water"], ["climb", "swatch climb"], ["dim light", "swatch dim"], ["darkness", "swatch dark"],
    ];
    const legend = $("legend");
    legend.replaceChildren(...items.map(([label, cls]) => h("span", { class: "legend-item" },
      h("span", { class: cls }), label)));
    legend.append(h("span", { class: "legend-item" }, h("span", { class: "swatch elev" }), "raised ground ▲ft"),
      h("span", { class: "legend-item", testid: "legend-torch" }, h("span", { class: "swatch torch" }),
        "torch: bright light, then dim (dashed rings)"));
    if (GM) {
      legend.append(h("span", { class: "legend-item" }, h("span", { class: "swatch reach" }), "reachable (ft)"),
        h("span", { class: "legend-item" }, h("span", { class: "swatch provokes" }), "! provokes"),
        h("span", { class: "legend-item" }, h("span", { class: "swatch step" }), "5-ft step"),
        h("span", { class: "legend-item" }, h("span", { class: "swatch waypoint" }), "waypoint"));
    }
  }

  Object.assign(T, { terrainSets, terrainNames, defs, renderMap, renderTokens, centre, renderOverlay, renderLegend });
})();

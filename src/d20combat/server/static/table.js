// The game master's table (/table/{id}) and the players' screen (/player/{player_id}).
// Uses only the HTTP API of docs/api.md; every write sends the version of the last state seen. The GM's page
// is authorized by the key's cookie (same-origin fetch sends it); the players' page reads /api/play/… only.
"use strict";
(() => {
  const CELL = 34;
  const MARGIN = 18;
  const SVGNS = "http://www.w3.org/2000/svg";
  const parts = location.pathname.split("/").filter(Boolean);
  const VIEW = parts[0] === "player" ? "player" : "gm";
  const GM = VIEW === "gm";
  const ID = decodeURIComponent(parts[1] || "");
  const API = GM ? `/api/encounters/${encodeURIComponent(ID)}` : `/api/play/${encodeURIComponent(ID)}`;
  const REFUSALS = new Set(["decline", "none", "no", "pass", "ignore"]);
  const PLAYER_COLOUR = "#2f6fd0";
  const OTHER_COLOURS = ["#c0392b", "#d68910", "#7d3c98", "#148f77", "#6e2c00"];
  const $ = (id) => document.getElementById(id);

  const S = {
    summary: null,
    state: null,
    decision: null,
    log: [],
    selected: null, // {type: "mover", id} | {type: "target", attacker, target, attack}
    moves: null, // Map "c,r" -> {to, cost_ft, path, provokes}
    move: null, // {to: [c, r], data, locked}
    attack: null, // the /preview/attack answer
    via: [], // waypoints [[c, r], …] the selected mover's path must pass, in order (shift+click or waypoint mode)
    waypointMode: false,
    cursor: null, // [c, r]: the square the arrow keys / hjkl have moved to
    busy: false,
  };

  // ------------------------------------------------------------------ helpers
  const { ApiError, api } = window.D20;

  function h(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "testid") e.dataset.testid = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : String(c));
    }
    return e;
  }

  function s(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "testid") e.setAttribute("data-testid", v);
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    if (parent) parent.append(e);
    return e;
  }

  const key = (c, r) => `${c},${r}`;
  const sq = (p) => `(${p[0]},${p[1]})`;
  const signed = (v) => (v >= 0 ? `+${v}` : `−${-v}`);
  const pct = (x) => `${(100 * x).toFixed(x > 0 && x < 0.01 ? 1 : 0)}%`;

  function creature(id) {
    return S.state ? S.state.combatants.find((c) => c.id === id) : undefined;
  }

  function nameOf(id) {
    const c = creature(id);
    if (!c) return id;
    // several creatures of one name ("goblin" ×3): their ids tell them apart, as in the log
    return S.state.combatants.some((o) => o.id !== c.id && o.name === c.name) ? c.id : c.name;
  }

  function playersSide() {
    if (S.summary && S.summary.players) return S.summary.players;
    const first = S.state && S.state.combatants[0];
    return first ? first.side : null;
  }

  function sideColour(side) {
    if (side === playersSide()) return PLAYER_COLOUR;
    const others = [];
    for (const c of S.state.combatants) {
      if (c.side !== playersSide() && !others.includes(c.side)) others.push(c.side);
    }
    return OTHER_COLOURS[Math.max(0, others.indexOf(side)) % OTHER_COLOURS.length];
  }

  function shortLabel(c) {
    const base = (c.name || c.id).replace(/[^A-Za-z0-9]/g, "");
    const m = /-(\d+)$/.exec(c.id);
    const head = base.slice(0, 1).toUpperCase() + base.slice(1, 2).toLowerCase();
    return m ? `${head.slice(0, 1)}${m[1]}` : head;
  }

  function isDown(c) {
    return ["dying", "dead", "unconscious", "stable", "disabled"].includes(c.status);
  }

  function myTurn() {
    const st = S.state;
    return GM && st && !st.ended && !st.pending && st.active;
  }

  // ------------------------------------------------------------------ errors and banners
  function showError(err) {
    const bar = $("error");
    if (!err) {
      bar.hidden = true;
      return;
    }
    $("error-text").textContent = err.message || String(err);
    bar.hidden = false;
  }

  $("error-close").addEventListener("click", () => showError(null));

  async function guard(fn) {
    if (S.busy) return;
    S.busy = true;
    document.body.classList.add("busy");
    try {
      showError(null);
      await fn();
    } catch (err) {
      showError(err);
      if (err instanceof ApiError && err.status === 409) await refresh().catch(() => {});
    } finally {
      S.busy = false;
      document.body.classList.remove("busy");
    }
  }

  // ------------------------------------------------------------------ loading
  let refreshSeq = 0;
  async function refresh() {
    const seq = ++refreshSeq;
    const state = await api("GET", GM ? `${API}/state?view=gm` : `${API}/state`);
    let decision = null;
    let log;
    if (GM) {
      [decision, log] = await Promise.all([api("GET", `${API}/decision`), api("GET", `${API}/log`)]);
    } else {
      log = await api("GET", `${API}/log`);
    }
    if (seq !== refreshSeq) return;
    await setState(state, decision, log);
  }

  async function setState(state, decision, log) {
    const changed = !S.state || S.state.version !== state.version;
    S.state = state;
    S.decision = decision;
    S.log = log || [];
    if (changed) {
      S.move = null;
      S.via = [];
      S.cursor = null;
      const sel = S.selected;
      if (sel && !(myTurn() && state.active === (sel.type === "mover" ? sel.id : sel.attacker)
          && (sel.type === "mover" || creature(sel.target)))) {
        S.selected = null;
        S.moves = null;
        S.attack = null;
      }
    }
    render();
    if (changed && S.selected) {
      if (S.selected.type === "mover") await loadMoves(S.selected.id).catch(showError);
      else await loadAttack().catch(showError);
    }
  }

  async function loadMoves(id) {
    const version = S.state.version;
    const data = await api("GET", `${API}/moves?combatant=${encodeURIComponent(id)}`);
    if (!S.selected || S.selected.type !== "mover" || S.selected.id !== id || S.state.version !== version) return;
    S.moves = new Map(data.squares.map((q) => [key(q.to[0], q.to[1]), q]));
    renderOverlay();
    renderHint();
  }

  async function loadAttack() {
    const sel = S.selected;
    if (!sel || sel.type !== "target") return;
    const version = S.state.version;
    const data = await api("POST", `${API}/preview/attack`,
      { attacker: sel.attacker, target: sel.target, attack: sel.attack || null });
    if (S.selected !== sel || S.state.version !== version) return;
    S.attack = data;
    S.charge = null;
    // A charge at this target, if one is offered: its end squares, each legal or not (issue 13)
    const offered = ((S.decision && S.decision.options) || []).some((o) => o.kind === "charge" && o.target === sel.target);
    S.charge = offered ? await api("POST", `${API}/preview/charge`, { attacker: sel.attacker, target: sel.target })
      : null;
    if (S.selected !== sel || S.state.version !== version) return;
    renderPreview();
    renderOverlay();
  }

  const moveCache = new Map();
  let hoverTimer = null;
  let movePreviewSeq = 0;
  async function loadMovePreview(to, locked) {
    const sel = S.selected;
    if (!sel || sel.type !== "mover") return;
    if (locked) clearTimeout(hoverTimer);
    else if (S.move && S.move.locked) return;
    const mine = ++movePreviewSeq; // keys pressed quickly: only the newest answer is shown
    const via = S.via.slice();
    const k = `${sel.id}@${S.state.version}:${key(to[0], to[1])}/${via.map((p) => key(p[0], p[1])).join(";")}`;
    let data = moveCache.get(k);
    if (!data) {
      data = await api("POST", `${API}/preview/move`, via.length ? { combatant: sel.id, to, via } : { combatant: sel.id, to });
      if (moveCache.size > 500) moveCache.clear();
      moveCache.set(k, data);
    }
    if (S.selected !== sel || mine !== movePreviewSeq) return;
    if (S.move && S.move.locked && !locked) return;
    S.move = { to, data, locked, via };
    renderOverlay();
    renderPreview();
  }

  // ------------------------------------------------------------------ writes
  async function afterWrite(result) {
    if (result && result.state) await setState(result.state, S.decision, S.log);
    await refresh();
  }

  async function act(action, dice) {
    const result = await api("POST", `${API}/actions`,
      { action, dice: dice || [], expected_version: S.state.version });
    await afterWrite(result);
  }

  async function react(answer, dice) {
    const result = await api("POST", `${API}/reactions`,
      { answer, dice: dice || [], expected_version: S.state.version });
    await afterWrite(result);
  }

  async function aiPlay(until) {
    const result = await api("POST", `${API}/ai`, { until, expected_version: S.state.version });
    await afterWrite(result);
  }

  async function undoRedo(which) {
    const result = await api("POST", `${API}/${which}`, { expected_version: S.state.version });
    await afterWrite(result);
  }

  // ------------------------------------------------------------------ the dice dialog
  // The engine names the dice, in its own order, one at a time (POST …/preview/dice): a miss rolls no damage,
  // a threat rolls a confirmation, off-guard's concealment d% comes after a hit. Each face typed asks it again.
  const dice = { send: null, probe: null, seq: 0 };

  function dieName(sides) { return sides === 100 ? "d%" : `d${sides}`; }

  function diceRow(i, die) {
    const input = h("input", { type: "number", inputmode: "numeric", step: 1, min: 1, max: die.sides,
      testid: `die-${i}`, "data-sides": die.sides, "data-purpose": die.purpose, placeholder: "auto",
      "aria-label": `${dieName(die.sides)} for ${die.purpose}`, value: die.face ?? null });
    input.addEventListener("change", () => probeDice().catch(diceError));
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && input.value.trim() !== "" && !input.dataset.done) {
        e.preventDefault();
        input.dataset.done = "1";
        probeDice().catch(diceError);
      }
    });
    return h("li", { testid: `die-row-${i}` }, h("b", {}, dieName(die.sides)), " = ", input,
      h("span", { class: "muted" }, ` ${die.purpose}`));
  }

  function diceError(ex) {
    const err = $("dice-error");
    err.textContent = ex ? (ex.message || String(ex)) : "";
    err.hidden = !ex;
  }

  async function probeDice() {
    const typed = typedDice(true);
    const mine = ++dice.seq;
    const r = await api("POST", `${API}/preview/dice`, { ...dice.probe, dice: typed });
    if (mine !== dice.seq) return;
    const rows = $("dice-rows");
    rows.replaceChildren(...r.typed.map((d, i) => diceRow(i, d)));
    let next = null;
    if (r.next) {
      next = diceRow(r.typed.length, r.next);
      rows.append(next);
    }
    $("dice-next").textContent = r.prompt
      ? `Then ${nameOf(r.prompt.reactor)} may react (${r.prompt.trigger}): the dice after that depend on the answer.`
      : (r.complete ? "Every die of this action is typed." : "");
    diceError(r.error ? new Error(r.error) : null);
    if (next) next.querySelector("input").focus();
  }

  function openDice({ title, what, probe, send }) {
    $("dice-title").textContent = title;
    $("dice-what").textContent = what || "";
    $("dice-rows").replaceChildren();
    $("dice-next").textContent = "";
    document.querySelector('input[name="dice-mode"][value="auto"]').checked = true;
    $("dice-typed").hidden = true;
    diceError(null);
    $("dice-go").disabled = false;
    $("dice-go").textContent = "Roll";
    dice.send = send;
    dice.probe = probe;
    $("dice").showModal();
  }

  for (const radio of document.querySelectorAll('input[name="dice-mode"]')) {
    radio.addEventListener("change", () => {
      const typed = document.querySelector('input[name="dice-mode"]:checked').value === "typed";
      $("dice-typed").hidden = !typed;
      $("dice-go").textContent = typed ? "Send the dice" : "Roll";
      if (typed) probeDice().catch(diceError);
    });
  }

  function typedDice(always) {
    if (!always && document.querySelector('input[name="dice-mode"]:checked').value !== "typed") return [];
    const out = [];
    let gap = null;
    for (const input of $("dice-rows").querySelectorAll("input")) {
      const sides = Number(input.dataset.sides);
      const face = input.value.trim();
      if (face === "") {
        gap = gap || dieName(sides);
      } else if (gap) {
        // typed dice are used in the order the engine asks for them: only the trailing ones may be left out
        throw new Error(`type the ${gap} above too, or leave every die after it empty: the server rolls `
          + "only the dice after the last typed one");
      } else {
        out.push(`d${sides}=${face}`);
      }
    }
    return out;
  }

  $("dice-cancel").addEventListener("click", () => $("dice").close());
  $("dice-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!dice.send || S.busy) return;
    const err = $("dice-error");
    err.hidden = true;
    $("dice-go").disabled = true;
    S.busy = true;
    try {
      const typed = typedDice();
      await dice.send(typed);
      $("dice").close();
      showError(null);
    } catch (ex) {
      err.textContent = ex.message || String(ex);
      err.hidden = false;
      if (ex instanceof ApiError && ex.status === 409) await refresh().catch(() => {});
    } finally {
      S.busy = false;
      $("dice-go").disabled = false;
    }
  });

  // ------------------------------------------------------------------ clicks
  function selectCreature(id) {
    if (!GM) return;
    const st = S.state;
    if (!st || st.ended) return;
    if (st.pending) {
      showError(new Error(`answer ${nameOf(st.pending.reactor)}'s reaction first`));
      return;
    }
    const actor = st.active;
    const c = creature(id);
    const a = creature(actor);
    if (!c || !a) return;
    S.move = null;
    if (id === actor) {
      if (S.selected && S.selected.type === "mover" && S.selected.id === id) {
        S.selected = null;
        S.moves = null;
      } else {
        S.selected = { type: "mover", id };
        S.moves = null;
        S.attack = null;
        loadMoves(id).catch(showError);
      }
    } else if (c.side !== a.side) {
      const attack = a.wielding && a.attacks.includes(a.wielding) ? a.wielding : null;
      S.selected = { type: "target", attacker: actor, target: id, attack };
      S.moves = null;
      S.attack = null;
      loadAttack().catch(showError);
    } else {
      showError(new Error(`it is ${nameOf(actor)}'s turn: click ${nameOf(actor)} to move, an enemy to attack`));
      return;
    }
    render();
  }

  // Selects the current actor as the mover if nothing (or something else) is selected: a click on the map, an
  // arrow key, is about where the creature whose turn it is goes.
  function ensureMover() {
    if (!myTurn()) return false;
    const sel = S.selected;
    if (sel && sel.type === "mover" && sel.id === S.state.active) return true;
    S.selected = { type: "mover", id: S.state.active };
    S.moves = null;
    S.attack = null;
    S.move = null;
    S.via = [];
    render();
    loadMoves(S.state.active).catch(showError);
    return true;
  }

  function squareClicked(c, r, shift) {
    if (!GM || !ensureMover()) return;
    S.cursor = [c, r];
    if (shift || S.waypointMode) {
      addWaypoint([c, r]);
      return;
    }
    loadMovePreview([c, r], true).catch(showError);
  }

  function addWaypoint(p) {
    const last = S.via[S.via.length - 1];
    if (last && last[0] === p[0] && last[1] === p[1]) S.via.pop(); // the same square again: take it back
    else S.via.push(p);
    if (S.move) loadMovePreview(S.move.to, true).catch(showError);
    else {
      renderOverlay();
      renderHint();
    }
  }

  function clearWaypoints() {
    S.via = [];
    if (S.move) loadMovePreview(S.move.to, true).catch(showError);
    else renderOverlay();
  }

  function squareHovered(c, r) {
    const sel = S.selected;
    if (!GM || !sel || sel.type !== "mover" || !S.moves) return;
    if (S.move && S.move.locked) return;
    clearTimeout(hoverTimer);
    if (!S.moves.has(key(c, r)) && !S.via.length) return;
    hoverTimer = setTimeout(() => loadMovePreview([c, r], false).catch(() => {}), 120);
  }

  const svg = $("map");
  function cellAt(e) {
    const at = window.D20.mapView.toMap(e.clientX, e.clientY);
    if (!at || !S.state) return null;
    const c = Math.floor((at[0] - MARGIN) / CELL);
    const r = Math.floor((at[1] - MARGIN) / CELL);
    return c >= 0 && r >= 0 && c < S.state.map.width && r < S.state.map.height ? [c, r] : null;
  }

  svg.addEventListener("click", (e) => {
    const token = e.target.closest("[data-id]");
    if (token) {
      // with the mover selected, a click on anyone but an enemy or the mover is about that square
      const sel = S.selected;
      const c = creature(token.dataset.id);
      const a = S.state && creature(S.state.active);
      const cell = cellAt(e);
      if (GM && sel && sel.type === "mover" && c && a && c.id !== a.id && (c.side === a.side || isDown(c)) && cell) {
        squareClicked(cell[0], cell[1], e.shiftKey);
        return;
      }
      selectCreature(token.dataset.id);
      return;
    }
    const cell = e.target.closest(".sq");
    if (cell) squareClicked(Number(cell.dataset.c), Number(cell.dataset.r), e.shiftKey);
  });
  svg.addEventListener("mouseover", (e) => {
    const cell = e.target.closest(".sq");
    if (cell) squareHovered(Number(cell.dataset.c), Number(cell.dataset.r));
  });

  $("end-turn").addEventListener("click", () => guard(() => act({ kind: "end_turn" })));
  $("ai-turn").addEventListener("click", () => guard(() => aiPlay("turn")));
  $("ai-monsters").addEventListener("click", () => guard(() => aiPlay("players")));
  $("undo").addEventListener("click", () => guard(() => undoRedo("undo")));
  $("redo").addEventListener("click", () => guard(() => undoRedo("redo")));
  $("waypoint-mode").addEventListener("click", () => {
    S.waypointMode = !S.waypointMode;
    $("waypoint-mode").setAttribute("aria-pressed", String(S.waypointMode));
    renderHint();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("dice").open && S.selected) {
      S.selected = null;
      S.moves = null;
      S.move = null;
      S.attack = null;
      S.via = [];
      S.cursor = null;
      render();
    }
  });

  // Keyboard stepping (keys.js documents it): arrows / h j k l, and the diagonals on Home PgUp End PgDn or the
  // number pad (7 9 1 3; 8 4 6 2 too), move a cursor one square for the current actor and preview the move there;
  // Enter confirms (keys.js); w adds the cursor's square as a waypoint.
  const STEPS = {
    ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1],
    h: [-1, 0], l: [1, 0], k: [0, -1], j: [0, 1],
    Home: [-1, -1], PageUp: [1, -1], End: [-1, 1], PageDown: [1, 1],
  };
  const PAD = { Numpad7: [-1, -1], Numpad8: [0, -1], Numpad9: [1, -1], Numpad4: [-1, 0], Numpad6: [1, 0],
    Numpad1: [-1, 1], Numpad2: [0, 1], Numpad3: [1, 1] };
  document.addEventListener("keydown", (e) => {
    if (!GM || e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    if (e.target instanceof Element && e.target.closest("input, textarea, select, [contenteditable]")) return;
    if (document.querySelector("dialog[open]")) return;
    const d = PAD[e.code] || STEPS[e.key];
    const waypoint = e.key === "w";
    if (!d && !waypoint) return;
    if (!myTurn()) return;
    e.preventDefault();
    ensureMover();
    const mover = creature(S.state.active);
    if (!mover || !mover.position) return;
    const from = S.cursor || (S.move && S.move.to) || mover.position;
    if (waypoint) {
      if (S.cursor) addWaypoint(S.cursor.slice());
      return;
    }
    const map = S.state.map;
    const to = [Math.min(map.width - 1, Math.max(0, from[0] + d[0])), Math.min(map.height - 1, Math.max(0, from[1] + d[1]))];
    S.cursor = to;
    window.D20.mapView.show(MARGIN + (to[0] + 0.5) * CELL, MARGIN + (to[1] + 0.5) * CELL, CELL * 1.5);
    if (to[0] === mover.position[0] && to[1] === mover.position[1] && !S.via.length) {
      S.move = null;
      renderOverlay();
      renderPreview();
      return;
    }
    loadMovePreview(to, true).catch(showError);
  });

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
        const names = terrainNames(t, key(c, r));
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
      const cols = n === 1 ? 1 : 2;
      const rows = Math.ceil(n / cols);
      const slot = (size * CELL) / Math.max(cols, rows);
      const cx = c.position[0] * CELL + (n === 1 ? size * CELL / 2 : (i % cols + 0.5) * slot + ((size * CELL) - cols * slot) / 2);
      const cy = c.position[1] * CELL + (n === 1 ? size * CELL / 2 : (Math.floor(i / cols) + 0.5) * slot + ((size * CELL) - rows * slot) / 2);
      const rad = n === 1 ? size * CELL * 0.42 : slot * 0.42;
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
        s("circle", { cx, cy, r: rad + 5, class: "active-ring", filter: "url(#glow)" }, g);
        s("circle", { cx, cy, r: rad + 3.5, class: "active-ring-solid" }, g);
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
      for (const st of stepOptions()) {
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
  }

  // ------------------------------------------------------------------ rendering: panels
  function render() {
    if (!S.state) return;
    renderHeader();
    renderMap();
    renderTracker();
    renderPrompt();
    renderLog();
    if (GM) {
      renderControls();
      renderPreview();
    }
  }

  function renderHeader() {
    const st = S.state;
    document.title = `${st.name} — ${GM ? "GM table" : "players"}`;
    $("title").textContent = st.name;
    $("view-badge").textContent = GM ? "GM" : "players' view";
    $("round").textContent = st.round;
    $("surprise").hidden = !st.surprise_round;
    $("active").textContent = st.active ? nameOf(st.active) : "–";
    $("version").textContent = st.version;
    const other = $("other-view");
    if (GM && S.summary && S.summary.player_id) {
      other.href = `/player/${encodeURIComponent(S.summary.player_id)}`;
      other.textContent = "players' view ↗";
      other.target = "_blank";
      other.title = `the players' link: ${location.origin}${other.getAttribute("href")}`;
      $("copy-players").onclick = () => {
        const url = `${location.origin}${other.getAttribute("href")}`;
        const done = () => { $("copy-players").textContent = "copied ✓"; };
        if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, () => window.prompt("the players' link", url));
        else window.prompt("the players' link", url);
      };
    } else {
      other.hidden = true;
    }
    const banner = $("banner");
    if (st.ended) {
      // The end reason already names the winner ("heroes win — every foe is down…"): say it once.
      const why = st.end_reason || (st.winner ? `${st.winner} win` : "");
      banner.textContent = `The encounter is over${why ? `: ${why}` : ""}.`;
      banner.hidden = false;
    } else {
      banner.hidden = true;
    }
  }

  function effectText(e, round) {
    const left = e.until_round - round;
    const when = left <= 0 ? "ends this round" : `${left} round${left === 1 ? "" : "s"} left`;
    return `${e.name} — until round ${e.until_round}, before ${nameOf(e.anchor)}'s turn (${when})`;
  }

  // The GM's word over the rules of sight: a revealed creature is on the players' screen whatever they see.
  function revealButton(id) {
    const on = (S.state.revealed || []).includes(id);
    return h("button", { type: "button", class: `small reveal${on ? " on" : ""}`, testid: `reveal-${id}`,
      title: on ? "revealed to the players: click to let the rules decide again"
        : "the players see it only if their side can (hidden, invisible, darkness): click to reveal it",
      onclick: (ev) => {
        ev.stopPropagation();
        api("POST", `${API}/reveal`, { combatant: id, revealed: !on }).then(() => refresh()).catch(showError);
      } }, on ? "revealed" : "reveal");
  }

  function renderTracker() {
    const st = S.state;
    const body = $("tracker");
    body.replaceChildren();
    const present = new Set(st.combatants.map((c) => c.id));
    const ids = st.order.filter((id) => present.has(id));
    for (const c of st.combatants) if (!ids.includes(c.id)) ids.push(c.id);
    for (const id of ids) {
      const c = creature(id);
      const active = id === st.active;
      const hp = c.hp === null || c.hp === undefined
        ? h("span", { class: "muted", title: "hidden from the players" }, "—")
        : h("span", {}, h("b", {}, c.hp), ` / ${c.max_hp}`,
          h("span", { class: "minibar" }, h("span", {
            class: c.hp / c.max_hp > 0.5 ? "ok" : c.hp > 0 ? "low" : "out",
            style: `width:${Math.max(0, Math.min(100, (100 * c.hp) / (c.max_hp || 1)))}%` })));
      const chips = [
        ...c.conditions.map((n, i) => h("span", { class: "chip cond", title: n, testid: `cond-${id}-${n}` },
          (c.labels && c.labels[i]) || n)),
        ...(c.effects || []).map((e) => h("span", { class: "chip effect", title: effectText(e, st.round),
          testid: `effect-${id}-${e.name}` }, `${e.name} ${Math.max(0, e.until_round - st.round)}r`,
        h("span", { class: "until" }, ` →r${e.until_round}`))),
      ];
      const tr = h("tr", { class: `${active ? "active " : ""}status-${c.status}${GM ? " clickable" : ""}`,
        testid: `init-${id}`, onclick: GM ? () => selectCreature(id) : null },
      h("td", { class: "marker" }, active ? "▶" : ""),
      h("td", { class: "who" }, h("span", { class: "dot", style: `background:${sideColour(c.side)}` }), ` ${c.name}`,
        c.name.toLowerCase() !== c.id.toLowerCase() ? h("span", { class: "muted small" }, ` ${c.id}`) : null,
        GM && c.side !== playersSide() ? revealButton(c.id) : null),
      h("td", { class: "num" }, c.initiative ?? "–"),
      h("td", { class: "hp-col", testid: `hp-${id}` }, hp),
      h("td", {}, h("span", { class: `badge status ${c.status}`, testid: `status-${id}` }, c.status)),
      h("td", { class: "chips" }, h("div", {}, chips)));
      body.append(tr);
    }
  }

  function renderPrompt() {
    const st = S.state;
    const panel = $("prompt");
    const p = st.pending || (S.decision && S.decision.prompt) || null;
    panel.replaceChildren();
    panel.hidden = !p;
    if (!p) return;
    const reactor = creature(p.reactor);
    if (!GM) {
      panel.append(h("h2", {}, "Reaction"),
        h("p", {}, reactor ? `${reactor.name} may react: ${p.trigger}` : "The GM is resolving a reaction…"));
      return;
    }
    const kind = p.kind.replace(/_/g, " ");
    panel.append(...[
      h("h2", {}, `Reaction — ${nameOf(p.reactor)}`),
      h("p", { class: "kind" }, kind),
      h("p", { testid: "reaction-trigger" }, p.trigger),
      p.detail ? h("pre", { class: "detail" }, p.detail) : null,
      h("div", { class: "buttons" }, p.options.map((opt) => h("button", {
        type: "button", testid: `reaction-${opt}`, class: REFUSALS.has(opt) ? "" : "primary",
        onclick: () => {
          if (REFUSALS.has(opt)) {
            guard(() => react(opt, []));
          } else {
            openDice({ title: `${nameOf(p.reactor)}: ${opt}`, what: p.trigger, probe: { answer: opt },
              send: (d) => react(opt, d) });
          }
        },
      }, opt)))].filter(Boolean));
  }

  function actionLabel(a) {
    switch (a.kind) {
      case "attack": return `Attack ${nameOf(a.target)}${a.attack ? ` with ${a.attack}` : ""}`;
      case "charge": return `Charge ${nameOf(a.target)}${a.to ? ` to ${sq(a.to)}` : ""}`;
      case "step": return `5-ft step to ${sq(a.to)}`;
      case "minimum_move": return `Minimum move to ${sq(a.to)}`;
      case "draw": return `Draw ${a.attack}`;
      case "reload": return `Reload ${a.attack}`;
      case "sheathe": return "Sheathe";
      case "shield": return `Shield: ${a.op}`;
      case "stand_up": return "Stand up";
      case "drop_prone": return "Drop prone";
      case "drop_item": return `Drop ${a.item}`;
      case "activity": return `${a.name}`;
      default: {
        const fields = Object.entries(a).filter(([k, v]) => k !== "kind" && v !== null && v !== undefined
          && !(Array.isArray(v) && v.length === 0))
          .map(([k, v]) => `${k}=${Array.isArray(v) ? sq(v) : v}`);
        return `${a.kind.replace(/_/g, " ")}${fields.length ? ` (${fields.join(", ")})` : ""}`;
      }
    }
  }

  function renderControls() {
    const st = S.state;
    const d = S.decision;
    const actor = creature(st.active);
    const turn = st.turn;
    const info = $("turn-info");
    info.replaceChildren();
    if (st.ended) {
      info.append("The encounter is over.");
    } else if (turn && actor) {
      const pools = (turn.pool_labels && turn.pool_labels.length ? turn.pool_labels
        : Object.entries(turn.pools || {}).map(([k, v]) => `${k} ${v}`)).join(" · ");
      info.append(h("b", {}, nameOf(actor.id)), ` — ${pools}`,
        turn.moved ? " · has moved" : "", turn.stepped ? " · took a 5-ft step" : "");
    }
    const canAct = myTurn();
    $("end-turn").disabled = !canAct;
    $("ai-turn").disabled = !canAct;
    $("ai-monsters").disabled = !canAct || (actor && actor.side === S.summary?.players);
    renderHint();
    const list = $("actions");
    list.replaceChildren();
    if (!d || !canAct) return;
    const options = d.options || [];
    const moves = options.filter((a) => a.kind === "move").length;
    if (moves) {
      list.append(h("li", { class: "muted" }, `move: ${moves} square${moves === 1 ? "" : "s"} — click ${nameOf(actor.id)}`));
    }
    options.forEach((a, i) => {
      if (a.kind === "move" || a.kind === "end_turn") return;
      const onclick = () => {
        if (a.kind === "attack") {
          S.selected = { type: "target", attacker: st.active, target: a.target, attack: a.attack || null };
          S.moves = null;
          S.move = null;
          S.attack = null;
          render();
          loadAttack().catch(showError);
        } else {
          // Ask the engine whether this action rolls a die now: if it does, the GM may type it.
          guard(async () => {
            const probe = await api("POST", `${API}/preview/dice`, { action: a, dice: [] });
            if (probe.next) {
              openDice({ title: label, what: `${nameOf(actor.id)}: ${label}`, probe: { action: a },
                send: (dd) => act(a, dd) });
            } else {
              await act(a, []);
            }
          });
        }
      };
      const label = (d.labels && d.labels[i]) || actionLabel(a);
      list.append(h("li", {}, h("button", { type: "button", class: `act kind-${a.kind}`, testid: `action-${i}`,
        "data-kind": a.kind, onclick }, label)));
    });
  }

  // The 5-foot steps the engine offers the current actor now (its decision's options).
  function stepOptions() {
    const sel = S.selected;
    if (!myTurn() || !sel || sel.type !== "mover" || sel.id !== S.state.active) return [];
    return ((S.decision && S.decision.options) || []).filter((a) => a.kind === "step" && a.to);
  }

  function renderHint() {
    if (!GM) return;
    const st = S.state;
    const hint = $("hint");
    const actor = creature(st.active);
    if (st.ended || !actor) hint.textContent = "";
    else if (st.pending) hint.textContent = `Waiting for ${nameOf(st.pending.reactor)}'s reaction (see the panel).`;
    else if (S.selected && S.selected.type === "mover") {
      const via = S.via.length ? ` ${S.via.length} waypoint${S.via.length === 1 ? "" : "s"}: the path passes `
        + "them in order." : "";
      hint.textContent = (S.moves
        ? `${S.moves.size} squares in reach (cost in feet; "!" provokes). Hover for the path, click a square to move; `
          + "shift+click adds a waypoint; arrows or hjkl step a cursor, Enter moves."
        : "Loading the reachable squares…") + via
        + (S.waypointMode ? " Waypoint mode: clicks add waypoints — turn it off to pick the destination." : "");
    } else {
      hint.textContent = `Click ${nameOf(actor.id)} to see where it can move; click an enemy to preview an attack.`;
    }
  }

  function renderPreview() {
    const panel = $("preview");
    panel.replaceChildren();
    const sel = S.selected;
    if (sel && sel.type === "mover" && S.move) {
      panel.hidden = false;
      panel.dataset.testid = "move-preview";
      const { to, data, via } = S.move;
      const step = stepOptions().find((a) => a.to[0] === to[0] && a.to[1] === to[1]);
      panel.append(h("h2", {}, `Move ${nameOf(sel.id)} to ${sq(to)}`));
      if (via && via.length) {
        panel.append(h("p", { testid: "move-via" }, `through ${via.map(sq).join(", ")} `,
          h("button", { type: "button", class: "link small", testid: "clear-waypoints", onclick: clearWaypoints },
            "clear waypoints")));
      }
      if (!data.legal) {
        panel.append(h("p", { class: step ? "muted" : "error", testid: "move-reason" }, `Not allowed: ${data.reason}`));
      } else {
        panel.append(h("p", { testid: "move-cost" }, `${data.cost_ft} ft along ${(data.path || []).map(sq).join(" → ")}`));
      }
      if (step) {
        panel.append(h("p", { class: "muted", testid: "step-note" },
          "A 5-foot step there moves one square without provoking and without spending the move action."));
      }
      const surprise = S.state.surprise_round;
      if (surprise && S.move.confirm) {
        panel.append(h("p", { class: "warn", testid: "surprise-warning", role: "alert" },
          `Surprise round: this is ${nameOf(sel.id)}'s only action this round — moving spends it. `
          + "Click “Move anyway” (or Enter) to move, Cancel to keep it."));
      }
      const prov = data.provokes || [];
      panel.append(h("p", { testid: "move-provokes", class: prov.length ? "warn" : "muted" }, prov.length
        ? `Provokes: ${prov.map((p) => `${nameOf(p.by)}${p.square ? ` when leaving ${sq(p.square)}` : ""}`).join("; ")}`
        : "Provokes no attack of opportunity."));
      const cover = (data.cover || []).filter((c) => c.degree && c.degree !== "none");
      panel.append(h("h3", {}, "Cover from there"),
        cover.length
          ? h("ul", { testid: "move-cover" }, cover.map((c) => h("li", {},
            `vs ${nameOf(c.target)}: ${c.degree}${c.ac_bonus ? ` (+${c.ac_bonus})` : ""} — ${c.reason}`)))
          : h("p", { class: "muted", testid: "move-cover" }, "no cover against any enemy"));
      panel.append(h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", testid: "move-here", disabled: !data.legal,
          onclick: () => {
            if (surprise && !S.move.confirm) {
              // the surprise round's only action (PFB-SURP-05): ask before spending it on a move
              S.move.confirm = true;
              renderPreview();
              return;
            }
            const action = via && via.length ? { kind: "move", path: data.path } : { kind: "move", to };
            guard(() => act(action));
          } }, surprise && S.move.confirm ? "Move anyway" : "Move here"),
        step ? h("button", { type: "button", testid: "step-here", class: data.legal ? "" : "primary",
          title: "the 5-foot step: one square, provokes no attack of opportunity",
          onclick: () => guard(() => act(step)) }, "5-ft step here") : null,
        h("button", { type: "button", testid: "move-cancel", onclick: () => {
          S.move = null;
          S.cursor = null;
          renderOverlay();
          renderPreview();
        } }, "Cancel")));
      return;
    }
    if (sel && sel.type === "target") {
      panel.hidden = false;
      panel.dataset.testid = "attack-preview";
      const a = creature(sel.attacker);
      const t = creature(sel.target);
      const choose = h("select", { testid: "attack-choice", onchange: (e) => {
        sel.attack = e.target.value || null;
        loadAttack().catch(showError);
      } }, h("option", { value: "", selected: !sel.attack }, `wielded (${(a && a.wielding) || "none"})`),
      (a ? a.attacks : []).map((n) => h("option", { value: n, selected: n === sel.attack }, n)));
      panel.append(h("h2", {}, `${nameOf(sel.attacker)} attacks ${nameOf(sel.target)}`),
        h("label", {}, "with ", choose));
      const p = S.attack;
      if (!p) {
        panel.append(h("p", { class: "muted" }, "…"));
        return;
      }
      if (!p.legal) panel.append(h("p", { class: "error", testid: "attack-reason" }, `Not allowed: ${p.reason}`));
      const mods = (p.modifiers || []).map((m) => h("tr", {}, h("td", {}, m.source), h("td", { class: "num" },
        signed(m.value))));
      panel.append(h("table", { class: "breakdown", testid: "attack-breakdown" },
        h("tbody", {}, mods,
          h("tr", { class: "total" }, h("td", {}, "attack bonus"), h("td", { class: "num", testid: "attack-bonus" },
            p.bonus === null || p.bonus === undefined ? "–" : signed(p.bonus))),
          h("tr", { class: "total" }, h("td", {}, `vs ${p.defense_name || "defense"}`),
            h("td", { class: "num", testid: "attack-target-number" }, p.target_number ?? "–")))));
      if (p.defense_explanation) panel.append(h("p", { class: "small" }, `${p.defense_name}: ${p.defense_explanation}`));
      const cov = p.cover || {};
      panel.append(h("p", { testid: "attack-cover" },
        `Cover: ${cov.degree || "none"}${cov.reason ? ` — ${cov.reason}` : ""}`),
      h("p", { testid: "attack-concealment" }, `Concealment: ${p.concealment ? `${p.concealment}% miss chance` : "none"}`));
      if (p.weapon) {
        panel.append(h("p", { testid: "attack-weapon" },
          `${p.weapon.name}: damage ${p.weapon.damage}, threat ${p.weapon.threat}`));
      }
      if (p.odds) {
        panel.append(h("div", { class: "odds", testid: "attack-odds" },
          h("span", {}, "hit ", h("b", {}, pct(p.odds.hit))),
          h("span", {}, "crit ", h("b", {}, pct(p.odds.crit))),
          h("span", {}, "mean damage ", h("b", {}, Number(p.odds.mean_damage).toFixed(1))),
          h("span", {}, "drops the target ", h("b", {}, pct(p.odds.drop_chance)))));
      }
      panel.append(h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", testid: "attack-button", disabled: !p.legal,
          onclick: () => {
            const action = { kind: "attack", target: sel.target };
            if (sel.attack) action.attack = sel.attack;
            openDice({ title: `${nameOf(sel.attacker)} attacks ${nameOf(sel.target)}`,
              what: `${sel.attack || "wielded weapon"} — ${signed(p.bonus || 0)} vs ${p.defense_name} ${p.target_number}`,
              probe: { action }, send: (d) => act(action, d) });
          } }, "Attack…"),
        ...((S.charge && S.charge.ends) || []).filter((e) => e.legal).map((e) => h("button", {
          type: "button", testid: `charge-${e.to[0]}-${e.to[1]}`,
          title: e.provokes.length ? `provokes ${e.provokes.map((p) => nameOf(p.by)).join(", ")}` : "provokes no one",
          onclick: () => {
            const action = { kind: "charge", target: sel.target, to: e.to };
            openDice({ title: `${nameOf(sel.attacker)} charges ${nameOf(sel.target)}`, what: `from ${sq(e.to)}`,
              probe: { action }, send: (d) => act(action, d) });
          } }, `Charge from ${sq(e.to)}${e.provokes.length ? " !" : ""}`)),
        h("button", { type: "button", testid: "attack-cancel", onclick: () => {
          S.selected = null;
          S.attack = null;
          render();
        } }, "Cancel")));
      return;
    }
    panel.hidden = true;
    panel.dataset.testid = "preview";
  }

  let lastLogSeq = null;
  function renderLog() {
    const list = $("log");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.replaceChildren(...S.log.filter((e) => e.text && e.text.trim()).map((e) => h("li", { class: `ev ev-${e.kind}`, testid: "log-entry",
      "data-seq": e.seq, "data-kind": e.kind }, e.text)));
    const newest = S.log.length ? S.log[S.log.length - 1].seq : null;
    if (atBottom || newest !== lastLogSeq) list.scrollTop = list.scrollHeight;
    lastLogSeq = newest;
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

  // ------------------------------------------------------------------ live updates
  let retry = 0;
  let pendingRefresh = null;
  function scheduleRefresh() {
    clearTimeout(pendingRefresh);
    pendingRefresh = setTimeout(() => refresh().catch(showError), 30);
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}${API}/ws`);
    } catch {
      setTimeout(connect, 2000);
      return;
    }
    ws.addEventListener("open", () => {
      retry = 0;
      $("live").classList.add("on");
      $("live").title = "live: following the table";
      scheduleRefresh(); // catch up on anything missed while disconnected
    });
    ws.addEventListener("message", (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch { return; }
      if (msg && msg.type === "state" && (!S.state || msg.version !== S.state.version)) scheduleRefresh();
    });
    ws.addEventListener("close", () => {
      $("live").classList.remove("on");
      $("live").title = "reconnecting…";
      retry += 1;
      setTimeout(connect, Math.min(5000, 300 * 2 ** retry));
    });
  }

  // ------------------------------------------------------------------ start
  async function main() {
    document.body.classList.add(GM ? "gm" : "player");
    renderLegend();
    try {
      S.summary = await api("GET", API);
      await refresh();
    } catch (err) {
      showError(err);
    }
    connect();
    document.body.dataset.ready = "1";
  }

  main();
})();

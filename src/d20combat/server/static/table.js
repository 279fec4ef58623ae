// The game master's table (/table/{id}) and the players' screen (/player/{player_id}).
// Uses only the HTTP API of docs/api.md; every write sends the version of the last state seen. The GM's page
// is authorized by the key's cookie (same-origin fetch sends it); the players' page reads /api/play/… only.
// This file holds the constants, the state, the helpers and the requests; the page's other parts are its modules:
// table-dice.js (the dice dialog), table-input.js (clicks and keys on the map), table-map.js (drawing the map),
// table-panels.js (header, tracker, prompt, controls, preview, log); mapview.js zooms and pans the map.
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
  const svg = $("map");
  // What the page's modules share (static/table-dice.js, table-input.js, table-map.js, table-panels.js, loaded
  // after this one): the constants, the state S, the helpers and the requests below, and each module's functions,
  // called through T (T.render(), T.openDice(…)) since a module may be loaded after its caller.
  const T = {};

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
  const { ApiError, api, h } = window.D20;  // h: a DOM element (api.js)

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
    T.render();
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
    T.renderOverlay();
    T.renderHint();
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
    T.renderPreview();
    T.renderOverlay();
  }

  const moveCache = new Map();
  const hover = { timer: null }; // the pending hover preview (table-input.js)
  let movePreviewSeq = 0;
  async function loadMovePreview(to, locked) {
    const sel = S.selected;
    if (!sel || sel.type !== "mover") return;
    if (locked) clearTimeout(hover.timer);
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
    T.renderOverlay();
    T.renderPreview();
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
    T.renderLegend();
    try {
      S.summary = await api("GET", API);
      await refresh();
    } catch (err) {
      showError(err);
    }
    connect();
    document.body.dataset.ready = "1";
  }

  // every module of the page (loaded after this one) has registered itself by now
  document.addEventListener("DOMContentLoaded", main);

  Object.assign(T, {
    CELL, MARGIN, SVGNS, parts, VIEW, GM, ID, API, REFUSALS, PLAYER_COLOUR, OTHER_COLOURS, $, S, ApiError, api, h,
    s, key, sq, signed, pct, creature, nameOf, playersSide, sideColour, shortLabel, isDown, myTurn, showError,
    guard, refresh, setState, loadMoves, loadAttack, moveCache, loadMovePreview, afterWrite, act, react, aiPlay,
    undoRedo, scheduleRefresh, connect, main, svg, hover
  });
  window.D20.table = T;
})();

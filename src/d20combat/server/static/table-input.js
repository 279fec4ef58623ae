// The GM's clicks and keys on the map: choosing the mover, a destination, waypoints, keyboard stepping.
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const {
    CELL, MARGIN, GM, $, S, h, s, key, creature, nameOf, isDown, myTurn, showError, guard, loadMoves, loadAttack,
    loadMovePreview, act, aiPlay, undoRedo, svg, hover
  } = T;

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
    T.render();
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
    T.render();
    loadMoves(S.state.active).catch(showError);
    return true;
  }

  function squareClicked(c, r, shift) {
    if (GM && myTurn() && T.ep.squareClicked(c, r)) return; // a splash weapon thrown at a square
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
      T.renderOverlay();
      T.renderHint();
    }
  }

  function clearWaypoints() {
    S.via = [];
    if (S.move) loadMovePreview(S.move.to, true).catch(showError);
    else T.renderOverlay();
  }

  function squareHovered(c, r) {
    const sel = S.selected;
    if (!GM || !sel || sel.type !== "mover" || !S.moves) return;
    if (S.move && S.move.locked) return;
    clearTimeout(hover.timer);
    if (!S.moves.has(key(c, r)) && !S.via.length) return;
    hover.timer = setTimeout(() => loadMovePreview([c, r], false).catch(() => {}), 120);
  }

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
      if (GM && cell && S.throwAt) {
        squareClicked(cell[0], cell[1], false);
        return;
      }
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

  $("end-turn").addEventListener("click", () => guard(async () => {
    const end = { kind: "end_turn" };
    // a readied attack fires when the next turn starts (EP-ACT-57): its dice are the GM's to type
    const readied = S.state.combatants.some((c) => (c.effects || []).some((e) => e.name.startsWith("readied: ")));
    const probe = readied ? await T.api("POST", `${T.API}/preview/dice`, { action: end, dice: [] }) : null;
    if (probe && probe.next) {
      T.openDice({ title: "End the turn: a readied attack fires", what: probe.next.purpose, probe: { action: end },
        send: (d) => act(end, d) });
    } else {
      await act(end);
    }
  }));
  $("ai-turn").addEventListener("click", () => guard(() => aiPlay("turn")));
  $("ai-monsters").addEventListener("click", () => guard(() => aiPlay("players")));
  $("undo").addEventListener("click", () => guard(() => undoRedo("undo")));
  $("redo").addEventListener("click", () => guard(() => undoRedo("redo")));
  $("waypoint-mode").addEventListener("click", () => {
    S.waypointMode = !S.waypointMode;
    $("waypoint-mode").setAttribute("aria-pressed", String(S.waypointMode));
    T.renderHint();
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("dice").open && S.selected) {
      S.selected = null;
      S.moves = null;
      S.move = null;
      S.attack = null;
      S.via = [];
      S.cursor = null;
      T.render();
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
      T.renderOverlay();
      T.renderPreview();
      return;
    }
    loadMovePreview(to, true).catch(showError);
  });

  // The 5-foot steps the engine offers the current actor now (its decision's options).
  function stepOptions() {
    const sel = S.selected;
    if (!myTurn() || !sel || sel.type !== "mover" || sel.id !== S.state.active) return [];
    return ((S.decision && S.decision.options) || []).filter((a) => a.kind === "step" && a.to);
  }

  Object.assign(T, {
    selectCreature, ensureMover, squareClicked, addWaypoint, clearWaypoints, squareHovered, cellAt, stepOptions
  });
})();

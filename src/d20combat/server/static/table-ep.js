// What Epic Path adds to the table (issue 15, item 2): impeded and blocked terrain, action points, hold and ready,
// a splash weapon thrown at a square and its scatter, the combat round after a reset. The page renders what the
// engine offers: the decision's `offers` (docs/api.md) say which of these actions the engine takes now, with the
// choices and — for an action point — what it buys this round; the scatter is read from the engine's log.
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const { CELL, GM, API, $, S, api, h, s, sq, creature, nameOf, guard, act, showError } = T;

  // ------------------------------------------------------------------ terrain: impeded (%) and blocked (B)
  function drawTerrain(layer, map) {
    const defs = layer.ownerSVGElement.querySelector("defs");
    if (defs && !defs.querySelector("#pat-impeded")) {
      const imp = s("pattern", { id: "pat-impeded", width: 12, height: 12, patternUnits: "userSpaceOnUse" }, defs);
      s("rect", { width: 12, height: 12, fill: "#c9a27a" }, imp);
      s("path", { d: "M0,0 L12,12 M12,0 L0,12", stroke: "#6d4a2a", "stroke-width": 1.5 }, imp);
      const bl = s("pattern", { id: "pat-blocked", width: 8, height: 8, patternUnits: "userSpaceOnUse" }, defs);
      s("rect", { width: 8, height: 8, fill: "#d9d6cf" }, bl);
      s("path", { d: "M2,0 V8 M6,0 V8", stroke: "#4d4a45", "stroke-width": 1.8 }, bl);
    }
    for (const [c, r] of map.impeded || []) {
      s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: "url(#pat-impeded)",
        "data-terrain": "impeded", testid: `impeded-${c}-${r}` }, layer);
    }
    for (const [c, r] of map.blocked || []) {
      s("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: "url(#pat-blocked)",
        "data-terrain": "blocked", testid: `blocked-${c}-${r}` }, layer);
    }
  }

  function terrainNames(map, c, r) {
    const has = (list) => (list || []).some((p) => p[0] === c && p[1] === r);
    const out = [];
    if (has(map.impeded)) out.push("impeded terrain: a full-round action moves 5 ft");
    if (has(map.blocked)) out.push("blocked terrain: impassable, sight passes");
    return out;
  }

  function legend() {
    const map = S.state && S.state.map;
    const box = $("legend");
    if (!map || !box || box.querySelector("[data-testid='legend-impeded']")) return;
    if ((map.impeded || []).length) {
      box.append(h("span", { class: "legend-item", testid: "legend-impeded" }, h("span", { class: "swatch impeded" }),
        "impeded: a full-round action moves 5 ft"));
    }
    if ((map.blocked || []).length) {
      box.append(h("span", { class: "legend-item", testid: "legend-blocked" }, h("span", { class: "swatch blocked" }),
        "blocked (sight passes)"));
    }
  }

  // ------------------------------------------------------------------ the tracker: action points, held, readied
  const READIED = /^readied: attack (\S*) with (\S+) when (\S+) starts its turn$/;

  function effectChip(e) {
    const m = READIED.exec(e.name);
    if (m) {
      const on = m[1] ? nameOf(m[1]) : "the trigger";
      const when = m[3] === "any" ? "any creature's" : `${nameOf(m[3])}'s`;
      return { text: "readied", title: `readied: attack ${on} with ${m[2]} when ${when} turn starts (EP-ACT-57)` };
    }
    if (e.name.startsWith("holding its action")) return { text: "holding", title: e.name };
    return null;
  }

  function apChip(c) {
    if (c.action_points === null || c.action_points === undefined) return null;
    return h("span", { class: `chip ap${c.action_points ? "" : " spent"}`, testid: `ap-${c.id}`,
      title: "action points left in this combat (EP-MISC-22)" }, `AP ${c.action_points}`);
  }

  // ------------------------------------------------------------------ the Epic Path card: the offers
  function offer(kind) {
    return ((S.decision && S.decision.offers) || []).find((o) => o.kind === kind) || null;
  }

  async function send(action, title) {
    const probe = await api("POST", `${API}/preview/dice`, { action, dice: [] });
    if (probe.next) {
      T.openDice({ title, what: `${nameOf(S.state.active)}: ${title}`, probe: { action }, send: (d) => act(action, d) });
    } else {
      await act(action, []);
    }
  }

  // What the GM chose or typed in the card survives a re-render (a live update redraws the card).
  const chosen = {};

  function select(testid, values, label) {
    const el = h("select", { testid, onchange: () => { chosen[testid] = el.value; } },
      values.map((v) => h("option", { value: v }, label(v))));
    if (chosen[testid] !== undefined && values.includes(chosen[testid])) el.value = chosen[testid];
    return el;
  }

  function renderCard() {
    const card = $("ep-card");
    if (!card) return;
    const offers = (S.decision && S.decision.offers) || [];
    card.hidden = !GM || !T.myTurn() || !offers.length;
    const body = $("ep-actions");
    body.replaceChildren();
    if (card.hidden) return;
    const actor = creature(S.state.active);
    if (chosen.for !== S.state.active) for (const k of Object.keys(chosen)) delete chosen[k];
    chosen.for = S.state.active; // a new creature's turn starts with the engine's defaults
    const ap = offer("action_point");
    if (ap) {
      const left = actor && actor.action_points !== null ? ` (${actor.action_points} left)` : "";
      body.append(h("div", { class: "ep-row" },
        h("button", { type: "button", testid: "ep-action-point", disabled: !ap.legal, title: ap.reason || ap.detail,
          onclick: () => guard(() => send(ap.action, "Spend an action point")) }, `Spend an action point${left}`),
        h("span", { class: ap.legal ? "small" : "small muted", testid: "ep-ap-benefit" },
          ap.legal ? buys(ap.detail) : ap.reason)));
    }
    const hold = offer("hold");
    if (hold) {
      const after = select("ep-hold-after", ["", ...hold.choices.after],
        (v) => (v ? `after ${nameOf(v)}` : "until later (lost if held all the way round)"));
      body.append(h("div", { class: "ep-row" }, h("button", { type: "button", testid: "ep-hold", disabled: !hold.legal,
        title: hold.reason || "EP-ACT-47..52: act right after the creature chosen (initiative becomes its − 1)",
        onclick: () => guard(() => send({ kind: "hold", after: after.value }, "Hold the action")) }, "Hold"), after,
      hold.legal ? null : h("span", { class: "small muted" }, hold.reason)));
    }
    const ready = offer("ready");
    if (ready) {
      const trigger = select("ep-ready-trigger", ready.choices.trigger,
        (v) => (v === "any" ? "when anyone's turn starts" : `when ${nameOf(v)}'s turn starts`));
      const target = select("ep-ready-target", ready.choices.target, (v) => (v ? `attack ${nameOf(v)}` : "attack it"));
      const attack = select("ep-ready-attack", ready.choices.attack, (v) => `with ${v}`);
      if (chosen["ep-ready-attack"] === undefined) attack.value = ready.action.attack;
      body.append(h("div", { class: "ep-row" }, h("button", { type: "button", testid: "ep-ready",
        disabled: !ready.legal, title: ready.reason || "EP-ACT-54..61: a standard action; the attack interrupts",
        onclick: () => guard(() => send({ kind: "ready", trigger: trigger.value, target: target.value,
          attack: attack.value }, "Ready an attack")) }, "Ready"), trigger, target, attack,
      ready.legal ? null : h("span", { class: "small muted" }, ready.reason)));
    }
    const stance = offer("start_stance");
    const drop = offer("drop_stance");
    if (stance || (drop && drop.legal)) {
      const name = h("input", { type: "text", testid: "ep-stance-name", placeholder: "stance", size: 10,
        "aria-label": "the stance's name", value: chosen.stance || null,
        oninput: () => { chosen.stance = name.value; } });
      body.append(h("div", { class: "ep-row" },
        stance ? h("button", { type: "button", testid: "ep-start-stance", disabled: !stance.legal,
          title: stance.reason || "EP-MISC-15..20: a swift action; one stance at a time, at most 10 rounds",
          onclick: () => guard(() => send({ kind: "start_stance", stance: name.value.trim() }, "Start a stance")) },
        "Start stance") : null, stance ? name : null,
        drop && drop.legal ? h("button", { type: "button", testid: "ep-drop-stance",
          onclick: () => guard(() => send(drop.action, "Drop the stance")) }, "Drop stance") : null,
        stance && !stance.legal ? h("span", { class: "small muted" }, stance.reason) : null));
    }
    const splash = offer("throw_splash");
    if (splash) {
      const on = S.throwAt && S.throwAt.attack === splash.action.attack;
      body.append(h("div", { class: "ep-row" }, h("button", { type: "button", testid: "ep-throw-square",
        class: on ? "on" : "", "aria-pressed": on ? "true" : "false", disabled: !splash.legal,
        title: splash.reason || "EP-SPLASH-11: a ranged attack against AC 5; a miss scatters (d8)",
        onclick: () => { S.throwAt = on ? null : { attack: splash.action.attack }; T.render(); } },
      on ? "Click a square… (cancel)" : `Throw ${splash.action.attack} at a square`)));
    }
  }

  function buys(detail) {
    const m = /\((action point[^()]*(?:\([^()]*\)[^()]*)*)\)\s*$/.exec(detail || "");
    return m ? m[1] : detail;
  }

  // A click on the map while a throw at a square is being aimed.
  function squareClicked(c, r) {
    if (!S.throwAt) return false;
    const action = { kind: "throw_splash", attack: S.throwAt.attack, square: [c, r] };
    S.throwAt = null;
    T.render();
    guard(() => send(action, `Throw ${action.attack} at ${sq([c, r])}`)).catch(showError);
    return true;
  }

  // ------------------------------------------------------------------ the scatter, read from the engine's log
  const LANDS = /scatter d8 (\d) \(([^)]*)\): it lands in \((-?\d+), (-?\d+)\), 1 square from \((-?\d+), (-?\d+)\)/;
  const CLOCKWISE = [[0, -1], [1, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1]];

  function lastScatter() {
    for (let i = S.log.length - 1; i >= 0; i--) {
      const e = S.log[i];
      if (e.kind === "turn_started") return null; // shown for the rest of the thrower's turn
      const m = LANDS.exec(e.text || "");
      if (m) {
        const [face, land, aim] = [Number(m[1]), [Number(m[3]), Number(m[4])], [Number(m[5]), Number(m[6])]];
        const landed = CLOCKWISE.findIndex(([dc, dr]) => aim[0] + dc === land[0] && aim[1] + dr === land[1]);
        const short = (((landed - (face - 1)) % 8) + 8) % 8; // face 1 = toward the thrower, 2..8 clockwise
        return { face, land, aim, short, seq: e.seq };
      }
    }
    return null;
  }

  function drawScatter(layer) {
    const sc = lastScatter();
    if (!sc) return;
    const g = s("g", { class: "scatter", testid: "scatter", "data-face": sc.face, "data-land": sq(sc.land),
      "data-aim": sq(sc.aim) }, layer);
    for (let dc = -1; dc <= 1; dc++) {
      for (let dr = -1; dr <= 1; dr++) {
        const [c, r] = [sc.land[0] + dc, sc.land[1] + dr];
        s("rect", { x: c * CELL + 1, y: r * CELL + 1, width: CELL - 2, height: CELL - 2,
          class: dc || dr ? "splashed" : "landed", testid: dc || dr ? `splashed-${c}-${r}` : "scatter-land" }, g);
      }
    }
    s("rect", { x: sc.aim[0] * CELL + 3, y: sc.aim[1] * CELL + 3, width: CELL - 6, height: CELL - 6, class: "aimed",
      testid: "scatter-aim" }, g);
    CLOCKWISE.forEach(([dc, dr], i) => {
      const n = ((i - sc.short + 8) % 8) + 1;
      // a compass inside the aimed square, each face on the side of the neighbour it sends the flask to
      const [x, y] = [(sc.aim[0] + 0.5 + dc * 0.36) * CELL, (sc.aim[1] + 0.5 + dr * 0.36) * CELL];
      s("text", { x, y: y + 3.5, class: n === sc.face ? "d8 rolled" : "d8",
        testid: `d8-${n}`, text: n }, g);
    });
    const [x1, y1] = T.centre(sc.aim);
    const [x2, y2] = T.centre(sc.land);
    s("line", { x1, y1, x2, y2, class: "scatter-arrow" }, g);
  }

  // ------------------------------------------------------------------ the header: the round of this combat
  function header() {
    const st = S.state;
    const extra = $("combat-round");
    if (!extra) return;
    const differs = st.combat_round !== undefined && st.combat_round !== st.round;
    extra.hidden = !differs;
    extra.textContent = differs ? `combat round ${st.combat_round}` : "";
    extra.title = "the round of the current combat (action points; a new combat begins after the Maximum "
      + "Encounter Length, EP-TIME-06/13)";
  }

  function render() {
    legend();
    header();
    renderCard();
  }

  Object.assign(T, {
    ep: { drawTerrain, terrainNames, effectChip, apChip, renderCard, squareClicked, drawScatter, render, lastScatter },
  });
})();

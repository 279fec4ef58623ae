// The declaration phase at the table (worlds-of-adventure, WOA-CYCLE-14/25; docs/api.md "Declarations"): when the
// decision's phase is "declare" the Declare card lets the GM declare the round of the creature declaring now — its
// standard, move and full-round actions, the foe aimed at, the creature it delays after, or nothing — from the kinds
// the engine offers; the tracker marks who has declared and what (the players' page gets only its own side's from the
// server), who is still to declare, the round's re-rolled initiative, and a ruling on a declaration that can no longer
// be carried out, which the GM may rule otherwise (the gm_rule_declaration write).
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const { GM, API, $, S, api, h, creature, nameOf, guard, act, afterWrite, isDown } = T;

  // the combat's round: after the surprise attacks (WOA-CYCLE-07) the engine's round 2 is the combat's round 1
  const combatRound = () => S.state.combat_round ?? S.state.round;
  const SLOTS = [["full_round", "full-round"], ["standard", "standard"], ["move", "move"]];

  function declaring() {
    return Boolean(GM && S.decision && S.decision.phase === "declare" && T.myTurn());
  }

  function uniq(values) {
    return [...new Set(values.filter((v) => v !== "" && v !== null && v !== undefined))];
  }

  // What the GM picked survives a re-render (a live update redraws the card), for the same creature only.
  const picked = {};

  function select(testid, values, label, title) {
    const el = h("select", { testid, title, "aria-label": title, onchange: () => { picked[testid] = el.value; } },
      values.map((v) => h("option", { value: v }, label(v))));
    if (picked[testid] !== undefined && values.includes(picked[testid])) el.value = picked[testid];
    return el;
  }

  function declarationText(d) {
    const parts = [d.full_round, d.standard, d.move].filter(Boolean).map((k) => k.replace(/_/g, " "));
    let text = parts.join(" and ") || "nothing";
    if (d.target) text += ` — at ${nameOf(d.target)}`;
    if (d.after) text += `, acting after ${nameOf(d.after)}`;
    return text;
  }

  // ------------------------------------------------------------------ the Declare card
  function renderCard() {
    const card = $("declare-card");
    if (!card) return;
    card.hidden = !declaring();
    const body = $("declare-body");
    body.replaceChildren();
    if (card.hidden) return;
    const me = S.state.active;
    if (picked.for !== me) for (const k of Object.keys(picked)) delete picked[k];
    picked.for = me;
    const options = (S.decision.options || []).filter((o) => o.kind === "declare");
    $("declare-title").textContent = `Declare — ${nameOf(me)}, round ${combatRound()}`;
    const kinds = Object.fromEntries(SLOTS.map(([slot]) => [slot, uniq(options.map((o) => o[slot]))]));
    const foes = uniq(options.map((o) => o.target));
    const others = S.state.combatants.filter((c) => c.id !== me && !isDown(c) && c.status !== "fled")
      .map((c) => c.id);
    const fields = {};
    for (const [slot, words] of SLOTS) {
      fields[slot] = select(`declare-${slot}`, ["", ...kinds[slot]], (v) => (v ? v.replace(/_/g, " ") : "—"),
        `the ${words} action's kind`);
    }
    fields.target = select("declare-target", ["", ...foes], (v) => (v ? `at ${nameOf(v)}` : "no foe"),
      "the foe the attack or charge is aimed at");
    fields.after = select("declare-after", ["", ...others], (v) => (v ? `after ${nameOf(v)}` : "at its own count"),
      "delay: act right after this creature (WOA-INIT-02)");
    const chosen = () => {
      const d = { kind: "declare" };
      for (const k of ["standard", "move", "full_round"]) d[k] = fields[k].value;
      d.target = fields.target.value || null;
      d.after = fields.after.value || null;
      return d;
    };
    body.append(
      h("p", { class: "small muted" }, "Everyone declares before initiative is rolled (WOA-CYCLE-14); "
        + `still to declare: ${S.state.declaring.map(nameOf).join(", ")}.`),
      h("div", { class: "declare-row" }, h("label", {}, "full-round ", fields.full_round),
        h("span", { class: "muted" }, "or"), h("label", {}, "standard ", fields.standard),
        h("label", {}, "move ", fields.move)),
      h("div", { class: "declare-row" }, fields.target, fields.after),
      h("div", { class: "declare-row" },
        h("button", { type: "button", class: "primary", testid: "declare-submit",
          onclick: () => guard(() => declare(chosen())) }, "Declare"),
        h("button", { type: "button", testid: "declare-nothing",
          onclick: () => guard(() => declare({ kind: "declare" })) }, "Declare nothing"),
        h("button", { type: "button", testid: "declare-ai", title: "the tactical AI declares for this creature",
          onclick: () => guard(() => T.aiPlay("action")) }, "AI declares")),
      h("p", { class: "small muted" }, "or one of the engine's:"),
      h("ul", { class: "declare-options", testid: "declare-options" }, options.map((o, i) => h("li", {},
        h("button", { type: "button", class: "small", testid: `declare-option-${i}`,
          onclick: () => guard(() => declare(o)) }, declarationText(o))))));
  }

  async function declare(action) {
    // the last declaration rolls everyone's initiative: the GM may type those dice
    const probe = await api("POST", `${API}/preview/dice`, { action, dice: [] });
    if (probe.next) {
      T.openDice({ title: "Declare (then initiative)", what: `${nameOf(S.state.active)} declares `
        + `${declarationText(action)}; everyone then rolls initiative`, probe: { action }, send: (d) => act(action, d) });
    } else {
      await act(action, []);
    }
  }

  // ------------------------------------------------------------------ the tracker: declarations and rulings
  function declarationOf(id) {
    return (S.state.declarations || []).find((d) => d.combatant === id) || null;
  }

  function chip(c) {
    const st = S.state;
    const d = declarationOf(c.id);
    if (d) {
      const ruled = d.ruled ? ` — ruled: ${d.ruled} (declared: ${d.declared})` : "";
      return h("span", { class: `chip declared${d.ruled ? " ruled" : ""}`, testid: `declared-${c.id}`,
        title: `declared this round: ${d.text}${ruled}` }, d.ruled ? `ruled: ${d.text}` : `declared: ${d.text}`,
      GM ? ruleButton(c.id) : null);
    }
    const at = (st.declaring || []).indexOf(c.id);
    if (at < 0) return null;
    return h("span", { class: `chip declaring${at === 0 ? " now" : ""}`, testid: `declaring-${c.id}`,
      title: "declares its round before initiative is rolled (WOA-CYCLE-14)" }, at === 0 ? "declaring…" : "to declare");
  }

  function ruleButton(id) {
    const st = S.state;
    const over = st.order.indexOf(id) >= 0 && st.active && st.order.indexOf(id) < st.order.indexOf(st.active);
    if (over || (st.declaring || []).length || st.ended) return null;
    return h("button", { type: "button", class: "link small", testid: `rule-${id}`,
      title: "rule what it carries out this round instead (the GM's ruling, WOA-CYCLE-25)",
      onclick: (ev) => { ev.stopPropagation(); S.ruling = S.ruling === id ? null : id; T.render(); } }, "rule");
  }

  // The GM's ruling on one creature's declaration: an attack at one of its foes, a move only, or nothing.
  function renderRuling() {
    const card = $("ruling-card");
    if (!card) return;
    const id = S.ruling;
    const d = id ? declarationOf(id) : null;
    card.hidden = !GM || !d || S.state.ended;
    const body = $("ruling-body");
    body.replaceChildren();
    if (card.hidden) return;
    const me = creature(id);
    const foes = S.state.combatants.filter((c) => c.side !== me.side && !isDown(c) && c.status !== "fled");
    const presets = [...foes.map((f) => ({ standard: "attack", move: "move", foe: f.id,
      text: `attack and move — at ${nameOf(f.id)}` })), { move: "move", text: "a move action only" },
    { text: "nothing this round" }];
    const why = h("input", { type: "text", testid: "ruling-why", placeholder: "why (optional)", size: 16 });
    body.append(h("p", { class: "small", testid: "ruling-now" }, `${nameOf(id)} is held to: ${d.text}`
      + (d.ruled ? ` (ruled: ${d.ruled})` : "")),
    h("ul", { class: "declare-options" }, presets.map((p, i) => h("li", {}, h("button", {
      type: "button", class: "small", testid: `ruling-${i}`,
      onclick: () => guard(() => rule(id, p, why.value.trim())) }, p.text)))), why,
    h("button", { type: "button", class: "link small", testid: "ruling-close",
      onclick: () => { S.ruling = null; T.render(); } }, "close"));
  }

  async function rule(id, preset, why) {
    const edit = { kind: "gm_rule_declaration", target: id, standard: preset.standard || "", move: preset.move || "",
      full_round: "", foe: preset.foe || null, after: null, why };
    const result = await api("POST", `${API}/gm`, { edit, dice: [], expected_version: S.state.version });
    S.ruling = null;
    await afterWrite(result);
  }

  // ------------------------------------------------------------------ the round's re-rolled initiative
  function initiativeTitle(id) {
    const roll = (S.state.initiative_rolls || []).find((r) => r.combatant === id);
    return roll ? `initiative ${roll.explanation}` : null;
  }

  function renderReroll() {
    const line = $("reroll");
    if (!line) return;
    const rolls = S.state.initiative_rolls || [];
    const pending = (S.state.declaring || []).length;
    line.hidden = !rolls.length && !pending;
    line.textContent = pending ? `Round ${combatRound()}: declarations (${pending} to go), then initiative is re-rolled`
      : `Round ${combatRound()} initiative (re-rolled): ${rolls.map((r) => `${nameOf(r.combatant)} ${r.total}`)
        .join(", ")}`;
    line.title = rolls.map((r) => `${nameOf(r.combatant)} ${r.explanation}`).join("\n");
  }

  function hint() {
    if (!declaring()) return null;
    return `${nameOf(S.state.active)} declares its round (the Declare card): standard, move or full-round action, `
      + "the foe, or nothing; initiative is rolled after the last declaration.";
  }

  function render() {
    renderCard();
    renderRuling();
    renderReroll();
  }

  Object.assign(T, { woa: { render, chip, declaring, hint, initiativeTitle, declarationText } });
})();

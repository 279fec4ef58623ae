// The game master's hand on the table (/table/{id}): hit points, conditions, timed effects, saves and checks,
// creatures added, hidden or removed — each one write of POST /api/encounters/{id}/gm (docs/api.md), evented and
// undoable like an action. Stands alone beside table.js: it reads the state itself, refreshes when the table's
// version changes, and the table follows its writes over the live socket.
"use strict";
(() => {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] !== "table") return;
  const ID = decodeURIComponent(parts[1] || "");
  const API = `/api/encounters/${encodeURIComponent(ID)}`;
  const { api, h } = window.D20;
  const $ = (id) => document.getElementById(id);
  const CONDITIONS = ["prone", "shaken", "frightened", "panicked", "sickened", "fatigued", "exhausted", "entangled",
    "dazed", "stunned", "blinded", "deafened", "grappled", "paralyzed", "asleep", "unconscious", "hidden",
    "invisible", "concealed:20", "concealed:50", "flat_footed", "staggered", "bloodied"];
  const G = { state: null, bestiary: [], picking: false, busy: false };

  const num = (id) => { const v = $(id).value.trim(); return v === "" ? null : Number(v); };
  const txt = (id) => $(id).value.trim();
  const target = () => $("gm-target").value;

  function say(message, bad) {
    const out = $("gm-result");
    out.textContent = message || "";
    out.classList.toggle("error", !!bad);
  }

  async function write(edit, dice) {
    if (G.busy || !G.state) return;
    G.busy = true;
    try {
      const result = await api("POST", `${API}/gm`, { edit, dice: dice || [], expected_version: G.state.version });
      G.state = result.state;
      say(result.events.map((e) => e.text).filter(Boolean).join(" · "));
      render();
    } catch (err) {
      say(err.detail || err.message, true);
      if (err.status === 409) await load();
    } finally {
      G.busy = false;
    }
  }

  // ------------------------------------------------------------------ the card
  function field(label, input) {
    return h("label", { class: "gm-field" }, h("span", {}, label), input);
  }

  function build() {
    const card = h("section", { id: "gm-tools", class: "card gm-tools gm-only", testid: "gm-tools" },
      h("h3", {}, "GM tools"),
      field("creature", h("select", { id: "gm-target", testid: "gm-target", onchange: renderEffects })),
      h("details", { open: true, testid: "gm-hp" }, h("summary", {}, "Hit points"),
        h("div", { class: "gm-row" },
          h("input", { id: "gm-amount", type: "number", min: -9999, max: 9999, placeholder: "amount",
            testid: "gm-amount", "aria-label": "amount" }),
          h("button", { type: "button", testid: "gm-damage", onclick: () => amountWrite("gm_damage") }, "Damage"),
          h("button", { type: "button", testid: "gm-heal", onclick: () => amountWrite("gm_heal") }, "Heal"),
          h("button", { type: "button", testid: "gm-set-hp",
            onclick: () => write({ kind: "gm_set_hp", target: target(), hp: num("gm-amount") }) }, "Set hp"))),
      h("details", { testid: "gm-conditions" }, h("summary", {}, "Conditions"),
        h("div", { class: "gm-row" },
          h("input", { id: "gm-condition", list: "gm-condition-names", placeholder: "prone, hidden, concealed:20…",
            testid: "gm-condition", "aria-label": "condition" }),
          h("datalist", { id: "gm-condition-names" }, CONDITIONS.map((c) => h("option", { value: c }))),
          h("button", { type: "button", testid: "gm-add-condition", onclick: () => condition(true) }, "Add"),
          h("button", { type: "button", testid: "gm-remove-condition", onclick: () => condition(false) },
            "Remove")),
        h("div", { class: "gm-row" },
          h("button", { type: "button", testid: "gm-hide", onclick: () => hide(true),
            title: "the players' screen stops showing it (hidden)" }, "Hide"),
          h("button", { type: "button", testid: "gm-unhide", onclick: () => hide(false) }, "Unhide"),
          h("button", { type: "button", testid: "gm-remove", class: "danger", onclick: remove },
            "Remove from battle"))),
      h("details", { testid: "gm-effects" }, h("summary", {}, "Timed effect"),
        h("div", { class: "gm-row" },
          h("input", { id: "gm-effect-name", placeholder: "bless, blur…", testid: "gm-effect-name",
            "aria-label": "effect name" }),
          h("input", { id: "gm-effect-rounds", type: "number", min: 1, max: 1000, value: 1,
            testid: "gm-effect-rounds", "aria-label": "rounds", title: "rounds" }),
          h("span", { class: "muted" }, "rounds")),
        h("div", { class: "gm-row" },
          h("input", { id: "gm-effect-attack", type: "number", placeholder: "attack ±", testid: "gm-effect-attack",
            "aria-label": "attack modifier" }),
          h("input", { id: "gm-effect-ac", type: "number", placeholder: "AC ±", testid: "gm-effect-ac",
            "aria-label": "AC modifier" }),
          h("input", { id: "gm-effect-condition", list: "gm-condition-names", placeholder: "condition",
            testid: "gm-effect-condition", "aria-label": "condition it brings" }),
          h("button", { type: "button", testid: "gm-add-effect", onclick: addEffect }, "Add effect")),
        h("p", { class: "hint" }, "It ends just before the turn of whoever is acting now, that many rounds later."),
        h("ul", { id: "gm-effect-list", class: "gm-effects", testid: "gm-effect-list" })),
      h("details", { testid: "gm-saves" }, h("summary", {}, "Saving throw or check"),
        h("div", { class: "gm-row" },
          h("select", { id: "gm-save", testid: "gm-save", "aria-label": "save or check" },
            h("option", { value: "fort" }, "Fortitude"), h("option", { value: "ref" }, "Reflex"),
            h("option", { value: "will" }, "Will"), h("option", { value: "check" }, "skill check…")),
          h("input", { id: "gm-skill", placeholder: "skill", testid: "gm-skill", "aria-label": "skill" }),
          h("input", { id: "gm-dc", type: "number", min: 0, max: 1000, placeholder: "DC", testid: "gm-dc",
            "aria-label": "DC" }),
          h("input", { id: "gm-d20", type: "number", min: 1, max: 20, placeholder: "d20: roll",
            testid: "gm-d20", "aria-label": "the d20 typed (blank: the server rolls)" }),
          h("button", { type: "button", testid: "gm-call-save", onclick: callSave }, "Call"))),
      h("details", { testid: "gm-add" }, h("summary", {}, "Add a creature"),
        h("div", { class: "gm-row" },
          h("input", { id: "gm-new-id", placeholder: "id", testid: "gm-new-id", "aria-label": "id" }),
          h("input", { id: "gm-new-side", list: "gm-sides", placeholder: "side", testid: "gm-new-side",
            "aria-label": "side" }),
          h("datalist", { id: "gm-sides" }),
          h("select", { id: "gm-new-stats", testid: "gm-new-stats", "aria-label": "stat block",
            onchange: () => { $("gm-new-inline").hidden = $("gm-new-stats").value !== ""; } })),
        h("textarea", { id: "gm-new-inline", rows: 3, hidden: true, testid: "gm-new-inline",
          placeholder: '{"hp": 13, "abilities": {"str": 13}, "attacks": [{"weapon": "bite"}]}',
          "aria-label": "an inline stat block (JSON)" }),
        h("div", { class: "gm-row" },
          h("input", { id: "gm-new-c", type: "number", min: 0, placeholder: "col", testid: "gm-new-c",
            "aria-label": "column" }),
          h("input", { id: "gm-new-r", type: "number", min: 0, placeholder: "row", testid: "gm-new-r",
            "aria-label": "row" }),
          h("button", { type: "button", testid: "gm-pick", onclick: pick, title: "click a square on the map" },
            "Pick on map"),
          h("input", { id: "gm-new-init", type: "number", placeholder: "init: roll", testid: "gm-new-init",
            "aria-label": "initiative (blank: rolled)" }),
          h("button", { type: "button", testid: "gm-add-creature", onclick: addCreature }, "Add"))),
      h("p", { id: "gm-result", class: "gm-result", testid: "gm-result", role: "status" }));
    const after = document.querySelector(".other-actions") || $("controls");
    after.after(card);
  }

  // ------------------------------------------------------------------ writes
  function amountWrite(kind) {
    write({ kind, target: target(), amount: num("gm-amount") });
  }

  function condition(present) {
    write({ kind: "gm_condition", target: target(), condition: txt("gm-condition"), present });
  }

  function hide(on) {
    write({ kind: "gm_condition", target: target(), condition: "hidden", present: on });
  }

  function remove() {
    const id = target();
    if (window.confirm(`Remove ${id} from the battle? (Undo puts it back.)`)) write({ kind: "gm_remove_creature", target: id });
  }

  function addEffect() {
    const edit = { kind: "gm_effect", target: target(), name: txt("gm-effect-name"), rounds: num("gm-effect-rounds") };
    if (num("gm-effect-attack")) edit.attack = num("gm-effect-attack");
    if (num("gm-effect-ac")) edit.ac = num("gm-effect-ac");
    if (txt("gm-effect-condition")) edit.condition = txt("gm-effect-condition");
    write(edit);
  }

  function callSave() {
    const which = $("gm-save").value;
    const dc = num("gm-dc");
    const edit = which === "check" ? { kind: "gm_check", target: target(), skill: txt("gm-skill"), dc }
      : { kind: "gm_save", target: target(), save: which, dc };
    const d20 = num("gm-d20");
    write(edit, d20 === null ? [] : [`d20=${d20}`]);
  }

  function addCreature() {
    const creature = { id: txt("gm-new-id"), side: txt("gm-new-side"), position: [num("gm-new-c"), num("gm-new-r")] };
    if ($("gm-new-stats").value) creature.stats = $("gm-new-stats").value;
    else {
      try {
        creature.stats = JSON.parse(txt("gm-new-inline") || "{}");
      } catch (err) {
        say(`the inline stat block is not JSON: ${err.message}`, true);
        return;
      }
    }
    if (num("gm-new-init") !== null) creature.initiative = num("gm-new-init");
    write({ kind: "gm_add_creature", creature });
  }

  // Picking a square: the next click on the map fills column and row (the map's own handler does not see it).
  function pick() {
    G.picking = true;
    say("click a square on the map…");
  }

  document.addEventListener("click", (ev) => {
    if (!G.picking) return;
    const svg = $("map");
    if (!svg || !svg.contains(ev.target)) return;
    ev.stopPropagation();
    ev.preventDefault();
    G.picking = false;
    const layer = svg.querySelector("g.terrain") || svg;
    const m = layer.getScreenCTM();
    if (!m) return;
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
    const cell = 34; const margin = 18;
    $("gm-new-c").value = Math.floor((p.x - margin) / cell);
    $("gm-new-r").value = Math.floor((p.y - margin) / cell);
    say(`square (${$("gm-new-c").value}, ${$("gm-new-r").value})`);
  }, true);

  // ------------------------------------------------------------------ reading
  function render() {
    const st = G.state;
    if (!st) return;
    const select = $("gm-target");
    const keep = select.value;
    select.replaceChildren(...st.combatants.map((c) => h("option", { value: c.id },
      `${c.name}${c.name !== c.id ? ` (${c.id})` : ""}${c.conditions.includes("hidden") ? " · hidden" : ""}`)));
    if (st.combatants.some((c) => c.id === keep)) select.value = keep;
    else if (st.active) select.value = st.active;
    $("gm-sides").replaceChildren(...[...new Set(st.combatants.map((c) => c.side))].map((s) => h("option", { value: s })));
    renderEffects();
  }

  function renderEffects() {
    const st = G.state;
    const c = st && st.combatants.find((x) => x.id === target());
    const list = $("gm-effect-list");
    list.replaceChildren(...(c ? c.effects : []).map((e) => h("li", {},
      `${e.name} (until ${e.anchor}'s turn, round ${e.until_round})`,
      h("button", { type: "button", class: "link", testid: `gm-end-${e.name}`,
        onclick: () => write({ kind: "gm_end_effect", target: c.id, name: e.name }) }, "end"))));
  }

  async function load() {
    G.state = await api("GET", `${API}/state?view=gm`);
    render();
  }

  async function main() {
    build();
    try {
      G.bestiary = await api("GET", "/api/bestiary");
    } catch {
      G.bestiary = [];
    }
    $("gm-new-stats").replaceChildren(...G.bestiary.map((n) => h("option", { value: n }, n)),
      h("option", { value: "" }, "inline stat block…"));
    await load().catch((err) => say(err.message, true));
    const version = $("version");
    if (version) {
      new MutationObserver(() => {
        if (G.state && version.textContent !== String(G.state.version)) load().catch(() => {});
      }).observe(version, { childList: true, characterData: true, subtree: true });
    }
  }

  main();
})();

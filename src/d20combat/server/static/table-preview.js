// The GM's preview of the move or the attack chosen on the map, with its buttons (move, 5-ft step, attack, charge).
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const { $, S, h, sq, signed, pct, creature, nameOf, showError, guard, loadAttack, act } = T;

  function renderPreview() {
    const panel = $("preview");
    panel.replaceChildren();
    const sel = S.selected;
    if (sel && sel.type === "mover" && S.move) {
      panel.hidden = false;
      panel.dataset.testid = "move-preview";
      const { to, data, via } = S.move;
      const step = T.stepOptions().find((a) => a.to[0] === to[0] && a.to[1] === to[1]);
      panel.append(h("h2", {}, `Move ${nameOf(sel.id)} to ${sq(to)}`));
      if (via && via.length) {
        panel.append(h("p", { testid: "move-via" }, `through ${via.map(sq).join(", ")} `,
          h("button", { type: "button", class: "link small", testid: "clear-waypoints", onclick: T.clearWaypoints },
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
          T.renderOverlay();
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
            T.openDice({ title: `${nameOf(sel.attacker)} attacks ${nameOf(sel.target)}`,
              what: `${sel.attack || "wielded weapon"} — ${signed(p.bonus || 0)} vs ${p.defense_name} ${p.target_number}`,
              probe: { action }, send: (d) => act(action, d) });
          } }, "Attack…"),
        ...((S.charge && S.charge.ends) || []).filter((e) => e.legal).map((e) => h("button", {
          type: "button", testid: `charge-${e.to[0]}-${e.to[1]}`,
          title: e.provokes.length ? `provokes ${e.provokes.map((p) => nameOf(p.by)).join(", ")}` : "provokes no one",
          onclick: () => {
            const action = { kind: "charge", target: sel.target, to: e.to };
            T.openDice({ title: `${nameOf(sel.attacker)} charges ${nameOf(sel.target)}`, what: `from ${sq(e.to)}`,
              probe: { action }, send: (d) => act(action, d) });
          } }, `Charge from ${sq(e.to)}${e.provokes.length ? " !" : ""}`)),
        h("button", { type: "button", testid: "attack-cancel", onclick: () => {
          S.selected = null;
          S.attack = null;
          T.render();
        } }, "Cancel")));
      return;
    }
    panel.hidden = true;
    panel.dataset.testid = "preview";
  }
  Object.assign(T, { renderPreview });
})();

// Off-turn reactions at the table (issue 16; docs/api.md "Reactions left"): the tracker's "reactions 1/2" chip for
// every creature whose ruleset gives a per-round pool (worlds-of-adventure's combat reactions, WOA-REACT-02; epic-
// path's attack of opportunity) — the GM sees all, the players' page its own side (the server leaves the others
// null) — and what the reaction prompt panel adds to the engine's prompt: the reactor's budget left, each option's
// value from the prompt's detail as the button's title (WOA's "block: DR 5 (…)", "dodge: +3 AC (…)"), and an
// "AI answers" button (POST /ai with until "reaction": the tactical AI answers this one prompt, whichever side's).
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const { GM, h, creature, nameOf, guard } = T;

  const POOL_NAMES = { aoo: "AoO", reactions: "reactions" };

  function poolName(pool) {
    return POOL_NAMES[pool] || pool.replace(/_/g, " ");
  }

  function gone(c) {
    return T.isDown(c) || c.status === "fled" || c.status === "surrendered";
  }

  // "reactions 1/2": left this round / the round's budget (dimmed when none is left).
  function chip(c) {
    const r = c.reactions;
    if (!r || gone(c)) return null;
    return h("span", { class: `chip reactions${r.left > 0 ? "" : " spent"}`, testid: `reactions-${c.id}`,
      title: `${poolName(r.pool)} left this round: ${r.left} of ${r.budget} (refreshed at the start of each round)` },
    `${poolName(r.pool)} ${r.left}/${r.budget}`);
  }

  // The reactor's budget, told in the prompt panel (an attack of opportunity's prompt carries no detail of its own).
  function budgetLine(p) {
    const c = creature(p.reactor);
    const r = c && c.reactions;
    if (!r) return null;
    const name = poolName(r.pool);
    return h("p", { class: "small budget", testid: "reaction-budget" },
      `${nameOf(p.reactor)}: ${r.left} of ${r.budget} ${name} left this round`
      + (r.left ? `; answering spends one` : ""));
  }

  // Each option's part of the detail ("block: DR 5 (½ warrior level 6 …)"), for the button's title.
  function optionTitle(p, opt) {
    const part = (p.detail || "").split("; ").find((s) => s.startsWith(`${opt}:`));
    return part || null;
  }

  function aiButton() {
    if (!GM) return null;
    return h("button", { type: "button", testid: "reaction-ai",
      title: "the tactical AI answers this reaction (its preference: block a big hit, dodge when surrounded, keep "
        + "the last reaction for an attack of opportunity…)",
      onclick: () => guard(() => T.aiPlay("reaction")) }, "AI answers");
  }

  Object.assign(T, { reactions: { chip, budgetLine, optionTitle, aiButton, poolName } });
})();

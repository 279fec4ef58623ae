// A creature's effective numbers for the tracker (issue 13, item 6): renders the `stats` of a combatant of
// GET /api/encounters/{id}/state (docs/api.md) — ability modifiers, the target numbers, speed and saves under its
// conditions, each with its explanation ("Str +2 (17, fatigued −2)", "AC 17 = 10 + armor 4 + shield 2 + Dex 1").
// The players' view carries stats only for the players' own characters (null for everyone else): nothing is drawn.
//   D20.renderStats(stats) → an Element (or null): a compact line per group, each number's explanation as its
//   tooltip, and every explanation written out in a <details> for touch screens.
"use strict";
(() => {
  const ABILITIES = ["str", "dex", "con", "int", "wis", "cha"];
  const LABEL = { str: "Str", dex: "Dex", con: "Con", int: "Int", wis: "Wis", cha: "Cha",
                  fort: "Fort", ref: "Ref", will: "Will", death: "Death" };
  const signed = (n) => (n >= 0 ? `+${n}` : `−${Math.abs(n)}`);

  function renderStats(stats, doc) {
    const d = doc || document;
    if (!stats) return null;
    const root = d.createElement("div");
    root.className = "stats";
    root.dataset.testid = "stats";
    const all = [];

    function line(name, items) {
      const row = d.createElement("div");
      row.className = `stats-${name}`;
      items.forEach(([key, text, stat], i) => {
        if (i) row.append(" · ");
        const span = d.createElement("span");
        span.className = "stat";
        span.dataset.testid = `stat-${key}`;
        span.textContent = text;
        span.title = stat.explain;
        row.append(span);
        all.push(stat.explain);
      });
      root.append(row);
    }

    const target = (stats.ac.explain.split(" = ")[0] || "AC").replace(/\s*-?\d+$/, "");
    line("defense", [["ac", `${target} ${stats.ac.value}`, stats.ac],
      ...Object.entries(stats.defenses || {}).map(([k, s]) => [k, `${k} ${s.value}`, s]),
      ["speed", `${stats.speed.value} ft`, stats.speed]]);
    line("saves", Object.entries(stats.saves || {}).map(([k, s]) => [k, `${LABEL[k] || k} ${signed(s.value)}`, s]));
    line("abilities", ABILITIES.filter((a) => stats.abilities && stats.abilities[a])
      .map((a) => [a, `${LABEL[a]} ${signed(stats.abilities[a].value)}`, stats.abilities[a]]));

    const details = d.createElement("details");
    const summary = d.createElement("summary");
    summary.textContent = "why";
    details.append(summary);
    const list = d.createElement("ul");
    for (const text of all) {
      const li = d.createElement("li");
      li.textContent = text;
      list.append(li);
    }
    details.append(list);
    root.append(details);
    return root;
  }

  if (typeof window !== "undefined") window.D20 = Object.assign(window.D20 || {}, { renderStats });
  if (typeof module !== "undefined" && module.exports) module.exports = { renderStats };
})();

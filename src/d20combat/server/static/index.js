// The encounter list: GET /api/encounters, GET /api/examples, POST /api/encounters (docs/api.md).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);

  const { api } = window.D20;


  function showError(err) {
    const el = $("error");
    el.textContent = err ? String(err.message || err) : "";
    el.hidden = !err;
  }

  function link(href, text, testid) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    a.dataset.testid = testid;
    return a;
  }

  async function loadEncounters() {
    const list = await api("GET", "/api/encounters");
    const body = $("encounters");
    body.replaceChildren();
    for (const s of list) {
      const tr = document.createElement("tr");
      tr.dataset.testid = `encounter-${s.id}`;
      const cells = [s.name, s.ruleset, s.round,
        s.ended ? `ended${s.winner ? ` — ${s.winner} win` : ""}` : "in play", s.version];
      for (const v of cells) {
        const td = document.createElement("td");
        td.textContent = v === null || v === undefined ? "" : String(v);
        tr.append(td);
      }
      const td = document.createElement("td");
      const id = encodeURIComponent(s.id);
      td.append(link(`/table/${id}`, "GM table", `open-table-${s.id}`), " · ",
        link(`/player/${encodeURIComponent(s.player_id)}`, "player view", `open-player-${s.id}`));
      tr.append(td);
      body.append(tr);
    }
    $("empty").hidden = list.length > 0;
  }

  async function loadExamples() {
    const examples = await api("GET", "/api/examples");
    const sel = $("example");
    sel.replaceChildren();
    for (const name of examples) {
      const opt = document.createElement("option");
      opt.value = name;
      opt.textContent = name;
      sel.append(opt);
    }
  }

  $("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    showError(null);
    const body = { example: $("example").value };
    const seed = $("seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    const name = $("name").value.trim();
    if (name) body.name = name;
    const players = $("players").value.trim();
    if (players) body.players = players;
    try {
      await api("POST", "/api/encounters", body);
      await loadEncounters();
    } catch (err) {
      showError(err);
    }
  });

  Promise.all([loadExamples(), loadEncounters()]).catch(showError).finally(() => {
    document.body.dataset.ready = "1";
  });
})();

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
        link(`/player/${encodeURIComponent(s.player_id)}`, "player view", `open-player-${s.id}`), " · ",
        button("rename", `rename-${s.id}`, () => rename(s)), " · ",
        button("export", `export-${s.id}`, () => exportOne(s)), " · ",
        button("delete", `delete-${s.id}`, () => remove(s)));
      tr.append(td);
      body.append(tr);
    }
    $("empty").hidden = list.length > 0;
  }

  function button(text, testid, onclick) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "link";
    b.textContent = text;
    b.dataset.testid = testid;
    b.addEventListener("click", () => Promise.resolve(onclick()).catch(showError));
    return b;
  }

  async function rename(s) {
    const name = window.prompt("New name", s.name);
    if (name === null || !name.trim()) return;
    await api("PATCH", `/api/encounters/${encodeURIComponent(s.id)}`, { name: name.trim(), expected_version: s.version });
    await loadEncounters();
  }

  async function remove(s) {
    if (!window.confirm(`Delete “${s.name}” and its whole history? This cannot be undone.`)) return;
    await api("DELETE", `/api/encounters/${encodeURIComponent(s.id)}`);
    await loadEncounters();
  }

  async function exportOne(s) {
    const data = await api("GET", `/api/encounters/${encodeURIComponent(s.id)}/export`);
    const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `${s.name.replace(/[^\w.-]+/g, "-") || "encounter"}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }

  // Upload: a scenario (YAML or JSON) makes a new encounter; an export (JSON with "events") is imported,
  // verified by replaying it.
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    showError(null);
    try {
      const text = await file.text();
      let data = null;
      try { data = JSON.parse(text); } catch (_) { data = null; }
      if (data && typeof data === "object" && Array.isArray(data.events)) {
        await api("POST", "/api/encounters/import", data);
      } else {
        await api("POST", "/api/encounters", { scenario_yaml: text });
      }
      await loadEncounters();
    } catch (err) {
      showError(new Error(`${file.name}: ${err.message || err}`));
    }
  });

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

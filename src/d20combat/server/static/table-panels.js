// The page's panels: header, initiative tracker, reaction prompt, controls, the move/attack preview, log.
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const {
    GM, API, REFUSALS, $, S, api, h, s, sq, signed, pct, creature, nameOf, playersSide, sideColour, myTurn,
    showError, guard, refresh, loadAttack, act, react
  } = T;

  const STATS_OPEN = new Set(); // the tracker rows whose effective numbers are shown

  // ------------------------------------------------------------------ rendering: panels
  function render() {
    if (!S.state) return;
    renderHeader();
    T.renderMap();
    renderTracker();
    renderPrompt();
    renderLog();
    T.ep.render();
    T.woa.render();
    if (GM) {
      renderControls();
      T.renderPreview();
    }
  }

  function renderHeader() {
    const st = S.state;
    document.title = `${st.name} — ${GM ? "GM table" : "players"}`;
    $("title").textContent = st.name;
    $("view-badge").textContent = GM ? "GM" : "players' view";
    $("round").textContent = st.round;
    $("surprise").hidden = !st.surprise_round;
    $("surprise").textContent = st.surprise_phase || "surprise round";
    $("active").textContent = st.active ? nameOf(st.active) : "–";
    $("version").textContent = st.version;
    const other = $("other-view");
    if (GM && S.summary && S.summary.player_id) {
      other.href = `/player/${encodeURIComponent(S.summary.player_id)}`;
      other.textContent = "players' view ↗";
      other.target = "_blank";
      other.title = `the players' link: ${location.origin}${other.getAttribute("href")}`;
      $("copy-players").onclick = () => {
        const url = `${location.origin}${other.getAttribute("href")}`;
        const done = () => { $("copy-players").textContent = "copied ✓"; };
        if (navigator.clipboard) navigator.clipboard.writeText(url).then(done, () => window.prompt("the players' link", url));
        else window.prompt("the players' link", url);
      };
    } else {
      other.hidden = true;
    }
    const banner = $("banner");
    if (st.ended) {
      // The end reason already names the winner ("heroes win — every foe is down…"): say it once.
      const why = st.end_reason || (st.winner ? `${st.winner} win` : "");
      banner.textContent = `The encounter is over${why ? `: ${why}` : ""}.`;
      banner.hidden = false;
    } else {
      banner.hidden = true;
    }
  }

  function effectText(e, round) {
    const left = e.until_round - round;
    const when = left <= 0 ? "ends this round" : `${left} round${left === 1 ? "" : "s"} left`;
    return `${e.name} — until round ${e.until_round}, before ${nameOf(e.anchor)}'s turn (${when})`;
  }

  // The GM's word over the rules of sight: a revealed creature is on the players' screen whatever they see.
  function revealButton(id) {
    const on = (S.state.revealed || []).includes(id);
    return h("button", { type: "button", class: `small reveal${on ? " on" : ""}`, testid: `reveal-${id}`,
      title: on ? "revealed to the players: click to let the rules decide again"
        : "the players see it only if their side can (hidden, invisible, darkness): click to reveal it",
      onclick: (ev) => {
        ev.stopPropagation();
        api("POST", `${API}/reveal`, { combatant: id, revealed: !on }).then(() => refresh()).catch(showError);
      } }, on ? "revealed" : "reveal");
  }

  function renderTracker() {
    const st = S.state;
    const body = $("tracker");
    body.replaceChildren();
    const present = new Set(st.combatants.map((c) => c.id));
    const ids = st.order.filter((id) => present.has(id));
    for (const c of st.combatants) if (!ids.includes(c.id)) ids.push(c.id);
    for (const id of ids) {
      const c = creature(id);
      const active = id === st.active;
      const hp = c.hp === null || c.hp === undefined
        ? h("span", { class: "muted", title: "hidden from the players" }, "—")
        : h("span", {}, h("b", {}, c.hp), ` / ${c.max_hp}`,
          h("span", { class: "minibar" }, h("span", {
            class: c.hp / c.max_hp > 0.5 ? "ok" : c.hp > 0 ? "low" : "out",
            style: `width:${Math.max(0, Math.min(100, (100 * c.hp) / (c.max_hp || 1)))}%` })));
      const chips = [
        ...c.conditions.map((n, i) => h("span", { class: "chip cond", title: n, testid: `cond-${id}-${n}` },
          (c.labels && c.labels[i]) || n)),
        ...(c.effects || []).map((e) => {
          const ep = T.ep.effectChip(e); // readied, holding: short chips, the whole text as the title
          return h("span", { class: `chip effect${ep ? ` ${ep.text}` : ""}`, title: ep ? ep.title : effectText(e, st.round),
            testid: `effect-${id}-${ep ? ep.text : e.name}` }, `${ep ? ep.text : e.name} ${Math.max(0, e.until_round - st.round)}r`,
          h("span", { class: "until" }, ` →r${e.until_round}`));
        }),
        T.ep.apChip(c),
        T.reactions.chip(c),
        T.woa.chip(c),
      ].filter(Boolean);
      const tr = h("tr", { class: `${active ? "active " : ""}status-${c.status}${GM ? " clickable" : ""}`,
        testid: `init-${id}`, onclick: GM ? () => T.selectCreature(id) : null },
      h("td", { class: "marker" }, active ? "▶" : ""),
      h("td", { class: "who" }, h("span", { class: "dot", style: `background:${sideColour(c.side)}` }), ` ${c.name}`,
        c.name.toLowerCase() !== c.id.toLowerCase() ? h("span", { class: "muted small" }, ` ${c.id}`) : null,
        GM && c.side !== playersSide() ? revealButton(c.id) : null,
        c.stats ? h("button", { type: "button", class: "link small", testid: `stats-toggle-${id}`,
          title: "effective numbers under its conditions", "aria-expanded": STATS_OPEN.has(id) ? "true" : "false",
          onclick: (ev) => { ev.stopPropagation(); STATS_OPEN.has(id) ? STATS_OPEN.delete(id) : STATS_OPEN.add(id);
            renderTracker(); } }, "stats") : null),
      h("td", { class: "num", testid: `init-value-${id}`, title: T.woa.initiativeTitle(id) }, c.initiative ?? "–"),
      h("td", { class: "hp-col", testid: `hp-${id}` }, hp),
      h("td", {}, h("span", { class: `badge status ${c.status}`, testid: `status-${id}` }, c.status)),
      h("td", { class: "chips" }, h("div", {}, chips)));
      body.append(tr);
      if (c.stats && STATS_OPEN.has(id)) {
        body.append(h("tr", { class: "stats-row", testid: `stats-${id}` },
          h("td", {}), h("td", { colspan: 5 }, window.D20.renderStats(c.stats), c.action_points === null
            || c.action_points === undefined ? null : h("p", { class: "small", testid: `stats-ap-${id}` },
            `action points: ${c.action_points} (one a combat, spent for this combat round's benefit)`))));
      }
    }
  }

  function renderPrompt() {
    const st = S.state;
    const panel = $("prompt");
    const p = st.pending || (S.decision && S.decision.prompt) || null;
    panel.replaceChildren();
    panel.hidden = !p;
    if (!p) return;
    const reactor = creature(p.reactor);
    if (!GM) {
      panel.append(...[h("h2", {}, "Reaction"),
        h("p", {}, reactor ? `${reactor.name} may react: ${p.trigger}` : "The GM is resolving a reaction…"),
        reactor ? T.reactions.budgetLine(p) : null].filter(Boolean));
      return;
    }
    const kind = p.kind.replace(/_/g, " ");
    panel.append(...[
      h("h2", {}, `Reaction — ${nameOf(p.reactor)}`),
      h("p", { class: "kind" }, kind),
      h("p", { testid: "reaction-trigger" }, p.trigger),
      p.detail ? h("pre", { class: "detail", testid: "reaction-detail" }, p.detail) : null,
      T.reactions.budgetLine(p),
      h("div", { class: "buttons" }, ...p.options.map((opt) => h("button", {
        type: "button", testid: `reaction-${opt}`, class: REFUSALS.has(opt) ? "" : "primary",
        title: T.reactions.optionTitle(p, opt),
        onclick: () => {
          if (REFUSALS.has(opt)) {
            guard(() => react(opt, []));
          } else {
            T.openDice({ title: `${nameOf(p.reactor)}: ${opt}`, what: p.trigger, probe: { answer: opt },
              send: (d) => react(opt, d) });
          }
        },
      }, opt)), T.reactions.aiButton())].filter(Boolean));
  }

  function actionLabel(a) {
    switch (a.kind) {
      case "attack": return `Attack ${nameOf(a.target)}${a.attack ? ` with ${a.attack}` : ""}`;
      case "charge": return `Charge ${nameOf(a.target)}${a.to ? ` to ${sq(a.to)}` : ""}`;
      case "step": return `5-ft step to ${sq(a.to)}`;
      case "minimum_move": return `Minimum move to ${sq(a.to)}`;
      case "draw": return `Draw ${a.attack}`;
      case "reload": return `Reload ${a.attack}`;
      case "sheathe": return "Sheathe";
      case "shield": return `Shield: ${a.op}`;
      case "stand_up": return "Stand up";
      case "get_up": return `${a.to === "crouching" ? "Rise into a crouch" : "Get up"}${a.slowly ? " slowly" : ""}`;
      case "drop_prone": return "Drop prone";
      case "drop_item": return `Drop ${a.item}`;
      case "activity": return `${a.name}`;
      default: {
        const fields = Object.entries(a).filter(([k, v]) => k !== "kind" && v !== null && v !== undefined
          && !(Array.isArray(v) && v.length === 0))
          .map(([k, v]) => `${k}=${Array.isArray(v) ? sq(v) : v}`);
        return `${a.kind.replace(/_/g, " ")}${fields.length ? ` (${fields.join(", ")})` : ""}`;
      }
    }
  }

  function renderControls() {
    const st = S.state;
    const d = S.decision;
    const actor = creature(st.active);
    const turn = st.turn;
    const info = $("turn-info");
    info.replaceChildren();
    if (st.ended) {
      info.append("The encounter is over.");
    } else if (turn && actor) {
      const pools = (turn.pool_labels && turn.pool_labels.length ? turn.pool_labels
        : Object.entries(turn.pools || {}).map(([k, v]) => `${k} ${v}`)).join(" · ");
      info.append(h("b", {}, nameOf(actor.id)), ` — ${pools}`,
        turn.moved ? " · has moved" : "", turn.stepped ? " · took a 5-ft step" : "");
    }
    const canAct = myTurn();
    $("end-turn").disabled = !canAct || T.woa.declaring();
    $("ai-turn").disabled = !canAct;
    $("ai-monsters").disabled = !canAct || (actor && actor.side === S.summary?.players);
    const hist = st.history || {};
    $("undo").disabled = !hist.undo;
    $("undo").title = hist.undo ? `undo: ${hist.undo} (key: u)` : "nothing to undo";
    $("redo").disabled = !hist.redo;
    $("redo").title = hist.redo ? `redo: ${hist.redo} (key: r)` : "nothing to redo";
    renderHint();
    const list = $("actions");
    list.replaceChildren();
    if (!d || !canAct) return;
    const options = d.options || [];
    const moves = options.filter((a) => a.kind === "move").length;
    if (moves) {
      list.append(h("li", { class: "muted" }, `move: ${moves} square${moves === 1 ? "" : "s"} — click ${nameOf(actor.id)}`));
    }
    options.forEach((a, i) => {
      if (a.kind === "move" || a.kind === "end_turn" || a.kind === "declare") return; // declare: the Declare card
      const onclick = () => {
        if (a.kind === "attack") {
          S.selected = { type: "target", attacker: st.active, target: a.target, attack: a.attack || null };
          S.moves = null;
          S.move = null;
          S.attack = null;
          render();
          loadAttack().catch(showError);
        } else {
          // Ask the engine whether this action rolls a die now: if it does, the GM may type it.
          guard(async () => {
            const probe = await api("POST", `${API}/preview/dice`, { action: a, dice: [] });
            if (probe.next) {
              T.openDice({ title: label, what: `${nameOf(actor.id)}: ${label}`, probe: { action: a },
                send: (dd) => act(a, dd) });
            } else {
              await act(a, []);
            }
          });
        }
      };
      const label = (d.labels && d.labels[i]) || actionLabel(a);
      list.append(h("li", {}, h("button", { type: "button", class: `act kind-${a.kind}`, testid: `action-${i}`,
        "data-kind": a.kind, onclick }, label)));
    });
  }

  function renderHint() {
    if (!GM) return;
    const st = S.state;
    const hint = $("hint");
    const actor = creature(st.active);
    if (st.ended || !actor) hint.textContent = "";
    else if (T.woa.declaring()) hint.textContent = T.woa.hint();
    else if (st.pending) hint.textContent = `Waiting for ${nameOf(st.pending.reactor)}'s reaction (see the panel).`;
    else if (S.selected && S.selected.type === "mover") {
      const via = S.via.length ? ` ${S.via.length} waypoint${S.via.length === 1 ? "" : "s"}: the path passes `
        + "them in order." : "";
      hint.textContent = (S.moves
        ? `${S.moves.size} squares in reach (cost in feet; "!" provokes). Hover for the path, click a square to move; `
          + "shift+click adds a waypoint; arrows or hjkl step a cursor, Enter moves."
        : "Loading the reachable squares…") + via
        + (S.waypointMode ? " Waypoint mode: clicks add waypoints — turn it off to pick the destination." : "");
    } else {
      hint.textContent = `Click ${nameOf(actor.id)} to see where it can move; click an enemy to preview an attack.`;
    }
  }

  let lastLogSeq = null;
  function renderLog() {
    const list = $("log");
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    list.replaceChildren(...S.log.filter((e) => e.text && e.text.trim()).map((e) => h("li", { class: `ev ev-${e.kind}`, testid: "log-entry",
      "data-seq": e.seq, "data-kind": e.kind }, e.text)));
    const newest = S.log.length ? S.log[S.log.length - 1].seq : null;
    if (atBottom || newest !== lastLogSeq) list.scrollTop = list.scrollHeight;
    lastLogSeq = newest;
  }

  Object.assign(T, {
    render, renderHeader, effectText, revealButton, renderTracker, renderPrompt, actionLabel, renderControls,
    renderHint, renderLog
  });
})();

// The dice dialog of the GM's table: the engine names the dice, in its own order, one at a time.
// A part of the table page (static/table.js holds the state and the requests; see there).
"use strict";
(() => {
  const T = window.D20.table;
  const { API, $, S, ApiError, api, h, s, nameOf, showError, guard, refresh, react } = T;

  // ------------------------------------------------------------------ the dice dialog
  // The engine names the dice, in its own order, one at a time (POST …/preview/dice): a miss rolls no damage,
  // a threat rolls a confirmation, off-guard's concealment d% comes after a hit. Each face typed asks it again.
  const dice = { send: null, probe: null, seq: 0 };

  function dieName(sides) { return sides === 100 ? "d%" : `d${sides}`; }

  function diceRow(i, die) {
    const input = h("input", { type: "number", inputmode: "numeric", step: 1, min: 1, max: die.sides,
      testid: `die-${i}`, "data-sides": die.sides, "data-purpose": die.purpose, placeholder: "auto",
      "aria-label": `${dieName(die.sides)} for ${die.purpose}`, value: die.face ?? null });
    input.addEventListener("change", () => probeDice().catch(diceError));
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && input.value.trim() !== "" && !input.dataset.done) {
        e.preventDefault();
        input.dataset.done = "1";
        probeDice().catch(diceError);
      }
    });
    return h("li", { testid: `die-row-${i}` }, h("b", {}, dieName(die.sides)), " = ", input,
      h("span", { class: "muted" }, ` ${die.purpose}`));
  }

  function diceError(ex) {
    const err = $("dice-error");
    err.textContent = ex ? (ex.message || String(ex)) : "";
    err.hidden = !ex;
  }

  async function probeDice() {
    const typed = typedDice(true);
    const mine = ++dice.seq;
    const r = await api("POST", `${API}/preview/dice`, { ...dice.probe, dice: typed });
    if (mine !== dice.seq) return;
    const rows = $("dice-rows");
    rows.replaceChildren(...r.typed.map((d, i) => diceRow(i, d)));
    let next = null;
    if (r.next) {
      next = diceRow(r.typed.length, r.next);
      rows.append(next);
    }
    $("dice-next").textContent = r.prompt
      ? `Then ${nameOf(r.prompt.reactor)} may react (${r.prompt.trigger}): the dice after that depend on the answer.`
      : (r.complete ? "Every die of this action is typed." : "");
    diceError(r.error ? new Error(r.error) : null);
    if (next) next.querySelector("input").focus();
  }

  function openDice({ title, what, probe, send }) {
    $("dice-title").textContent = title;
    $("dice-what").textContent = what || "";
    $("dice-rows").replaceChildren();
    $("dice-next").textContent = "";
    document.querySelector('input[name="dice-mode"][value="auto"]').checked = true;
    $("dice-typed").hidden = true;
    diceError(null);
    $("dice-go").disabled = false;
    $("dice-go").textContent = "Roll";
    dice.send = send;
    dice.probe = probe;
    $("dice").showModal();
  }

  for (const radio of document.querySelectorAll('input[name="dice-mode"]')) {
    radio.addEventListener("change", () => {
      const typed = document.querySelector('input[name="dice-mode"]:checked').value === "typed";
      $("dice-typed").hidden = !typed;
      $("dice-go").textContent = typed ? "Send the dice" : "Roll";
      if (typed) probeDice().catch(diceError);
    });
  }

  function typedDice(always) {
    if (!always && document.querySelector('input[name="dice-mode"]:checked').value !== "typed") return [];
    const out = [];
    let gap = null;
    for (const input of $("dice-rows").querySelectorAll("input")) {
      const sides = Number(input.dataset.sides);
      const face = input.value.trim();
      if (face === "") {
        gap = gap || dieName(sides);
      } else if (gap) {
        // typed dice are used in the order the engine asks for them: only the trailing ones may be left out
        throw new Error(`type the ${gap} above too, or leave every die after it empty: the server rolls `
          + "only the dice after the last typed one");
      } else {
        out.push(`d${sides}=${face}`);
      }
    }
    return out;
  }

  $("dice-cancel").addEventListener("click", () => $("dice").close());
  $("dice-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!dice.send || S.busy) return;
    const err = $("dice-error");
    err.hidden = true;
    $("dice-go").disabled = true;
    S.busy = true;
    try {
      const typed = typedDice();
      await dice.send(typed);
      $("dice").close();
      showError(null);
    } catch (ex) {
      err.textContent = ex.message || String(ex);
      err.hidden = false;
      if (ex instanceof ApiError && ex.status === 409) await refresh().catch(() => {});
    } finally {
      S.busy = false;
      $("dice-go").disabled = false;
    }
  });

  Object.assign(T, { dieName, diceRow, diceError, probeDice, openDice, typedDice });
})();

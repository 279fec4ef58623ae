// Keyboard shortcuts for the game master's table (issue 13, item 3). They only click existing buttons (found by
// data-testid), so the page's own handlers (table.js) do the work and keep their checks (disabled, busy, …).
//   e end turn · u undo · r redo · Enter the preview's primary button (Move here / 5-ft step here / Attack…) · ? this help
//   + − 0 zoom the map in, out, back to the whole map (static/mapview.js)
// Stepping the current actor's destination square by square (arrows, h j k l, diagonals on Home PgUp End PgDn or the
// number pad; w adds a waypoint) is table.js's: it needs the page's state. The roguelike y u b n diagonals are not
// used: u is undo.
// Keys are ignored while typing (inputs, selects, text areas), while a dialog is open, with Ctrl/Alt/Meta held,
// and on the players' screen (/player/…).
(() => {
  "use strict";
  if (location.pathname.split("/").filter(Boolean)[0] !== "table") return;

  const KEYS = [
    ["e", "end turn", "end-turn"],
    ["u", "undo", "undo"],
    ["r", "redo", "redo"],
    ["← ↑ → ↓ or h k l j", "step the current actor's destination one square (the path and cost are previewed)", null],
    ["Home PgUp End PgDn", "step diagonally (or the number pad: 7 9 1 3; 8 4 6 2 straight)", null],
    ["w", "make the stepped square a waypoint (or shift+click a square)", null],
    ["Enter", "confirm the preview: Move here / 5-ft step here / Attack…", null],
    ["+ − 0", "zoom the map in, out, whole map (Ctrl+wheel zooms, the wheel or a drag pans)", null],
    ["Esc", "cancel the selection", null],
    ["?", "show or hide this help", null],
  ];

  const byTestid = (id) => document.querySelector(`[data-testid="${id}"]`);
  const visible = (el) => !!el && !el.disabled && el.getClientRects().length > 0;

  let help = null;
  function toggleHelp(force) {
    if (!help) {
      help = document.createElement("section");
      help.className = "card keys-help";
      help.dataset.testid = "keys-help";
      help.setAttribute("role", "dialog");
      help.setAttribute("aria-label", "keyboard shortcuts");
      help.hidden = true;
      const title = document.createElement("h2");
      title.textContent = "Keyboard shortcuts";
      const table = document.createElement("table");
      for (const [key, what] of KEYS) {
        const row = table.insertRow();
        const k = document.createElement("kbd");
        k.textContent = key;
        row.insertCell().append(k);
        row.insertCell().textContent = what;
      }
      const hint = document.createElement("p");
      hint.className = "hint";
      hint.textContent = "Keys are ignored while typing or while a dialog is open.";
      help.append(title, table, hint);
      document.body.append(help);
    }
    help.hidden = force === undefined ? !help.hidden : !force;
  }

  function typing(target) {
    if (!(target instanceof Element)) return false;
    return !!target.closest("input, textarea, select, [contenteditable=''], [contenteditable='true']");
  }

  function dialogOpen() {
    return !!document.querySelector("dialog[open]");
  }

  function previewPrimary() {
    const panel = document.getElementById("preview");
    if (!panel || panel.hidden) return null;
    for (const id of ["move-here", "step-here", "attack-button"]) {
      const b = panel.querySelector(`[data-testid="${id}"]`);
      if (visible(b)) return b;
    }
    return null;
  }

  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.altKey || e.metaKey || e.isComposing) return;
    if (typing(e.target) || dialogOpen()) return;
    if (e.key === "?") {
      e.preventDefault();
      toggleHelp();
      return;
    }
    if (e.key === "Escape" && help && !help.hidden) {
      toggleHelp(false);
      return;
    }
    if (e.key === "Enter") {
      // a focused button or link already answers Enter itself
      if (e.target instanceof Element && e.target.closest("button, a[href]")) return;
      const b = previewPrimary();
      if (b) {
        e.preventDefault();
        b.click();
      }
      return;
    }
    const zoom = { "+": "zoom-in", "=": "zoom-in", "-": "zoom-out", "0": "zoom-reset" }[e.key];
    if (zoom && !/^Numpad\d$/.test(e.code)) {
      const b = byTestid(zoom);
      if (visible(b)) {
        e.preventDefault();
        b.click();
      }
      return;
    }
    if (e.shiftKey) return;
    const entry = KEYS.find(([key, , id]) => id && key === e.key.toLowerCase());
    if (!entry) return;
    const button = byTestid(entry[2]);
    if (visible(button)) {
      e.preventDefault();
      button.click();
    }
  });

  const link = byTestid("keys-link");
  if (link) link.addEventListener("click", () => toggleHelp());
})();

// nimbers playground: plain JavaScript, no build step, no library.  Every computation is a
// call to the JSON API (GET /api lists it); this file only draws and reacts to clicks.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

async function api(path, params = {}) {
  const query = new URLSearchParams(params).toString();
  const response = await fetch(path + (query ? "?" + query : ""));
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `error ${response.status}`);
  return data;
}

function showError(id, error) {
  $(id).textContent = error ? String(error.message || error) : "";
}

// Runs an async action, showing its error (if any) in the given box.
async function guarded(errorId, action) {
  showError(errorId, "");
  try {
    return await action();
  } catch (e) {
    showError(errorId, e);
    return undefined;
  }
}

// Answers may come back out of order (two workers): each kind of request keeps a counter,
// and an answer is drawn only if no newer request of its kind was sent meanwhile.
const sent = {};
function ticket(kind) {
  const mine = (sent[kind] = (sent[kind] || 0) + 1);
  return () => sent[kind] === mine;
}

function derivationLines(box, lines, notes = []) {
  box.replaceChildren(...lines.map((l) => el("div", { text: l })),
                      ...notes.map((n) => el("div", { class: "note", text: n })));
}

// ---- the text size ----------------------------------------------------------------------

// A- and A+ step through these sizes (a projector wants 150% or more); the size is kept in
// localStorage, and the tables' canvas is drawn to match it (and the screen's pixel density).
const TEXT_SCALES = [0.85, 1, 1.25, 1.5, 2, 2.5, 3];
const TEXT_SCALE_KEY = "nimbers.textScale";
let textScale = 1;

function storedTextScale() {
  try {  // storage may be refused (a private window, a file: page): the default then
    const s = Number(localStorage.getItem(TEXT_SCALE_KEY));
    return TEXT_SCALES.includes(s) ? s : 1;
  } catch (e) {
    return 1;
  }
}

function setTextScale(scale) {
  textScale = scale;
  document.documentElement.style.setProperty("--text-scale", String(scale));
  document.body.dataset.textScale = String(scale);
  $("small-text").disabled = scale === TEXT_SCALES[0];
  $("large-text").disabled = scale === TEXT_SCALES[TEXT_SCALES.length - 1];
  $("large-text").title = `larger text and tables, for a projector (now ${Math.round(scale * 100)}%)`;
  try { localStorage.setItem(TEXT_SCALE_KEY, String(scale)); } catch (e) { /* not kept */ }
  if (table && tableImage && tableImage.complete) paintTable();
}

function stepTextScale(step) {
  const i = TEXT_SCALES.indexOf(textScale) + step;
  if (i >= 0 && i < TEXT_SCALES.length) setTextScale(TEXT_SCALES[i]);
}

// ---- pages ------------------------------------------------------------------------------

const PAGES = ["calc", "tables", "play", "sequences", "api"];
const opened = new Set();

function showPage() {
  let name = location.hash.replace("#", "");
  if (!PAGES.includes(name)) name = "calc";
  for (const p of PAGES) {
    $("page-" + p).classList.toggle("active", p === name);
  }
  for (const b of document.querySelectorAll("#nav button")) {
    b.classList.toggle("active", b.dataset.page === name);
  }
  if (!opened.has(name)) {
    opened.add(name);
    ({ calc: calculate, tables: openTables, play: newGame, sequences: openSequences, api: listApi })[name]();
  }
}

function openTables() { drawTable(); loadMex(); drawPicture(); }
function openSequences() { plotHeap(); showTurning(); }

// ---- calculator -------------------------------------------------------------------------

const ONE_OPERAND = ["inv", "sqrt"];

async function calculate() {
  const op = $("calc-op").value;
  const params = { op, a: $("calc-a").value };
  if (!ONE_OPERAND.includes(op)) params.b = $("calc-b").value;
  $("calc-b-label").hidden = ONE_OPERAND.includes(op);
  const current = ticket("calc");
  const r = await guarded("calc-error", () => api("/api/calc", params));
  if (!current()) return;
  if (!r) {
    $("calc-result").replaceChildren();
    $("calc-derivation").replaceChildren();
    return;
  }
  const base = $("calc-base").value;
  const others = ["dec", "hex", "bin"].filter((b) => b !== base);
  $("calc-result").replaceChildren(
    el("div", { class: "big", id: "calc-value", text: r.result[base] }),
    ...others.map((b) => el("div", { class: "other", text: `${b}: ${r.result[b]}` })),
    el("div", { class: "other", text: `lies in GF(2^${r.field_bits})` + (r.check ? `;  check: ${r.check}` : "") }));
  derivationLines($("calc-derivation"), r.derivation, r.notes);
}

// ---- tables -----------------------------------------------------------------------------

let table = null;     // {op, n, rows}
let tableImage = null;

async function drawTable() {
  const op = $("tab-op").value;
  const n = Number($("tab-n").value);
  const current = ticket("table");
  const data = await guarded("tab-error", () => api("/api/table", { op, n }));
  if (!data || !current()) return;
  table = data;
  tableImage = new Image();
  tableImage.onload = paintTable;
  tableImage.src = `/api/table.png?op=${op}&n=${n}`;
}

let paintedRatio = window.devicePixelRatio || 1;

function paintTable() {
  const canvas = $("tab-canvas");
  const n = table.n;
  // a cell's size on the page (CSS pixels) grows with the text size; the canvas has one
  // pixel per device pixel (devicePixelRatio of them per CSS pixel), so digits stay sharp
  const base = Math.max(2, Math.floor(Math.min(768, Math.max(256, n * 28)) / n));
  const ratio = (paintedRatio = window.devicePixelRatio || 1);
  const cell = Math.max(2, Math.round(base * textScale * ratio));  // device pixels
  canvas.width = canvas.height = cell * n;
  canvas.style.width = `${(cell * n) / ratio}px`;
  const g = canvas.getContext("2d");
  g.imageSmoothingEnabled = false;
  g.drawImage(tableImage, 0, 0, cell * n, cell * n);
  if (cell / ratio >= 18) {  // the numbers, when they fit: white with a dark rim, legible on any colour
    g.font = `bold ${Math.floor(cell * 0.5)}px monospace`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.lineWidth = Math.max(2, cell * 0.09);
    g.lineJoin = "round";  // mitred corners of the rim poke into the digits
    g.strokeStyle = "#000";
    g.fillStyle = "#fff";
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const text = String(table.rows[a][b]);
        g.strokeText(text, b * cell + cell / 2, a * cell + cell / 2);
        g.fillText(text, b * cell + cell / 2, a * cell + cell / 2);
      }
    }
  }
  const sub = Number($("tab-sub").value);
  if (sub && sub < n) {  // the subfield's blocks: the first one is the subfield itself
    g.strokeStyle = "#ffffff";
    g.lineWidth = Math.max(1, cell / 8);
    for (let k = sub; k < n; k += sub) {
      g.beginPath(); g.moveTo(k * cell, 0); g.lineTo(k * cell, n * cell); g.stroke();
      g.beginPath(); g.moveTo(0, k * cell); g.lineTo(n * cell, k * cell); g.stroke();
    }
    g.strokeStyle = "#ff2d8a";
    g.lineWidth = Math.max(2, cell / 4);
    g.strokeRect(0, 0, sub * cell, sub * cell);
  }
  canvas.dataset.cell = cell / ratio;  // CSS pixels
  canvas.dataset.font = cell / ratio >= 18 ? Math.floor(cell * 0.5) / ratio : 0;  // CSS pixels
  $("tab-cell").textContent = `${table.op === "mul" ? "⊗" : "⊕"} table of 0 … ${n - 1}` +
    (sub && sub <= n ? `; outlined: the subfield GF(${sub}) of the numbers below ${sub}` : "");
  $("tab-derivation").replaceChildren();
}

function cellAt(canvas, event, n) {
  const rect = canvas.getBoundingClientRect();
  const b = Math.floor((event.clientX - rect.left) / rect.width * n);
  const a = Math.floor((event.clientY - rect.top) / rect.height * n);
  return a >= 0 && b >= 0 && a < n && b < n ? [a, b] : null;
}

async function explainCell(a, b, op, value, infoBox, derivationBox, errorId) {
  const sign = op === "mul" ? "⊗" : "⊕";
  const current = ticket("cell");
  if (infoBox) infoBox.textContent = `row ${a}, column ${b}: ${a} ${sign} ${b} = ${value}`;
  if (op === "add") {
    const r = await guarded(errorId, () => api("/api/calc", { op: "add", a, b }));
    if (r && current()) derivationLines(derivationBox, r.derivation);
    return;
  }
  const r = await guarded(errorId, () => api("/api/explain", { a, b }));
  if (r && current()) derivationLines(derivationBox, r.lines, r.notes);
}

let lastHover = "";
function tableClick(event) {
  if (!table) return;
  const at = cellAt($("tab-canvas"), event, table.n);
  if (!at) return;
  const key = at.join(",");
  if (event.type === "mousemove" && key === lastHover) return;
  lastHover = key;
  const [a, b] = at;
  explainCell(a, b, table.op, table.rows[a][b], $("tab-cell"), $("tab-derivation"), "tab-error");
}

let hoverTimer = null;
function tableHover(event) {
  clearTimeout(hoverTimer);
  hoverTimer = setTimeout(() => tableClick(event), 250);
}

// the mex construction
let mex = null;       // {n, rows}
let mexStep = 0;      // cells filled so far, in row-major order
let mexTimer = null;

async function loadMex() {
  const n = Number($("mex-n").value);
  const data = await guarded("mex-error", () => api("/api/mex", { n, a: 0, b: 0 }));
  if (!data) return;
  mex = data;
  mexStep = 0;
  await showMexStep();
}

async function showMexStep() {
  const n = mex.n;
  const k = Math.min(mexStep, n * n - 1);
  const a = Math.floor(k / n), b = k % n;
  const current = ticket("mex");
  const data = await guarded("mex-error", () => api("/api/mex", { n, a, b }));
  if (!data || !current()) return;
  const head = el("tr", {}, el("th", { text: "⊗" }), ...[...Array(n).keys()].map((j) => el("th", { text: j })));
  const rows = [head];
  for (let i = 0; i < n; i++) {
    const cells = [el("th", { text: i })];
    for (let j = 0; j < n; j++) {
      const index = i * n + j;
      let cls = index < k ? "" : index === k ? "current" : "pending";
      if (i < a && j < b) cls = "option-cell";
      if ((i < a && j === b) || (i === a && j < b)) cls = "option-cell";
      cells.push(el("td", { class: cls, text: index <= k ? mex.rows[i][j] : "" }));
    }
    rows.push(el("tr", {}, ...cells));
  }
  $("mex-table").replaceChildren(...rows);
  const opts = data.options.length ? "{" + data.options.join(", ") + "}" : "{ } (no option: an edge coin)";
  $("mex-info").replaceChildren(
    el("div", { text: `cell (${a}, ${b}), step ${k + 1} of ${n * n}` }),
    el("div", { text: `values excluded: ${opts}` }),
    el("div", { class: "big", id: "mex-value", text: `mex = ${data.mex}` }),
    el("div", { class: "other", text: `and indeed ${a} ⊗ ${b} = ${data.product}` +
      (data.mex === data.product ? " ✓" : " ✗") }));
}

function mexMove(delta) {
  if (!mex) return;
  mexStep = Math.max(0, Math.min(mex.n * mex.n - 1, mexStep + delta));
  showMexStep();
}

function mexRun() {
  if (mexTimer) { clearInterval(mexTimer); mexTimer = null; return; }
  mexTimer = setInterval(() => {
    if (!mex || mexStep >= mex.n * mex.n - 1) { clearInterval(mexTimer); mexTimer = null; return; }
    mexMove(1);
  }, 400);
}

function drawPicture() {
  const op = $("pic-op").value, n = Number($("pic-n").value);
  const img = $("pic-img");
  img.dataset.n = n;
  img.dataset.op = op;
  img.src = `/api/table.png?op=${op}&n=${n}`;
  $("pic-derivation").replaceChildren();
}

function pictureClick(event) {
  const img = $("pic-img");
  const n = Number(img.dataset.n);
  const at = cellAt(img, event, n);
  if (!at) return;
  const [a, b] = at;
  api("/api/calc", { op: img.dataset.op, a, b }).then((r) => {
    explainCell(a, b, img.dataset.op, r.result.dec, null, $("pic-derivation"), "tab-error");
  }).catch((e) => showError("tab-error", e));
}

// ---- play -------------------------------------------------------------------------------

const play = {
  kind: "nim",        // nim, misere, heap, turning, tartan
  position: null,     // piles | heaps | "HTTH" | [[a, b], ...]
  rules: {},          // the parameters naming the game
  over: false,
  selected: new Set(),
  chosenHeap: null,
};

function gameKind() { return $("play-game").value; }

function showSetup() {
  const kind = gameKind();
  for (const label of document.querySelectorAll("#play-form label[class^=for-]")) {
    label.hidden = !label.classList.contains("for-" + kind);
  }
}

function endpoint(kind) { return kind === "misere" ? "nim" : kind; }

function numbers(text) { return text.trim().split(/[\s,]+/).filter((w) => w); }

function positionParams() {
  const p = { ...play.rules };
  if (play.kind === "nim" || play.kind === "misere") p.piles = play.position.join(",");
  else if (play.kind === "heap") p.heaps = play.position.join(",");
  else if (play.kind === "turning") p.row = play.position;
  else p.heads = play.position.map((c) => c.join(":")).join(",");
  return p;
}

function tartanRules(text) {
  // the name as typed ("rugs", "ruler x twins"): the server's catalogue reads it
  return { rows_game: text.trim(), cols_game: "" };
}

async function newGame() {
  showSetup();
  const kind = gameKind();
  play.kind = kind;
  play.over = false;
  play.selected.clear();
  play.chosenHeap = null;
  $("play-log").replaceChildren();
  $("play-hint-box").replaceChildren();
  $("play-options").replaceChildren();
  let rules, position;
  if (kind === "nim" || kind === "misere") {
    rules = { misere: kind === "misere" };
    position = numbers($("play-piles").value);  // as typed: the server reads the numbers
    $("play-rules").textContent = kind === "misere"
      ? "Misère Nim: take any number of stones from one pile; whoever takes the last stone LOSES. Click a stone: it and the stones right of it are taken."
      : "Nim: take any number of stones from one pile; whoever takes the last stone wins. Click a stone: it and the stones right of it are taken.";
  } else if (kind === "heap") {
    rules = { game: $("play-heap-game").value };
    position = numbers($("play-heaps").value);
    $("play-rules").textContent = "Click a heap to see its moves, then pick one. Whoever moves last wins.";
  } else if (kind === "turning") {
    rules = { game: $("play-turning-game").value };
    position = $("play-row").value.trim().toUpperCase();
    $("play-rules").textContent = "Select the coins to turn (the rightmost one must be a head), then press Turn. Whoever moves last wins.";
  } else {
    rules = { ...tartanRules($("play-tartan-game").value),
              rows: $("play-rows").value, cols: $("play-cols").value };
    position = numbers($("play-heads").value).map((c) => c.split(":"));
    $("play-rules").textContent = /^\s*acrostic[\s_-]*twins\s*$/i.test(rules.rows_game)
      ? "Select two coins of one row or of one column, the right (or lower) one a head. Then press Turn."
      : "Select the coins to turn: all the crossings of a row move and a column move (Turning Corners: the four corners of a rectangle), the bottom-right one a head. Then press Turn.";
  }
  play.rules = rules;
  play.position = position;
  // the hint endpoint checks the whole setup before the game starts
  const check = await guarded("play-error", () => api(`/api/${endpoint(kind)}/hint`, positionParams()));
  if (!check) { $("play-board").replaceChildren(); return; }
  // the position as the server read it (one number rule: nimbers.notation)
  if (kind === "nim" || kind === "misere") play.position = check.values;
  else if (kind === "heap") play.position = check.heaps;
  else if (kind === "tartan") play.position = check.heads;
  play.values = check;
  const coins = kind === "turning" || kind === "tartan";
  $("play-turn").hidden = $("play-clear").hidden = !coins;
  renderBoard();
  setStatus("Your move.");
  if ($("play-first").value === "computer") await computerMove();
}

function setStatus(text, cls = "") {
  const s = $("play-status");
  s.textContent = text;
  s.className = "status " + cls;
}

function log(who, text) {
  $("play-log").append(el("li", { text: `${who}: ${text}` }));
}

function renderBoard() {
  const board = $("play-board");
  const kind = play.kind;
  if (kind === "nim" || kind === "misere") {
    board.replaceChildren(...play.position.map((size, i) => {
      const stones = [...Array(Math.min(size, 60)).keys()].map((j) => el("button", {
        type: "button", class: "stone", title: `take ${size - j} from pile ${i}`,
        "data-pile": i, "data-index": j, "aria-label": `pile ${i}, stone ${j + 1}`,
        onclick: () => humanMove({ pile: i, take: size - j }),
        onmouseenter: () => lightStones(i, j, true), onmouseleave: () => lightStones(i, j, false),
      }));
      return el("div", { class: "pile" }, el("span", { class: "label", text: `pile ${i}: ${size}` }), ...stones,
                size > 60 ? el("span", { text: ` … (${size} stones)` }) : "");
    }));
  } else if (kind === "heap") {
    board.replaceChildren(el("div", { class: "coins" }, ...play.position.map((size, i) => el("button", {
      type: "button", class: "heap" + (play.chosenHeap === i ? " chosen" : ""), "data-heap": i,
      text: `heap ${i}: ${"●".repeat(Math.min(size, 30))}${size > 30 ? "…" : ""} (${size})`,
      onclick: () => showHeapOptions(i),
    }))));
  } else if (kind === "turning") {
    const row = play.position;
    board.replaceChildren(el("div", { class: "coins" }, ...[...row].map((c, x) => el("button", {
      type: "button", class: `coin ${c}` + (play.selected.has(String(x)) ? " selected" : ""),
      "data-coin": x, title: `coin ${x}: ${c === "H" ? "heads" : "tails"}`,
      onclick: () => toggleCoin(String(x)),
    }, c, el("span", { class: "val", text: x })))));
  } else {
    const rows = Number(play.rules.rows), cols = Number(play.rules.cols);
    const heads = new Set(play.position.map((c) => c.join(":")));
    const head = el("tr", {}, el("th"), ...[...Array(cols).keys()].map((b) => el("th", { text: b })));
    const trs = [head];
    for (let a = 0; a < rows; a++) {
      const tds = [el("th", { text: a })];
      for (let b = 0; b < cols; b++) {
        const key = `${a}:${b}`;
        const face = heads.has(key) ? "H" : "T";
        tds.push(el("td", {}, el("button", {
          type: "button", class: `coin ${face}` + (play.selected.has(key) ? " selected" : ""),
          "data-row": a, "data-col": b, title: `row ${a}, column ${b}`,
          onclick: () => toggleCoin(key),
        }, face)));
      }
      trs.push(el("tr", {}, ...tds));
    }
    board.replaceChildren(el("table", { class: "tartan" }, ...trs));
  }
}

function lightStones(pile, from, on) {
  for (const s of document.querySelectorAll(`.stone[data-pile="${pile}"]`)) {
    s.classList.toggle("lit", on && Number(s.dataset.index) >= from);
  }
}

function toggleCoin(key) {
  if (play.over) return;
  if (play.selected.has(key)) play.selected.delete(key); else play.selected.add(key);
  renderBoard();
}

async function showHeapOptions(i) {
  if (play.over) return;
  play.chosenHeap = i;
  renderBoard();
  const r = await guarded("play-error", () => api("/api/heap/options", { ...positionParams(), heap: i }));
  if (!r) return;
  $("play-options").replaceChildren(...(r.options.length ? r.options.map((o) => el("button", {
    type: "button", class: "option", text: o.text,
    onclick: () => humanMove({ heap: i, take: o.take, leave: o.leave.join(",") }),
  })) : [el("span", { text: "no move from this heap" })]));
}

async function turnSelected() {
  if (play.over || !play.selected.size) return;
  const chosen = [...play.selected];
  await humanMove({ coins: chosen.join(",") });
}

async function humanMove(move) {
  if (play.over || play.busy) return;
  play.busy = true;
  try {
    const kind = endpoint(play.kind);
    const r = await guarded("play-error", () => api(`/api/${kind}/move`, { ...positionParams(), ...move }));
    if (!r) return;
    play.selected.clear();
    play.chosenHeap = null;
    $("play-options").replaceChildren();
    $("play-hint-box").replaceChildren();
    log("you", r.text);
    applyMove(r);
    if (!play.over) await computerMove();
  } finally {
    play.busy = false;
  }
}

async function computerMove() {
  setStatus("The computer is thinking…");
  const r = await guarded("play-error", () => api(`/api/${endpoint(play.kind)}/reply`, positionParams()));
  if (!r) return;
  log("computer", r.text);
  applyMove(r);
  if (!play.over) setStatus(`The computer: ${r.text}. Your move.`);
}

function applyMove(r) {
  play.position = r.position;
  renderBoard();
  if (r.over) {
    play.over = true;
    const won = r.winner === "human";
    setStatus(won ? "You win!" : "The computer wins.", won ? "win" : "lose");
  }
}

async function showHint() {
  if (!play.position) return;
  const kind = endpoint(play.kind);
  const current = ticket("hint");
  const r = await guarded("play-error", () => api(`/api/${kind}/hint`, positionParams()));
  if (!r || !current()) return;
  const box = $("play-hint-box");
  const parts = [];
  if (play.kind === "turning") {
    parts.push(el("div", { text: "G(x) of each coin: " + r.values.map((v, x) => `${x}:${v}`).join("  ") }));
    parts.push(el("div", { text: `heads ${r.heads.join(", ") || "none"}: ${r.head_values.join(" ⊕ ") || "0"} = ${r.total}` }));
  } else if (play.kind === "tartan") {
    parts.push(el("div", { text: `values of the heads: ${r.head_values.join(" ⊕ ") || "0"} = ${r.total}` }));
    markTartanValues(r.grid);
  } else {
    const label = play.kind === "heap" ? "Grundy values of the heaps" : "pile sizes";
    parts.push(el("div", { text: `${label}: ${r.values.join(", ")}` }));
    parts.push(el("pre", { text: r.columns.join("\n") }));
  }
  if (r.losing) {
    parts.push(el("div", { id: "hint-verdict", text: "The value is 0: every move loses against best play. Make a small move and hope." }));
  } else {
    parts.push(el("div", { id: "hint-verdict", text: `The value is ${r.total}, not 0: you can win.` }));
    for (const m of r.moves) {
      const what = play.kind === "misere" ? "the nim-sum becomes" : "the value becomes";
      parts.push(el("div", { class: "winning-move", text: `Winning move: ${m.text} (${what} ${m.after_sum})`,
                             "data-move": JSON.stringify(m) }));
    }
  }
  parts.push(el("p", { class: "help", text: r.why }));
  box.replaceChildren(...parts);
}

function markTartanValues(grid) {
  for (const b of document.querySelectorAll("#play-board .coin")) {
    const v = grid[Number(b.dataset.row)][Number(b.dataset.col)];
    if (!b.querySelector(".val")) b.append(el("span", { class: "val", text: v }));
  }
}

async function loadCatalogue() {
  const c = await api("/api/catalogue").catch(() => null);
  if (!c) return;
  const fill = (id, names) => $(id).replaceChildren(...names.map((n) => el("option", { value: n })));
  fill("heap-names", c.heap_games);
  fill("turning-names", c.turning_games);
  fill("tartan-names", c.tartan_games);
}

// ---- sequences --------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

async function plotHeap() {
  const game = $("seq-heap-game").value, n = $("seq-heap-n").value;
  const current = ticket("heap-sequence");
  // look for the period as far as the command line does (2^20 values; cheap proofs such as
  // 0.16's are found); if that runs past the time limit, among 4096, and say so
  let cut = "";
  const r = await guarded("seq-heap-error", () => api("/api/sequence/heap", { game, n })
    .catch((e) => {
      if (!String(e.message).includes("longer than")) throw e;
      cut = "the full search ran past the playground's time limit: ";
      return api("/api/sequence/heap", { game, n, search: 4096 });
    }));
  if (!r || !current()) return;
  const note = r.note ? ` (${cut}${r.note})` : "";
  $("seq-heap-info").replaceChildren(
    el("div", { id: "seq-heap-period", text: `${r.name} (${r.code}): ${r.text}${note}` }),
    el("div", { class: "other", text: "g(0 …): " + r.values.slice(0, 60).join(" ") + (r.values.length > 60 ? " …" : "") }));
  const plot = $("seq-heap-plot");
  const W = 800, H = 280, left = 34, bottom = 22, top = 8;
  const count = r.values.length;
  const maxV = Math.max(1, ...r.values);
  const x = (i) => left + (i + 0.5) * (W - left - 6) / count;
  const y = (v) => H - bottom - v * (H - bottom - top) / maxV;
  plot.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const parts = [];
  if (r.period) {
    const pre = Math.min(r.preperiod, count);
    if (pre > 0) parts.push(svg("rect", { class: "preperiod", x: left, y: top, width: x(pre - 0.5) - left, height: H - bottom - top }));
    for (let k = r.preperiod; k < count; k += r.period) {
      parts.push(svg("line", { class: "periodline", x1: x(k - 0.5), x2: x(k - 0.5), y1: top, y2: H - bottom }));
    }
  }
  parts.push(svg("line", { class: "axis", x1: left, x2: W - 4, y1: H - bottom, y2: H - bottom }));
  parts.push(svg("line", { class: "axis", x1: left, x2: left, y1: top, y2: H - bottom }));
  for (const v of [0, maxV]) parts.push(svg("text", { x: 4, y: y(v) + 4 }, String(v)));
  for (let i = 0; i < count; i += Math.max(1, Math.ceil(count / 10 / 10) * 10)) {
    parts.push(svg("text", { x: x(i) - 4, y: H - 6 }, String(i)));
  }
  const radius = Math.max(1.2, Math.min(4, 300 / count));
  r.values.forEach((v, i) => parts.push(svg("circle", { class: "dot", cx: x(i), cy: y(v), r: radius })));
  plot.replaceChildren(...parts);
}

async function showTurning() {
  const game = $("seq-turn-game").value, n = $("seq-turn-n").value;
  const current = ticket("turning-sequence");
  const r = await guarded("seq-turn-error", () => api("/api/sequence/turning", { game, n }));
  if (!r || !current()) return;
  $("seq-turn-info").textContent = `${r.name} (${r.code}, coins from 0): ` +
    (r.formula ? `${r.formula}; the computed values ${r.agree ? "agree with it ✓" : "DISAGREE ✗"}` : "no closed form known here");
  const head = el("tr", {}, el("th", { text: "x" }), el("th", { text: "G(x)" }),
                  ...(r.closed_form ? [el("th", { text: "closed form" })] : []));
  const rows = r.values.map((v, i) => el("tr", {}, el("td", { text: i }), el("td", { text: v }),
    ...(r.closed_form ? [el("td", { class: r.closed_form[i] === v ? "" : "bad", text: r.closed_form[i] })] : [])));
  $("seq-turn-table").replaceChildren(head, ...rows);
}

// ---- the API page -----------------------------------------------------------------------

async function listApi() {
  const r = await api("/api").catch(() => null);
  if (!r) return;
  $("api-list").replaceChildren(...r.endpoints.map((e) => el("div", { class: "api-endpoint" },
    el("div", {}, el("code", { text: e.path }), " — " + e.summary),
    el("ul", {}, ...Object.entries(e.parameters).map(([k, v]) => el("li", {}, el("code", { text: k }), ": " + v))),
    el("div", {}, "example: ", el("a", { href: e.example, text: e.example })))));
}

// ---- wiring -----------------------------------------------------------------------------

function onSubmit(formId, action) {
  $(formId).addEventListener("submit", (e) => { e.preventDefault(); action(); });
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("#nav button")) {
    b.addEventListener("click", () => { location.hash = b.dataset.page; });
  }
  setTextScale(storedTextScale());
  $("large-text").addEventListener("click", () => stepTextScale(1));
  $("small-text").addEventListener("click", () => stepTextScale(-1));
  // browser zoom, or the window moved to another screen: redraw at the new pixel density
  window.addEventListener("resize", () => {
    if (table && (window.devicePixelRatio || 1) !== paintedRatio) paintTable();
  });
  window.addEventListener("hashchange", showPage);

  onSubmit("calc-form", calculate);
  $("calc-op").addEventListener("change", calculate);
  $("calc-base").addEventListener("change", calculate);

  onSubmit("tab-form", drawTable);
  for (const id of ["tab-op", "tab-n"]) $(id).addEventListener("change", drawTable);
  $("tab-sub").addEventListener("change", () => table && paintTable());
  $("tab-canvas").addEventListener("click", tableClick);
  $("tab-canvas").addEventListener("mousemove", tableHover);
  $("mex-n").addEventListener("change", loadMex);
  $("mex-next").addEventListener("click", () => (mex ? mexMove(1) : loadMex()));
  $("mex-prev").addEventListener("click", () => mexMove(-1));
  $("mex-run").addEventListener("click", () => (mex ? mexRun() : loadMex().then(mexRun)));
  $("mex-end").addEventListener("click", () => { if (mex) { mexStep = mex.n * mex.n - 1; showMexStep(); } });
  onSubmit("pic-form", drawPicture);
  $("pic-img").addEventListener("click", pictureClick);
  $("pic-img").addEventListener("error", () => showError("tab-error", "the picture could not be drawn"));

  onSubmit("play-form", newGame);
  $("play-game").addEventListener("change", showSetup);
  $("play-turn").addEventListener("click", turnSelected);
  $("play-clear").addEventListener("click", () => { play.selected.clear(); renderBoard(); });
  $("play-hint").addEventListener("click", showHint);

  onSubmit("seq-heap-form", plotHeap);
  onSubmit("seq-turn-form", showTurning);

  loadCatalogue();
  showPage();
});

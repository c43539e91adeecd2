// The workbench page: wires the editor, the run controls, the event stream and the panes.

import { h, $, clear, int, seconds } from "./dom.js";
import { get, post, put, del, events, runUrl } from "./net.js";
import { createEditor } from "./editor.js";
import { renderRun, renderStudy, renderMessage } from "./results.js";
import { renderHistory } from "./history.js";
import { renderCompare, renderPaired } from "./compare.js";
import { renderKnobs } from "./knobs.js";
import { renderFight, renderFightBar } from "./fight.js";

const CHECK_DELAY_MS = 200;
const client = (crypto.randomUUID && crypto.randomUUID()) || String(Math.random()).slice(2);

const S = {
  path: null, // the open file (relative to the folder served)
  savedSha: null, // sha of the text as on disk
  savedText: "",
  writable: true,
  check: null, // the last check of the editor's text
  checkSeq: 0,
  job: null, // my running job
  runs: [],
  ticked: new Set(),
  warmedSystem: null,
  compareJob: null,
  shown: null, // the view in the results pane
  diskPrompt: null,
  fight: { variant: null, trial: 0 }, // the Fight tab's choice
  early: [], // events of my jobs that came before /api/run's answer (see onEvent)
};

const editor = createEditor($("#editor"), { onChange: changed, onRun: runNow });
window.mgsim = { editor, state: S, client }; // for the browser tests

// ---------------------------------------------------------------- files

async function sha256(text) {
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(buf)).map((b) => b.toString(16).padStart(2, "0")).join("");
}

function setFileState() {
  const dirty = editor.getText() !== S.savedText;
  const el = $("#filestate");
  el.textContent = !S.path ? "" : dirty ? "unsaved changes" : S.writable ? "saved" : "bundled example (read-only)";
  el.className = dirty ? "dirty" : "muted";
  document.title = `${dirty ? "• " : ""}${S.path || "mgsim"} — mgsim workbench`;
}

function fillPicker(listing) {
  const sel = $("#picker");
  clear(sel);
  const mine = h("optgroup", { label: "your files" }, listing.files.map((f) => h("option", { value: f, text: f })));
  sel.append(mine);
  if (listing.examples.length) {
    sel.append(h("optgroup", { label: "bundled examples" }, listing.examples.map((f) => h("option", { value: f, text: f }))));
  }
  if (S.path) sel.value = S.path;
}

async function openFile(path, { force = false } = {}) {
  if (!force && editor.getText() !== S.savedText && !confirm("Discard the unsaved changes?")) {
    $("#picker").value = S.path;
    return;
  }
  try {
    const f = await get(`/api/file?path=${encodeURIComponent(path)}`);
    S.path = f.path;
    S.savedSha = f.sha;
    S.savedText = f.text;
    S.writable = f.writable;
    editor.setText(f.text);
    $("#picker").value = f.path;
    history.replaceState(null, "", `#file=${encodeURIComponent(f.path)}`);
    S.warmedSystem = null;
    hideDiskPrompt();
    setFileState();
    await checkNow(true);
  } catch (e) {
    notice(e.message, "error");
  }
}

async function save() {
  let path = S.path;
  let base = S.savedSha;
  if (!S.writable || !path) {
    const name = prompt("Save as (a path inside the folder served):", (path || "mine.yaml").replace(/^examples\//, ""));
    if (!name) return;
    path = name;
    base = null;
  }
  const text = editor.getText();
  try {
    const r = await put("/api/file", { path, text, base_sha: base });
    S.path = r.path;
    S.savedSha = r.sha;
    S.savedText = text;
    S.writable = true;
    history.replaceState(null, "", `#file=${encodeURIComponent(r.path)}`);
    fillPicker(await get("/api/files"));
    setFileState();
    notice(`saved ${r.path}`, "info");
  } catch (e) {
    notice(e.message, "error");
  }
}

// The file changed on disk (another editor): take it when the page has no unsaved
// changes, else ask.
async function fileEvent(ev) {
  if (ev.path !== S.path || ev.gone) return;
  if (ev.sha === S.savedSha) return;
  if (ev.text === editor.getText()) { // the disk now holds what the editor holds (our own save)
    S.savedSha = ev.sha;
    S.savedText = ev.text;
    setFileState();
    return;
  }
  if (editor.getText() === S.savedText) {
    S.savedSha = ev.sha;
    S.savedText = ev.text;
    editor.setText(ev.text, { keepCursor: true });
    setFileState();
    notice(`${ev.path} changed on disk: reloaded`, "info");
  } else {
    showDiskPrompt(ev);
  }
}

function showDiskPrompt(ev) {
  const box = $("#diskprompt");
  clear(box).append(
    h("span", { text: `${ev.path} was changed on disk, and this page has unsaved changes. ` }),
    h("button", { type: "button", id: "disk-reload", onclick: () => {
      S.savedSha = ev.sha; S.savedText = ev.text; editor.setText(ev.text, { keepCursor: true });
      hideDiskPrompt(); setFileState();
    } }, "Load the file"),
    h("button", { type: "button", id: "disk-keep", onclick: () => { S.savedSha = ev.sha; S.savedText = ev.text; hideDiskPrompt(); setFileState(); } },
      "Keep mine"));
  box.hidden = false;
}

function hideDiskPrompt() {
  $("#diskprompt").hidden = true;
}

// ---------------------------------------------------------------- checks

let checkTimer = null;

function changed() {
  setFileState();
  $("#run").disabled = true; // until the new text is checked
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => checkNow(false), CHECK_DELAY_MS);
}

async function checkNow(warm) {
  const seq = ++S.checkSeq;
  const text = editor.getText();
  let c;
  try {
    c = await post("/api/check", { text, path: S.path });
  } catch (e) {
    notice(e.message, "error");
    return;
  }
  if (seq !== S.checkSeq) return; // a newer check is under way
  S.check = c;
  editor.setProblems(c.ok ? [] : c.problems);
  const box = $("#problems");
  clear(box);
  if (!c.ok) {
    box.append(h("p", { class: "error", id: "problem-text", text: c.message }));
  } else {
    const what = c.kind === "study" ? `${c.study_kind} study` : `${c.variants.length} variant(s)`;
    box.append(h("p", { class: "ok", text: `✓ ${c.system} ${c.kind} '${c.name}': ${what}` }));
    if ($("#trials").dataset.auto !== "0") $("#trials").placeholder = String(c.trials);
    $("#seed").placeholder = String(c.seed);
    if ((warm || S.warmedSystem !== c.system) && c.kind) {
      S.warmedSystem = c.system;
      post("/api/warm", { text, path: S.path, client }).catch(() => {});
    }
  }
  box.dataset.ok = c.ok ? "1" : "0";
  updateButtons();
  if (!$("#knobs").hidden && S.knobsText !== text) loadKnobs(); // the form follows the text, keeps its edits
  if (!$("#fight").hidden) fightBar(); // the variants follow the text
}

// ---------------------------------------------------------------- runs

function updateButtons() {
  const mine = S.job && !["done", "failed", "stopped"].includes(S.job.state);
  $("#run").disabled = !(S.check && S.check.ok);
  $("#stop").disabled = !mine;
}

async function runNow(confirmed = false) {
  if (!S.check || !S.check.ok) return;
  const body = {
    text: editor.getText(), path: S.path, client, confirmed,
    trials: $("#trials").value, precision: $("#precision").value, seed: $("#seed").value,
  };
  try {
    const r = await post("/api/run", body);
    if (r.confirm) {
      askFirst(r.confirm, () => runNow(true));
      return;
    }
    S.job = r.job;
    S.runStarted = performance.now();
    progress({ done: 0, total: null });
    renderMessage($("#results"), r.job.state === "queued" ? "waiting for the simulation process…" : "running…");
    showTab("results");
    updateButtons();
    replayEarly(r.job.id); // a short run can end before this answer arrives
  } catch (e) {
    renderMessage($("#results"), e.message, "error");
    showTab("results");
  }
}

function askFirst(c, go) {
  const box = $("#confirm");
  clear(box).append(
    h("span", { text: `This run would take about ${seconds(c.eta)} (${int(c.trials)} trials × ${c.variants} variant(s)). ` }),
    h("button", { type: "button", id: "confirm-go", onclick: () => { box.hidden = true; go(); } }, "Run it"),
    h("button", { type: "button", id: "confirm-no", onclick: () => { box.hidden = true; } }, "Cancel"));
  box.hidden = false;
}

function askDuring(ev) {
  const box = $("#confirm");
  const answer = (go) => { box.hidden = true; post(`/api/jobs/${ev.job}/answer`, { go }).catch(() => {}); };
  clear(box).append(
    h("span", { text: `This run will take about ${seconds(ev.eta)} more. Go on?` }),
    h("button", { type: "button", id: "confirm-go", onclick: () => answer(true) }, "Go on"),
    h("button", { type: "button", id: "confirm-no", onclick: () => answer(false) }, "Stop it"));
  box.hidden = false;
}

async function stop() {
  if (!S.job) return;
  $("#stop").disabled = true;
  try {
    await post(`/api/jobs/${S.job.id}/stop`);
  } catch (e) {
    notice(e.message, "error");
  }
}

// Between two chunks the elapsed time and the ETA count on, four times a second, and the bar
// moves at the measured rate (the trials shown are always those done).
setInterval(() => {
  if (!S.job || !["running", "queued"].includes(S.job.state)) return;
  const now = performance.now();
  if (!S.last) { // no progress reported (a study, or still starting): how long it has run
    const waited = (now - (S.runStarted || now)) / 1000;
    $("#progtext").textContent = `${S.job.state === "queued" ? "waiting" : `${S.job.kind} running`} · ${seconds(waited)}`;
    return;
  }
  const { p, at } = S.last;
  if (!p.rate || p.done >= p.total) return;
  const dt = (now - at) / 1000;
  const ahead = Math.min(p.total, p.done + p.rate * dt);
  $("#barfill").style.width = `${(100 * Math.min(0.995, ahead / p.total)).toFixed(1)}%`;
  showProgress(p, (p.elapsed || 0) + dt, p.eta === null ? null : Math.max(0, p.eta - dt));
}, 250);

function showProgress(p, elapsed, eta) {
  const unit = p.unit || "trials";
  const t = [`${int(p.done)} / ${p.estimate ? "~" : ""}${int(p.total)} ${unit}`];
  if (elapsed !== null && elapsed !== undefined) t.push(seconds(elapsed));
  if (eta !== null && eta !== undefined && p.done < p.total) t.push(`ETA ${p.estimate ? "~" : ""}${seconds(eta)}`);
  $("#progtext").textContent = t.join(" · ");
}

function progress(p) {
  S.last = p && p.total ? { p, at: performance.now() } : null;
  const fill = $("#barfill");
  if (!p || p.total === null || p.total === undefined) {
    fill.style.width = "0%";
    $("#progtext").textContent = S.job ? "starting…" : "";
    return;
  }
  fill.style.width = `${(100 * (p.total ? Math.min(1, p.done / p.total) : 0)).toFixed(1)}%`;
  showProgress(p, p.elapsed, p.eta);
  $("#progress").dataset.done = String(p.done);
}

function renderQueue(jobs) {
  const box = $("#queue");
  clear(box);
  const live = jobs.filter((j) => !["done", "failed", "stopped"].includes(j.state));
  for (const j of live) {
    const who = j.owner === client ? "" : " (another tab)";
    const what = j.kind === "warm" ? "loading the engine" : j.kind === "paired" ? "pairing trials" : `${j.kind} ${j.title}`;
    box.append(h("span", { class: `job ${j.state}`, dataset: { job: j.id, state: j.state } },
      `${j.state === "queued" ? "waiting" : j.state}: ${what}${who}`));
  }
  if (S.job) {
    const mine = jobs.find((j) => j.id === S.job.id);
    if (mine) S.job = mine;
  }
  updateButtons();
}

/** The id of the job an event is about (``job`` is the id, or the whole job on "job-end"). */
function eventJob(ev) {
  return ev.job && typeof ev.job === "object" ? ev.job.id : ev.job;
}

// Events of this tab's jobs that arrive before /api/run has answered with the job's id (a run
// of a second can end first): kept, then replayed by runNow.
const EARLY_KINDS = new Set(["progress", "confirm", "result", "saved", "error", "cancelled", "job-end"]);

/** Handle the kept early events of job ``id`` (see onEvent), now that the page knows it. */
function replayEarly(id) {
  if (!id) return;
  const early = S.early.filter((ev) => eventJob(ev) === id);
  S.early = S.early.filter((ev) => eventJob(ev) !== id);
  for (const ev of early) onEvent(ev);
}

function onEvent(ev) {
  const mine = ev.owner === client;
  const myJob = mine || (ev.type === "job-end" && ev.job.owner === client);
  if (myJob && EARLY_KINDS.has(ev.type) && eventJob(ev) && (!S.job || eventJob(ev) !== S.job.id)
      && eventJob(ev) !== S.compareJob) {
    S.early.push(ev);
    if (S.early.length > 200) S.early.shift();
  }
  switch (ev.type) {
    case "queue": renderQueue(ev.jobs); break;
    case "progress":
      if (S.job && ev.job === S.job.id) progress(ev);
      break;
    case "compiling": notice(ev.text, "compile"); break;
    case "compiled": notice(`compiled in ${seconds(ev.seconds)}; it is kept for the next runs`, "info"); break;
    case "confirm": if (mine) askDuring(ev); break;
    case "result":
      if (ev.paired && ev.job === S.compareJob) renderPaired($("#compare"), ev.paired);
      else if (mine && ev.view && S.job && ev.job === S.job.id) {
        S.shown = ev.view;
        if (ev.view.kind === "study") renderStudy($("#results"), ev.view);
        else renderRun($("#results"), ev.view, null);
        $("#results").dataset.job = ev.job;
        $("#results").dataset.ms = String(Math.round(performance.now() - (S.runStarted || 0)));
      }
      break;
    case "saved":
      if (mine && S.job && ev.job === S.job.id) {
        const slot = $("#results .saving");
        if (slot) slot.replaceWith(h("a", { href: `/runs/${runUrl(ev.run)}/report.html`, target: "_blank",
          rel: "noopener", class: "report" }, "full report"));
        if (S.shown) S.shown.run = { id: ev.run };
      }
      refreshRuns();
      break;
    case "error":
      if (mine && ev.job === S.compareJob) {
        const box = $("#paired");
        if (box) box.append(h("p", { class: "error", text: ev.message }));
      } else if (mine) renderMessage($("#results"), ev.message, "error");
      break;
    case "cancelled": if (mine) renderMessage($("#results"), "Stopped. Nothing was written.", "muted"); break;
    case "job-end":
      if (S.job && ev.job.id === S.job.id) {
        S.job = ev.job;
        if (!S.last || ev.job.state !== "done") { // no trials were counted (a study), or it did not finish
          const took = ev.job.started && ev.job.finished ? ` in ${seconds(ev.job.finished - ev.job.started)}` : "";
          $("#progtext").textContent = `${ev.job.kind} ${ev.job.state}${took}`;
          if (ev.job.state === "done") $("#barfill").style.width = "100%";
        }
        if (ev.job.state === "stopped" && ev.job.message && ev.job.message !== "stopped") {
          renderMessage($("#results"), `Stopped: ${ev.job.message}`, "muted");
        }
        if (ev.job.state === "failed" && !$("#results .error")) renderMessage($("#results"), ev.job.message, "error");
        $("#confirm").hidden = true;
      }
      updateButtons();
      break;
    case "file": fileEvent(ev); break;
    case "files": get("/api/files").then(fillPicker).catch(() => {}); break;
    case "runs": refreshRuns(); break;
    case "notice": notice(ev.text, ev.level || "info"); break;
    default: break;
  }
}

let noticeTimer = null;
function notice(text, level = "info") {
  const el = $("#notice");
  el.textContent = text;
  el.className = level;
  clearTimeout(noticeTimer);
  if (level !== "compile") noticeTimer = setTimeout(() => { el.textContent = ""; }, level === "error" ? 15000 : 5000);
}

// ---------------------------------------------------------------- history and compare

async function refreshRuns() {
  try {
    S.runs = (await get("/api/runs")).runs;
  } catch (e) {
    return;
  }
  renderHistory($("#history"), S.runs, historyActions, S.ticked);
}

const historyActions = {
  async show(id) {
    try {
      const v = await get(`/api/runs/${runUrl(id)}`);
      S.shown = v;
      if (v.kind === "study") renderStudy($("#results"), v);
      else renderRun($("#results"), v, v.run);
      showTab("results");
    } catch (e) { notice(e.message, "error"); }
  },
  async restore(id) {
    try {
      const t = await get(`/api/runs/${runUrl(id)}/text`);
      editor.setText(t.text);
      setFileState();
      notice(`restored the text of ${id} into the editor (not saved)`, "info");
    } catch (e) { notice(e.message, "error"); }
  },
  async label(id, label) {
    try { await post(`/api/runs/${runUrl(id)}/label`, { label }); } catch (e) { notice(e.message, "error"); }
  },
  async remove(id) {
    try { await del(`/api/runs/${runUrl(id)}`); S.ticked.delete(id); } catch (e) { notice(e.message, "error"); }
  },
  compare: () => compareTicked(),
};

async function compareTicked() {
  let items = [];
  const runs = S.runs.filter((r) => S.ticked.has(r.id) && r.kind === "run");
  if (runs.length >= 2) {
    runs.reverse(); // the older run first: the reference
    for (const r of runs) for (const v of r.variants) items.push({ run: r.id, variant: v });
  } else if (S.shown && S.shown.kind === "run" && S.shown.run) {
    const vs = [...document.querySelectorAll("#results .vtick:checked")].map((b) => b.dataset.variant);
    items = vs.map((v) => ({ run: S.shown.run.id, variant: v }));
  }
  if (items.length < 2) {
    notice("tick two or more runs in History, or two or more variants of the run shown", "error");
    return;
  }
  showTab("compare");
  renderMessage($("#compare"), "comparing…");
  try {
    const data = await post("/api/compare", { items, client });
    S.compareJob = data.job || null;
    renderCompare($("#compare"), data);
    replayEarly(S.compareJob); // the pairing can end before this answer too
  } catch (e) {
    renderMessage($("#compare"), e.message, "error");
  }
}

// ---------------------------------------------------------------- knobs

async function loadKnobs() {
  const text = editor.getText();
  S.knobsText = text;
  try {
    const data = await post("/api/knobs", { text, path: S.path });
    renderKnobs($("#knobs"), data, addVariant);
  } catch (e) {
    renderMessage($("#knobs"), e.message, "error");
  }
}

async function addVariant(changes, name) {
  try {
    const r = await post("/api/knobs/variant", { text: editor.getText(), path: S.path, changes, name });
    editor.setText(r.text);
    showLeft("editor");
    notice(`added the variant '${r.name}' (not saved yet)`, "info");
  } catch (e) {
    notice(e.message, "error");
  }
}

// ---------------------------------------------------------------- tabs and start

function showTab(name) {
  for (const b of document.querySelectorAll("#righttabs button[data-tab]")) b.classList.toggle("on", b.dataset.tab === name);
  for (const p of document.querySelectorAll("#right .pane")) p.hidden = p.id !== name;
  if (name === "fight") fightBar();
}

// ---------------------------------------------------------------- one fight

/** The Fight tab's bar for the text as last checked (a study or a broken text: why not). */
function fightBar() {
  const c = S.check;
  if (!c || !c.ok || c.kind !== "scenario") {
    S.fightKey = null;
    clear($("#fightbar"));
    renderMessage($("#fightout"), c && c.ok ? "A study plays many arms: open one of its scenarios to watch a fight."
      : "Fix the scenario's problems to watch one of its fights.", "muted");
    return;
  }
  const key = JSON.stringify(c.variants);
  if ($("#fight-play") && S.fightKey === key) return; // the same variants: keep what is typed in the bar
  S.fightKey = key;
  const typed = $("#fight-trial");
  if (typed) S.fight = { variant: $("#fight-variant").value, trial: Number.parseInt(typed.value || "0", 10) || 0 };
  renderFightBar($("#fightbar"), c.variants, S.fight, playFight);
  if (!$("#fightout #fight-log")) {
    renderMessage($("#fightout"), "Play one seeded fight, turn by turn: every roll, hit, reduction, burst and KO.", "muted");
  }
}

async function playFight({ variant, trial }) {
  S.fight = { variant, trial };
  renderMessage($("#fightout"), "playing…");
  try {
    const data = await post("/api/play", { text: editor.getText(), path: S.path, variant, trial, seed: $("#seed").value });
    renderFight($("#fightout"), data, S.path);
  } catch (e) {
    renderMessage($("#fightout"), e.message, "error");
  }
}

function showLeft(name) {
  for (const b of document.querySelectorAll("#lefttabs button")) b.classList.toggle("on", b.dataset.left === name);
  $("#editor").hidden = name !== "editor";
  $("#knobs").hidden = name !== "knobs";
  if (name === "knobs") loadKnobs();
}

async function start() {
  $("#run").addEventListener("click", () => runNow(false));
  $("#stop").addEventListener("click", stop);
  $("#save").addEventListener("click", save);
  $("#picker").addEventListener("change", (e) => openFile(e.target.value));
  $("#compare-btn").addEventListener("click", compareTicked);
  for (const b of document.querySelectorAll("#righttabs button[data-tab]")) b.addEventListener("click", () => showTab(b.dataset.tab));
  for (const b of document.querySelectorAll("#lefttabs button")) b.addEventListener("click", () => showLeft(b.dataset.left));
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === "Enter") { e.preventDefault(); runNow(false); }
    if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); save(); }
  });
  events(onEvent, (up) => { document.body.dataset.connected = up ? "1" : "0"; });
  const st = await get("/api/state");
  fillPicker(st.files);
  S.runs = st.runs;
  renderHistory($("#history"), S.runs, historyActions, S.ticked);
  renderQueue(st.queue);
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("file");
  const first = fromHash || st.first || st.files.files.find((f) => /quickstart\.ya?ml$/.test(f))
    || st.files.files[0] || st.files.examples.find((f) => /quickstart\.ya?ml$/.test(f)) || st.files.examples[0];
  if (first) await openFile(first, { force: true });
  document.body.dataset.ready = "1";
}

start();

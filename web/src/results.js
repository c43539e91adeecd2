// The results pane: a run's table (win/loss/draw with 95% intervals, mean rounds) and
// its charts, or a study's reading, table and chart.

import { h, clear, pct, interval, int, num, when } from "./dom.js";
import { draw } from "./charts.js";
import { runUrl } from "./net.js";

function header(view, saved) {
  const bits = [`${view.system}`, `seed ${view.seed}`];
  if (view.created) bits.push(when(view.created));
  const run = view.run || saved;
  const report = run && run.id
    ? h("a", { href: `/runs/${runUrl(run.id)}/report.html`, target: "_blank", rel: "noopener", class: "report" },
      "full report")
    : h("span", { class: "muted saving" }, "saving the report…");
  return h("div", { class: "rhead" }, h("b", { class: "scen", text: view.scenario || "" }),
    h("span", { class: "muted" }, " · " + bits.join(" · ") + " "), report);
}

// The win, loss and draw cells of a summary row: the rate in bold, its 95% interval after it.
export function rateCells(r) {
  return [
    h("td", { class: "num" }, h("b", {}, pct(r.win_rate)), " ", h("span", { class: "ci" }, interval(r.win_lo, r.win_hi))),
    h("td", { class: "num" }, pct(r.loss_rate), " ", h("span", { class: "ci" }, interval(r.loss_lo, r.loss_hi))),
    h("td", { class: "num" }, pct(r.draw_rate), " ", h("span", { class: "ci" }, interval(r.draw_lo, r.draw_hi))),
  ];
}

export function runTable(view, ticks) {
  const t = view.terms || {};
  const side = (view.sides && view.sides[0]) || "first side";
  const episode = view.rows.some((r) => r.scenes !== undefined && r.scenes !== null);
  const cols = ["", "variant", `win (${side})`, "loss", "draw", `mean ${t.rounds || "rounds"}`, t.trials || "trials"];
  if (episode) cols.push("scenes won");
  const head = h("tr", {}, cols.map((c, i) => h("th", { class: i > 1 ? "num" : "" }, c)));
  const rows = view.rows.map((r) => {
    const box = ticks ? h("input", { type: "checkbox", class: "vtick", "aria-label": `compare ${r.variant}`,
      dataset: { variant: r.variant } }) : "";
    const cells = [
      h("td", {}, box),
      h("td", { class: "variant", text: r.variant }),
      ...rateCells(r),
      h("td", { class: "num" }, num(r.mean_rounds)),
      h("td", { class: "num" }, int(r.trials)),
    ];
    if (episode) cells.push(h("td", { class: "num" }, r.scenes_won === null ? "–" : `${num(r.scenes_won)}/${r.scenes}`));
    return h("tr", {}, cells);
  });
  return h("div", { class: "scroll" }, h("table", { class: "results" }, h("thead", {}, head), h("tbody", {}, rows)));
}

function chartsBlock(view) {
  const box = h("div", { class: "chart", id: "chart" });
  const cap = h("p", { class: "caption" });
  const tabs = h("div", { class: "charttabs", role: "tablist" });
  const show = async (c, btn) => {
    for (const b of tabs.children) b.classList.toggle("on", b === btn);
    cap.textContent = c.caption || "";
    box.dataset.chart = c.name;
    try {
      await draw(box, c.spec);
      box.dataset.drawn = c.name;
    } catch (e) {
      clear(box).append(h("p", { class: "error", text: `the chart could not be drawn: ${e.message}` }));
    }
  };
  view.charts.forEach((c, i) => {
    const b = h("button", { type: "button", role: "tab", dataset: { chart: c.name } }, c.title);
    b.addEventListener("click", () => show(c, b));
    tabs.append(b);
    if (i === 0) setTimeout(() => show(c, b), 0);
  });
  return h("div", { class: "charts" }, tabs, box, cap);
}

function notes(list) {
  if (!list || !list.length) return "";
  return h("details", { class: "notes" }, h("summary", {}, `notes (${list.length})`),
    h("ul", {}, list.map((n) => h("li", { text: n }))));
}

export function renderRun(el, view, saved) {
  clear(el).append(header(view, saved), runTable(view, true), chartsBlock(view), notes(view.notes));
  el.dataset.kind = "run";
}

function studyTable(records) {
  if (!records || !records.length) return h("p", { class: "muted" }, "no rows");
  const cols = Object.keys(records[0]);
  const fmt = (v) => (typeof v === "number" && !Number.isInteger(v) ? v.toPrecision(4) : v === null ? "–" : String(v));
  return h("div", { class: "scroll" }, h("table", { class: "study" },
    h("thead", {}, h("tr", {}, cols.map((c) => h("th", { text: c })))),
    h("tbody", {}, records.map((r) => h("tr", {}, cols.map((c) => h("td", { text: fmt(r[c]) })))))));
}

export function renderStudy(el, view) {
  const run = view.run || {};
  const parts = [header(view, run)];
  view.sections.forEach((s, i) => {
    parts.push(h("h3", { text: s.title || s.kind }));
    parts.push(h("p", { class: "reading" }, h("b", {}, "Reading. "), s.reading || ""));
    parts.push(notes(s.notes));
    if (i === 0 && view.charts && view.charts.length && run.id) { // the report's first chart, then the table
      parts.push(h("figure", { class: "studychart" },
        h("img", { src: `/runs/${runUrl(run.id)}/${encodeURIComponent(view.charts[0])}`, alt: "the study's chart" })));
    }
    const stems = Object.keys(s.tables || {});
    if (stems.length) parts.push(studyTable(s.tables[stems[0]]));
  });
  clear(el).append(...parts);
  el.dataset.kind = "study";
}

export function renderMessage(el, text, cls = "muted") {
  clear(el).append(h("p", { class: cls, text }));
}

// Compare: the ticked runs or variants side by side, the YAML diff, and the paired
// differences the server computes (sim.study.paired, as `sim study` compare does).

import { h, clear, int, num, signedPoints } from "./dom.js";
import { rateCells } from "./results.js";

export function renderCompare(el, data) {
  clear(el);
  const rows = data.rows || [];
  el.append(h("h3", {}, "Side by side"));
  el.append(h("div", { class: "scroll" }, h("table", { class: "results side" },
    h("thead", {}, h("tr", {}, ["run · variant", "win", "loss", "draw", "mean rounds", "trials", "seed"].map(
      (c, i) => h("th", { class: i ? "num" : "" }, c)))),
    h("tbody", {}, rows.map((r) => h("tr", {},
      h("td", { class: "variant", text: r.label }),
      ...rateCells(r),
      h("td", { class: "num" }, num(r.mean_rounds)),
      h("td", { class: "num" }, int(r.trials)),
      h("td", { class: "num" }, String(r.seed))))))));
  const paired = h("div", { id: "paired" });
  el.append(h("h3", {}, "Paired difference"), paired);
  for (const g of data.groups || []) {
    if (g.reason) paired.append(h("p", { class: "muted", text: `${g.variant ? g.variant + ": " : ""}${g.reason}` }));
  }
  if (data.job) paired.append(h("p", { class: "muted pending" }, "replaying the trials to pair them…"));
  el.append(h("h3", {}, "YAML"));
  for (const d of data.diff || []) {
    if (d.missing) {
      el.append(h("p", { class: "muted", text: `${d.b}: its scenario text is not kept; no diff` }));
      continue;
    }
    if (!d.lines.length) {
      el.append(h("p", { class: "muted", text: `${d.a} and ${d.b}: the same text` }));
      continue;
    }
    el.append(h("pre", { class: "diff" }, d.lines.map((line) => h("span", {
      class: line.startsWith("+") ? "add" : line.startsWith("-") ? "rem" : line.startsWith("@@") ? "hunk" : "",
      text: line + "\n",
    }))));
  }
}

const METRIC = { win: "win rate", rounds: "mean rounds", girls_out: "girls out", girls_dead: "girls dead" };

export function renderPaired(el, result) {
  const box = el.querySelector("#paired");
  if (!box) return;
  for (const p of box.querySelectorAll(".pending")) p.remove();
  for (const g of result.groups || []) {
    if (!g.rows || !g.rows.length) continue;
    box.append(h("p", { class: "small muted", text: `against ${g.reference} (${int(g.rows[0].trials)} paired trials, ` +
      `${Math.round(100 * (1 - g.alpha))}% intervals)` }));
    box.append(h("div", { class: "scroll" }, h("table", { class: "paired" },
      h("thead", {}, h("tr", {}, ["run · variant", "metric", "difference", "interval", "p", ""].map((c) => h("th", { text: c })))),
      h("tbody", {}, g.rows.map((r) => {
        const rate = r.metric === "win";
        return h("tr", { class: r.identical ? "identical" : "" },
          h("td", { class: "variant", text: r.name }),
          h("td", { text: METRIC[r.metric] || r.metric }),
          h("td", { class: "num" }, rate ? `${signedPoints(r.diff)} points` : num(r.diff, 3)),
          h("td", { class: "num" }, rate ? `[${signedPoints(r.lo)}, ${signedPoints(r.hi)}]` : `[${num(r.lo, 3)}, ${num(r.hi, 3)}]`),
          h("td", { class: "num" }, r.p === null ? "–" : r.p < 0.001 ? "<0.001" : num(r.p, 3)),
          h("td", { class: "flag" }, r.identical && rate ? "identical on every trial" : ""));
      })))));
  }
}

// The run history: every run and study kept under results/, newest first, with
// label, show, restore, report, delete, and a tick box for Compare.

import { h, clear, int, when } from "./dom.js";
import { runUrl } from "./net.js";

export function renderHistory(el, runs, act, ticked) {
  clear(el);
  const bar = h("div", { class: "hbar" },
    h("button", { type: "button", id: "compare-ticked", onclick: () => act.compare() }, "Compare ticked"),
    h("span", { class: "muted" }, ` ${runs.length} kept`));
  if (!runs.length) {
    el.append(bar, h("p", { class: "muted" }, "No runs yet: press Run."));
    return;
  }
  const rows = runs.map((r) => {
    const tick = h("input", { type: "checkbox", class: "rtick", "aria-label": `tick ${r.id}`, dataset: { run: r.id } });
    tick.checked = ticked.has(r.id);
    tick.addEventListener("change", () => (tick.checked ? ticked.add(r.id) : ticked.delete(r.id)));
    const label = h("input", { type: "text", class: "label", value: r.label || "", placeholder: "label",
      "aria-label": `label of ${r.id}`, maxlength: "120" });
    label.addEventListener("change", () => act.label(r.id, label.value));
    const delBtn = h("button", { type: "button", class: "del", title: "delete this run's folder" }, "Delete");
    delBtn.addEventListener("click", () => {
      if (delBtn.dataset.armed) act.remove(r.id);
      else { delBtn.dataset.armed = "1"; delBtn.textContent = "Really delete?"; }
    });
    const what = r.kind === "study" ? `study ${r.study_kind || ""}` : `${(r.variants || []).length} variant(s)`;
    return h("tr", { dataset: { run: r.id } },
      h("td", {}, tick),
      h("td", {}, h("div", { class: "scen", text: r.scenario }), h("div", { class: "muted small", text: when(r.created) })),
      h("td", {}, label),
      h("td", { class: "small" }, `${r.system || ""} · seed ${r.seed} · ${int(r.trials)} · ${what}`),
      h("td", { class: "acts" },
        h("button", { type: "button", class: "show", onclick: () => act.show(r.id) }, "Show"),
        h("button", { type: "button", class: "restore", onclick: () => act.restore(r.id) }, "Restore"),
        h("a", { href: `/runs/${runUrl(r.id)}/report.html`, target: "_blank", rel: "noopener" }, "Report"),
        delBtn));
  });
  el.append(bar, h("div", { class: "scroll" }, h("table", { class: "history" }, h("tbody", {}, rows))));
}

// The Fight tab: one seeded fight of the editor's text, event by event, as `sim play` prints it
// (POST /api/play: trial N of `sim run --seed S`, played by the engine's own functions).

import { h, clear, int, seconds } from "./dom.js";

/** The bar above the log: variant, trial, Play and Next trial. ``onPlay({variant, trial})``. */
export function renderFightBar(el, variants, current, onPlay) {
  clear(el);
  const pick = h("select", { id: "fight-variant", "aria-label": "variant" },
    variants.map((v) => h("option", { value: v, text: v })));
  if (current.variant && variants.includes(current.variant)) pick.value = current.variant;
  const trial = h("input", { type: "number", id: "fight-trial", min: "0", step: "1", value: String(current.trial || 0),
    "aria-label": "trial", inputmode: "numeric" });
  const go = () => onPlay({ variant: pick.value, trial: Number.parseInt(trial.value || "0", 10) || 0 });
  const play = h("button", { type: "button", id: "fight-play" }, "Play this fight");
  const next = h("button", { type: "button", id: "fight-next", title: "the next trial of the same run" }, "Next trial");
  play.addEventListener("click", go);
  next.addEventListener("click", () => { trial.value = String((Number.parseInt(trial.value || "0", 10) || 0) + 1); go(); });
  const details = h("label", { class: "small" }, h("input", { type: "checkbox", id: "fight-details", checked: true }),
    " dice and damage details");
  details.firstChild.addEventListener("change", (e) => {
    const log = el.parentElement.querySelector("#fight-log");
    if (log) log.classList.toggle("brief", !e.target.checked);
  });
  el.append(h("label", {}, "variant ", pick), h("label", {}, "trial ", trial), play, next, details);
}

/** The log of one fight (the answer of /api/play): a heading with how to get the same log on the
 *  command line, then one line an event, indented by its depth. */
export function renderFight(el, data, file) {
  clear(el);
  const cmd = `sim play ${file || "FILE"} --variant '${data.variant}' --trial ${data.trial} --seed ${data.seed}`;
  el.append(h("p", { class: "small muted", id: "fight-head" },
    `Trial ${int(data.trial)} of a run with seed ${data.seed}, variant ${data.variant}: the same fight as trial ` +
    `${int(data.trial)} of Run with that seed (${data.events.length} events, played in ${seconds(data.seconds)}). ` +
    "On the command line: ", h("code", { text: cmd })));
  const log = h("div", { id: "fight-log", role: "log" });
  for (const ev of data.events) {
    const cls = `ev ev-${String(ev.event).replace(/[^a-z0-9_-]/gi, "")} d${Math.min(4, ev.depth || 0)}`;
    log.append(h("div", { class: cls, dataset: { event: ev.event } }, ev.text));
  }
  if (data.cut) log.append(h("p", { class: "muted", text: "… the log goes on (cut at 20,000 events)" }));
  el.append(log);
}

// Knobs: the common fields as a form; "Add as a variant" writes the changed values
// as one new entry of variants: (set: dotted paths), never over the base scenario.

import { h, clear } from "./dom.js";

function input(f) {
  if (f.type === "choice") {
    const el = h("select", { dataset: { path: f.path } },
      f.options.map((o) => h("option", { value: o, text: o || "(none)" })));
    el.value = f.value;
    return el;
  }
  if (f.type === "bool") {
    const el = h("input", { type: "checkbox", dataset: { path: f.path } });
    el.checked = !!f.value;
    return el;
  }
  if (f.type === "int" || f.type === "float") {
    return h("input", { type: "number", step: f.type === "int" ? "1" : "any", value: String(f.value),
      dataset: { path: f.path } });
  }
  const v = f.type === "list" ? f.value.join(", ") : String(f.value);
  return h("input", { type: "text", value: v, dataset: { path: f.path } });
}

function read(el, f) {
  if (f.type === "bool") return el.checked;
  if (f.type === "int") return el.value === "" ? null : Number.parseInt(el.value, 10);
  if (f.type === "float") return el.value === "" ? null : Number.parseFloat(el.value);
  if (f.type === "list") return el.value.split(",").map((s) => s.trim()).filter((s) => s);
  return el.value;
}

export function renderKnobs(el, data, onAdd) {
  clear(el);
  if (!data.ok) {
    el.append(h("p", { class: "error", text: data.message }));
    return;
  }
  const fields = [];
  const groups = data.groups.map((g) => h("fieldset", {}, h("legend", { text: g.title }),
    g.fields.map((f) => {
      const inp = input(f);
      fields.push([inp, f]);
      return h("label", { class: "knob" }, h("span", { text: f.field }), inp);
    })));
  const name = h("input", { type: "text", id: "knob-name", placeholder: "variant name (default: the changes)",
    maxlength: "80" });
  const add = h("button", { type: "button", id: "knob-add" }, "Add as a variant");
  add.addEventListener("click", () => {
    const changes = {};
    for (const [inp, f] of fields) {
      const v = read(inp, f);
      if (JSON.stringify(v) !== JSON.stringify(f.value)) changes[f.path] = v;
    }
    onAdd(changes, name.value.trim());
  });
  el.append(h("p", { class: "muted small" },
    "Change values, then add them as a new variant: the base scenario stays as it is, and the what-if " +
    "runs beside it on the same random numbers."), h("div", { class: "knobbar" }, name, add), ...groups);
}

// Vega-Lite charts, drawn with vega-embed in CSP-safe mode (Vega's expression
// interpreter instead of eval). The specs come from the server (sim/serve/charts.py):
// this file only draws them.

import embed from "vega-embed";
import { expressionInterpreter } from "vega-interpreter";

const OPTIONS = {
  ast: true,
  expr: expressionInterpreter,
  mode: "vega-lite",
  renderer: "svg",
  actions: { export: true, source: false, compiled: false, editor: false },
  downloadFileName: "mgsim-chart",
  i18n: { PNG_ACTION: "Save as PNG", SVG_ACTION: "Save as SVG" },
  config: {
    font: "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif",
    axis: { labelFontSize: 11, titleFontSize: 11, titleFontWeight: "normal" },
    legend: { labelFontSize: 11, titleFontSize: 11 },
    title: { fontSize: 13, anchor: "start" },
    view: { stroke: "#ddd" },
  },
};

let current = null;

export async function draw(el, spec) {
  if (current) {
    try { current.finalize(); } catch (e) { /* already gone */ }
    current = null;
  }
  const faceted = "facet" in spec;
  const s = faceted ? spec : { width: "container", autosize: { type: "fit-x", contains: "padding" }, ...spec };
  const narrow = el.clientWidth < 560; // a phone: the legend goes under the chart
  const config = { ...OPTIONS.config, legend: { ...OPTIONS.config.legend, ...(narrow ? { orient: "bottom", direction: "vertical" } : {}) } };
  current = await embed(el, s, { ...OPTIONS, config });
  return current;
}

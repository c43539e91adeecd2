// Small DOM helpers. Every text from the server goes in through textContent or
// an attribute set by the DOM API, never through innerHTML: a scenario, variant
// or member named <script>alert(1)</script> shows as those characters.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function $(sel, root = document) {
  return root.querySelector(sel);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// Numbers as the report prints them (formatting only: every value comes from the server).
export function pct(x, digits = 1) {
  return x === null || x === undefined ? "–" : `${(100 * x).toFixed(digits)}%`;
}

export function interval(lo, hi, digits = 1) {
  if (lo === null || lo === undefined || hi === null || hi === undefined) return "";
  return `[${(100 * lo).toFixed(digits)}, ${(100 * hi).toFixed(digits)}]`;
}

export function signedPoints(x, digits = 1) {
  if (x === null || x === undefined) return "–";
  const v = (100 * x).toFixed(digits);
  return (x > 0 ? "+" : "") + v;
}

export function int(x) {
  return x === null || x === undefined ? "–" : Number(x).toLocaleString("en-US");
}

export function num(x, digits = 2) {
  return x === null || x === undefined ? "–" : Number(x).toFixed(digits);
}

export function seconds(s) {
  if (s === null || s === undefined || !isFinite(s)) return "?";
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s - 60 * m)} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString();
}

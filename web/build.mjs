// Bundle the workbench's front end once: web/src -> sim/serve/static (app.js, app.css,
// LICENSES.txt; the page itself, static/index.html, is written by hand there), and record
// the hashes the test suite checks.
// Run with `make web` (node and npm are needed here only, never by a user).
import * as esbuild from "esbuild";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, readdirSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "sim", "serve", "static");
const sha = (p) => createHash("sha256").update(readFileSync(p)).digest("hex");

await esbuild.build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["chrome100", "firefox100", "safari15"],
  outfile: join(out, "app.js"),
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
});
await esbuild.build({
  entryPoints: [join(here, "src", "app.css")], bundle: true, minify: true, outfile: join(out, "app.css"),
  logLevel: "warning",
});

// The licences of every package bundled (those reachable from main.js), from node_modules.
const meta = await esbuild.build({
  entryPoints: [join(here, "src", "main.js")], bundle: true, write: false, metafile: true, logLevel: "silent",
});
const pkgs = new Map();
for (const input of Object.keys(meta.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (!m || pkgs.has(m[1])) continue;
  const dir = join(here, "node_modules", m[1]);
  const pj = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const lic = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  pkgs.set(m[1], { version: pj.version, license: pj.license, text: lic ? readFileSync(join(dir, lic), "utf8") : "" });
}
const names = [...pkgs.keys()].sort();
let legal = "Packages bundled into app.js (sim serve's front end), their versions and licences.\n\n";
for (const n of names) legal += `${n} ${pkgs.get(n).version}: ${pkgs.get(n).license}\n`;
for (const n of names) legal += `\n\n======== ${n} ${pkgs.get(n).version} (${pkgs.get(n).license})\n\n${pkgs.get(n).text}`;
writeFileSync(join(out, "LICENSES.txt"), legal);

// What the tests check: the shipped files, and the sources they were built from.
const sources = ["src/" + "main.js", ...readdirSync(join(here, "src")).filter((f) => f !== "main.js").map((f) => "src/" + f),
  "package.json", "package-lock.json", "build.mjs"].sort();
const record = {
  bundle: Object.fromEntries(["app.js", "app.css", "index.html", "LICENSES.txt"].map((f) => [f, sha(join(out, f))])),
  sources: Object.fromEntries(sources.filter((f) => existsSync(join(here, f))).map((f) => [f, sha(join(here, f))])),
  packages: Object.fromEntries(names.map((n) => [n, `${pkgs.get(n).version} ${pkgs.get(n).license}`])),
};
writeFileSync(join(out, "BUNDLE.json"), JSON.stringify(record, null, 1) + "\n");
console.log(`sim/serve/static: app.js ${(readFileSync(join(out, "app.js")).length / 1024).toFixed(0)} KiB, ` +
  `${names.length} packages`);

// Imports every subpath each installed package exports, in ESM, and tries deep imports that must stay closed.
// Argument: JSON { "<package>": ["<subpath>", …] } of the subpaths the workspace says it publishes.
import { readFileSync } from "node:fs";

const expected = JSON.parse(process.argv[2] ?? "{}");
const report = { node: process.version, exported: {}, loaded: {}, refused: {} };
for (const name of Object.keys(expected)) {
  const manifest = JSON.parse(readFileSync(new URL(`./node_modules/${name}/package.json`, import.meta.url), "utf8"));
  // JSON files (the manifest, a JSON Schema) are exported as data, not modules: the tarball check covers them.
  const subpaths = Object.keys(manifest.exports ?? {}).filter((key) => !key.endsWith(".json"));
  report.exported[name] = subpaths;
  for (const subpath of subpaths) {
    const specifier = subpath === "." ? name : `${name}/${subpath.slice(2)}`;
    try {
      report.loaded[specifier] = Object.keys(await import(specifier)).length;
    } catch (error) {
      report.loaded[specifier] = `${error.code ?? error.name}: ${error.message}`;
    }
  }
}
const closed = [
  "@toolware/packs/internal/tool-match",
  "@toolware/packs/dist/internal/tool-match.js",
  "@toolware/packs/src/internal/tool-match.ts",
  "@toolware/packs",
  "@toolware/core/dist/index.js",
  "@toolware/core/src/index.ts",
];
for (const specifier of closed) {
  try {
    await import(specifier);
    report.refused[specifier] = "loaded";
  } catch (error) {
    report.refused[specifier] = error.code ?? error.name;
  }
}
console.log(JSON.stringify(report));

// The snippets import "@toolware/core" exactly as users do. This folder's package.json names itself
// "@toolware/core" and exports this file, so the import resolves (by package self-reference) to the
// workspace sources without a node_modules link; module augmentations reach the real declarations.
export * from "../../packages/core/src/index.js";

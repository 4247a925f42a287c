import ts from "typescript";
import type { Plugin } from "vite";

/**
 * Node 20 cannot parse TC39 decorators and vite 8's default transform leaves
 * them in place, so files that use `@decorator` syntax go through TypeScript's
 * own transpiler, which lowers them.
 */
export function lowerDecorators(): Plugin {
  return {
    name: "toolware:lower-decorators",
    enforce: "pre",
    transform(code, id) {
      if (!id.endsWith(".ts") || id.includes("node_modules") || !/^\s*@\w/m.test(code)) return null;
      const out = ts.transpileModule(code, {
        fileName: id,
        compilerOptions: {
          target: ts.ScriptTarget.ES2022,
          module: ts.ModuleKind.ESNext,
          sourceMap: true,
          verbatimModuleSyntax: false,
        },
      });
      return { code: out.outputText, map: out.sourceMapText ? JSON.parse(out.sourceMapText) : null };
    },
  };
}

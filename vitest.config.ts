import { defaultClientConditions, defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { lowerDecorators } from "./scripts/vite-lower-decorators.js";

export default defineConfig({
  plugins: [lowerDecorators()],
  // Workspace packages resolve to their TypeScript sources in tests (the "source" export condition),
  // so the suite never depends on a build.
  resolve: { conditions: ["source", ...defaultClientConditions] },
  ssr: { resolve: { conditions: ["source", ...defaultServerConditions] } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    typecheck: {
      enabled: true,
      include: ["packages/*/src/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
    testTimeout: 20_000,
  },
});

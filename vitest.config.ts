import { defineConfig } from "vitest/config";
import { lowerDecorators } from "./scripts/vite-lower-decorators.js";

export default defineConfig({
  plugins: [lowerDecorators()],
  resolve: {
    // Workspace packages resolve to their TypeScript sources in tests.
    conditions: ["source"],
  },
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

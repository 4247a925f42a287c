import { defineConfig } from "vitest/config";

// The release suite: tests of what gets published, against the packed tarballs installed with plain npm in a
// project outside the workspace (test/release/global-setup.ts). The gate runs it on Node 20 and Node 22.
export default defineConfig({
  test: {
    include: ["test/release/**/*.test.ts"],
    globalSetup: ["test/release/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});

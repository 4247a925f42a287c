// Runs every example of this folder in order: `pnpm --filter @toolware/example-seed-use-cases start`.
import { readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
const files = (await readdir(dir)).filter((f) => /^\d\d-.+\.ts$/.test(f)).sort();
for (const file of files) {
  console.log(`\n=== ${file.replace(/\.ts$/, "")} ===`);
  const mod = (await import(new URL(file, import.meta.url).href)) as {
    main: (log?: (line: string) => void) => Promise<unknown>;
  };
  await mod.main();
}

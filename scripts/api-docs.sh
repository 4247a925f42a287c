#!/usr/bin/env sh
# Generates the API reference of @toolware/core and every @toolware/packs/<pack> entry point
# from their JSDoc, as Markdown, into docs/api/ (gitignored: never edit or commit it by hand).
#
# Needs typedoc 0.28 and typedoc-plugin-markdown 4 at the root:
#   pnpm add -Dw typedoc@0.28.20 typedoc-plugin-markdown@4.14.1
# Run: sh scripts/api-docs.sh   (extra arguments go to typedoc, e.g. --treatWarningsAsErrors)
#
# Why the options in scripts/typedoc.json look the way they do:
# - "packages" mode names the modules after package.json ("@toolware/core", "@toolware/packs/cache");
# - each package's tsconfig.build.json keeps the tests out, but resolves @toolware/core to dist/, which may not
#   be built: the "@toolware/source" condition points it at the sources instead, and rootDir widens to the repository;
# - type errors are tsc's job (pnpm typecheck), so typedoc skips the check: the packs' program sees the core's
#   sources without the core's ambient koa-compose declaration.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/typedoc ]; then
  echo "typedoc is not installed: pnpm add -Dw typedoc@0.28.20 typedoc-plugin-markdown@4.14.1" >&2
  exit 1
fi
rm -rf docs/api
exec node_modules/.bin/typedoc --options scripts/typedoc.json "$@"

#!/usr/bin/env bash
# The dashboard (www/) in headless Chromium: builds both packages if missing (lpm-client into pkg/,
# lpm-client-bulk into pkg-bulk/), the emulator, and the
# dashboard (npm ci + vite build, which prints its size and first render), then drives every flow
# against the emulator serving the built dashboard on the same origin (run.mjs), and the day's-work
# checks at a laptop's and a phone's size (day.mjs), the second walk's (walk.mjs) and the engine's
# state while it works (engine.mjs). Screenshots go to
# target/www-screens/;
# docs/screens/ is made by `node tests/www/screens.mjs`.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ -f pkg/package.json ] || bash scripts/build-pkg.sh
[ -f pkg-bulk/package.json ] || LPM_FLAVOUR=bulk bash scripts/build-pkg.sh
[ -x target/debug/lpm-emulator ] || cargo build -p lpm-emulator
(cd www && npm ci --no-audit --no-fund --silent && npm run --silent build)
node tests/www/run.mjs
# The shared table of sheets through the bulk screen's file picker (lpm-sheets; issue 29).
node tests/www/sheets.mjs
node tests/www/day.mjs
# The second walk (issue 38): sign-out, the overview after an import, texts, layout, search.
node tests/www/walk.mjs
# The engine's state on screen while it works (issue 38): a chunk out, rows in doubt, a grant's tries again, the interval.
node tests/www/engine.mjs

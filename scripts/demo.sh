#!/usr/bin/env bash
# The main job: builds the npm package, starts the emulator with its demo data, and runs the Node
# example against it (examples/node-demo.mjs). With --keep the emulator stays up afterwards
# (Ctrl-C stops it) so you can point your own code or curl at it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/setup.sh
bash scripts/build-pkg.sh
cargo build --quiet --release -p lpm-emulator
(cd examples && npm install --no-audit --no-fund --silent)

log=$(mktemp)
target/release/lpm-emulator --port 0 > "$log" &
emulator=$!
trap 'kill $emulator 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q '^lpm-emulator listening on ' "$log" && break; sleep 0.1; done
url=$(sed -n 's/^lpm-emulator listening on //p' "$log")
[ -n "$url" ] || { cat "$log"; echo "the emulator did not start" >&2; exit 1; }
echo "emulator with demo data at $url"
sed -n '2,$p' "$log" | sed 's/^/  /'
echo

LPM_BASE_URL="$url" node examples/node-demo.mjs

if [ "${1:-}" = "--keep" ]; then
  echo; echo "emulator still running at $url (Ctrl-C to stop)"
  wait $emulator
fi

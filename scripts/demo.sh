#!/usr/bin/env bash
# The main job: builds the npm package and the dashboard (www/), starts the emulator with its demo
# data serving the dashboard on the same origin (--static), runs the Node tour
# (examples/node-demo.mjs), then prints the dashboard's address and the demo sign-in and keeps
# serving until Ctrl-C. With --tour-only it runs the tour and exits.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

tour_only=false
case "${1:-}" in
  --tour-only) tour_only=true ;;
  ""|--keep) ;; # --keep: the old spelling of the default (keep serving)
  *) echo "usage: bash scripts/demo.sh [--tour-only]" >&2; exit 2 ;;
esac

bash scripts/setup.sh
bash scripts/build-pkg.sh
cargo build --quiet --release -p lpm-emulator
(cd examples && npm ci --no-audit --no-fund --silent)   # ci: the lock is never rewritten
static=()
if ! $tour_only; then
  LPM_FLAVOUR=bulk bash scripts/build-pkg.sh   # the dashboard's bulk screen loads lpm-client-bulk
  (cd www && npm ci --no-audit --no-fund --silent && npm run --silent build)
  # "Log in as" opens the emulator's demo learner page, which signs in with the one-time token.
  echo '{"siteUrl": "/learner"}' > www/dist/config.json
  static=(--static www/dist --static-csp www/csp.txt)
fi

log=$(mktemp)
target/release/lpm-emulator --port 0 "${static[@]}" > "$log" &
emulator=$!
trap 'kill $emulator 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do grep -q '^lpm-emulator listening on ' "$log" && break; sleep 0.1; done
url=$(sed -n 's/^lpm-emulator listening on //p' "$log")
[ -n "$url" ] || { cat "$log"; echo "the emulator did not start" >&2; exit 1; }
echo "emulator with demo data at $url"
sed -n '2,$p' "$log" | sed 's/^/  /'
echo

LPM_BASE_URL="$url" node examples/node-demo.mjs

$tour_only && exit 0
email=$(sed -n 's/^admin-email: //p' "$log")
password=$(sed -n 's/^admin-password: //p' "$log")
echo
echo "dashboard: $url/"
echo "  sign in with $email / $password (or paste the admin-token above)"
echo "  serving until Ctrl-C"
wait $emulator

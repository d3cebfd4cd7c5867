#!/usr/bin/env bash
# Builds the cargo-fuzz targets in fuzz/ and runs each for a bounded time, seeded from
# tests/fixtures. Prints the executions per target and in total; exits non-zero when a target
# crashes (or fails to run), keeping the crashing input under fuzz/artifacts/<target>/.
#
#   bash scripts/fuzz.sh            # 300 s per target
#   bash scripts/fuzz.sh 15         # the short run of the test command
#   FUZZ_TARGETS="decode plan" bash scripts/fuzz.sh 60
#   LPM_FUZZ_STRICT_REDACTION=0 bash scripts/fuzz.sh 60   # the token check only as is
#
# Installs what it needs (nightly toolchain, cargo-fuzz) when missing; can be run again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=${1:-300}
case "$seconds" in '' | *[!0-9]*) echo "usage: $0 [seconds-per-target]" >&2; exit 2 ;; esac
targets=${FUZZ_TARGETS:-decode validate plan bulk}

# --- tools (idempotent) ----------------------------------------------------------------------
if ! cargo +nightly --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

# --- build -----------------------------------------------------------------------------------
start=$SECONDS
# Release with debug assertions and overflow checks (cargo-fuzz's default). No sanitizer: the
# crate and its code under test are safe Rust, and AddressSanitizer would halve the executions.
# One job: the machine is shared.
flags=(--sanitizer none)
CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-1} cargo +nightly fuzz build "${flags[@]}"
echo "fuzz: built the targets in $((SECONDS - start)) s"

# --- seeds (regenerated each run from tests/fixtures; never committed) -----------------------
seeds=fuzz/corpus/_seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{decode,validate,plan,bulk}
n=0
while IFS= read -r -d '' file; do
  n=$((n + 1))
  dir=$(basename "$(dirname "$file")")
  # decode: a header line naming the endpoint and status, then the body as the server sent it.
  if [ "$dir" = raw ]; then
    for ep in get-single-user create-multi-user; do
      for status in 200 500; do
        { printf '%s %s\n' "$ep" "$status"; cat "$file"; } >"$seeds/decode/$n-$ep-$status"
      done
    done
  elif [ "$dir" != fixtures ]; then
    { printf '%s 200\n' "$dir"; cat "$file"; } >"$seeds/decode/$n"
    { printf '%s 400 1\n' "$dir"; cat "$file"; } >"$seeds/decode/$n-400"
  fi
  # validate: the records as JSON values (the validators read their keys and strings).
  cp "$file" "$seeds/validate/$n.json"
done < <(find tests/fixtures -type f -print0 | sort -z)

# validate: request shapes, good and bad.
printf '%s' '[{"name":"Nguyễn Văn An","username":"nguyenvanan","email":"an@example.com","password":"Secret-Passw0rd","phone":"0987654321","gender":"Nam"},{"name":"ab","username":"a b","email":"AN@example.com ","password":1,"usename":"x"}]' >"$seeds/validate/create.json"
printf '%s' '{"users":["DSuaHiqBri7Yzg2am","DSuaHiqBri7Yzg2am",".."],"courses":[]}' >"$seeds/validate/add.json"
printf '%s' '{"start":-1,"limit":100.0,"email":"an@example","username":" ","title":"vật lý","password":"hunter22"}' >"$seeds/validate/params.json"

# plan: lines base, token, id, email, username, title, start, limit; ids from the fixtures.
token=kT3~fz.ZQ_9-mW2pLx8vR4nB7cY1sD6gH0jK5eA2uN
i=0
for id in $(grep -rhoE '"_id": *"[^"]*"' tests/fixtures | sed -E 's/.*"([^"]*)"$/\1/' | sort -u); do
  i=$((i + 1))
  printf 'https://school.example.com\n%s\n%s\nan@example.com\nnguyenvanan\nvật lý\n0\n100\n' \
    "$token" "$id" >"$seeds/plan/id-$i"
done
while IFS= read -r id; do
  i=$((i + 1))
  printf 'http://127.0.0.1:8080/lms/\nZq7Xw2Kp\n%s\na@b.co\nab\nx\n5\n0\n' "$id" >"$seeds/plan/id-$i"
done <<'EOF'
.
..
%2e%2E
a/../b
?token=x#y
 .. 
x\y
EOF

# bulk: journals as an import and a grant write them (one JSON line), then answer picks.
started='{"event":"started","job":"import","rows":5}'
planned='{"event":"chunkPlanned","chunk":0,"rows":[{"row":0,"email":"lan@example.com","username":"lananh"},{"row":1,"email":"bao@example.com","username":"bao"}]}'
sending='{"event":"chunkSending","chunk":0,"at":1700000000000}'
printf '[]\n\000\001\002' >"$seeds/bulk/empty"
printf '[%s]\n\006\001\002' "$started" >"$seeds/bulk/started"
printf '[%s,%s,%s]\n\001\002\006' "$started" "$planned" "$sending" >"$seeds/bulk/sent"
printf '[%s,%s,%s,{"event":"rowsInDoubt","chunk":0,"rows":[0,1],"reason":{"kind":"transport","failure":"timeout"}},{"event":"lookupResult","row":0,"result":{"kind":"created","userId":"U1"}}]\n\001\002' \
  "$started" "$planned" "$sending" >"$seeds/bulk/doubt"
printf '[{"event":"started","job":"grant","rows":5,"courses":["c1"]},{"event":"chunkPlanned","chunk":0,"rows":[{"row":0,"userId":"u1"},{"row":1,"userId":"u2"}]},{"event":"chunkSending","chunk":0,"at":1},{"event":"chunkOutcomes","chunk":0,"rows":[0],"outcomes":[{"kind":"granted"}]}]\n\003\004' >"$seeds/bulk/grant"

# --- run -------------------------------------------------------------------------------------
total=0
failed=()
mkdir -p fuzz/logs
for t in $targets; do
  dict=fuzz/json.dict
  [ "$t" = plan ] && dict=fuzz/plan.dict
  mkdir -p "fuzz/corpus/$t"
  log=fuzz/logs/$t.log
  if [ -n "${FUZZ_RUNS:-}" ]; then
    bound=(-runs="$FUZZ_RUNS" -seed=1)
    echo "fuzz: $t for $FUZZ_RUNS runs from seed 1 (log: $log)"
  else
    bound=(-max_total_time="$seconds")
    echo "fuzz: $t for ${seconds} s (log: $log)"
  fi
  status=0
  cargo +nightly fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" "$seeds/$t" -- \
    "${bound[@]}" -timeout=10 -rss_limit_mb=2048 -dict="$dict" \
    -print_final_stats=1 >"$log" 2>&1 || status=$?
  execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
  execs=${execs:-0}
  total=$((total + execs))
  cov=$(sed -nE 's/^#[0-9]+[[:space:]]+DONE[[:space:]]+(cov: [0-9]+ ft: [0-9]+ corp: [0-9]+).*/\1/p' "$log" | tail -n 1)
  printf 'fuzz: %-8s %12d executions  %s\n' "$t" "$execs" "$cov"
  if [ "$status" -ne 0 ]; then
    failed+=("$t")
    echo "fuzz: $t FAILED (exit $status); the end of its log:" >&2
    tail -n 40 "$log" >&2
    ls -1 "fuzz/artifacts/$t/" 2>/dev/null | sed "s|^|  kept: fuzz/artifacts/$t/|" >&2 || true
  fi
done
printf 'fuzz: total    %12d executions in %d s\n' "$total" "$((SECONDS - start))"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzz: crashes in: ${failed[*]} (reproduce: cargo +nightly fuzz run <target> <artifact>)" >&2
  exit 1
fi

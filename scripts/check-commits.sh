#!/usr/bin/env bash
# Commit subjects are at most 72 characters (the why goes in the body), from the first commit
# held to it on. Older history is left as it is. A clone without that commit (a shallow one)
# checks what it has.
set -euo pipefail
cd "$(dirname "$0")/.."
since=3d7b9ec
range=HEAD
git cat-file -e "$since^{commit}" 2>/dev/null && range="$since..HEAD"
export LC_ALL=C.UTF-8 # characters, not bytes
long=$(git log --no-merges --format='%h %s' "$range" | while IFS= read -r line; do
  subject=${line#* }
  if [ "${#subject}" -gt 72 ]; then echo "$line"; fi
done)
if [ -n "$long" ]; then
  echo "commit subjects over 72 characters (put the why in the body):" >&2
  echo "$long" >&2
  exit 1
fi
echo "commit subjects: all within 72 characters"

# Sourced by the package checks. `install_tarball TGZ DIR [NAME]` makes DIR a throwaway ESM
# project that depends on the packed package TGZ under NAME (lpm-client unless given) and
# installs it offline (the package has no dependencies, so nothing is fetched; the tarball is
# unpacked, not linked to pkg/).
install_tarball() {
  local tgz=$1 dir=$2 name=${3:-lpm-client}
  mkdir -p "$dir"
  cat > "$dir/package.json" <<JSON
{ "name": "lpm-client-check-project", "private": true, "type": "module", "dependencies": { "$name": "file:$tgz" } }
JSON
  (cd "$dir" && npm install --silent --offline --no-audit --no-fund --no-package-lock)
}

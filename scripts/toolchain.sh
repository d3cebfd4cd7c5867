# The nightly toolchain the release wasm is built with (scripts/build-pkg.sh: build-std and the
# immediate-abort panic strategy are unstable), pinned like rust-toolchain.toml's stable so a build
# gives the same bytes everywhere; raise it on purpose. Tests, clippy and the native crate stay on
# stable. Sourced by scripts/setup.sh (which installs it) and scripts/build-pkg.sh.
LPM_NIGHTLY=nightly-2026-05-20

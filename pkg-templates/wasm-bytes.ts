// The package's wasm as base64, for the node entry: scripts/build-pkg.sh writes the built wasm
// into the staged copy of this file. Empty here, for the type-check in the repository.
export default '';

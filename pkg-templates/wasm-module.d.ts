// A `.wasm` import as workerd.ts makes it: Wrangler (and any bundler rule for Workers) gives
// the precompiled WebAssembly.Module. For the build's type-check only.
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}
// The same as edge.ts imports it, with the suffix Next.js and Vercel read as "precompiled".
declare module '*.wasm?module' {
  const module: WebAssembly.Module;
  export default module;
}

import { defineConfig } from "vite";

// Relative base: the built dashboard works from any folder the server puts it in.
// es2022: lpm-client-bulk's browser entry uses top-level await to load its wasm. No modulepreload
// polyfill: every browser that runs es2022 modules and wasm preloads modules itself.
export default defineConfig({
  base: "./",
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, manifest: true, modulePreload: { polyfill: false } },
});

import { defineConfig } from "vite";

// Relative base: the built dashboard works from any folder the server puts it in.
// es2022: the package's browser entry uses top-level await to load its wasm.
export default defineConfig({
  base: "./",
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, manifest: true },
});

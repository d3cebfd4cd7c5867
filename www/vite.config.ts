import { defineConfig, type Plugin } from "vite";

/** lpm-client's wasm, asked for by index.html itself: it downloads beside the page's code, not
 * after it (lpm-client/lazy fetches it once that code runs; the fetch takes this response). */
const preloadWasm = (): Plugin => ({
  name: "preload-lpm-client-wasm",
  transformIndexHtml: {
    order: "post",
    handler(_html, ctx) {
      const wasm = Object.values(ctx.bundle ?? {}).find((f) => f.type === "asset" && f.originalFileNames?.some((n) => /(^|\/)pkg\/wasm\/lpm_client_bg\.wasm$/.test(n)));
      return wasm ? [{ tag: "link", attrs: { rel: "preload", href: `./${wasm.fileName}`, as: "fetch", type: "application/wasm", crossorigin: "" }, injectTo: "head" }] : [];
    },
  },
});

// Relative base: the built dashboard works from any folder the server puts it in.
// es2022: lpm-client-bulk's browser entry uses top-level await to load its wasm. No modulepreload
// polyfill: every browser that runs es2022 modules and wasm preloads modules itself.
export default defineConfig({
  base: "./",
  plugins: [preloadWasm()],
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    manifest: true,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What every screen loads, as one chunk: split by what the lazy screens (bulk, overview)
        // share, it was five files, each compressed on its own (1.2 KB gzip more in all).
        advancedChunks: {
          groups: [{ name: "app", test: /lit-html|table-core|[\\/]idb[\\/]|[\\/]pkg[\\/]|vite[\\/]preload-helper|src[\\/](app|i18n|ui|errors|format|account-cache|db|bulk-job|server-texts|screens[\\/](accounts|courses|grant|signin)\.)/ }],
        },
      },
    },
  },
});

import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// Build only: the server serves the output from dist/ui; nothing of Vite runs in production.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/ui/",
  publicDir: false,
  logLevel: "warn",
  build: {
    outDir: fileURLToPath(new URL("../dist/ui", import.meta.url)),
    emptyOutDir: true,
    target: "es2022",
    // The polyfill would be an inline script, which the Content-Security-Policy refuses.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The dashboard uses the very same typed client as the CLI (shared/src/client.ts). Its one
// transport module (http-send, over node:http) is replaced in the browser by one over `fetch`. The
// Node-only webhook signing lives in a subpath export (`@hop/shared/webhook-signature`) it never imports.
export default defineConfig({
  // Relative asset URLs: the server adds a <base href> naming where it mounts the app.
  base: './',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@hop\/shared$/, replacement: here('../shared/src/index.ts') },
      { find: /^@hop\/shared\/client$/, replacement: here('../shared/src/client.ts') },
      { find: /^\.\/http-send\.js$/, replacement: here('./src/transport/fetch-send.ts') },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
  },
});

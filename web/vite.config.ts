import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The dashboard uses the very same typed client as the CLI (shared/src/client-core.ts), with a
// transport over `fetch` passed in (src/transport/). The Node-only transport and webhook signing
// live in modules it never imports. It imports each part of the contract from its own module
// (`@hop/shared/links`), never the index: a zod schema is built when its module loads, and the
// index would build every one of them before the first page renders.
export default defineConfig({
  // Relative asset URLs: the server adds a <base href> naming where it mounts the app.
  base: './',
  plugins: [react()],
  resolve: {
    alias: [
      { find: /^@hop\/shared$/, replacement: here('../shared/src/index.ts') },
      { find: /^@hop\/shared\/import$/, replacement: here('../shared/src/import/index.ts') },
      { find: /^@hop\/shared\/([a-z-]+)$/, replacement: `${here('../shared/src/')}$1.ts` },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    // Modules run in their import order across chunks, so src/zod-jitless.ts (index.html's first
    // script) sets zod's config before any schema module is evaluated.
    rolldownOptions: { output: { strictExecutionOrder: true } },
  },
});

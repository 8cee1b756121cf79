import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import react from '@vitejs/plugin-react';
import { PAGE_CHUNKS_FILE, PAGE_MODULES } from './src/pages.js';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

type Chunk = Rolldown.OutputChunk;

/** A chunk and every chunk it imports statically, transitively: what runs before it does. */
function staticGraph(chunks: Map<string, Chunk>, name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const dep of chunks.get(name)?.imports ?? []) staticGraph(chunks, dep, seen);
  return seen;
}

/**
 * The build's notes on its chunks, on the files as written (Vite adds its own preamble to a chunk
 * after every plugin's generateBundle):
 * - The first load's chunks start with V8's explicit compile hint: their functions all run as the
 *   app starts, so V8 compiles them while it streams the file, off the main thread, rather than one
 *   by one as React first calls them, inside the tasks that render the page.
 * - `page-chunks.json` lists each page's chunks beyond the first load, for the server to preload
 *   from that page's HTML, with the first load, rather than after it has run.
 * (docs/dashboard.md, "Performance and Lighthouse")
 */
function chunkNotes(): Plugin {
  return {
    name: 'hop-chunk-notes',
    apply: 'build',
    writeBundle(options, bundle) {
      const chunks = new Map(Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
      const firstLoad = new Set<string>();
      for (const c of chunks.values()) if (c.isEntry) staticGraph(chunks, c.fileName, firstLoad);
      for (const name of firstLoad) {
        const file = join(options.dir!, name);
        writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, 'utf8')}`);
      }
      const pages: Record<string, string[]> = {};
      for (const [page, [module]] of Object.entries(PAGE_MODULES)) {
        const route = [...chunks.values()].find((c) => c.facadeModuleId === here(`src/routes/${module}.tsx`));
        if (!route) throw new Error(`no chunk for the ${page} page (src/routes/${module}.tsx)`);
        pages[page] = [...staticGraph(chunks, route.fileName)].filter((f) => !firstLoad.has(f));
      }
      writeFileSync(join(options.dir!, PAGE_CHUNKS_FILE), `${JSON.stringify(pages, null, 1)}\n`);
    },
  };
}

/**
 * Writes a brotli copy (`name.br`) of each script, stylesheet and icon, at brotli's best level,
 * which is too slow for the server to run as it starts; the server sends it to browsers that
 * accept brotli (server/src/api/dashboard-static.ts). Last, on the files as written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hop-precompress',
    apply: 'build',
    configResolved(config) { outDir = join(config.root, config.build.outDir, config.build.assetsDir); },
    closeBundle(error) {
      if (error) return;
      for (const name of readdirSync(outDir).filter((n) => /\.(js|css|svg)$/.test(n))) {
        const body = readFileSync(join(outDir, name));
        const params = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length };
        writeFileSync(join(outDir, `${name}.br`), brotliCompressSync(body, { params }));
      }
    },
  };
}

// The dashboard uses the very same typed client as the CLI (shared/src/client-core.ts), with a
// transport over `fetch` passed in (src/transport/). The Node-only transport and webhook signing
// live in modules it never imports. It imports each part of the contract from its own module
// (`@hop/shared/links`), never the index: a zod schema is built when its module loads, and the
// index would build every one of them before the first page renders.
export default defineConfig({
  // Relative asset URLs: the server adds a <base href> naming where it mounts the app.
  base: './',
  plugins: [react(), chunkNotes(), precompress()],
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

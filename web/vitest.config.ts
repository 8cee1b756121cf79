import { defineConfig, mergeConfig } from 'vitest/config';
import app from './vite.config.js';

// Component tests: the app's own Vite config (aliases, React), in happy-dom, one file per form.
export default mergeConfig(app, defineConfig({
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
}));

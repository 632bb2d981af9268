/**
 * Vite build of the 3D viewer: `viewer/index.html` and `viewer/src/*.ts` (three.js
 * bundled in, no CDN) into `viewer/dist/`, served by the service under `/viewer/` (the page at
 * `/viewer/<job>`, hashed assets at `/viewer/assets/`). Run through `npm run build` or
 * scripts/build-front-ends.ts.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/viewer/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    // three.js alone is ~600 kB minified; one chunk loads once and is cached for a year.
    chunkSizeWarningLimit: 1500,
    sourcemap: false,
  },
});

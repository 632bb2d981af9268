/**
 * Vite build of the web app: `webapp/index.html` and `webapp/src/**` (React, bundled,
 * no CDN) into `webapp/dist/`, served by the service under `/app/` (every page path answers
 * index.html; hashed assets at `/app/assets/`).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  logLevel: 'warn',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
});

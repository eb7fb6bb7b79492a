import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// No `root` here: the root vitest config extends this file for the `web` project and resolves its
// include globs from the repository root. `npm run build -w web` runs with web/ as the working dir.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/collector': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/collector': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // The map route is a dynamic import in routes.tsx, so it becomes its own chunk.
    chunkSizeWarningLimit: 600,
  },
});

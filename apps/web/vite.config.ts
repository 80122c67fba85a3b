import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const serverUrl = process.env.WADESK_SERVER_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [
    react(),
    // Every text asset also as .br and .gz next to it: the server sends the one the browser accepts
    // (@fastify/static preCompressed) without compressing on each request.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|mjs|css|html|svg|json)$/,
      exclude: /(^|\/)\.vite\//,
    }),
  ],
  resolve: {
    alias: {
      '@wadesk/contracts': fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)),
    },
  },
  server: {
    proxy: {
      '/api': { target: serverUrl, changeOrigin: true },
      '/socket.io': { target: serverUrl, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each page loads (bench/web.ts measures JavaScript per route from it).
    manifest: true,
    chunkSizeWarningLimit: 2000,
  },
});

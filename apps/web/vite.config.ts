import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const serverUrl = process.env.WADESK_SERVER_URL ?? 'http://localhost:8080';

/**
 * The build's report in one line (files, size, time) instead of Vite's line per file: with the .br and .gz copies that
 * was some 400 lines in every `npm start` that builds. `vite build --logLevel info` lists the files again.
 */
function buildSummary(): Plugin {
  let started = 0;
  let files = 0;
  let bytes = 0;
  return {
    name: 'wadesk-build-summary',
    apply: 'build',
    buildStart() {
      started = Date.now();
    },
    writeBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        files += 1;
        bytes += item.type === 'chunk' ? Buffer.byteLength(item.code) : typeof item.source === 'string' ? Buffer.byteLength(item.source) : item.source.byteLength;
      }
    },
    closeBundle() {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`web app built: ${files} files, ${(bytes / 1024 / 1024).toFixed(1)} MB, in ${seconds} s\n`);
    },
  };
}

export default defineConfig(({ command }) => ({
  // A build reports warnings, errors and one summary line (buildSummary); the dev server keeps Vite's messages.
  logLevel: command === 'build' ? 'warn' : 'info',
  plugins: [
    react(),
    // Every text asset also as .br and .gz next to it: the server sends the one the browser accepts
    // (@fastify/static preCompressed) without compressing on each request.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|mjs|css|html|svg|json)$/,
      exclude: /(^|\/)\.vite\//,
    }),
    buildSummary(),
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
      // The user guide, served by the server (Help in the user menu).
      '/guide': { target: serverUrl, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each page loads (bench/web.ts measures JavaScript per route from it).
    manifest: true,
    chunkSizeWarningLimit: 2000,
    // No gzip size per file: nothing shows it now, and computing it costs seconds.
    reportCompressedSize: false,
  },
}));

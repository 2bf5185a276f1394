import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import type { ManifestTransform } from 'workbox-build';
import { chunkGroups } from './src/client/app/chunk-groups.ts';
import { webManifest } from './src/client/app/pwa/web-manifest.ts';
import { landingPage } from './src/landing/vite-plugin.ts';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;

/** Writes .br and .gz beside every text asset once, at build time; the server sends those as they are. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved: (config) => {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const source = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(source, { level: 9 }));
      }
    },
  };
}

/**
 * What the service worker precaches: the two pages and the files they load before any interaction. The
 * shell is stored under the address the server answers for it (sw/shell.ts), the landing page under /.
 * and the public screens' code. Member and admin screens' chunks are kept only once a screen has loaded
 * them, so a visitor's phone never downloads member or admin code it did not ask for.
 */
function precacheEntries(): { plugin: Plugin; transform: ManifestTransform } {
  let outDir = 'dist';
  const plugin: Plugin = {
    name: 'precache-entries',
    apply: 'build',
    configResolved: (config) => {
      outDir = config.build.outDir;
    },
  };
  const transform: ManifestTransform = async (entries) => {
    type Chunk = { file: string; css?: string[]; imports?: string[] };
    const chunks: Record<string, Chunk> = JSON.parse(
      readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'),
    );
    const needed = new Set<string>();
    const visit = (key: string) => {
      const chunk = chunks[key];
      if (!chunk || needed.has(chunk.file)) return;
      needed.add(chunk.file);
      for (const css of chunk.css ?? []) needed.add(css);
      for (const dep of chunk.imports ?? []) visit(dep);
    };
    visit('index.html');
    visit('landing.html');
    // The public screens too (sign-in, registration...), so each opens offline even if never opened.
    for (const key of Object.keys(chunks))
      if (/^src\/client\/routes\//.test(key) && !/^src\/client\/routes\/(user|admin)(\.tsx|\/)/.test(key))
        visit(key);
    const manifest = entries
      .filter((entry) => !entry.url.startsWith('assets/') || needed.has(entry.url))
      .map((entry) => {
        if (entry.url === 'index.html') return { ...entry, url: 'app-shell' };
        if (entry.url === 'landing.html') return { ...entry, url: '/' };
        return entry;
      });
    return { manifest, warnings: [] };
  };
  return { plugin, transform };
}

const precache = precacheEntries();
const chunks = chunkGroups();

export default defineConfig({
  plugins: [
    // The router plugin must come before react(): it rewrites route files into split chunks.
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/client/routes',
      generatedRouteTree: './src/client/app/route-tree.gen.ts',
    }),
    react(),
    chunks.plugin,
    landingPage(),
    precache.plugin,
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // Registered after load by the app (src/client/app/pwa/register.ts, workbox-window, with the update
      // prompt) and by the landing page's script (src/landing/enhance/service-worker.ts, the plain browser call).
      injectRegister: false,
      registerType: 'prompt',
      manifest: webManifest,
      manifestFilename: 'manifest.webmanifest',
      includeManifestIcons: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: ['index.html', 'landing.html', 'assets/*.{js,css}', 'favicon.svg', 'icons/*.png'],
        manifestTransforms: [precache.transform],
      },
    }),
    precompress(),
  ],
  // The manifest maps source files to chunks: the delivery test uses it to prove visitors get no member or admin code.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    manifest: true,
    // Two pages: the SPA's shell, and the landing page prerendered from React (src/landing), which loads
    // none of the SPA's code.
    // The app's chunks by who loads them (src/client/app/chunk-groups.ts): a few files per screen.
    rolldownOptions: {
      input: { main: 'index.html', landing: 'landing.html' },
      output: { codeSplitting: { groups: chunks.groups } },
    },
    // The blog pictures load lazily, below the fold: they stay files rather than inlined data in the HTML.
    assetsInlineLimit: (file) => (file.includes('/src/landing/images/') ? false : undefined),
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});

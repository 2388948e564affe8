import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { gzipAsync } from '@gfx/zopfli'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const apiPort = Number(process.env.PORT ?? 3000)

/**
 * Writes .br and .gz beside each text asset so the server sends them without compressing. The
 * gzip is Zopfli's: any gzip reader reads it, and it is 3-4 % smaller than zlib's best, for the
 * clients that do not take Brotli.
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'quire-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const full = path.join(dir, name)
          return statSync(full).isDirectory() ? walk(full) : [full]
        })
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|webmanifest)$/.test(file)) continue
        const body = readFileSync(file)
        if (body.byteLength < 1024) continue
        writeFileSync(`${file}.gz`, await gzipAsync(body, { numiterations: 5 }))
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        )
      }
    },
  }
}

export default defineConfig({
  plugins: [react(), precompress()],
  resolve: {
    alias: { 'styled-system': path.resolve(import.meta.dirname, 'styled-system') },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    rolldownOptions: {
      treeshake: {
        // Panda's generated recipe modules are pure, but the recipes barrel re-exports all 54 of
        // them: without this every recipe lands in the /login bundle.
        moduleSideEffects: (id: string) => !id.includes('/styled-system/'),
        // A zod schema is built by calls (`z.object(...)`) a bundler cannot prove pure: those a page
        // never reads are dropped only when told. Nothing in the client calls zod for its effect.
        manualPureFunctions: ['z'],
      },
    },
  },
})

// @ts-check
import { defineConfig } from 'astro/config'
import cloudflare from '@astrojs/cloudflare'
import react from '@astrojs/react'
import UnoCSS from '@unocss/astro'
import { fileURLToPath } from 'node:url'
import { createHash } from 'node:crypto'
import { loadEdition, editionPlugin } from './src/lib/edition/load.ts'
import { THEME_BOOT } from './src/features/theme/theme.ts'
import { installIcons } from './src/features/install/icons.build.ts'

/** `client:painted`: hydrate an island after its largest image is on screen (src/lib/shell/painted.ts). @type {import('astro').AstroIntegration} */
const painted = {
  name: 'client-painted',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) =>
      addClientDirective({ name: 'painted', entrypoint: fileURLToPath(new globalThis.URL('./src/lib/shell/painted.ts', import.meta.url)) }),
  },
}

/**
 * nanostores' atom rides in the shell's stores chunk (src/lib/shell/stores.ts), which every page's script loads: the
 * session store and the islands that import nanostores without the shell's stores then share it instead of
 * splitting it into a chunk of its own (one more request, ~0.2 KB of wrapping on every page). @type {import('vite').Plugin}
 */
const storesChunk = {
  name: 'stores-chunk',
  configEnvironment: (name) =>
    name === 'client'
      ? {
          build: {
            // no preload lists beside each import() (0.23 KB on every page): a part loaded on use fetches its own imports (issue 40)
            modulePreload: false,
            rolldownOptions: {
              output: {
                codeSplitting: { groups: [{ name: 'stores', test: /\/node_modules\/nanostores\/atom\/|\/src\/lib\/shell\/stores\.ts$/ }] },
              },
            },
          },
        }
      : undefined,
}

/** One build per edition (`EDITION=<id> npm run build`); a bad edition file stops the build here. */
const id = process.env.EDITION ?? 'fr'
const { edition } = loadEdition(id)

export default defineConfig({
  site: edition.siteUrl,
  output: 'server',
  adapter: cloudflare({ imageService: 'passthrough' }),
  integrations: [react(), UnoCSS({ injectReset: true }), painted, installIcons(edition)],
  i18n: { locales: [edition.locale], defaultLocale: edition.locale },
  /** Astro's hashes, plus the inline theme script of every page's <head> (src/features/theme/theme.ts). */
  security: { csp: { scriptDirective: { hashes: [`sha256-${createHash('sha256').update(THEME_BOOT).digest('base64')}`] } } },
  trailingSlash: 'ignore',
  /** Styles in the page itself: no stylesheet request before the first paint (docs/QUALITY.md LCP, measured in docs/SCALE.md's bench note). */
  build: { inlineStylesheets: 'always' },
  /** The worker entry is functions/worker.ts (Hono outer router), not Astro's src/fetch.ts. */
  fetchFile: null,
  outDir: `./${process.env.BUILD_DIR ?? 'dist'}/${id}`, // scripts/lib.ts distDir
  /** `zod` with its eval probe off everywhere, CSP-clean in the browser (src/lib/zod-jitless.ts). */
  vite: {
    plugins: [editionPlugin(id), storesChunk],
    resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new globalThis.URL('./src/lib/zod-jitless.ts', import.meta.url)) }] },
  },
})

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
import { cspOnce } from './src/lib/server/csp.build.ts'

/** `client:painted`: hydrate an island after its largest image is on screen (src/lib/shell/painted.ts). @type {import('astro').AstroIntegration} */
const painted = {
  name: 'client-painted',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) =>
      addClientDirective({ name: 'painted', entrypoint: fileURLToPath(new globalThis.URL('./src/lib/shell/painted.ts', import.meta.url)) }),
  },
}

/** Vite's module preload helper, as the browser build needs it (see `siteChunks`). */
const PRELOAD_HELPER = '\0vite/preload-helper.js'

/**
 * The browser's chunks (issue 40: catalogue pages ≤ 5 KB of JavaScript): what every page's script needs beside the
 * shell — nanostores' atom and the shell's stores (src/lib/shell/stores.ts), the API entry (session/api.ts, whose
 * client loads on the first call), the session mark (session/tabs.ts) and the start page's registration
 * (install/start-page.ts) — rides in one `stores` chunk, which the islands and page scripts that import any of
 * them share, instead of a chunk per module (a request and its wrapping each). Three more bytes savers:
 * - no module preload lists beside each import() (Vite's `modulePreload: false`): a part loaded on use fetches its
 *   own imports;
 * - so Vite's preload helper (0.9 KB on every page, which only loads those lists and a lazy part's stylesheets) is
 *   a plain call: the build fails if a lazy part ever carries a stylesheet of its own (styles are in the page:
 *   `inlineStylesheets`);
 * - no `globalThis.process` banner on browser chunks (@astrojs/cloudflare adds it for the worker; no browser code
 *   reads `process`). A Vite plugin, its type taken through Astro's (vite is astro's dependency, not the project's):
 * @type {Extract<NonNullable<import('astro').ViteUserConfig['plugins']>[number], { name: string }>}
 */
const siteChunks = {
  name: 'site-chunks',
  enforce: 'pre',
  resolveId(id) {
    return id === PRELOAD_HELPER && this.environment.name === 'client' ? id : undefined
  },
  load(id) {
    return id === PRELOAD_HELPER && this.environment.name === 'client' ? 'export const __vitePreload = (load) => load()' : undefined
  },
  generateBundle(_, bundle) {
    if (this.environment.name !== 'client') return
    for (const chunk of Object.values(bundle))
      if (chunk.type === 'chunk' && chunk.code.includes('__vite__mapDeps'))
        this.error(`${chunk.fileName}: a lazy part with a stylesheet of its own, which the plain preload helper does not load`)
  },
  configEnvironment: (name) =>
    name === 'client'
      ? {
          build: {
            modulePreload: false,
            rolldownOptions: {
              // an entry file may carry more than its own exports: the `react` group below rides in the React
              // renderer's entry instead of beside it (a request more, 266 bytes of headers)
              preserveEntrySignatures: 'allow-extension',
              output: {
                banner: '',
                codeSplitting: {
                  groups: [
                    {
                      name: 'stores',
                      test: /\/node_modules\/nanostores\/atom\/|\/src\/lib\/shell\/stores\.ts$|\/src\/features\/(session\/(tabs|api)|install\/start-page)\.ts$|vite\/preload-helper/,
                    },
                    // React, its renderer and the islands' popup hook, on island pages only: one file instead of seven
                    {
                      name: 'react',
                      test: /\/node_modules\/(react|react-dom|scheduler|@astrojs\/react)\/|\/src\/lib\/shell\/use-layer\.ts$/,
                    },
                    // the site's script rides in the one page entry that loads it (SiteScript.astro) rather than a chunk
                    // it imports: a file and a round trip less before any page's script runs
                    { name: 'site', test: /\/src\/components\/(SiteScript\.astro\?astro&type=script|site\.ts$)/ },
                    // where a reader goes back into a series (home's "continue reading" row, the series page)
                    { name: 'resume', test: /\/src\/features\/(library\/resume|viewer\/place)\.ts$/ },
                  ],
                },
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
  integrations: [react(), UnoCSS({ injectReset: true }), painted, installIcons(edition), cspOnce()],
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
    plugins: [editionPlugin(id), siteChunks],
    resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new globalThis.URL('./src/lib/zod-jitless.ts', import.meta.url)) }] },
  },
})

// @ts-check
import { defineConfig } from 'astro/config'
import cloudflare from '@astrojs/cloudflare'
import react from '@astrojs/react'
import UnoCSS from '@unocss/astro'
import { loadEdition, editionPlugin } from './src/lib/edition/load.ts'

/** One build per edition (`EDITION=<id> npm run build`); a bad edition file stops the build here. */
const id = process.env.EDITION ?? 'fr'
const { edition } = loadEdition(id)

export default defineConfig({
  site: edition.siteUrl,
  output: 'server',
  adapter: cloudflare({ imageService: 'passthrough' }),
  integrations: [react(), UnoCSS({ injectReset: true })],
  i18n: { locales: [edition.locale], defaultLocale: edition.locale },
  security: { csp: true },
  trailingSlash: 'ignore',
  /** The worker entry is functions/worker.ts (Hono outer router), not Astro's src/fetch.ts. */
  fetchFile: null,
  outDir: `./dist/${id}`,
  vite: { plugins: [editionPlugin(id)] },
})

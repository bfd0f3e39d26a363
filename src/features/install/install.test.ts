import { describe, expect, it } from 'vitest'
import sharp from 'sharp'
import { EDITION_IDS } from '../../lib/edition/schema.ts'
import { loadEdition } from '../../lib/edition/load.ts'
import { createTranslator } from '../../lib/i18n/i18n.ts'
import { installIcons } from './icons.build.ts'
import { APPLE_TOUCH_ICON, INSTALL_ICONS, webManifest } from './install.ts'

import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The files the build writes for an edition's icons (the integration's `astro:build:done` on an empty client directory), by site path. */
async function drawIcons(edition: ReturnType<typeof loadEdition>['edition']): Promise<Map<string, Buffer>> {
  const dir = mkdtempSync(join(tmpdir(), 'install-icons-'))
  try {
    const done = installIcons(edition).hooks['astro:build:done']!
    await done({ dir: pathToFileURL(`${dir}/`), logger: { info: () => {} } } as unknown as Parameters<typeof done>[0])
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile())
    return new Map(files.map((f) => [`/${f.split('\\').join('/')}`, readFileSync(join(dir, f))]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A maskable icon's safe zone (W3C manifest): the centred circle of radius 40 % of the icon. */
const MASKABLE_SAFE_RADIUS = 0.4

describe('web app manifest', () => {
  it.each(EDITION_IDS)('%s: name, language, direction, colours and icons of the edition', (id) => {
    const { edition, messages } = loadEdition(id)
    const m = webManifest(edition, createTranslator(edition, messages))
    expect(m).toMatchObject({
      name: edition.siteName,
      short_name: messages['site.shortName'],
      description: messages['site.description'],
      lang: edition.locale,
      dir: id === 'ar' ? 'rtl' : 'ltr',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: edition.theme.primary,
      background_color: edition.theme.background,
    })
    // Chromium's install criteria: a name, 192 and 512 px icons; launchers shorten names over 12 characters
    expect(m.short_name.length).toBeLessThanOrEqual(12)
    expect(m.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable'])
  })
})

describe('app icons', () => {
  it('are PNGs of their size; the maskable one keeps the logo inside the safe zone', async () => {
    const { edition } = loadEdition('fr')
    const theme = edition.theme
    const icons = await drawIcons(edition)
    expect([...icons.keys()].sort()).toEqual([...INSTALL_ICONS, APPLE_TOUCH_ICON].map((i) => i.path).sort())
    for (const icon of [...INSTALL_ICONS, APPLE_TOUCH_ICON]) {
      const meta = await sharp(icons.get(icon.path)!).metadata()
      expect([meta.format, meta.width, meta.height], icon.path).toEqual(['png', icon.size, icon.size])
    }
    // every pixel outside the safe circle is the edition's primary colour (the mask may cut anything there)
    const { data, info } = await sharp(icons.get('/icons/maskable-512.png')!).raw().toBuffer({ resolveWithObject: true })
    const primary = [1, 3, 5].map((i) => parseInt(theme.primary.slice(i, i + 2), 16))
    const c = info.width / 2
    let outside = 0
    let off = 0
    for (let y = 0; y < info.height; y++)
      for (let x = 0; x < info.width; x++) {
        if (Math.hypot(x + 0.5 - c, y + 0.5 - c) <= MASKABLE_SAFE_RADIUS * info.width) continue
        outside++
        const p = (y * info.width + x) * info.channels
        if (primary.some((v, i) => Math.abs(data[p + i]! - v) > 2)) off++
      }
    expect(outside).toBeGreaterThan(0)
    expect(off).toBe(0)
  })
})

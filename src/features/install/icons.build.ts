/**
 * Build step (Node, sharp): draws the edition's app icons (`INSTALL_ICONS` and the apple-touch-icon, from
 * `logoSvg`) into the edition's client output, next to the pre-rendered pages, once Astro has built it. Nothing
 * is committed: a change of the edition's colours shows in its next build.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import type { AstroIntegration } from 'astro'
import type { Edition } from '../../lib/edition/schema.ts'
import { APPLE_TOUCH_ICON, INSTALL_ICONS, logoSvg } from './install.ts'

/** Each icon as a PNG, by its path on the site. */
async function drawIcons(theme: Edition['theme']): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>()
  for (const icon of [...INSTALL_ICONS, APPLE_TOUCH_ICON]) {
    const png = await sharp(Buffer.from(logoSvg(theme, icon.purpose)), { density: (72 * icon.size) / 32 })
      .resize(icon.size, icon.size)
      .png({ compressionLevel: 9 })
      .toBuffer()
    out.set(icon.path, png)
  }
  return out
}

/** The Astro integration of astro.config.mjs: icons written after the build (`astro:build:done`, the client directory). */
export function installIcons(edition: Edition): AstroIntegration {
  return {
    name: 'install-icons',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir)
        for (const [path, png] of await drawIcons(edition.theme)) {
          const file = join(root, path)
          await mkdir(dirname(file), { recursive: true })
          await writeFile(file, png)
        }
        logger.info(`app icons of ${edition.id} drawn (${INSTALL_ICONS.length + 1} PNGs)`)
      },
    },
  }
}

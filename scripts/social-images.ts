/**
 * Draws each edition's own link-preview image (`public/social/<edition>.png`, 1200×630, issue 14 §3): the
 * card image of pages without one of their own (notices, FAQ, events…). Run after changing an edition's
 * name or colours: `npx node scripts/social-images.ts`; the PNGs are committed. Node only (sharp).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { SITE_CARD_SIZE } from '../src/features/catalogue/catalogue.ts'
import { root } from './lib.ts'
import { FONT_STACK, useBundledFonts } from './seed/fonts.ts'

type Edition = { id: string; siteName: string; theme: { primary: string } }

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The edition's name (Latin letters in every edition) on its colour, in the Noto Sans that `npm install` brings. */
export function socialSvg(e: Edition): string {
  const { width: W, height: H } = SITE_CARD_SIZE
  const panel = (x: number, y: number, w: number, h: number, r: number) =>
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${r}" fill="#fff" fill-opacity="0.9" stroke="#1d1b22" stroke-width="8"/>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<rect width="${W}" height="${H}" fill="${e.theme.primary}"/>
<circle cx="${W - 140}" cy="120" r="260" fill="#fff" fill-opacity="0.18"/>
<circle cx="120" cy="${H - 60}" r="200" fill="#000" fill-opacity="0.08"/>
${panel(90, 150, 250, 330, 24)}${panel(370, 150, 250, 150, 24)}${panel(370, 330, 250, 150, 24)}
<circle cx="215" cy="290" r="70" fill="${e.theme.primary}"/>
<text x="905" y="345" font-size="88" font-weight="bold" fill="#1d1b22" font-family="${FONT_STACK.en}" text-anchor="middle">${esc(e.siteName)}</text>
</svg>`
}

const editions = readdirSync(join(root, 'editions'))
  .sort()
  .map((id) => JSON.parse(readFileSync(join(root, 'editions', id, 'edition.json'), 'utf8')) as Edition)
useBundledFonts()
const out = join(root, 'public', 'social')
mkdirSync(out, { recursive: true })
for (const e of editions) {
  const png = await sharp(Buffer.from(socialSvg(e)))
    .png({ compressionLevel: 9, palette: true })
    .toBuffer()
  writeFileSync(join(out, `${e.id}.png`), png)
  console.log(`social-images: public/social/${e.id}.png ${png.length} bytes`)
}

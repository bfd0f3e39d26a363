/**
 * The drawing of each demo image as SVG (covers, episode slices, banners, icons), its text in the edition's language
 * and script (`fonts.ts`): scripts/seed/images.ts renders it (bump its RENDER_VERSION when the drawing changes). Node only.
 */
import type { DemoImage, Lang } from './data.ts'
import { FONT_STACK } from './fonts.ts'
import { TAG, wrap } from './line-break.ts'

/** Languages in Latin script: the cover's genre line is spaced out there (spacing would break Arabic joins and Thai clusters). */
const LATIN: ReadonlySet<Lang> = new Set(['fr', 'de', 'en'])

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/** Text attributes of a language: its fonts (`fonts.ts`) and, for Arabic, right to left. */
function font(lang: Lang): string {
  return `font-family="${FONT_STACK[lang]}"${lang === 'ar' ? ' direction="rtl"' : ''}`
}

function textBlock(lines: string[], x: number, y: number, size: number, attrs: string, lang: Lang): string {
  return lines
    .map(
      (l, i) =>
        `<text x="${x}" y="${y + i * size * 1.25}" font-size="${size}" ${attrs} ${font(lang)} text-anchor="middle">${esc(l)}</text>`,
    )
    .join('')
}

/**
 * A vertical two-tone background drawn as flat bands: librsvg rasterises a real gradient about three
 * times slower than the rest of a slice, and flat colour also encodes smaller.
 */
function background(W: number, H: number, hue: number, l1: number, l2: number): string {
  const bands = 6
  let out = ''
  for (let i = 0; i < bands; i++) {
    const l = l1 + ((l2 - l1) * i) / (bands - 1)
    out += `<rect y="${((H * i) / bands).toFixed(1)}" width="${W}" height="${(H / bands + 1).toFixed(1)}" fill="hsl(${(hue + i * 6) % 360},60%,${l.toFixed(1)}%)"/>`
  }
  return out
}

/** The drawing of an image, as SVG. */
export function svgOf(image: DemoImage): string {
  const { width: W, height: H, hue, label, sublabel, variant, lang } = image
  const open = `<svg xmlns="http://www.w3.org/2000/svg" xml:lang="${TAG[lang]}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`
  const block = (lines: string[], x: number, y: number, size: number, attrs: string) => textBlock(lines, x, y, size, attrs, lang)
  const ink = '#1d1b22'
  switch (image.kind) {
    case 'cover': {
      const title = wrap(label, (W * 0.8) / 44, 3, lang)
      const shapes = [
        `<circle cx="${W * 0.5}" cy="${H * 0.36}" r="${W * 0.3}" fill="hsl(${(hue + 180) % 360},60%,72%)"/>`,
        `<polygon points="${W * 0.5},${H * 0.08} ${W * 0.85},${H * 0.6} ${W * 0.15},${H * 0.6}" fill="hsl(${(hue + 180) % 360},55%,70%)"/>`,
        `<rect x="${W * 0.18}" y="${H * 0.1}" width="${W * 0.64}" height="${H * 0.48}" rx="40" fill="hsl(${(hue + 150) % 360},55%,72%)"/>`,
        `<ellipse cx="${W * 0.5}" cy="${H * 0.34}" rx="${W * 0.38}" ry="${H * 0.2}" fill="hsl(${(hue + 200) % 360},60%,74%)"/>`,
      ]
      return `${open}${background(W, H, hue, 45, 22)}${shapes[variant % 4]}
<rect x="0" y="${H * 0.62}" width="${W}" height="${H * 0.38}" fill="#000" fill-opacity="0.35"/>
${block(title, W / 2, H * 0.62 + 56, 44, `font-weight="bold" fill="#fff"`)}
${block([sublabel], W / 2, H - 28, 22, `fill="#fff" fill-opacity="0.85"${LATIN.has(lang) ? ' letter-spacing="4"' : ''}`)}</svg>`
    }
    case 'slice': {
      const panel = (x: number, y: number, w: number, h: number) =>
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="18" fill="#fff" stroke="${ink}" stroke-width="6"/>`
      const accent = `hsl(${hue},60%,62%)`
      const bubble = wrap(label, 9, 3, lang)
      const layouts = [
        // 1 (720×800, the episode's own title card): a character, a speech bubble with the title, the episode
        `${panel(40, 40, 640, 720)}<circle cx="190" cy="330" r="120" fill="${accent}"/><circle cx="150" cy="305" r="14" fill="${ink}"/><circle cx="230" cy="305" r="14" fill="${ink}"/>
<ellipse cx="470" cy="240" rx="190" ry="125" fill="#fff" stroke="${ink}" stroke-width="5"/>
${block(bubble, 470, 225 - (bubble.length - 1) * 18, 30, `font-weight="bold" fill="${ink}"`)}
${block([sublabel], 360, 640, 76, `font-weight="bold" fill="${ink}"`)}`,
        // 2: two side panels and a wide one
        `${panel(40, 60, 300, 700)}${panel(380, 60, 300, 700)}<rect x="80" y="380" width="220" height="220" rx="110" fill="${accent}"/><polygon points="530,200 640,560 420,560" fill="${accent}"/>
${panel(40, 820, 640, 520)}<path d="M80 1200 Q360 900 640 1200" stroke="${accent}" stroke-width="28" fill="none"/>
${block([sublabel], 360, 1480, 64, `font-weight="bold" fill="#fff" stroke="${ink}" stroke-width="2"`)}`,
        // 3: a closing panel
        `${panel(40, 60, 640, 900)}<circle cx="360" cy="510" r="260" fill="${accent}"/><rect x="230" y="470" width="260" height="26" rx="13" fill="${ink}"/>
${block(wrap(label, 15, 2, lang), 360, 1025, 38, `font-weight="bold" fill="#fff"`)}
${block([sublabel], 360, 1160, 48, `fill="#fff"`)}`,
      ]
      return `${open}${background(W, H, hue, 86, 60)}${layouts[(variant - 1 + 3) % 3]}</svg>`
    }
    case 'banner': {
      const size = Math.round(Math.min(H * 0.2, W * 0.06))
      return `${open}${background(W, H, hue, 55, 35)}
<circle cx="${W * 0.85}" cy="${H * 0.5}" r="${H * 0.42}" fill="#fff" fill-opacity="0.2"/>
${block(wrap(label, (W * 0.8) / size, 2, lang), W / 2, H * 0.45, size, `font-weight="bold" fill="#fff"`)}</svg>`
    }
    case 'icon':
      return `${open}<rect width="${W}" height="${H}" rx="${W * 0.22}" fill="hsl(${hue},65%,55%)"/>
<polygon points="${star(W / 2, H / 2, W * 0.36, W * 0.16)}" fill="#fff"/></svg>`
  }
}

function star(cx: number, cy: number, r1: number, r2: number): string {
  const points: string[] = []
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? r1 : r2
    const a = (Math.PI / 5) * i - Math.PI / 2
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`)
  }
  return points.join(' ')
}

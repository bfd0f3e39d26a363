/**
 * Renders the demo images (covers, episode slices, banners) with sharp from generated SVG, as WebP
 * renditions at the widths of `IMAGE_WIDTHS`. Node only. No network, and no font of the machine: the text is drawn
 * in the edition's script with the Noto fonts `npm install` brings (`fonts.ts`, through a fontconfig file of our own).
 *
 * Every distinct image is rendered once into `.cache/seed-images/<hash>/<width>.webp`, where the hash
 * covers everything that shapes the pixels; keys with identical content share one cache entry, and a
 * second seed reads the cache only.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { IMAGE_WIDTHS, type DemoImage, type Lang } from './data.ts'
import { FONT_STACK, useBundledFonts } from './fonts.ts'

/** Bump when the drawing or the encoding changes (invalidates the cache). */
const RENDER_VERSION = 5
/** WebP settings: encoding dominates the seed's time; effort 0 is the fastest and flat drawings stay small. */
const WEBP = { quality: 72, effort: Number(process.env.SEED_IMAGE_EFFORT ?? 0) }

const DEFAULT_CACHE_DIR = new URL('../../.cache/seed-images/', import.meta.url).pathname

/** One stored rendition: R2 key `<image key>/<width>.webp`, content in `path`; `hash` names the content. */
export type Rendition = { key: string; path: string; width: number; hash: string }

export type GenerateResult = {
  renditions: Rendition[]
  /** Distinct images (after de-duplication of identical content). */
  unique: number
  rendered: number
  cached: number
  ms: number
}

/** Renders (or finds in the cache) every image and lists the renditions to upload. */
export async function generateImages(
  images: DemoImage[],
  opts: {
    cacheDir?: string
    concurrency?: number
    /** Called as soon as an image's files exist (cached ones first), so uploads can overlap rendering. */
    onReady?: (renditions: Rendition[]) => void
  } = {},
): Promise<GenerateResult> {
  const started = performance.now()
  const cacheDir = opts.cacheDir ?? DEFAULT_CACHE_DIR
  mkdirSync(cacheDir, { recursive: true })
  useBundledFonts() // before the first SVG with text: fontconfig reads its configuration once per process
  sharp.concurrency(1) // one libvips thread per job; parallelism comes from running jobs side by side
  sharp.cache(false)

  const byHash = new Map<string, DemoImage>()
  const renditionsOf = new Map<string, Rendition[]>()
  const renditions: Rendition[] = []
  for (const image of images) {
    const hash = hashOf(image)
    byHash.set(hash, image)
    const list = renditionsOf.get(hash) ?? []
    renditionsOf.set(hash, list)
    for (const width of IMAGE_WIDTHS[image.kind]) {
      const r = { key: `${image.key}/${width}.webp`, path: join(cacheDir, hash, `${width}.webp`), width, hash: `${hash}/${width}` }
      list.push(r)
      renditions.push(r)
    }
  }

  const todo: [string, DemoImage][] = []
  for (const [hash, image] of byHash) {
    if (IMAGE_WIDTHS[image.kind].every((w) => existsSync(join(cacheDir, hash, `${w}.webp`)))) opts.onReady?.(renditionsOf.get(hash)!)
    else todo.push([hash, image])
  }
  let next = 0
  const worker = async () => {
    while (next < todo.length) {
      const [hash, image] = todo[next++]!
      await renderOne(image, join(cacheDir, hash))
      opts.onReady?.(renditionsOf.get(hash)!)
    }
  }
  const jobs = Math.max(1, opts.concurrency ?? availableParallelism())
  await Promise.all(Array.from({ length: jobs }, worker))

  return { renditions, unique: byHash.size, rendered: todo.length, cached: byHash.size - todo.length, ms: performance.now() - started }
}

function hashOf(image: DemoImage): string {
  const { kind, width, height, label, sublabel, hue, variant, lang } = image
  return createHash('sha256')
    .update(
      JSON.stringify([
        RENDER_VERSION,
        WEBP,
        IMAGE_WIDTHS[kind],
        kind,
        width,
        height,
        label,
        sublabel,
        hue,
        variant,
        lang,
        FONT_STACK[lang],
      ]),
    )
    .digest('hex')
    .slice(0, 24)
}

/** Rasterises the SVG once at the largest width, then resizes and encodes each rendition. */
async function renderOne(image: DemoImage, dir: string): Promise<void> {
  const widths = [...IMAGE_WIDTHS[image.kind]].sort((a, b) => b - a)
  const density = (72 * widths[0]!) / image.width
  const { data, info } = await sharp(Buffer.from(svgOf(image)), { density })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true })
  const tmp = `${dir}.tmp-${process.pid}`
  rmSync(tmp, { recursive: true, force: true })
  mkdirSync(tmp, { recursive: true })
  for (const width of widths) {
    const height = Math.round((image.height * width) / image.width)
    const out = await sharp(data, { raw: info }).resize(width, height, { fit: 'fill' }).webp(WEBP).toBuffer()
    writeFileSync(join(tmp, `${width}.webp`), out)
  }
  rmSync(dir, { recursive: true, force: true })
  renameSync(tmp, dir)
}

// ───────────────────────────── drawings ─────────────────────────────

/** BCP 47 tag of each demo language: `xml:lang` of the drawing, so the shaper picks the language's forms. */
const TAG: Record<Lang, string> = { fr: 'fr', de: 'de', en: 'en', ja: 'ja', ko: 'ko', zh: 'zh-Hant', th: 'th', ar: 'ar' }
/** Languages in Latin script: the cover's genre line is spaced out there (spacing would break Arabic joins and Thai clusters). */
const LATIN: ReadonlySet<Lang> = new Set(['fr', 'de', 'en'])

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/** Full-width characters: ideographs, kana, Hangul, CJK punctuation and full-width forms (about 1 em each). */
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u
/** Estimated advance of a text in em: wide characters 1, marks (Thai vowels and tones, Arabic vowels) 0, others 0.6. */
function ems(text: string): number {
  let w = 0
  for (const ch of text) w += /\p{M}/u.test(ch) ? 0 : WIDE.test(ch) ? 1 : 0.6
  return w
}

/** Punctuation that never starts a line (Japanese and Chinese line breaking). */
const NO_LINE_START = /^[、。，．,.!?！？・ー）」』〉》…:：;；]/u

/**
 * Greedy line breaking within `maxEm` (estimated with `ems`), at most `maxLines` lines, the last one cut with "…".
 * Breaks at word boundaries as the language cuts words (Intl.Segmenter: Thai and Japanese are written without
 * spaces), inside a word only when it is wider than a line (between graphemes, never inside a cluster).
 */
export function wrap(text: string, maxEm: number, maxLines: number, lang: Lang): string[] {
  const words = [...new Intl.Segmenter(TAG[lang], { granularity: 'word' }).segment(text)].map((s) => s.segment)
  const graphemes = (w: string) => [...new Intl.Segmenter(TAG[lang], { granularity: 'grapheme' }).segment(w)].map((s) => s.segment)
  const lines: string[] = []
  let line = ''
  const place = (piece: string) => {
    if (line.trim() === '' && piece.trim() === '') return
    if (!line || ems((line + piece).trimEnd()) <= maxEm || NO_LINE_START.test(piece)) line += piece
    else {
      lines.push(line.trim())
      line = piece.trimStart()
    }
  }
  for (const word of words) {
    if (ems(word) <= maxEm) place(word)
    else {
      // a word wider than a line starts one and is cut where it overflows (with a hyphen in Latin script)
      if (line.trim()) lines.push(line.trim())
      line = ''
      const hyphen = /\p{Script=Latin}/u.test(word) ? '-' : ''
      for (const g of graphemes(word)) {
        if (line && ems(line + g + hyphen) > maxEm) {
          lines.push(line + hyphen)
          line = ''
        }
        line += g
      }
    }
  }
  if (line.trim()) lines.push(line.trim())
  if (lines.length <= maxLines) return lines
  const kept = lines.slice(0, maxLines)
  let last = graphemes(kept[maxLines - 1]!)
  while (last.length > 1 && ems(last.join('') + '…') > maxEm) last = last.slice(0, -1)
  kept[maxLines - 1] = last.join('').trimEnd() + '…'
  return kept
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

/** The drawing of an image, as SVG (exported for the tests, which read its text). */
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

/**
 * Renders the demo images (covers, episode slices, banners) with sharp from generated SVG, as WebP
 * renditions at the widths of `IMAGE_WIDTHS`. Node only. No network and no fonts beyond the system's.
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
import { IMAGE_WIDTHS, type DemoImage } from './data.ts'

/** Bump when the drawing or the encoding changes (invalidates the cache). */
const RENDER_VERSION = 4
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
  const { kind, width, height, label, sublabel, hue, variant } = image
  return createHash('sha256')
    .update(JSON.stringify([RENDER_VERSION, WEBP, IMAGE_WIDTHS[kind], kind, width, height, label, sublabel, hue, variant]))
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

const FONT = `font-family="DejaVu Sans, Liberation Sans, sans-serif"`

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;')
}

/** Greedy word wrap by an estimated character budget; at most `maxLines` lines. */
function wrap(text: string, maxChars: number, maxLines: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + word).length > maxChars) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  if (line) lines.push(line)
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines)
    kept[maxLines - 1] = kept[maxLines - 1]!.slice(0, maxChars - 1) + '…'
    return kept
  }
  return lines
}

function textBlock(lines: string[], x: number, y: number, size: number, attrs: string): string {
  return lines
    .map((l, i) => `<text x="${x}" y="${y + i * size * 1.2}" font-size="${size}" ${attrs} ${FONT} text-anchor="middle">${esc(l)}</text>`)
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

function svgOf(image: DemoImage): string {
  const { width: W, height: H, hue, label, sublabel, variant } = image
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">`
  const ink = '#1d1b22'
  switch (image.kind) {
    case 'cover': {
      const title = wrap(label, 14, 4)
      const shapes = [
        `<circle cx="${W * 0.5}" cy="${H * 0.36}" r="${W * 0.3}" fill="hsl(${(hue + 180) % 360},60%,72%)"/>`,
        `<polygon points="${W * 0.5},${H * 0.08} ${W * 0.85},${H * 0.6} ${W * 0.15},${H * 0.6}" fill="hsl(${(hue + 180) % 360},55%,70%)"/>`,
        `<rect x="${W * 0.18}" y="${H * 0.1}" width="${W * 0.64}" height="${H * 0.48}" rx="40" fill="hsl(${(hue + 150) % 360},55%,72%)"/>`,
        `<ellipse cx="${W * 0.5}" cy="${H * 0.34}" rx="${W * 0.38}" ry="${H * 0.2}" fill="hsl(${(hue + 200) % 360},60%,74%)"/>`,
      ]
      return `${open}${background(W, H, hue, 45, 22)}${shapes[variant % 4]}
<rect x="0" y="${H * 0.62}" width="${W}" height="${H * 0.38}" fill="#000" fill-opacity="0.35"/>
${textBlock(title, W / 2, H * 0.62 + 62, 44, `font-weight="bold" fill="#fff"`)}
<text x="${W / 2}" y="${H - 28}" font-size="22" fill="#fff" fill-opacity="0.85" ${FONT} text-anchor="middle" letter-spacing="4">${esc(sublabel)}</text></svg>`
    }
    case 'slice': {
      const panel = (x: number, y: number, w: number, h: number) =>
        `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="18" fill="#fff" stroke="${ink}" stroke-width="6"/>`
      const accent = `hsl(${hue},60%,62%)`
      const layouts = [
        // 1 (720×800, the episode's own title card): a character, a speech bubble with the title, the episode
        `${panel(40, 40, 640, 720)}<circle cx="190" cy="330" r="120" fill="${accent}"/><circle cx="150" cy="305" r="14" fill="${ink}"/><circle cx="230" cy="305" r="14" fill="${ink}"/>
<ellipse cx="470" cy="240" rx="190" ry="125" fill="#fff" stroke="${ink}" stroke-width="5"/>
${textBlock(wrap(label, 13, 3), 470, 225 - (Math.min(3, wrap(label, 13, 3).length) - 1) * 18, 30, `font-weight="bold" fill="${ink}"`)}
${textBlock([sublabel], 360, 640, 76, `font-weight="bold" fill="${ink}"`)}`,
        // 2: two side panels and a wide one
        `${panel(40, 60, 300, 700)}${panel(380, 60, 300, 700)}<rect x="80" y="380" width="220" height="220" rx="110" fill="${accent}"/><polygon points="530,200 640,560 420,560" fill="${accent}"/>
${panel(40, 820, 640, 520)}<path d="M80 1200 Q360 900 640 1200" stroke="${accent}" stroke-width="28" fill="none"/>
${textBlock([sublabel], 360, 1480, 64, `font-weight="bold" fill="#fff" stroke="${ink}" stroke-width="2"`)}`,
        // 3: a closing panel
        `${panel(40, 60, 640, 900)}<circle cx="360" cy="510" r="260" fill="${accent}"/><rect x="230" y="470" width="260" height="26" rx="13" fill="${ink}"/>
${textBlock(wrap(label, 24, 2), 360, 1025, 38, `font-weight="bold" fill="#fff"`)}
${textBlock([sublabel], 360, 1160, 48, `fill="#fff"`)}`,
      ]
      return `${open}${background(W, H, hue, 86, 60)}${layouts[(variant - 1 + 3) % 3]}</svg>`
    }
    case 'banner': {
      const size = Math.round(Math.min(H * 0.2, W * 0.06))
      return `${open}${background(W, H, hue, 55, 35)}
<circle cx="${W * 0.85}" cy="${H * 0.5}" r="${H * 0.42}" fill="#fff" fill-opacity="0.2"/>
${textBlock(wrap(label, Math.floor((W * 0.86) / (size * 0.7)), 2), W / 2, H * 0.45, size, `font-weight="bold" fill="#fff"`)}</svg>`
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

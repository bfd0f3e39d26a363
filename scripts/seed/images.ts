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
import { IMAGE_WIDTHS, type DemoImage } from './data.ts'
import { svgOf } from './drawing.ts'
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

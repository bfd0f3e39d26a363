/**
 * A ready-to-import copy of `scripts/ops/sample-series` (its `series.json`) with the images it names drawn
 * on the fly by sharp as PNGs, so no binary is committed (likewise `scripts/ops/sample-episode`, a new episode of it).
 * Used by the tests and by `npm run ops -- sample --to <folder>`.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { FONT_STACK, useBundledFonts } from '../seed/fonts.ts'

const SAMPLE_DIR = new URL('./sample-series/', import.meta.url).pathname
const SAMPLE_EPISODE_DIR = new URL('./sample-episode/', import.meta.url).pathname

type SampleManifest = { cover: string; episodes: { no: number; images: string[] }[] }

/** Draws one flat PNG with a circle and a label, `width`×`height` px. */
async function drawPng(path: string, width: number, height: number, hue: number, label: string): Promise<void> {
  useBundledFonts() // the label's font comes from node_modules, as the seed's
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="hsl(${hue},55%,45%)"/>
<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="hsl(${(hue + 180) % 360},60%,75%)"/>
<text x="${width / 2}" y="${height - 40}" font-size="48" fill="#fff" text-anchor="middle" font-family="${FONT_STACK.en}">${label}</text></svg>`
  await sharp(Buffer.from(svg)).png().toFile(path)
}

/** Writes the sample folder into `dir` (created if needed); returns `dir`. Slices are 800 px wide, of varied heights. */
export async function writeSampleSeries(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(SAMPLE_DIR, 'series.json'), join(dir, 'series.json'))
  const manifest = JSON.parse(readFileSync(join(dir, 'series.json'), 'utf8')) as SampleManifest
  await drawPng(join(dir, manifest.cover), 480, 640, 210, 'cover')
  for (const e of manifest.episodes) {
    for (const [j, file] of e.images.entries())
      await drawPng(join(dir, file), 800, 1000 + 300 * j, (e.no * 70 + j * 25) % 360, `${e.no}-${j + 1}`)
  }
  return dir
}

/**
 * Writes the sample new episode (`scripts/ops/sample-episode`: the next episode of the sample series, for
 * `npm run ops -- episode add`) into `dir` with its two slices drawn; returns `dir`.
 */
export async function writeSampleEpisode(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(SAMPLE_EPISODE_DIR, 'episode.json'), join(dir, 'episode.json'))
  const { images } = JSON.parse(readFileSync(join(dir, 'episode.json'), 'utf8')) as { images: string[] }
  for (const [j, file] of images.entries()) await drawPng(join(dir, file), 800, 1100 + 200 * j, (120 + j * 40) % 360, `new-${j + 1}`)
  return dir
}

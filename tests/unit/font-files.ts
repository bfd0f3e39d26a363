/**
 * Test helpers of scripts/seed/images.test.ts: what a fontconfig file written by scripts/seed/fonts.ts
 * `useBundledFonts` lists, and what a font file (OpenType/TrueType) declares: its family names and the characters
 * it has a glyph for. Node only.
 */
import { readFileSync, readdirSync, realpathSync } from 'node:fs'
import { join } from 'node:path'

/** The directories a fontconfig file lists (`<dir>`) and whether it includes other configuration (`<include>`). */
export function fontconfigDirs(conf: string): { dirs: string[]; includes: boolean } {
  const text = readFileSync(conf, 'utf8')
  return { dirs: [...text.matchAll(/<dir>([^<]*)<\/dir>/g)].map((m) => m[1]!), includes: /<include/.test(text) }
}

/** The files a directory of the fontconfig file holds, each resolved to where it really is. */
export function fontconfigFiles(dir: string): string[] {
  return readdirSync(dir).map((f) => realpathSync(join(dir, f)))
}

/** The tables of an sfnt file (TrueType or CFF-flavoured OpenType): tag → [offset, length]. */
function tables(buf: Buffer): Map<string, number> {
  const count = buf.readUInt16BE(4)
  const out = new Map<string, number>()
  for (let i = 0; i < count; i++) {
    const rec = 12 + i * 16
    out.set(buf.toString('latin1', rec, rec + 4), buf.readUInt32BE(rec + 8))
  }
  return out
}

/** Family names a font declares (name IDs 1 and 16, Windows and Mac records). */
export function familyNames(path: string): string[] {
  const buf = readFileSync(path)
  const at = tables(buf).get('name')
  if (at === undefined) return []
  const count = buf.readUInt16BE(at + 2)
  const strings = at + buf.readUInt16BE(at + 4)
  const names = new Set<string>()
  for (let i = 0; i < count; i++) {
    const r = at + 6 + i * 12
    const [platform, nameId, length, offset] = [
      buf.readUInt16BE(r),
      buf.readUInt16BE(r + 6),
      buf.readUInt16BE(r + 8),
      buf.readUInt16BE(r + 10),
    ]
    if (nameId !== 1 && nameId !== 16) continue
    const raw = buf.subarray(strings + offset, strings + offset + length)
    if (platform === 3 || platform === 0) names.add(Buffer.from(raw).swap16().toString('utf16le'))
    else if (platform === 1) names.add(raw.toString('latin1'))
  }
  return [...names]
}

/** The characters a font has a glyph for (its Unicode cmap, formats 4 and 12). */
export function coverage(path: string): Set<number> {
  const buf = readFileSync(path)
  const at = tables(buf).get('cmap')!
  const count = buf.readUInt16BE(at + 2)
  let best: number | null = null
  for (let i = 0; i < count; i++) {
    const r = at + 4 + i * 8
    const sub = at + buf.readUInt32BE(r + 4)
    const format = buf.readUInt16BE(sub)
    if (format === 12) best = sub
    else if (format === 4 && best === null) best = sub
  }
  const out = new Set<number>()
  if (best === null) return out
  if (buf.readUInt16BE(best) === 12) {
    const groups = buf.readUInt32BE(best + 12)
    for (let g = 0; g < groups; g++) {
      const r = best + 16 + g * 12
      const [start, end, glyph] = [buf.readUInt32BE(r), buf.readUInt32BE(r + 4), buf.readUInt32BE(r + 8)]
      for (let c = start; c <= end; c++) if (glyph + (c - start) !== 0) out.add(c)
    }
    return out
  }
  const segments = buf.readUInt16BE(best + 6) / 2
  const ends = best + 14
  const starts = ends + segments * 2 + 2
  const deltas = starts + segments * 2
  const rangeOffsets = deltas + segments * 2
  for (let s = 0; s < segments; s++) {
    const [end, start, delta, rangeOffset] = [
      buf.readUInt16BE(ends + s * 2),
      buf.readUInt16BE(starts + s * 2),
      buf.readInt16BE(deltas + s * 2),
      buf.readUInt16BE(rangeOffsets + s * 2),
    ]
    for (let c = start; c <= end && c !== 0xffff; c++) {
      let glyph: number
      if (rangeOffset === 0) glyph = (c + delta) & 0xffff
      else {
        const g = buf.readUInt16BE(rangeOffsets + s * 2 + rangeOffset + (c - start) * 2)
        glyph = g === 0 ? 0 : (g + delta) & 0xffff
      }
      if (glyph !== 0) out.add(c)
    }
  }
  return out
}

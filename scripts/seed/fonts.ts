/**
 * The fonts the demo images are drawn with (issue 35 point 5): Noto families from packages that `npm install`
 * brings, one per script, never a font of the machine. sharp draws SVG text with librsvg and Pango, which find
 * fonts through fontconfig: `useBundledFonts` writes a fontconfig file that knows only these files (links to them
 * in `.cache/seed-fonts/`) and points `FONTCONFIG_FILE` at it before the first drawing. Node only.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Lang } from './data.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** One font file: the package that brings it, the file inside the package, the family its name table declares. */
type FontFile = { pkg: string; file: string; family: string }

/**
 * Regular and bold of each script's family (the drawings use both). The CJK files are Noto Sans CJK cut to each
 * region's legacy character set (Shift-JIS, KS X 1001, Big5): the smallest OTF/TTF Noto files on npm (about 4.5 to
 * 5.7 MB each). The packages bring other weights too; only these are linked for fontconfig.
 */
export const FONT_FILES: readonly FontFile[] = [
  { pkg: '@embedpdf/fonts-latin', file: 'fonts/NotoSans-Regular.ttf', family: 'Noto Sans' },
  { pkg: '@embedpdf/fonts-latin', file: 'fonts/NotoSans-Bold.ttf', family: 'Noto Sans' },
  { pkg: '@embedpdf/fonts-jp', file: 'fonts/NotoSansJP-Regular.otf', family: 'Noto Sans Japanese' },
  { pkg: '@embedpdf/fonts-jp', file: 'fonts/NotoSansJP-Bold.otf', family: 'Noto Sans Japanese' },
  { pkg: '@embedpdf/fonts-kr', file: 'fonts/NotoSansKR-Regular.otf', family: 'Noto Sans Korean' },
  { pkg: '@embedpdf/fonts-kr', file: 'fonts/NotoSansKR-Bold.otf', family: 'Noto Sans Korean' },
  { pkg: '@embedpdf/fonts-tc', file: 'fonts/NotoSansHant-Regular.otf', family: 'Noto Sans T Chinese' },
  { pkg: '@embedpdf/fonts-tc', file: 'fonts/NotoSansHant-Bold.otf', family: 'Noto Sans T Chinese' },
  { pkg: '@expo-google-fonts/noto-sans-thai', file: '400Regular/NotoSansThai_400Regular.ttf', family: 'Noto Sans Thai' },
  { pkg: '@expo-google-fonts/noto-sans-thai', file: '700Bold/NotoSansThai_700Bold.ttf', family: 'Noto Sans Thai' },
  { pkg: '@embedpdf/fonts-arabic', file: 'fonts/NotoNaskhArabic-Regular.ttf', family: 'Noto Naskh Arabic' },
  { pkg: '@embedpdf/fonts-arabic', file: 'fonts/NotoNaskhArabic-Bold.ttf', family: 'Noto Naskh Arabic' },
]

/** The font-family list of each demo language: its script's family first, then Latin (digits, "BL", codes). */
export const FONT_STACK: Record<Lang, string> = {
  fr: 'Noto Sans',
  de: 'Noto Sans',
  en: 'Noto Sans',
  ja: 'Noto Sans Japanese, Noto Sans',
  ko: 'Noto Sans Korean, Noto Sans',
  zh: 'Noto Sans T Chinese, Noto Sans',
  th: 'Noto Sans Thai, Noto Sans',
  ar: 'Noto Naskh Arabic, Noto Sans',
}

/** Absolute path of a bundled font file (in node_modules: `npm install` put it there). */
export function fontPath(f: FontFile): string {
  return join(ROOT, 'node_modules', f.pkg, f.file)
}

const DEFAULT_DIR = join(ROOT, '.cache', 'seed-fonts')

/**
 * Writes `<dir>/fonts.conf` (fontconfig: the bundled files only, no system directory, no system configuration) and
 * sets `FONTCONFIG_FILE` to it; answers its path. Call before sharp draws the first SVG with text: fontconfig reads
 * its configuration once per process. Fails naming the package when a font file is missing.
 */
export function useBundledFonts(dir = DEFAULT_DIR): string {
  const files = join(dir, 'files')
  mkdirSync(files, { recursive: true })
  // links are replaced only when they changed: another seed (another edition) may be reading them
  const wanted = new Map<string, string>()
  for (const f of FONT_FILES) {
    let target: string
    try {
      target = realpathSync(fontPath(f))
    } catch {
      throw new Error(`font ${f.file} of ${f.pkg} not found: run npm install (the demo images are drawn with it)`)
    }
    wanted.set(basename(f.file), target)
  }
  for (const name of readdirSync(files)) if (!wanted.has(name)) rmSync(join(files, name), { force: true })
  for (const [name, target] of wanted) {
    const link = join(files, name)
    if (existsSync(link) && realpathSync(link) === target) continue
    rmSync(link, { force: true })
    try {
      symlinkSync(target, link)
    } catch (e) {
      // another seed made the same link meanwhile
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || realpathSync(link) !== target) throw e
    }
  }
  const conf = join(dir, 'fonts.conf')
  const text = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Written by scripts/seed/fonts.ts: the demo images' fonts, from node_modules only. -->
<fontconfig>
  <dir>${files}</dir>
  <cachedir>${join(dir, 'cache')}</cachedir>
</fontconfig>
`
  if (!existsSync(conf) || readFileSync(conf, 'utf8') !== text) writeFileSync(conf, text)
  process.env.FONTCONFIG_FILE = conf
  return conf
}

/** The directories a fontconfig file lists (`<dir>`) and whether it includes other configuration (`<include>`). */
export function fontconfigDirs(conf: string): { dirs: string[]; includes: boolean } {
  const text = readFileSync(conf, 'utf8')
  return { dirs: [...text.matchAll(/<dir>([^<]*)<\/dir>/g)].map((m) => m[1]!), includes: /<include/.test(text) }
}

/** The files a directory of the fontconfig file holds, each resolved to where it really is. */
export function fontconfigFiles(dir: string): string[] {
  return readdirSync(dir).map((f) => realpathSync(join(dir, f)))
}

// ───────────────────────────── reading a font file (OpenType/TrueType) ─────────────────────────────

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

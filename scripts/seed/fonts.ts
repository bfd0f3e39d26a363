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
const FONT_FILES: readonly FontFile[] = [
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
function fontPath(f: FontFile): string {
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

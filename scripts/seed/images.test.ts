import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import sharp from 'sharp'
import { afterAll, describe, expect, it } from 'vitest'
import { EDITION_IDS } from '../../src/lib/edition/schema.ts'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { buildDemo, langOf, type DemoImage } from './data.ts'
import { FONT_STACK, useBundledFonts } from './fonts.ts'
import { coverage, familyNames, fontconfigDirs, fontconfigFiles } from '../../tests/unit/font-files.ts'
import { generateImages } from './images.ts'
import { svgOf } from './drawing.ts'
import { wrap } from './line-break.ts'

/**
 * Issue 35 point 5: the demo's covers, banners and panels are drawn in each edition's language and script, with fonts
 * that `npm install` brings (never the machine's), and every character drawn has a glyph in them (no empty boxes).
 */

type EditionId = (typeof EDITION_IDS)[number]
/** A letter of the edition's script. */
const SCRIPT: Record<EditionId, RegExp> = {
  fr: /\p{Script=Latin}/u,
  de: /\p{Script=Latin}/u,
  jp: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
  kr: /\p{Script=Hangul}/u,
  tw: /\p{Script=Han}/u,
  th: /\p{Script=Thai}/u,
  ar: /\p{Script=Arabic}/u,
}
const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const NOW = new Date('2026-11-25T12:00:00Z')
const demo = (locale: string) =>
  buildDemo({ currency: 'EUR', locale, timeZone: 'Europe/Paris', now: NOW, passwordHash: 'x', minorPasswordHash: 'y' })
const editions = EDITION_IDS.map((id) => ({ id, locale: loadEdition(id).edition.locale }))

/** The text a drawing shows: what its <text> elements hold. */
function textsOf(image: DemoImage): string[] {
  return [...svgOf(image).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&'),
  )
}
/** Images with text: covers, banners, episode slices (icons are a star). */
const drawn = (images: DemoImage[]) => images.filter((i) => i.kind !== 'icon')

const english = demo('en')
const englishTexts = new Set([
  ...english.tables.series!.map((s) => String(s.title)),
  ...english.tables.banners!.map((b) => String(b.title)),
])

describe("the demo's images speak each edition's language (issue 35 point 5)", () => {
  it.each(editions)('$id: every cover, banner and panel is drawn in its script, never in English', ({ id, locale }) => {
    const { images, tables } = demo(locale)
    const lang = langOf(locale)
    const own = new Set([...tables.series!.map((s) => String(s.title)), ...tables.banners!.map((b) => String(b.title))]) // "Level 99" is German too
    const wrong: string[] = []
    for (const image of drawn(images)) {
      if (image.lang !== lang) wrong.push(`${image.key}: drawn as ${image.lang}`)
      const text = textsOf(image).join(' ')
      const digitsOnly = image.kind === 'slice' && image.variant === 2 // the recurring panel's "2 / 3"
      if (digitsOnly ? /\p{L}/u.test(text) : !SCRIPT[id].test(text)) wrong.push(`${image.key}: "${text}"`)
      // no English fallback: an English title, or Latin words where the edition writes another script ("Episode" is German too)
      if (
        [...englishTexts].some((t) => !own.has(t) && text.includes(t)) ||
        (!['fr', 'de'].includes(id) && /Webtoon|Episode|\p{Script=Latin}{3,}/u.test(text))
      )
        wrong.push(`${image.key}: English "${text}"`)
    }
    expect(wrong).toEqual([])
    // each series' cover carries its title in the edition's language
    const cover = images.find((i) => i.key === String(tables.series![0]!.cover_key))!
    expect(textsOf(cover).join('')).toContain(String(tables.series![0]!.title).replace(/\s/g, '').slice(0, 2))
  })

  it('draws Arabic right to left, and Japanese, Korean, Chinese and Thai under their language', () => {
    const svg = (locale: string) => svgOf(drawn(demo(locale).images)[0]!)
    expect(svg('ar')).toMatch(/<text[^>]* direction="rtl"/)
    expect(svg('fr-FR')).not.toContain('direction="rtl"')
    expect(svg('ja-JP')).toContain('xml:lang="ja"')
    expect(svg('zh-TW')).toContain('xml:lang="zh-Hant"')
    expect(svg('th-TH')).toContain('font-family="Noto Sans Thai, Noto Sans"')
  })

  it('breaks lines where the language allows: between Thai and Japanese words, never before a closing mark', () => {
    expect(wrap('Un café pour deux', 5, 4, 'fr')).toEqual(['Un café', 'pour', 'deux'])
    for (const line of wrap('กาแฟสำหรับสองคน', 4, 4, 'th')) expect(line).not.toMatch(/^[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]/) // no line starts with a vowel or tone mark
    expect(wrap('กาแฟสำหรับสองคน', 4, 4, 'th').join('')).toBe('กาแฟสำหรับสองคน')
    expect(wrap('ある夏の手紙、そして', 3, 5, 'ja').every((l) => !l.startsWith('、'))).toBe(true)
    expect(wrap('二人のためのコーヒー二人のためのコーヒー', 4, 2, 'ja')).toHaveLength(2)
    expect(wrap('二人のためのコーヒー二人のためのコーヒー', 4, 2, 'ja')[1]).toMatch(/…$/)
  })

  it.each(editions)("$id: creators are credited with names of the edition's language", ({ id, locale }) => {
    const names = demo(locale).tables.creators!.map((c) => String(c.name))
    expect(names.length).toBeGreaterThan(20)
    expect(names.filter((n) => !SCRIPT[id].test(n))).toEqual([])
    if (id !== 'fr') {
      const french = new Set(demo('fr-FR').tables.creators!.map((c) => String(c.name)))
      expect(names.filter((n) => french.has(n) && !/^(Atelier|Studio) /.test(n))).toEqual([])
    }
  })
})

describe('the fonts of the demo images come from node_modules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'seed-fonts-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  /** Each family the drawings name (FONT_STACK), once. */
  const named = new Set(Object.values(FONT_STACK).flatMap((stack) => stack.split(', ')))
  /** The font files fontconfig is given (the links of `useBundledFonts`, resolved into node_modules). */
  const linked = () => fontconfigFiles(fontconfigDirs(useBundledFonts(dir)).dirs[0]!)

  it("configures fontconfig with the packages' files only, no directory or configuration of the machine", () => {
    const conf = useBundledFonts(dir)
    expect(process.env.FONTCONFIG_FILE).toBe(conf)
    const { dirs, includes } = fontconfigDirs(conf)
    expect(includes).toBe(false)
    expect(dirs).toEqual([join(dir, 'files')])
    const files = fontconfigFiles(dirs[0]!)
    expect(new Set(files).size).toBe(files.length)
    expect(files.length).toBe(2 * named.size) // regular and bold of each family, nothing else
    for (const f of files) expect(f.startsWith(join(ROOT, 'node_modules') + sep), f).toBe(true)
  })

  /** The linked files whose name table declares each family. */
  const byFamily = new Map<string, string[]>()
  const filesOf = (family: string) => {
    if (byFamily.size === 0)
      for (const f of linked()) for (const name of familyNames(f)) byFamily.set(name, [...(byFamily.get(name) ?? []), f])
    return byFamily.get(family) ?? []
  }

  it('has each family the drawings name, in regular and bold', () => {
    for (const family of named) expect(filesOf(family).length, family).toBeGreaterThanOrEqual(2)
  })

  const covered = new Map<string, Set<number>>()
  const glyphs = (family: string) => {
    if (!covered.has(family)) {
      const all = new Set<number>()
      for (const f of filesOf(family)) for (const c of coverage(f)) all.add(c)
      covered.set(family, all)
    }
    return covered.get(family)!
  }

  it.each(editions)('$id: every character its images draw has a glyph in its fonts (no empty box)', ({ locale }) => {
    const stack = FONT_STACK[langOf(locale)].split(', ')
    const chars = new Set(drawn(demo(locale).images).flatMap((i) => [...textsOf(i).join('')]))
    const missing = [...chars].filter((ch) => !/\s/u.test(ch) && !stack.some((family) => glyphs(family).has(ch.codePointAt(0)!)))
    expect(missing).toEqual([])
  })

  it('renders a jp, ar and th cover with them', async () => {
    const images = ['ja-JP', 'ar', 'th-TH'].map((locale) => drawn(demo(locale).images).find((i) => i.kind === 'cover')!)
    const out = await generateImages(images, { cacheDir: join(dir, 'images'), concurrency: 1 })
    expect(out.rendered).toBe(3)
    for (const r of out.renditions.filter((x) => x.width === 256)) expect((await sharp(r.path).metadata()).width).toBe(256)
  })
})

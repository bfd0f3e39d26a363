import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env } from 'cloudflare:workers'
import { appFor, request } from './app.ts'
import { seedDemo } from './seed.ts'
import jp from '../../editions/jp/edition.json'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import { encodeSearchCursor, MAX_KEYWORD_LENGTH, resolveSearch } from '../../src/features/search/search.ts'
import { ftsDocument } from '../../src/lib/text/fts.ts'
import type { SeriesCard } from '../../src/features/catalogue/catalogue.server.ts'
import { buildDemo, type DemoCatalogue } from '../../scripts/seed/data.ts'

/** The MATCH expression a search of `keyword` runs (`resolveSearch`); null when it has no searchable word. */
function buildFtsQuery(keyword: string): string | null {
  const r = resolveSearch({ keyword })
  if (!r.ok) throw new Error(`keyword refused: ${keyword}`)
  return r.request.match
}

type Body = { result: string; data: { items: SeriesCard[]; next: string | null }; code?: string; message?: string }

const app = appFor()
let demo: DemoCatalogue
const series = () => demo.tables.series!
const adultIds = () =>
  new Set(
    series()
      .filter((s) => s.is_adult === 1)
      .map((s) => Number(s.id)),
  )

beforeAll(async () => {
  demo = await seedDemo(env.DB)
})

async function get(path: string, init?: RequestInit, a = app) {
  const res = await request(a, path, init)
  return { res, body: (await res.json()) as Body }
}
const search = async (keyword: string, init?: RequestInit, a = app) => get(`/api/v1/search?${new URLSearchParams({ keyword })}`, init, a)
const ids = async (keyword: string) => {
  const { res, body } = await search(keyword)
  expect(res.status, keyword).toBe(200)
  return body.data.items.map((s) => s.id)
}

describe('GET /api/v1/search', () => {
  it('finds every public demo series by its title, and by a word prefix of it', async () => {
    for (const s of series().filter((x) => x.is_adult === 0)) {
      const title = String(s.title)
      expect(await ids(title), title).toContain(Number(s.id))
      const word = title.split(/[^\p{L}\p{N}]+/u).find((w) => w.length >= 5)
      if (word) expect(await ids(word.slice(0, 4)), word).toContain(Number(s.id))
    }
  })

  it('finds series by creator and by tag, accent- and case-insensitively', async () => {
    const creators = new Map(demo.tables.creators!.map((c) => [Number(c.id), String(c.name)]))
    const tags = new Map(demo.tables.tags!.map((t) => [Number(t.id), String(t.name)]))
    const visible = (id: number) => !adultIds().has(id)
    const byCreator = demo.tables.series_creators!.find(
      (r) => visible(Number(r.series_id)) && /[éèë]/.test(creators.get(Number(r.creator_id))!),
    )!
    const name = creators.get(Number(byCreator.creator_id))!
    expect(await ids(name)).toContain(Number(byCreator.series_id))
    expect(await ids(name.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase())).toContain(Number(byCreator.series_id))
    const byTag = demo.tables.series_tags!.find((r) => visible(Number(r.series_id)))!
    const tag = tags.get(Number(byTag.tag_id))!
    const found = await ids(tag.toLowerCase())
    const tagged = demo.tables
      .series_tags!.filter((r) => r.tag_id === byTag.tag_id && visible(Number(r.series_id)))
      .map((r) => Number(r.series_id))
    expect(found.filter((id) => tagged.includes(id)).sort()).toEqual(tagged.slice(0, 24).sort())
  })

  it('ANDs the words, ranks title matches first and never shows an adult series to a guest', async () => {
    const adult = series().find((s) => s.is_adult === 1)!
    expect(await ids(String(adult.title))).not.toContain(Number(adult.id))
    const s = series().find((x) => x.is_adult === 0 && String(x.title).split(' ').length >= 3)!
    const words = String(s.title).split(' ')
    expect((await ids(`${words[0]} ${words[words.length - 1]}`))[0]).toBe(Number(s.id))
    expect(await ids(`${words[words.length - 1]} zzzqqq`)).toEqual([])
  })

  it('treats FTS5 operators as text: quotes, stars, NEAR, minus, column filters never change the query or fail', async () => {
    const s = series().find((x) => x.is_adult === 0 && /^\p{L}{5,}/u.test(String(x.title)))!
    const word = String(s.title).split(' ')[0]!
    for (const k of [
      `"${word}`,
      `${word}"`,
      `${word}*`,
      `*${word}`,
      `-${word}`,
      `${word} NEAR`,
      `NEAR(${word})`,
      `title:${word}`,
      `{title}:${word}`,
      `^${word}`,
      `${word} OR`,
      `(${word}`,
      `${word} AND NOT`,
    ]) {
      const { res, body } = await search(k)
      expect(res.status, k).toBe(200)
      // the keyword's only word is `word`: the operators around it are separators
      if (!/NOT|OR|NEAR|title/.test(k))
        expect(
          body.data.items.map((x) => x.id),
          k,
        ).toContain(Number(s.id))
      else
        expect(
          body.data.items.map((x) => x.id),
          k,
        ).toEqual([]) // extra words are ANDed, and no title has them
    }
    // NOT / OR are words, not operators: "word NOT" must not mean "word and not …"
    expect(await ids('NOT')).toEqual([])
    for (const k of ['"', '""', '*', '-', 'NEAR', '" OR "', ')(', '"*', '\u0000', '😀']) {
      const { res, body } = await search(k)
      expect(res.status, k).toBe(200)
      expect(body.result, k).toBe('SUCCESS')
    }
  })

  it('refuses an empty, blank or over-long keyword with 400 INVALID_PARAMETER', async () => {
    for (const q of [
      '',
      'keyword=',
      'keyword=%20%20',
      `keyword=${'a'.repeat(MAX_KEYWORD_LENGTH + 1)}`,
      `keyword=${'a'.repeat(5000)}`,
      'keyword=a&cursor=',
      'keyword=a&cursor=%%',
      `keyword=a&cursor=${encodeSearchCursor(100000)}`,
    ]) {
      const { res, body } = await get(`/api/v1/search?${q}`)
      expect(res.status, q).toBe(400)
      expect(body.code, q).toBe('INVALID_PARAMETER')
      expect(body.message, q).not.toMatch(/^error\./)
    }
  })

  it('pages with a cursor without repeats, in one D1 query per page', async () => {
    let letter = ''
    for (const l of 'abcdefghijklmnopqrstuvwxyz')
      if ((await search(l)).body.data.next) {
        letter = l
        break
      }
    const first = await search(letter)
    expect(first.res.headers.get('x-d1-queries')).toBe('1')
    expect(first.body.data.items).toHaveLength(24)
    expect(first.body.data.next).not.toBeNull()
    const second = await get(`/api/v1/search?keyword=${letter}&cursor=${first.body.data.next}`)
    expect(second.res.status).toBe(200)
    const a = first.body.data.items.map((s) => s.id)
    expect(second.body.data.items.filter((s) => a.includes(s.id))).toEqual([])
  })

  it('answers 1,000 random keywords and cursors without a 5xx, each error a catalogue code', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 120 }),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        async (keyword, cursor) => {
          const qs = new URLSearchParams({ keyword, ...(cursor === undefined ? {} : { cursor }) })
          const { res, body } = await get(`/api/v1/search?${qs}`)
          expect(res.status, qs.toString()).toBeLessThan(500)
          if (res.status >= 400) expect(isErrorCode(body.code!)).toBe(true)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe('GET /api/v1/search/tags', () => {
  it('lists the tag top 10 by search count and the recommended tags', async () => {
    const res = await request(app, '/api/v1/search/tags')
    const body = (await res.json()) as { data: { top: string[]; recommended: string[] } }
    expect(res.status).toBe(200)
    const tags = [...demo.tables.tags!].sort((a, b) => Number(b.search_count) - Number(a.search_count) || Number(a.id) - Number(b.id))
    expect(body.data.top).toEqual(tags.slice(0, 10).map((t) => t.name))
    expect(body.data.recommended).toEqual(
      tags
        .filter((t) => t.is_recommended === 1)
        .slice(0, 10)
        .map((t) => t.name),
    )
  })
})

describe('search in editions written without spaces (jp, tw, th, kr)', () => {
  it('finds a word inside a title once index and query are cut the same way', async () => {
    const db = env.DB
    await db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS fts_probe USING fts5 (title, creators, tags, tokenize = 'unicode61 remove_diacritics 2')`,
    )
    for (const [locale, word] of [
      ['ja-JP', 'インターン'],
      ['zh-TW', '實習生'],
      ['th-TH', 'ฝึกงาน'],
      ['ko-KR', '인턴'],
    ] as const) {
      await db.exec('DELETE FROM fts_probe')
      const rows = buildDemo({ currency: 'EUR', locale, now: new Date('2026-11-01T00:00:00Z'), passwordHash: 'x', minorPasswordHash: 'x' })
        .tables.series_fts!
      await db.batch(
        rows.map((r) =>
          db.prepare('INSERT INTO fts_probe (rowid, title, creators, tags) VALUES (?, ?, ?, ?)').bind(r.rowid, r.title, r.creators, r.tags),
        ),
      )
      const expected = rows.filter((r) => String(r.title).replace(/ /g, '').includes(word.replace(/ /g, ''))).map((r) => Number(r.rowid))
      expect(expected.length, locale).toBeGreaterThan(0)
      const found = await db
        .prepare('SELECT rowid FROM fts_probe WHERE fts_probe MATCH ?')
        .bind(buildFtsQuery(word))
        .all<{ rowid: number }>()
      expect(found.results.map((r) => r.rowid).sort(), locale).toEqual(expected.sort())
      // every title is found by itself
      for (const r of rows) {
        const hit = await db
          .prepare('SELECT rowid FROM fts_probe WHERE fts_probe MATCH ?')
          .bind(buildFtsQuery(String(r.title)))
          .all<{ rowid: number }>()
        expect(
          hit.results.map((x) => x.rowid),
          `${locale} ${r.title}`,
        ).toContain(Number(r.rowid))
      }
    }
    expect(ftsDocument('永遠のインターン')).toBe('永 遠 の イ ン タ ー ン')
  })

  it('the jp edition searches through the same API', async () => {
    const { res } = await search('テスト', undefined, appFor(parseEdition('jp', jp)))
    expect(res.status).toBe(200)
  })
})

/**
 * Creator pages (issue 37 point 2) on real workerd + D1: `GET /api/v1/contents/creators/{id}` gives a creator's series by
 * role, only those the caller's audience may see (no adult series for a guest), and the series detail names each
 * creator by id (the link to their page); the page's JSON-LD is a `Person` whose works are the series it lists.
 */
import { describe, expect, it } from 'vitest'
import { call, db, expectError, frEdition, newSeries, read } from './comment.helpers.ts'
import { jsonLdText, personLd } from '../../src/features/catalogue/seo.ts'
import type { CreatorWorks } from '../../src/features/catalogue/catalogue.server.ts'

async function newCreator(name: string, works: { seriesId: number; role: string }[]): Promise<number> {
  const c = await db.first<{ id: number }>(`INSERT INTO creators (name) VALUES (?) RETURNING id`, name)
  for (const w of works)
    await db.run(`INSERT INTO series_creators (series_id, creator_id, role) VALUES (?, ?, ?)`, w.seriesId, c!.id, w.role)
  return c!.id
}

describe('creator pages', () => {
  it("lists a creator's series by role, in the roles' order, for the caller's audience", async () => {
    const drawn = await newSeries({ episodes: 1 })
    const written = await newSeries({ episodes: 1 })
    const adult = await newSeries({ episodes: 1, adult: true })
    const hidden = await newSeries({ episodes: 1 })
    await db.run(`UPDATE series SET is_published = 0 WHERE id = ?`, hidden.seriesId)
    const id = await newCreator('Mina Park', [
      { seriesId: drawn.seriesId, role: 'ARTIST' },
      { seriesId: written.seriesId, role: 'WRITER' },
      { seriesId: drawn.seriesId, role: 'WRITER' },
      { seriesId: adult.seriesId, role: 'ARTIST' },
      { seriesId: hidden.seriesId, role: 'ARTIST' },
    ])
    const ids = (c: CreatorWorks) => c.works.map((w) => [w.role, w.series.map((s) => s.id).sort((a, b) => a - b)])
    const guest = (await read(await call(null, 'GET', `/api/v1/contents/creators/${id}`))).data as CreatorWorks
    expect(guest).toMatchObject({ id, name: 'Mina Park' })
    expect(ids(guest)).toEqual([
      ['WRITER', [drawn.seriesId, written.seriesId]],
      ['ARTIST', [drawn.seriesId]],
    ])
    // the series page names its creators by id, for the link to their page
    const detail = (await read(await call(null, 'GET', `/api/v1/contents/${drawn.seriesId}`))).data as { creators: unknown[] }
    expect(detail.creators).toEqual(
      expect.arrayContaining([
        { id, name: 'Mina Park', role: 'WRITER' },
        { id, name: 'Mina Park', role: 'ARTIST' },
      ]),
    )
    // JSON-LD: a Person, each series once, never an adult one (here added to the list by hand)
    const withAdult = {
      ...guest,
      works: [
        ...guest.works,
        { role: 'ORIGINAL' as const, series: [{ ...guest.works[0]!.series[0]!, id: adult.seriesId, isAdult: true }] },
      ],
    }
    const ld = JSON.parse(jsonLdText(personLd(withAdult, frEdition.siteUrl))) as {
      '@type': string
      url: string
      workExample: { '@id': string }[]
    }
    expect(ld['@type']).toBe('Person')
    expect(ld.url).toBe(`${frEdition.siteUrl}/creator/${id}`)
    expect(ld.workExample.map((w) => w['@id']).sort()).toEqual(
      [drawn.seriesId, written.seriesId].map((s) => `${frEdition.siteUrl}/detail/${s}`).sort(),
    )
  })

  it('a creator without a series the audience may see has an empty page; an unknown one is NOT_EXIST', async () => {
    const adult = await newSeries({ episodes: 1, adult: true })
    const id = await newCreator('Only Adult', [{ seriesId: adult.seriesId, role: 'AUTHOR' }])
    expect((await read(await call(null, 'GET', `/api/v1/contents/creators/${id}`))).data).toEqual({ id, name: 'Only Adult', works: [] })
    await expectError(await call(null, 'GET', '/api/v1/contents/creators/999999999'), 404, 'NOT_EXIST')
    await expectError(await call(null, 'GET', '/api/v1/contents/creators/abc'), 404, 'NOT_EXIST')
    await expectError(await call(null, 'GET', '/api/v1/contents/creators/0'), 404, 'NOT_EXIST')
  })
})

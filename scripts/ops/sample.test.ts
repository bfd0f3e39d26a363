/**
 * `npm run ops -- sample --to <folder>` (issue 39 point 9): the example series and its next episode written with their
 * images, ready as they are for `import` and `episode add` — their validation and image probes pass and the plan is
 * printed (the stand-in operator API, fake-api.ts, then refuses the upload).
 */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeApi, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())

const PNG = '89504e470d0a1a0a'

describe('npm run ops -- sample', () => {
  it('writes the series and the episode with their PNG images, and prints the commands that upload them', async () => {
    const to = mkdtempSync(join(tmpdir(), 'ops-sample-'))
    const r = await api.ops(['sample', '--to', to])
    expect(r.code, r.stderr).toBe(0)
    const series = JSON.parse(readFileSync(join(to, 'series', 'series.json'), 'utf8')) as {
      cover: string
      episodes: { images: string[] }[]
    }
    const named = [series.cover, ...series.episodes.flatMap((e) => e.images)]
    expect(readdirSync(join(to, 'series')).sort()).toEqual(['series.json', ...named].sort())
    for (const file of named)
      expect(
        readFileSync(join(to, 'series', file))
          .subarray(0, 8)
          .toString('hex'),
      ).toBe(PNG)
    const episode = JSON.parse(readFileSync(join(to, 'episode', 'episode.json'), 'utf8')) as { images: string[] }
    expect(readdirSync(join(to, 'episode')).sort()).toEqual(['episode.json', ...episode.images].sort())
    expect(r.stdout).toContain(`npm run ops -- import --dir ${join(to, 'series')} --reason "example series"`)
    expect(r.stdout).toContain(`npm run ops -- episode add --series <id> --dir ${join(to, 'episode')} --reason "Friday's episode"`)
    expect(api.seen).toEqual([])

    // the folder passes the import's checks as written: its plan is printed before the upload is tried
    const imported = await api.ops(['import', '--dir', join(to, 'series'), '--reason', 'example series'])
    expect(imported.stdout).toMatch(/plan \(http:\/\/127\.0\.0\.1:\d+, a local run\):/)
    expect(imported.stdout).toContain('Le Phare des Brumes')
    expect(api.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /api/ops/series/import'])
  })

  it('without --to it is refused, nothing written', async () => {
    const r = await api.ops(['sample'])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/--to/)
  })
})

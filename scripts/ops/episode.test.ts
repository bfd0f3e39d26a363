/**
 * `npm run ops -- episode add` and `episode replace-slice` (issue 39 point 1) through the command line, against a tiny
 * HTTP server standing in for the operator API: the plan printed first (without --yes on a deployed edition, only
 * reads are sent, nothing changes), the reservation, every rendition uploaded as WebP under the keys the API gave,
 * the finish; the abort when an upload is refused; a bad folder or image refused before anything is sent. The API
 * itself runs on real D1 and R2 in tests/worker/ops-episode-upload.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, fakeApi, json, LOCAL_OPS_TOKEN, outward, success, type FakeApi, type Reply } from './fake-api.ts'
import sharp from 'sharp'
import { writeSampleEpisode } from './sample.ts'

let api: FakeApi
let folder: string
let image: string
beforeAll(async () => {
  api = await fakeApi()
  folder = await writeSampleEpisode(mkdtempSync(join(tmpdir(), 'ops-episode-')))
  image = join(folder, 'fixed.png')
  await sharp({ create: { width: 800, height: 900, channels: 3, background: '#3a7' } })
    .png()
    .toFile(image)
})
afterAll(async () => {
  await api.close()
  rmSync(folder, { recursive: true, force: true })
})
beforeEach(() => api.reset())

const SERIES = 45
const EPISODE = 612
const widths = [640, 828, 1080]
const episodeKeys = (no: number) => [1, 2].flatMap((n) => widths.map((w) => `series/${SERIES}/ep/${no}/${n}/${w}.webp`))
const sliceKeys = widths.map((w) => `series/${SERIES}/ep/12/2-mx1a/${w}.webp`)

/** The API's answers: series 45 with 11 episodes; a refusal of the `failAt`-th upload if given. */
function replies(failAt?: number) {
  let puts = 0
  return (path: string): Reply => {
    if (path.startsWith(`/api/ops/series/${SERIES}/episodes?`))
      return success({ series: { id: SERIES, title: 'Le phare' }, items: [{ id: 600, no: 11 }], next: null, timeZone: 'Europe/Paris' })
    if (path === `/api/ops/series/${SERIES}/episodes`)
      return json(201, { result: 'SUCCESS', data: { episodeId: EPISODE, seriesId: SERIES, no: 12, keys: episodeKeys(12) } })
    if (path === `/api/ops/episodes/${EPISODE}/slices/2`)
      return json(201, { result: 'SUCCESS', data: { episodeId: EPISODE, n: 2, key: `series/${SERIES}/ep/12/2-mx1a`, keys: sliceKeys } })
    if (path.startsWith('/api/ops/media/')) {
      if (++puts === failAt) return json(400, { result: 'ERROR', code: 'INVALID_PARAMETER', message: 'the body is not a WebP image' })
      return success({ key: path, bytes: 1 })
    }
    if (path === `/api/ops/episodes/${EPISODE}/upload/finish`)
      return success({ kind: 'EPISODE', episodeId: EPISODE, no: 12, publishedAt: '2026-11-29T02:00:00.000Z', announced: true })
    if (path === `/api/ops/episodes/${EPISODE}/upload/abort`) return success({ episodeId: EPISODE, kind: 'EPISODE', objects: 6 })
    return json(404, { result: 'ERROR', code: 'NOT_EXIST', message: 'no route' })
  }
}

const changes = () => api.seen.filter((s) => s.method !== 'GET')

describe('npm run ops -- episode add', () => {
  it('prints the plan, reserves the next number, uploads every rendition as WebP, finishes and prints the id', async () => {
    api.reply = replies()
    const res = await api.ops(['episode', 'add', '--series', String(SERIES), '--dir', folder, '--reason', 'friday'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain(`add episode 12 "La lettre du continent" to series ${SERIES} "Le phare"`)
    expect(res.stdout).toContain('2 slices, rent 2 · buy 4')
    expect(res.stdout).toContain(`episode id ${EPISODE} (series ${SERIES}, no. 12)`)
    const [read, start, ...rest] = api.seen
    expect(read).toMatchObject({ method: 'GET', path: `/api/ops/series/${SERIES}/episodes?limit=1` })
    expect(start).toMatchObject({ method: 'POST', path: `/api/ops/series/${SERIES}/episodes`, authorization: `Bearer ${LOCAL_OPS_TOKEN}` })
    const body = start!.body as { episode: { title: string; no?: number; transcript: unknown[] }; sizes: unknown; reason: string }
    expect(body.episode.title).toBe('La lettre du continent')
    expect(body.episode.no).toBeUndefined()
    expect(body.episode.transcript).toHaveLength(2)
    expect(body.sizes).toEqual([
      { width: 800, height: 1100 },
      { width: 800, height: 1300 },
    ])
    expect(body.reason).toBe('friday')
    const puts = rest.slice(0, -1)
    expect(puts.map((p) => p.path.slice('/api/ops/media/'.length)).sort()).toEqual(episodeKeys(12).sort())
    for (const p of puts) expect(p).toMatchObject({ method: 'PUT', contentType: 'image/webp', body: { webp: true } })
    expect(rest.at(-1)).toMatchObject({ method: 'POST', path: `/api/ops/episodes/${EPISODE}/upload/finish`, body: { reason: 'friday' } })
  }, 60_000)

  it('aborts when an upload is refused half-way: no finish, the abort sent, exit 1', async () => {
    api.reply = replies(3)
    const res = await api.ops(['episode', 'add', '--series', String(SERIES), '--dir', folder, '--reason', 'friday'])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/ops: INVALID_PARAMETER \(HTTP 400\) from PUT \/api\/ops\/media\//)
    expect(res.stderr).toContain(`removing episode ${EPISODE} and its objects`)
    const paths = api.seen.map((s) => s.path)
    expect(paths).not.toContain(`/api/ops/episodes/${EPISODE}/upload/finish`)
    expect(paths.at(-1)).toBe(`/api/ops/episodes/${EPISODE}/upload/abort`)
    expect(api.seen.at(-1)!.body).toEqual({ reason: 'friday (upload failed)' })
  }, 60_000)

  it('refuses a taken number, a bad command line, a bad folder or a broken image with nothing changed', async () => {
    await expectRefusedUnsent(api, [
      [['episode', 'add', '--dir', folder, '--reason', 'r'], /--series is required/],
      [['episode', 'add', '--series', 'x', '--dir', folder, '--reason', 'r'], /--series must be a positive whole number/],
      [['episode', 'add', '--series', '45', '--reason', 'r'], /--dir is required/],
      [['episode', 'add', '--series', '45', '--dir', folder], /--reason is required/],
    ])
    const broken = await writeSampleEpisode(mkdtempSync(join(tmpdir(), 'ops-episode-broken-')))
    writeFileSync(join(broken, '2.png'), 'not an image')
    const res = await api.ops(['episode', 'add', '--series', '45', '--dir', broken, '--reason', 'r'])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/images\.1: .*2\.png is not an image sharp can read/)
    writeFileSync(join(broken, 'episode.json'), JSON.stringify({ no: 11, title: 'Onze', priceRent: 2, images: ['1.png'] }))
    api.reply = replies()
    const taken = await api.ops(['episode', 'add', '--series', '45', '--dir', broken, '--reason', 'r'])
    expect(taken.code).toBe(1)
    expect(taken.stderr).toContain('episode 11 of series 45 exists already (id 600): nothing sent')
    expect(api.seen.map((s) => [s.method, s.path])).toEqual([['GET', `/api/ops/series/45/episodes?limit=1&cursor=12`]])
    writeFileSync(join(broken, 'episode.json'), JSON.stringify({ title: 'x', images: ['1.png'] }))
    const invalid = await api.ops(['episode', 'add', '--series', '45', '--dir', broken, '--reason', 'r'])
    expect(invalid.stderr).toMatch(/priceRent: a paid episode needs priceRent or priceBuy/)
    rmSync(broken, { recursive: true, force: true })
    expect(changes()).toEqual([])
  }, 60_000)

  it('on a deployed edition prints the plan and changes nothing without --yes; with --yes it uploads', async () => {
    if (!outward) return // no address but loopback on this machine: the local runs above are the test
    api.reply = replies()
    const env = { OPS_URL: `http://${outward}:${api.port}`, OPS_TOKEN: 'deployed' }
    const args = ['episode', 'add', '--series', String(SERIES), '--dir', folder, '--reason', 'friday']
    const plan = await api.ops(args, env)
    expect(plan.code).toBe(2)
    expect(plan.stdout).toContain(`add episode 12 "La lettre du continent"`)
    expect(plan.stderr.split('\n')[0]).toBe(`ops: ${env.OPS_URL} is not a local run: nothing sent; add --yes to do it`)
    expect(changes()).toEqual([])
    const sent = await api.ops([...args, '--yes'], env)
    expect(sent.code, sent.stderr).toBe(0)
    expect(changes().map((s) => s.method)).toEqual(['POST', ...episodeKeys(12).map(() => 'PUT'), 'POST'])
    expect(changes()[0]!.authorization).toBe('Bearer deployed')
  }, 60_000)
})

describe('npm run ops -- episode replace-slice', () => {
  it('prints the plan, opens the replacement, uploads the renditions under the new key, finishes', async () => {
    api.reply = replies()
    const res = await api.ops([
      'episode',
      'replace-slice',
      '--episode',
      String(EPISODE),
      '--slice',
      '2',
      '--file',
      image,
      '--reason',
      'torn',
    ])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toContain(`replace slice 2 of episode ${EPISODE} with ${image} (800×900 px)`)
    expect(res.stdout).toContain(`replaced: slice 2 of episode ${EPISODE} is series/${SERIES}/ep/12/2-mx1a/<width>.webp (3 objects)`)
    const [start, ...rest] = api.seen
    expect(start).toMatchObject({
      method: 'POST',
      path: `/api/ops/episodes/${EPISODE}/slices/2`,
      body: { size: { width: 800, height: 900 }, reason: 'torn' },
    })
    expect(
      rest
        .slice(0, -1)
        .map((p) => p.path.slice('/api/ops/media/'.length))
        .sort(),
    ).toEqual([...sliceKeys].sort())
    expect(rest.at(-1)).toMatchObject({ path: `/api/ops/episodes/${EPISODE}/upload/finish` })
  }, 60_000)

  it('refuses a bad command line or a broken file before sending anything; a deployed edition gets the plan only', async () => {
    await expectRefusedUnsent(api, [
      [['episode', 'replace-slice', '--slice', '2', '--file', image, '--reason', 'r'], /--episode is required/],
      [['episode', 'replace-slice', '--episode', '1', '--slice', '0', '--file', image, '--reason', 'r'], /--slice must be a positive/],
      [['episode', 'replace-slice', '--episode', '1', '--slice', '2', '--reason', 'r'], /--file is required/],
    ])
    const res = await api.ops([
      'episode',
      'replace-slice',
      '--episode',
      '1',
      '--slice',
      '2',
      '--file',
      join(folder, 'episode.json'),
      '--reason',
      'r',
    ])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/--file: .*episode\.json is not an image sharp can read/)
    const remote = await api.ops(['episode', 'replace-slice', '--episode', '1', '--slice', '2', '--file', image, '--reason', 'r'], {
      OPS_URL: 'https://fr.example.com',
      OPS_TOKEN: 't',
    })
    expect(remote.code).toBe(2)
    expect(remote.stdout).toContain('plan (https://fr.example.com):')
    expect(api.seen).toEqual([])
  }, 60_000)

  it('has --help for both commands', async () => {
    const add = await api.ops(['episode', 'add', '--help'])
    expect(add.stdout).toContain('usage: npm run ops -- episode add --series N --dir <folder> --reason TEXT [--yes]')
    const replace = await api.ops(['help', 'episode', 'replace-slice'])
    expect(replace.stdout).toContain('so no browser or edge cache keeps the old image under it')
    expect(api.seen).toEqual([])
  })
})

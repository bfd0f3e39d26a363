/**
 * The operator's catalogue routes (docs/API.md "Operator API": `/api/ops/episodes/{id}/schedule|unpublish`,
 * `/api/ops/series/{id}/publish|unpublish|schedule`; `npm run ops -- episode …|series …`) on the real edge app and
 * D1: off without OPS_TOKEN, 401 without the right token, what each does as a reader sees it through
 * `/api/v1/contents` (a scheduled episode hidden until its time, then announced by the cron's sweep; an unpublished
 * episode gone and back; a withdrawn series 404; the weekly lists), the reason in the JSON log line, and 1,000
 * generated bad bodies per route that answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, expectBadBodiesRefused, auditLines as opsLines, logSpy } from './ops.helpers.ts'
import { call, db, expectError, newReader, newSeries, read } from './comment.helpers.ts'
import { localQueue } from './alarm-queue.helpers.ts'
import { sweepAlarms } from '../../src/features/alarm/alarm.server.ts'
import { EPISODE_UNPUBLISHED_AT } from '../../src/features/catalogue/catalogue-ops.ts'
import { isoAfter } from '../../src/lib/time.ts'
import { alarmsIn } from './reader.helpers.ts'

const far = { deadline: Number.MAX_SAFE_INTEGER, clock: () => 0 }

beforeAll(async () => {
  await seedDemo(env.DB)
})

const auditLines = () => opsLines().map((v) => [v.ops, v.episodeId ?? v.seriesId, v.reason])

/** Everything the catalogue routes could write. */
const snapshot = () =>
  db.first(`SELECT (SELECT group_concat(id || published_at || coalesce(announced_at, '-')) FROM episodes) AS episodes,
    (SELECT group_concat(id || is_published || updated_at) FROM series) AS series,
    (SELECT group_concat(series_id || weekday || position) FROM schedules) AS schedules`)

/** The series page as a guest reads it. */
const detail = async (seriesId: number) =>
  (await read(await call(null, 'GET', `/api/v1/contents/${seriesId}`))).data as {
    episodes: { id: number }[]
    schedule: string[]
  }

/** Every series id on one day's weekly list (all its pages). */
async function onDay(day: string): Promise<number[]> {
  const ids: number[] = []
  let cursor = ''
  for (let page = 0; page < 100; page++) {
    const data = (await read(await call(null, 'GET', `/api/v1/contents?tab=SCHEDULE&day=${day}${cursor}`))).data as {
      items: { id: number }[]
      next: string | null
    }
    ids.push(...data.items.map((s) => s.id))
    if (!data.next) break
    cursor = `&cursor=${encodeURIComponent(data.next)}`
  }
  return ids
}

const ROUTES = ['/episodes/1/schedule', '/episodes/1/unpublish', '/series/1/publish', '/series/1/unpublish', '/series/1/schedule']

describe('operator API: episodes and series', () => {
  it('every route is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, changing nothing', async () => {
    const before = await snapshot()
    const body = { reason: 'x', publishedAt: '2099-01-01', days: ['MONDAY'] }
    for (const path of ROUTES) {
      const send = (who: typeof OPS | null) => call(who, 'POST', `/api/ops${path}`, body)
      for (const OPS_TOKEN of ['', undefined]) {
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => send(OPS))) as Response, 404, 'NOT_EXIST')
      }
      await expectError(await send(null), 401, 'NOT_LOGIN_USER')
      await expectError(await send({ headers: { authorization: 'Bearer wrong' } }), 401, 'NOT_LOGIN_USER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('episode schedule: hidden from the series page until its time, then announced by the cron to the favouriting readers', async () => {
    const { seriesId, episodeIds } = await newSeries({ episodes: 2 })
    const [first, second] = episodeIds as [number, number]
    const fan = await newReader()
    await db.run(`INSERT INTO favorites (user_id, series_id) VALUES (?, ?)`, fan.id, seriesId)
    const at = new Date(Date.now() + 3_600_000).toISOString()
    logSpy()
    const res = await call(OPS, 'POST', `/api/ops/episodes/${second}/schedule`, { publishedAt: at, reason: 'Thursday release' })
    expect(res.status).toBe(200)
    expect((await read(res)).data).toMatchObject({ id: second, seriesId, publishedAt: at, announcedAt: null, state: 'SCHEDULED' })
    expect(auditLines()).toEqual([['episode.schedule', second, 'Thursday release']])
    expect((await detail(seriesId)).episodes.map((e) => e.id)).toEqual([first])
    expect((await call(fan, 'GET', `/api/v1/viewer/${second}`)).status).toBe(404)

    const q = localQueue(new Date(at))
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, -1000)), far)
    expect(q.sent.filter((m) => m.body.kind === 'episode' && m.body.episodeId === second)).toEqual([])
    await sweepAlarms(db, q.queue, new Date(isoAfter(at, 1000)), far)
    expect(q.sent.filter((m) => m.body.kind === 'episode' && m.body.episodeId === second).map((m) => m.body)).toEqual([
      { kind: 'episode', episodeId: second, after: 0 },
    ])
    await q.drain()
    expect((await alarmsIn(fan.id)).filter((a) => a.dedupKey === `EPISODE:${second}`).map((a) => a.kind)).toEqual(['EPISODE'])

    // announced now: a new date is refused; a past date is refused (publish it instead); unknown episode
    const before = await snapshot()
    const again = await call(OPS, 'POST', `/api/ops/episodes/${second}/schedule`, { publishedAt: '2099-01-01', reason: 'r' })
    expect(again.status).toBe(400)
    expect(await read(again)).toMatchObject({ code: 'INVALID_PARAMETER', fields: 'id', message: expect.stringMatching(/was announced at/) })
    const past = await call(OPS, 'POST', `/api/ops/episodes/${first}/schedule`, { publishedAt: '2020-01-01', reason: 'r' })
    expect(past.status).toBe(400)
    expect(await read(past)).toMatchObject({ code: 'INVALID_PARAMETER', fields: 'publishedAt', message: expect.stringMatching(/publish/) })
    await expectError(
      await call(OPS, 'POST', '/api/ops/episodes/999999/schedule', { publishedAt: '2099-01-01', reason: 'r' }),
      404,
      'NOT_EXIST',
    )
    for (const bad of [
      { publishedAt: '2099-01-01' },
      { publishedAt: '2099-02-30', reason: 'r' },
      { publishedAt: EPISODE_UNPUBLISHED_AT, reason: 'r' },
      { publishedAt: '2099-01-01T10:00:00', reason: 'r' },
      { reason: 'r' },
    ]) {
      await expectError(await call(OPS, 'POST', `/api/ops/episodes/${first}/schedule`, bad), 400, 'INVALID_PARAMETER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('episode unpublish: off the series page and the viewer, ownership kept; episode publish brings it back', async () => {
    const { seriesId, episodeIds } = await newSeries({ episodes: 2 })
    const [first, second] = episodeIds as [number, number]
    const owner = await newReader()
    expect((await call(owner, 'GET', `/api/v1/viewer/${second}`)).status).toBe(200)
    logSpy()
    const down = (await read(await call(OPS, 'POST', `/api/ops/episodes/${second}/unpublish`, { reason: 'wrong pages' }))).data
    expect(down).toMatchObject({ id: second, publishedAt: EPISODE_UNPUBLISHED_AT, state: 'UNPUBLISHED' })
    expect(auditLines()).toEqual([['episode.unpublish', second, 'wrong pages']])
    expect((await detail(seriesId)).episodes.map((e) => e.id)).toEqual([first])
    expect((await call(owner, 'GET', `/api/v1/viewer/${second}`)).status).toBe(404)

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', `/api/ops/episodes/${second}/unpublish`, { reason: 'again' }), 404, 'NOT_EXIST')
    await expectError(await call(OPS, 'POST', '/api/ops/episodes/999999/unpublish', { reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await call(OPS, 'POST', `/api/ops/episodes/${first}/unpublish`, { reason: ' ' }), 400, 'INVALID_PARAMETER')
    expect(await snapshot()).toEqual(before)

    const back = (await read(await call(OPS, 'POST', `/api/ops/episodes/${second}/publish`, {}))).data
    expect(back).toMatchObject({ episodeId: second, announced: true })
    expect((await detail(seriesId)).episodes.map((e) => e.id)).toEqual([first, second])
    expect((await call(owner, 'GET', `/api/v1/viewer/${second}`)).status).toBe(200)
  })

  it('series unpublish and publish: readers get 404 then the page again; twice is unchanged', async () => {
    const { seriesId } = await newSeries({ episodes: 1 })
    logSpy()
    const down = (await read(await call(OPS, 'POST', `/api/ops/series/${seriesId}/unpublish`, { reason: 'rights' }))).data
    expect(down).toMatchObject({ id: seriesId, isPublished: false, changed: true })
    await expectError(await call(null, 'GET', `/api/v1/contents/${seriesId}`), 404, 'INVALID_CONTENTS')
    const again = (await read(await call(OPS, 'POST', `/api/ops/series/${seriesId}/unpublish`, { reason: 'again' }))).data
    expect(again).toMatchObject({ isPublished: false, changed: false })
    const up = (await read(await call(OPS, 'POST', `/api/ops/series/${seriesId}/publish`, { reason: 'rights back' }))).data
    expect(up).toMatchObject({ isPublished: true, changed: true })
    expect((await call(null, 'GET', `/api/v1/contents/${seriesId}`)).status).toBe(200)
    expect(auditLines()).toEqual([
      ['series.unpublish', seriesId, 'rights'],
      ['series.publish', seriesId, 'rights back'],
    ])
    const before = await snapshot()
    await expectError(await call(OPS, 'POST', '/api/ops/series/999999/publish', { reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await call(OPS, 'POST', `/api/ops/series/${seriesId}/publish`, {}), 400, 'INVALID_PARAMETER')
    await expectError(await call(OPS, 'POST', `/api/ops/series/${seriesId}/hide`, { reason: 'r' }), 404, 'NOT_EXIST')
    expect(await snapshot()).toEqual(before)
  })

  it('series schedule: the weekly lists and the series page follow; new days go to the end of the list, kept days keep their place', async () => {
    const { seriesId } = await newSeries({ episodes: 1 })
    const lastMonday = async () =>
      (await db.first<{ p: number }>(`SELECT max(position) AS p FROM schedules WHERE weekday = 'MONDAY'`))?.p ?? -1
    const endOfMonday = (await lastMonday()) + 1
    logSpy()
    const set = (
      await read(await call(OPS, 'POST', `/api/ops/series/${seriesId}/schedule`, { days: ['THURSDAY', 'MONDAY'], reason: 'new rhythm' }))
    ).data
    expect(set).toMatchObject({ id: seriesId, schedule: ['MONDAY', 'THURSDAY'] })
    expect(await db.first(`SELECT position FROM schedules WHERE series_id = ? AND weekday = 'MONDAY'`, seriesId)).toEqual({
      position: endOfMonday,
    })
    expect((await detail(seriesId)).schedule).toEqual(['MONDAY', 'THURSDAY'])
    expect(await onDay('MONDAY')).toContain(seriesId)
    expect(await onDay('THURSDAY')).toContain(seriesId)

    const kept = await call(OPS, 'POST', `/api/ops/series/${seriesId}/schedule`, { days: ['MONDAY', 'SATURDAY'], reason: 'r' })
    expect((await read(kept)).data.schedule).toEqual(['MONDAY', 'SATURDAY'])
    expect(await db.first(`SELECT position FROM schedules WHERE series_id = ? AND weekday = 'MONDAY'`, seriesId)).toEqual({
      position: endOfMonday,
    })
    expect(await onDay('THURSDAY')).not.toContain(seriesId)

    const ten = (await read(await call(OPS, 'POST', `/api/ops/series/${seriesId}/schedule`, { days: ['TEN'], reason: 'ten' }))).data
    expect(ten.schedule).toEqual(['TEN'])
    expect(await onDay('TEN')).toContain(seriesId)
    expect(await onDay('MONDAY')).not.toContain(seriesId)
    const none = (await read(await call(OPS, 'POST', `/api/ops/series/${seriesId}/schedule`, { days: [], reason: 'ended' }))).data
    expect(none.schedule).toEqual([])
    expect(auditLines().map((l) => l[0])).toEqual(['series.schedule', 'series.schedule', 'series.schedule', 'series.schedule'])

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', '/api/ops/series/999999/schedule', { days: ['MONDAY'], reason: 'r' }), 404, 'NOT_EXIST')
    for (const bad of [
      { days: ['MONDAY'] },
      { days: ['TEN', 'MONDAY'], reason: 'r' },
      { days: ['MONDAY', 'MONDAY'], reason: 'r' },
      { days: ['MON'], reason: 'r' },
      { days: 'MONDAY', reason: 'r' },
      { reason: 'r' },
    ]) {
      await expectError(await call(OPS, 'POST', `/api/ops/series/${seriesId}/schedule`, bad), 400, 'INVALID_PARAMETER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('1,000 generated bad bodies on each route: no 5xx, only catalogue codes, nothing changed', { timeout: 600_000 }, async () => {
    const { seriesId, episodeIds } = await newSeries({ episodes: 1 })
    const before = await snapshot()
    const str = fc.oneof(fc.string({ maxLength: 40 }), fc.anything())
    const fields = {
      publishedAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        fc.constantFrom('2099-01-01', EPISODE_UNPUBLISHED_AT),
        str,
      ),
      days: fc.oneof(fc.array(fc.constantFrom('MONDAY', 'TEN', 'SUNDAY', 'mon')), str),
    }
    await expectBadBodiesRefused(
      [
        `/api/ops/episodes/${episodeIds[0]}/schedule`,
        `/api/ops/episodes/${episodeIds[0]}/unpublish`,
        `/api/ops/series/${seriesId}/publish`,
        `/api/ops/series/${seriesId}/unpublish`,
        `/api/ops/series/${seriesId}/schedule`,
      ],
      fields,
    )
    expect(await snapshot()).toEqual(before)
  })
})

/**
 * The operator's events and banners (docs/API.md "Operator API": `/api/ops/events`, `/api/ops/banners`;
 * `npm run ops -- event|banner create|end`) on the real edge app and D1: off without OPS_TOKEN, 401 without the right
 * token; what readers see through the queries the pages render (/event: `currentEvents`, the home carousel:
 * `homePage`), the reason in the JSON log line, refusals that change nothing, and 1,000 generated bad bodies per
 * changing route that answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, expectBadBodiesRefused, auditLines, logSpy } from './ops.helpers.ts'
import { call, db, expectError, read } from './comment.helpers.ts'
import { currentEvents } from '../../src/features/event/event.server.ts'
import { homePage } from '../../src/features/catalogue/catalogue.server.ts'

import { audienceSees } from '../../src/features/age/age.ts'

/** A guest's view (never an adult or BL series). */
const GUEST = audienceSees('guest')

beforeAll(async () => {
  await seedDemo(env.DB)
})

const snapshot = () =>
  db.first(`SELECT (SELECT count(*) FROM events) AS events, (SELECT group_concat(starts_at || ends_at) FROM events) AS eventRows,
    (SELECT count(*) FROM banners) AS banners, (SELECT group_concat(coalesce(ends_at, '-')) FROM banners) AS bannerEnds`)

const eventIds = async () => (await currentEvents(db, new Date())).map((e) => e.id)
const bannerIds = async () => (await homePage(db, GUEST, 'MONDAY', new Date())).banners.map((b) => b.id)
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()

describe('operator API: events and banners', () => {
  it('every route is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, changing nothing', async () => {
    const before = await snapshot()
    for (const path of ['/api/ops/events', '/api/ops/events/1/end', '/api/ops/banners', '/api/ops/banners/1/end']) {
      const send = (reader: typeof OPS | null) => call(reader, 'POST', path, { reason: 'x', title: 't', endsAt: '2099-01-01' })
      for (const OPS_TOKEN of ['', undefined]) {
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => send(OPS))) as Response, 404, 'NOT_EXIST')
      }
      await expectError(await send(null), 401, 'NOT_LOGIN_USER')
      await expectError(await send({ headers: { authorization: 'Bearer wrong' } }), 401, 'NOT_LOGIN_USER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('events: create (on /event at once, or from its start), end (off /event), refusals', async () => {
    logSpy()
    const res = await call(OPS, 'POST', '/api/ops/events', {
      title: ' Semaine du polar ',
      description: 'Trois épisodes offerts.',
      endsAt: '2099-01-31',
      restriction: 'ADULT',
      reason: 'campagne',
    })
    expect(res.status).toBe(201)
    const event = (await read(res)).data
    expect(event).toMatchObject({
      kind: 'PROMOTION',
      title: 'Semaine du polar',
      endsAt: '2099-01-31T23:59:59.999Z',
      restriction: 'ADULT',
      state: 'RUNNING',
    })
    expect(await eventIds()).toContain(event.id)
    const later = (
      await read(
        await call(OPS, 'POST', '/api/ops/events', {
          kind: 'ATTENDANCE',
          title: 'Bientôt',
          startsAt: inDays(2),
          endsAt: '2099-01-01',
          reason: 'r',
        }),
      )
    ).data
    expect(later.state).toBe('NOT_STARTED')
    expect(await eventIds()).not.toContain(later.id)

    const ended = (await read(await call(OPS, 'POST', `/api/ops/events/${event.id}/end`, { reason: 'fin anticipée' }))).data
    expect(ended.state).toBe('ENDED')
    expect(await eventIds()).not.toContain(event.id)
    const endedLater = (await read(await call(OPS, 'POST', `/api/ops/events/${later.id}/end`, { reason: 'annulé' }))).data
    expect(endedLater.state).toBe('ENDED') // one not started yet ends too
    expect(auditLines().map((l) => [l.ops, l.eventId, l.reason])).toEqual([
      ['event.create', event.id, 'campagne'],
      ['event.create', later.id, 'r'],
      ['event.end', event.id, 'fin anticipée'],
      ['event.end', later.id, 'annulé'],
    ])

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', `/api/ops/events/${event.id}/end`, { reason: 'again' }), 403, 'NOT_EVENT_PERIOD')
    await expectError(await call(OPS, 'POST', '/api/ops/events/999999/end', { reason: 'r' }), 404, 'NOT_EXIST')
    const ok = { title: 't', endsAt: '2099-01-01', reason: 'r' }
    for (const bad of [
      { ...ok, reason: '' },
      { ...ok, title: ' ' },
      { ...ok, endsAt: undefined },
      { ...ok, endsAt: '2001-01-01' },
      { ...ok, endsAt: '2099-02-30' },
      { ...ok, startsAt: '2099-02-01' },
      { ...ok, kind: 'ROULETTE' },
      { ...ok, restriction: 'KIDS' },
    ]) {
      await expectError(await call(OPS, 'POST', '/api/ops/events', bad), 400, 'INVALID_PARAMETER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('banners: create (in the home carousel), end (out of it), refusals', async () => {
    logSpy()
    const res = await call(OPS, 'POST', '/api/ops/banners', {
      display: 'ONLY_TEXT',
      title: 'Nouvelle saison',
      subtitle: 'Dès lundi',
      link: '/detail/24',
      position: 0,
      endsAt: inDays(30),
      reason: 'lancement',
    })
    expect(res.status).toBe(201)
    const banner = (await read(res)).data
    expect(banner).toMatchObject({
      placement: 'HOME',
      display: 'ONLY_TEXT',
      title: 'Nouvelle saison',
      imageKey: null,
      state: 'SHOWN',
      isAdult: false,
    })
    expect(await bannerIds()).toContain(banner.id)
    const pictured = (
      await read(
        await call(OPS, 'POST', '/api/ops/banners', {
          display: 'ICON_TEXT',
          title: 'Roulette',
          link: '/roulette',
          imageKey: 'banners/2',
          imageWidth: 160,
          imageHeight: 160,
          background: '#112233',
          reason: 'r',
        }),
      )
    ).data
    expect(pictured).toMatchObject({ imageKey: 'banners/2', imageWidth: 160, endsAt: null, state: 'SHOWN' })

    const ended = (await read(await call(OPS, 'POST', `/api/ops/banners/${banner.id}/end`, { reason: 'fini' }))).data
    expect(ended.state).toBe('ENDED')
    expect(await bannerIds()).not.toContain(banner.id)
    expect(auditLines().map((l) => [l.ops, l.bannerId, l.reason])).toEqual([
      ['banner.create', banner.id, 'lancement'],
      ['banner.create', pictured.id, 'r'],
      ['banner.end', banner.id, 'fini'],
    ])
    await call(OPS, 'POST', `/api/ops/banners/${pictured.id}/end`, { reason: 'r' })

    const before = await snapshot()
    await expectError(await call(OPS, 'POST', `/api/ops/banners/${banner.id}/end`, { reason: 'again' }), 403, 'NOT_EVENT_PERIOD')
    await expectError(await call(OPS, 'POST', '/api/ops/banners/999999/end', { reason: 'r' }), 404, 'NOT_EXIST')
    const ok = { display: 'ONLY_TEXT', title: 't', link: '/event', reason: 'r' }
    for (const bad of [
      { ...ok, reason: ' ' },
      { ...ok, display: 'BIG' },
      { ...ok, display: 'ONLY_ICON' }, // a picture display without its picture
      { ...ok, imageKey: 'banners/9', imageWidth: 100, imageHeight: 100 }, // a text display with a picture
      { ...ok, display: 'ICON_TEXT', imageKey: 'banners/9' }, // no size
      { ...ok, display: 'ICON_TEXT', imageKey: '../x', imageWidth: 100, imageHeight: 100 },
      { ...ok, link: 'javascript:alert(1)' },
      { ...ok, link: '//evil.example' },
      { ...ok, title: 'a\nb' },
      { ...ok, background: 'red' },
      { ...ok, endsAt: '2001-01-01' },
      { ...ok, startsAt: '2099-02-01', endsAt: '2099-01-01' },
      { ...ok, placement: 'FOOTER' },
      { ...ok, position: -1 },
    ]) {
      await expectError(await call(OPS, 'POST', '/api/ops/banners', bad), 400, 'INVALID_PARAMETER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('1,000 generated bad bodies on each changing route: no 5xx, only catalogue codes, nothing changed', { timeout: 600_000 }, async () => {
    const event = (await read(await call(OPS, 'POST', '/api/ops/events', { title: 'Fuzz', endsAt: '2099-01-01', reason: 'r' }))).data.id
    const banner = (await read(await call(OPS, 'POST', '/api/ops/banners', { display: 'ONLY_TEXT', title: 'F', link: '/', reason: 'r' })))
      .data.id
    const before = await snapshot()
    const str = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 200, maxLength: 400 }), fc.anything())
    const fields = {
      kind: fc.oneof(fc.constantFrom('PROMOTION', 'ROULETTE'), str),
      title: str,
      description: str,
      startsAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        str,
      ),
      endsAt: fc.oneof(fc.constant('2099-01-01'), str),
      restriction: fc.oneof(fc.constantFrom('ADULT', 'NON_ADULT'), str),
      display: fc.oneof(fc.constantFrom('ONLY_TEXT', 'ICON_TEXT'), str),
      link: fc.oneof(fc.constantFrom('/event', 'https://example.com'), str),
      imageKey: fc.oneof(fc.constant('banners/1'), str),
      imageWidth: fc.oneof(fc.integer(), str),
      position: fc.oneof(fc.integer(), str),
      adult: fc.oneof(fc.boolean(), str),
    }
    await expectBadBodiesRefused(
      ['/api/ops/events', `/api/ops/events/${event}/end`, '/api/ops/banners', `/api/ops/banners/${banner}/end`],
      fields,
    )
    expect(await snapshot()).toEqual(before)
  })
})

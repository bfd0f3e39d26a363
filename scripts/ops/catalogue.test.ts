/**
 * `npm run ops -- episode schedule|unpublish`, `series publish|unpublish|schedule` (issue 16 point 2) and `early open`
 * (issue 37 point 1) through the command
 * line, against a tiny HTTP server standing in for the operator API: the request each sends, the refusals of a bad
 * command line with nothing sent, `--yes` for an address that is not local, and what each prints. The API itself runs
 * on real D1 in tests/worker/ops-catalogue.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const episode = {
  id: 41,
  seriesId: 3,
  no: 12,
  title: 'La fuite',
  publishedAt: '2099-12-03T09:00:00.000Z',
  announcedAt: null,
  state: 'SCHEDULED',
}
const series = { id: 3, title: 'Le phare', isPublished: true, schedule: ['MONDAY', 'THURSDAY'] }

describe('npm run ops -- episode schedule|unpublish, series publish|unpublish|schedule', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['episode', 'schedule', '--at', '2099-01-01', '--reason', 'r'], /--id is required/],
        [['episode', 'schedule', '--id', '41', '--reason', 'r'], /--at is required/],
        [['episode', 'schedule', '--id', '41', '--at', '2099-01-01'], /--reason is required/],
        [['episode', 'schedule', '--id', '41', '--at', '2099-02-30', '--reason', 'r'], /--at must be a date/],
        [['episode', 'schedule', '--id', '41', '--at', '2099-01-01T10:00', '--reason', 'r'], /--at must be a date/],
        [
          ['episode', 'schedule', '--id', '41', '--at', '2020-01-01', '--reason', 'r'],
          /not in the future: to publish now, use episode publish --id 41/,
        ],
        [['episode', 'unpublish', '--id', 'x', '--reason', 'r'], /--id must be a positive whole number/],
        [['episode', 'unpublish', '--id', '41', '--reason', 'r'.repeat(201)], /--reason must be 1 to 200 characters/],
        [['series', 'publish', '--id', '3'], /--reason is required/],
        [['series', 'unpublish', '--id', '0', '--reason', 'r'], /--id must be a positive whole number/],
        [['series', 'schedule', '--id', '3', '--reason', 'r'], /--days is required/],
        [['series', 'schedule', '--id', '3', '--days', 'MON,FUNDAY', '--reason', 'r'], /--days must be weekdays .* not "MON,FUNDAY"/],
        [['series', 'schedule', '--id', '3', '--days', 'TEN,MON', '--reason', 'r'], /--days must name each day once, and TEN alone/],
        [['series', 'schedule', '--id', '3', '--days', 'mon,monday', '--reason', 'r'], /--days must name each day once/],
        [['series', 'schedule', '--id', '3', '--days', 'MON', '--reason', 'r', 'extra'], /unexpected argument "extra"/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('sends each change with its reason and prints the plan and the result', async () => {
    api.reply = (path) =>
      path.startsWith('/api/ops/episodes/41/unpublish')
        ? success({ ...episode, publishedAt: '9999-12-31T00:00:00.000Z', state: 'UNPUBLISHED' })
        : path.startsWith('/api/ops/episodes')
          ? success(episode)
          : path.endsWith('/unpublish')
            ? success({ ...series, isPublished: false, changed: true })
            : path.endsWith('/publish')
              ? success({ ...series, changed: false })
              : success({ ...series, schedule: ['TEN'] })
    const runs = await Promise.all([
      api.ops(['episode', 'schedule', '--id', '41', '--at', '2099-12-03T10:00:00+01:00', '--reason', 'Thursday release']),
      api.ops(['episode', 'unpublish', '--id', '41', '--reason', 'wrong pages']),
      api.ops(['series', 'unpublish', '--id', '3', '--reason', 'rights']),
      api.ops(['series', 'publish', '--id', '3', '--reason', 'rights back']),
      api.ops(['series', 'schedule', '--id', '3', '--days', 'ten', '--reason', 'ten']),
      api.ops(['series', 'schedule', '--id', '3', '--days', 'thu, Mon', '--reason', 'rhythm']),
      api.ops(['series', 'schedule', '--id', '3', '--days', 'none', '--reason', 'ended']),
    ])
    for (const r of runs) expect(r.code, r.stderr).toBe(0)
    expect(runs[0]!.stdout).toContain('date episode 41 2099-12-03T09:00:00.000Z: off its series page until then, announced by the cron')
    expect(runs[0]!.stdout).toContain('scheduled: episode 41 (series 3, no. 12) comes out 2099-12-03T09:00:00.000Z: "La fuite"')
    expect(runs[1]!.stdout).toContain('unpublished: episode 41 (series 3, no. 12) is unpublished')
    expect(runs[2]!.stdout).toContain('unpublished: series 3 "Le phare" is withdrawn, schedule MONDAY, THURSDAY')
    expect(runs[3]!.stdout).toContain('unchanged: series 3 "Le phare" is published')
    expect(runs[4]!.stdout).toContain("set series 3's weekly schedule to TEN")
    expect(runs[4]!.stdout).toContain('scheduled: series 3 "Le phare" is published, schedule TEN')
    expect(runs[6]!.stdout).toContain('none (off the weekly lists)')
    const sent = api.seen.map((s) => `${s.method} ${s.path} ${JSON.stringify(s.body)}`).sort()
    expect(sent).toEqual(
      [
        `POST /api/ops/episodes/41/schedule ${JSON.stringify({ publishedAt: '2099-12-03T09:00:00.000Z', reason: 'Thursday release' })}`,
        `POST /api/ops/episodes/41/unpublish ${JSON.stringify({ reason: 'wrong pages' })}`,
        `POST /api/ops/series/3/unpublish ${JSON.stringify({ reason: 'rights' })}`,
        `POST /api/ops/series/3/publish ${JSON.stringify({ reason: 'rights back' })}`,
        `POST /api/ops/series/3/schedule ${JSON.stringify({ days: ['TEN'], reason: 'ten' })}`,
        `POST /api/ops/series/3/schedule ${JSON.stringify({ days: ['THURSDAY', 'MONDAY'], reason: 'rhythm' })}`,
        `POST /api/ops/series/3/schedule ${JSON.stringify({ days: [], reason: 'ended' })}`,
      ].sort(),
    )
    expect(api.seen.every((s) => s.authorization === `Bearer ${LOCAL_OPS_TOKEN}` && s.contentType === 'application/json')).toBe(true)
  })

  it('prints the plan and sends nothing to an address that is not local without --yes', async () => {
    const env = { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' }
    const refused = await Promise.all([
      api.ops(['episode', 'schedule', '--id', '41', '--at', '2099-01-01', '--reason', 'r'], env),
      api.ops(['episode', 'unpublish', '--id', '41', '--reason', 'r'], env),
      api.ops(['series', 'unpublish', '--id', '3', '--reason', 'r'], env),
      api.ops(['series', 'schedule', '--id', '3', '--days', 'MON', '--reason', 'r'], env),
    ])
    for (const r of refused) {
      expect(r.code).toBe(2)
      expect(r.stdout).toContain('plan (http://ops.invalid):')
      expect(r.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    }
    expect(api.seen).toEqual([])
  })

  it("prints the API's refusals as one line with their code, exit code 1", async () => {
    const error = (status: number, code: string, message: string) => json(status, { result: 'ERROR', code, message, requestId: 'r1' })
    api.reply = () =>
      error(
        400,
        'INVALID_PARAMETER',
        'episode 41 was announced at 2026-11-27T10:00:00.000Z: its readers were told it is out; unpublish it first',
      )
    const announced = await api.ops(['episode', 'schedule', '--id', '41', '--at', '2099-01-01', '--reason', 'r'])
    expect(announced.code).toBe(1)
    expect(announced.stderr.trim()).toBe(
      'ops: INVALID_PARAMETER (HTTP 400) from POST /api/ops/episodes/41/schedule: episode 41 was announced at 2026-11-27T10:00:00.000Z: its readers were told it is out; unpublish it first',
    )
    api.reply = () => error(404, 'NOT_EXIST', 'Ce contenu n’existe pas.')
    const down = await api.ops(['episode', 'unpublish', '--id', '41', '--reason', 'r'])
    expect(down.code).toBe(1)
    expect(down.stderr).toContain('(no published episode 41: unknown or down already, or the operator API is off')
    const unknown = await api.ops(['series', 'publish', '--id', '99', '--reason', 'r'])
    expect(unknown.stderr).toContain('(no series 99,')
  })

  it(
    'early open: refuses a bad command line unsent, sends the series and count with its reason, prints what opened',
    async () => {
      await expectRefusedUnsent(api, [
        [['early', 'open', '--reason', 'r'], /--series is required/],
        [['early', 'open', '--series', '3'], /--reason is required/],
        [['early', 'open', '--series', 'x', '--reason', 'r'], /--series must be a positive whole number/],
        [['early', 'open', '--series', '3', '--episodes', '0', '--reason', 'r'], /--episodes must be 1 to 20/],
        [['early', 'open', '--series', '3', '--episodes', '21', '--reason', 'r'], /--episodes must be 1 to 20/],
        [['early', 'open', '--series', '3', '--episodes', 'two', '--reason', 'r'], /--episodes must be a whole number/],
      ])
      const e = (id: number, no: number) => ({
        id,
        no,
        title: `Épisode ${no}`,
        publishedAt: `2099-12-0${no - 9}T09:00:00.000Z`,
        earlyAt: '2026-12-05T10:00:00.000Z',
        priceRent: 3,
        priceBuy: 5,
      })
      api.reply = () => success({ opened: [e(52, 12)], early: [e(51, 11), e(52, 12)] })
      const run = await api.ops(['early', 'open', '--series', '3', '--episodes', '2', '--reason', 'Friday promotion'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('open the next 2 scheduled episodes of series 3 to early readers')
      expect(run.stdout).toContain('opened early: 1 episode; their alarms are queued')
      expect(run.stdout).toContain(
        'open early now: 2\n  episode 51 (no. 11) "Épisode 11", comes out 2099-12-02T09:00:00.000Z, early rent 3 · buy 5',
      )
      api.reply = () => success({ opened: [], early: [] })
      const none = await api.ops(['early', 'open', '--series', '3', '--reason', 'again'])
      expect(none.stdout).toContain('unchanged: no scheduled episode of series 3 left to open early')
      expect(api.seen.map((s) => `${s.method} ${s.path} ${JSON.stringify(s.body)}`)).toEqual([
        `POST /api/ops/series/3/early ${JSON.stringify({ episodes: 2, reason: 'Friday promotion' })}`,
        `POST /api/ops/series/3/early ${JSON.stringify({ reason: 'again' })}`,
      ])
      const help = await api.ops(['help', 'early', 'open'])
      expect(help.stdout).toContain('usage: npm run ops -- early open --series N [--episodes N] --reason TEXT [--yes]')
      expect(help.stdout).toContain('wait-until-free never opens them')
      const far = await api.ops(['early', 'open', '--series', '3', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' })
      expect(far.code).toBe(2)
      expect(api.seen).toHaveLength(2)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('lists the commands in --help and explains each in help <command>', async () => {
    const names = ['episode schedule', 'episode unpublish', 'series publish', 'series unpublish', 'series schedule']
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops(['help', ...n.split(' ')]))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('within a minute')
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
    expect(each[1]!.stdout).toContain('keep their ownership')
  })
})

/**
 * `npm run ops -- event create|end` and `banner create|end` (issue 16 point 2: events and banners) through the command
 * line, against the tiny HTTP server standing in for the operator API (fake-api.ts): the requests sent, what each
 * prints, the refusals of a bad command line with nothing sent, `--yes` for an address that is not local, help. The API
 * itself runs on real D1 in tests/worker/ops-events.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, success, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

const event = {
  id: 8,
  kind: 'PROMOTION',
  title: 'Semaine du polar',
  description: 'Trois épisodes offerts.',
  startsAt: '2026-12-01T00:00:00.000Z',
  endsAt: '2026-12-07T23:59:59.999Z',
  restriction: 'ADULT',
  state: 'NOT_STARTED',
}
const banner = {
  id: 12,
  placement: 'HOME',
  display: 'ICON_TEXT',
  title: 'Nouvelle saison',
  subtitle: null,
  link: '/detail/24',
  imageKey: 'banners/12',
  imageWidth: 720,
  imageHeight: 300,
  background: null,
  startsAt: '2026-11-27T10:00:00.000Z',
  endsAt: null,
  position: 1,
  isAdult: false,
  createdAt: '2026-11-27T10:00:00.000Z',
  state: 'SHOWN',
}
const B = ['banner', 'create', '--title', 'T', '--link', '/event', '--reason', 'r']

describe('npm run ops -- event / banner', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['event', 'create', '--ends', '2099-01-01', '--reason', 'r'], /--title is required/],
        [['event', 'create', '--title', 'T', '--reason', 'r'], /--ends is required/],
        [['event', 'create', '--title', 'T', '--ends', '2099-01-01'], /--reason is required/],
        [['event', 'create', '--title', 'T', '--ends', '2099-02-30', '--reason', 'r'], /--ends must be a date/],
        [['event', 'create', '--title', 'T', '--ends', '2099-01-01', '--starts', '2099-02-01', '--reason', 'r'], /after --starts/],
        [
          ['event', 'create', '--title', 'T', '--ends', '2099-01-01', '--kind', 'roulette', '--reason', 'r'],
          /--kind must be one of PROMOTION, ATTENDANCE, SIGNUP \(a ROULETTE/,
        ],
        [
          ['event', 'create', '--title', 'T', '--ends', '2099-01-01', '--only', 'kids', '--reason', 'r'],
          /--only must be ADULT or NON_ADULT/,
        ],
        [['event', 'end', '--id', '8'], /--reason is required/],
        [['event', 'end', '--id', 'x', '--reason', 'r'], /--id must be a positive whole number/],
        [['banner', 'create', '--title', 'T', '--link', '/', '--reason', 'r'], /--display is required/],
        [[...B, '--display', 'big'], /--display must be one of ONLY_ICON, ONLY_TEXT, ICON_TEXT, TEXT_ICON/],
        [[...B, '--display', 'only_icon'], /--display ONLY_ICON shows a picture: give --image KEY --width W --height H/],
        [[...B, '--display', 'only_text', '--image', 'banners/1', '--width', '10', '--height', '10'], /ONLY_TEXT shows no picture/],
        [[...B, '--display', 'icon_text', '--image', 'banners/1'], /--width and --height \(16 to 4096\) go with --image/],
        [[...B, '--display', 'icon_text', '--image', '../x', '--width', '100', '--height', '100'], /--image must be an R2 prefix/],
        [
          [...B.slice(0, 4), '--link', 'javascript:alert(1)', '--reason', 'r', '--display', 'only_text'],
          /--link must be a path of this site/,
        ],
        [[...B, '--display', 'only_text', '--background', 'red'], /--background must be a colour #rrggbb/],
        [[...B, '--display', 'only_text', '--position=-1'], /--position must be a whole number/],
        [[...B, '--display', 'only_text', '--placement', 'footer'], /--placement must be one of HOME/],
        [['banner', 'end', '--id', '0', '--reason', 'r'], /--id must be a positive whole number/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('event create and end: the requests and their reports', async () => {
    api.reply = (path) => (path.endsWith('/end') ? success({ ...event, state: 'ENDED' }) : json(201, { result: 'SUCCESS', data: event }))
    const create = await api.ops([
      'event',
      'create',
      '--title',
      ' Semaine du polar ',
      '--description',
      'Trois épisodes offerts.',
      '--starts',
      '2026-12-01',
      '--ends',
      '2026-12-07',
      '--only',
      'adult',
      '--reason',
      'campagne',
    ])
    expect(create.code, create.stderr).toBe(0)
    expect(create.stdout).toContain('create a PROMOTION event on /event for adults only: "Semaine du polar"')
    expect(create.stdout).toContain('from 2026-12-01T00:00:00.000Z through 2026-12-07T23:59:59.999Z')
    expect(create.stdout).toContain(
      'created: event 8 (PROMOTION, adults only) NOT_STARTED, 2026-12-01T00:00:00.000Z → 2026-12-07T23:59:59.999Z',
    )
    const end = await api.ops(['event', 'end', '--id', '8', '--reason', 'annulé'])
    expect(end.code, end.stderr).toBe(0)
    expect(end.stdout).toContain('ended: event 8 (PROMOTION, adults only) ENDED')
    expect(api.seen).toEqual([
      {
        method: 'POST',
        path: '/api/ops/events',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: {
          kind: 'PROMOTION',
          title: 'Semaine du polar',
          description: 'Trois épisodes offerts.',
          startsAt: '2026-12-01T00:00:00.000Z',
          endsAt: '2026-12-07T23:59:59.999Z',
          restriction: 'ADULT',
          reason: 'campagne',
        },
      },
      {
        method: 'POST',
        path: '/api/ops/events/8/end',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { reason: 'annulé' },
      },
    ])
  })

  it('banner create and end: the requests and their reports', async () => {
    api.reply = (path) =>
      path.endsWith('/end')
        ? success({ ...banner, state: 'ENDED', endsAt: '2026-11-28T09:00:00.000Z' })
        : json(201, { result: 'SUCCESS', data: banner })
    const create = await api.ops([
      'banner',
      'create',
      '--display',
      'icon_text',
      '--title',
      'Nouvelle saison',
      '--link',
      '/detail/24',
      '--image',
      'banners/12',
      '--width',
      '720',
      '--height',
      '300',
      '--position',
      '1',
      '--reason',
      'lancement',
    ])
    expect(create.code, create.stderr).toBe(0)
    expect(create.stdout).toContain('create a HOME banner (ICON_TEXT, position 1): "Nouvelle saison" → /detail/24')
    expect(create.stdout).toContain('picture: banners/12/<width>.webp, 720 × 300 px')
    expect(create.stdout).toContain('created: banner 12 (HOME, ICON_TEXT, position 1) SHOWN')
    const end = await api.ops(['banner', 'end', '--id', '12', '--reason', 'fini'])
    expect(end.code, end.stderr).toBe(0)
    expect(end.stdout).toContain(
      'ended: banner 12 (HOME, ICON_TEXT, position 1) ENDED, 2026-11-27T10:00:00.000Z → 2026-11-28T09:00:00.000Z',
    )
    expect(api.seen.map((s) => [s.method, s.path, s.body])).toEqual([
      [
        'POST',
        '/api/ops/banners',
        {
          placement: 'HOME',
          display: 'ICON_TEXT',
          title: 'Nouvelle saison',
          link: '/detail/24',
          imageKey: 'banners/12',
          imageWidth: 720,
          imageHeight: 300,
          position: 1,
          adult: false,
          reason: 'lancement',
        },
      ],
      ['POST', '/api/ops/banners/12/end', { reason: 'fini' }],
    ])
  })

  it("sends no change to an address that is not local without --yes; prints the API's refusals in one line", async () => {
    const remote = { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' }
    const refused = await Promise.all([
      api.ops(['event', 'end', '--id', '8', '--reason', 'r'], remote),
      api.ops([...B, '--display', 'only_text'], remote),
    ])
    for (const r of refused) {
      expect(r.code).toBe(2)
      expect(r.stdout).toContain('plan (http://ops.invalid):')
      expect(r.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')
    }
    expect(api.seen).toEqual([])
    api.reply = () => json(403, { result: 'ERROR', code: 'NOT_EVENT_PERIOD', message: 'Hors période.', requestId: 'r1' })
    const over = await api.ops(['banner', 'end', '--id', '12', '--reason', 'r'])
    expect(over.code).toBe(1)
    expect(over.stderr.trim()).toBe('ops: NOT_EVENT_PERIOD (HTTP 403) from POST /api/ops/banners/12/end: Hors période.')
  })

  it('lists the commands in --help and explains each in help <command>, with the one-minute cache', async () => {
    const names = ['event create', 'event end', 'banner create', 'banner end']
    const [all, ...each] = await Promise.all([api.ops(['--help']), ...names.map((n) => api.ops([...n.split(' '), '--help']))])
    for (const [i, name] of names.entries()) {
      expect(all.stdout).toMatch(new RegExp(`\\n  ${name}\\s+\\S`))
      expect(each[i]!.code).toBe(0)
      expect(each[i]!.stdout).toContain(`usage: npm run ops -- ${name}`)
      expect(each[i]!.stdout).toContain('a visit more than a minute after the change shows it')
      expect(each[i]!.stdout).toContain('OPS_URL')
    }
  })
})

/**
 * `npm run ops -- alarm send` and `episode publish` (issue 13 point 4) through the command line, against a tiny HTTP
 * server standing in for the operator API: the request each sends (method, path, bearer token, JSON body), the
 * refusals of a bad command line before anything is sent, `--yes` for an address that is not local, and the one-line
 * report of the API's refusals. The API itself is covered by tests/worker/alarm-queue.test.ts and the browser test
 * tests/e2e/alarm-send.ts runs these commands against a real edition.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { expectRefusedUnsent, REFUSAL_TEST_TIMEOUT_MS, fakeApi, json, LOCAL_OPS_TOKEN, outward, type FakeApi } from './fake-api.ts'

let api: FakeApi
beforeAll(async () => {
  api = await fakeApi()
})
afterAll(() => api.close())
beforeEach(() => api.reset())

describe('npm run ops -- alarm send / episode publish', () => {
  it(
    'refuses a bad command line with one clear line, before sending anything',
    async () => {
      const cases: [string[], RegExp][] = [
        [['alarm', 'send', '--text', '', '--reason', 'r'], /--text is required/],
        [['alarm', 'send', '--text', 'x'.repeat(201), '--reason', 'r'], /--text must be 1 to 200 characters \(it has 201\)/],
        [['alarm', 'send', '--text', 'Bonjour', '--reason', 'r', '--link', 'https://evil.example/x'], /--link must be a path of this site/],
        [['alarm', 'send', '--text', 'Bonjour', '--reason', 'r', '--link', '//evil.example/x'], /--link must be a path of this site/],
        [['alarm', 'send', '--text', 'Bonjour', '--reason', 'r', '--series', 'one'], /--series must be a positive whole number/],
        [['alarm', 'send', '--text', 'Bonjour'], /--reason is required/],
        [['alarm', 'send', '--text', 'Bonjour', '--reason', 'r'.repeat(201)], /--reason must be 1 to 200 characters/],
        [['episode', 'publish', '--id', '12a', '--reason', 'r'], /--id must be a positive whole number/],
        [['episode', 'publish', '--id', '0', '--reason', 'r'], /--id must be a positive whole number/],
        [['episode', 'publish', '--id', '12'], /--reason is required/],
        [['alarm', 'send', '--text', 'Bonjour', '--reason', 'r', '--series'], /argument missing/],
      ]
      await expectRefusedUnsent(api, cases)
    },
    REFUSAL_TEST_TIMEOUT_MS,
  )

  it('sends the notice to a local run: its reach first, then POST /api/ops/alarms, the local bearer token, the JSON body; prints the plan and the id', async () => {
    api.reply = (path) =>
      json(200, {
        result: 'SUCCESS',
        data: path.includes('/reach') ? { readers: path.includes('seriesId=1') ? 3 : 12 } : { broadcastId: 7 },
      })
    const res = await api.ops([
      'alarm',
      'send',
      '--series',
      '1',
      '--text',
      ' Pause d’une semaine ',
      '--reason',
      'auteur malade',
      '--link',
      '/notice/3',
    ])
    expect(res.code, res.stderr).toBe(0)
    expect(api.seen).toMatchObject([
      { method: 'GET', path: '/api/ops/alarms/reach?seriesId=1', authorization: `Bearer ${LOCAL_OPS_TOKEN}` },
      {
        method: 'POST',
        path: '/api/ops/alarms',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { text: 'Pause d’une semaine', reason: 'auteur malade', link: '/notice/3', seriesId: 1 },
      },
    ])
    expect(res.stdout).toContain(`plan (http://127.0.0.1:${api.port}, a local run):`)
    expect(res.stdout).toContain('the readers of series 1 (a favourite or a reading in progress): 3 now')
    expect(res.stdout).toContain('broadcast 7 queued')

    // every reader: the plan says how many, and even a local run sends only with --yes
    api.seen = []
    const asked = await api.ops(['alarm', 'send', '--text', 'Maintenance ce soir', '--reason', 'ops'], { OPS_TOKEN: 'my-token' })
    expect(asked.code).toBe(2)
    expect(asked.stdout).toContain('every reader: 12 now')
    expect(asked.stderr.split('\n')[0]).toBe('ops: this reaches every reader (12): nothing sent; add --yes to do it')
    expect(api.seen).toMatchObject([{ method: 'GET', path: '/api/ops/alarms/reach' }])
    api.seen = []
    const everyone = await api.ops(['alarm', 'send', '--text', 'Maintenance ce soir', '--reason', 'ops', '--yes'], {
      OPS_TOKEN: 'my-token',
    })
    expect(everyone.code, everyone.stderr).toBe(0)
    expect(api.seen).toMatchObject([
      { method: 'GET', path: '/api/ops/alarms/reach' },
      { method: 'POST', authorization: 'Bearer my-token', body: { text: 'Maintenance ce soir', reason: 'ops' } },
    ])
  })

  it('publishes an episode: POST /api/ops/episodes/{id}/publish; says whether its alarms were queued; the reason goes to the audit trail', async () => {
    api.reply = (path) =>
      json(200, { result: 'SUCCESS', data: { episodeId: 42, publishedAt: '2026-05-01T10:00:00.000Z', announced: path.includes('42') } })
    const res = await api.ops(['episode', 'publish', '--id', '42', '--reason', 'planning'])
    expect(res.code, res.stderr).toBe(0)
    expect(api.seen).toEqual([
      {
        method: 'POST',
        path: '/api/ops/episodes/42/publish',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { reason: 'planning' },
      },
    ])
    expect(res.stdout).toContain('reason: planning (in the audit trail)')
    expect(res.stdout).toContain('published: episode 42, published at 2026-05-01T10:00:00.000Z; its alarms are queued')

    const again = await api.ops(['episode', 'publish', '--id', '43', '--reason', 'planning'])
    expect(again.stdout).toContain('was already announced; no alarm queued')
  })

  it('prints the plan and sends nothing to an address that is not local without --yes; sends it with --yes', async () => {
    const refused = await api.ops(['episode', 'publish', '--id', '5', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' })
    expect(refused.code).toBe(2)
    expect(refused.stdout).toContain('plan (http://ops.invalid):')
    expect(refused.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')

    const noToken = await api.ops(['alarm', 'send', '--text', 'x', '--reason', 'r', '--yes'], { OPS_URL: 'https://fr.example.com' })
    expect(noToken.code).toBe(2)
    expect(noToken.stderr).toMatch(/OPS_TOKEN is required for https:\/\/fr.example.com/)
    expect(api.seen).toEqual([])

    if (!outward) return // no address but loopback on this machine: the refusals above are the test
    api.reply = (path) => json(200, { result: 'SUCCESS', data: path.includes('/reach') ? { readers: 2 } : { broadcastId: 8 } })
    const url = `http://${outward}:${api.port}`
    const plan = await api.ops(['alarm', 'send', '--text', 'x', '--reason', 'r', '--series', '4'], { OPS_URL: url, OPS_TOKEN: 'deployed' })
    expect(plan.code).toBe(2)
    expect(api.seen).toMatchObject([{ method: 'GET', path: '/api/ops/alarms/reach?seriesId=4' }]) // a read only
    api.seen = []
    const sent = await api.ops(['alarm', 'send', '--text', 'x', '--reason', 'r', '--series', '4', '--yes'], {
      OPS_URL: url,
      OPS_TOKEN: 'deployed',
    })
    expect(sent.code, sent.stderr).toBe(0)
    expect(api.seen).toMatchObject([{ method: 'GET' }, { path: '/api/ops/alarms', authorization: 'Bearer deployed' }])
  })

  it("prints the API's refusal as one line with its code and message, exit code 1", async () => {
    const error = (status: number, code: string, message: string) => json(status, { result: 'ERROR', code, message, requestId: 'r1' })
    api.reply = () => error(404, 'NOT_EXIST', 'Ce contenu n’existe pas.')
    const unknown = await api.ops(['alarm', 'send', '--series', '999', '--text', 'x', '--reason', 'r'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim()).toBe(
      'ops: NOT_EXIST (HTTP 404) from GET /api/ops/alarms/reach?seriesId=999: Ce contenu n’existe pas. (no series 999, or the operator API is off: no OPS_TOKEN on the server)',
    )
    const episode = await api.ops(['episode', 'publish', '--id', '999', '--reason', 'r'])
    expect(episode.code).toBe(1)
    expect(episode.stderr.trim()).toMatch(/^ops: NOT_EXIST \(HTTP 404\) from POST \/api\/ops\/episodes\/999\/publish: .*\(no episode 999,/)

    api.reply = () => error(401, 'NOT_LOGIN_USER', 'Connectez-vous.')
    const denied = await api.ops(['episode', 'publish', '--id', '5', '--reason', 'r'], { OPS_TOKEN: 'wrong' })
    expect(denied.code).toBe(1)
    expect(denied.stderr.trim()).toBe(
      'ops: NOT_LOGIN_USER (HTTP 401) from POST /api/ops/episodes/5/publish: Connectez-vous. (check OPS_TOKEN)',
    )

    api.reply = () => ({ status: 502, body: 'Bad gateway' })
    const proxy = await api.ops(['episode', 'publish', '--id', '5', '--reason', 'r'])
    expect(proxy.code).toBe(1)
    expect(proxy.stderr.trim()).toBe(
      `ops: HTTP 502 from POST http://127.0.0.1:${api.port}/api/ops/episodes/5/publish is not an operator API answer`,
    )
    expect(api.seen).toHaveLength(4)
  })

  it('lists both commands in --help and explains them in help <command>', async () => {
    const [all, send, publish] = await Promise.all([
      api.ops(['--help']),
      api.ops(['help', 'alarm', 'send']),
      api.ops(['help', 'episode', 'publish']),
    ])
    expect(all.stdout).toMatch(/alarm send\s+send a notice alarm/)
    expect(all.stdout).toMatch(/episode publish\s+publish an episode now/)
    expect(send.stdout).toContain('usage: npm run ops -- alarm send --text TEXT --reason TEXT [--series N] [--link /path] [--yes]')
    expect(send.stdout).toContain('OPS_URL')
    expect(publish.stdout).toContain('why (1 to 200 characters): in the audit trail (npm run ops -- audit)')
  })
})

/**
 * `npm run ops -- alarm send` and `episode publish` (issue 13 point 4) through the command line, against a tiny HTTP
 * server standing in for the operator API: the request each sends (method, path, bearer token, JSON body), the
 * refusals of a bad command line before anything is sent, `--yes` for an address that is not local, and the one-line
 * report of the API's refusals. The API itself is covered by tests/worker/alarm-queue.test.ts and the browser test
 * tests/e2e/alarm-send.ts runs these commands against a real edition.
 */
import { execFile } from 'node:child_process'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LOCAL_OPS_TOKEN, quietEnv, root } from '../lib.ts'

type Seen = { method: string; path: string; authorization: string; contentType: string; body: unknown }
type Reply = { status: number; body: string }

let server: Server
let port: number
let seen: Seen[] = []
let reply: (path: string) => Reply = () => ({ status: 500, body: 'no reply set' })

const json = (status: number, body: unknown): Reply => ({ status, body: JSON.stringify(body) })
const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ''
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')))
    req.on('end', () => resolve(text))
  })

/** An address of this machine that is not loopback (the CLI treats it as a deployed edition), if it has one. */
const outward = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await read(req)
    seen.push({
      method: req.method!,
      path: req.url!,
      authorization: req.headers.authorization ?? '',
      contentType: req.headers['content-type'] ?? '',
      body: text ? JSON.parse(text) : null,
    })
    const r = reply(req.url!)
    res.writeHead(r.status, { 'content-type': r.body.startsWith('{') ? 'application/json' : 'text/plain' }).end(r.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  seen = []
  reply = () => ({ status: 500, body: 'no reply set' })
})

function ops(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const base: NodeJS.ProcessEnv = { ...process.env, ...quietEnv, EDITION: 'fr', OPS_URL: `http://127.0.0.1:${port}` }
  delete base.OPS_TOKEN
  delete base.PORT
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/ops.ts', ...args], { cwd: root, env: { ...base, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('npm run ops -- alarm send / episode publish', () => {
  it('refuses a bad command line with one clear line, before sending anything', async () => {
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
    const results = await Promise.all(cases.map(([args]) => ops(args)))
    results.forEach((res, i) => {
      expect(res.code, cases[i]![0].join(' ')).toBe(2)
      expect(res.stderr.split('\n')[0]).toMatch(cases[i]![1])
      expect(res.stdout).not.toMatch(/plan/)
    })
    expect(seen).toEqual([])
  })

  it('sends the notice to a local run: POST /api/ops/alarms, the local bearer token, the JSON body; prints the plan and the id', async () => {
    reply = () => json(200, { result: 'SUCCESS', data: { broadcastId: 7 } })
    const res = await ops([
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
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/api/ops/alarms',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: { text: 'Pause d’une semaine', reason: 'auteur malade', link: '/notice/3', seriesId: 1 },
      },
    ])
    expect(res.stdout).toContain(`plan (http://127.0.0.1:${port}, a local run):`)
    expect(res.stdout).toContain('the readers of series 1')
    expect(res.stdout).toContain('broadcast 7 queued')

    seen = []
    const everyone = await ops(['alarm', 'send', '--text', 'Maintenance ce soir', '--reason', 'ops'], { OPS_TOKEN: 'my-token' })
    expect(everyone.code, everyone.stderr).toBe(0)
    expect(everyone.stdout).toContain('every reader')
    expect(seen).toMatchObject([{ authorization: 'Bearer my-token', body: { text: 'Maintenance ce soir', reason: 'ops' } }])
  })

  it('publishes an episode: POST /api/ops/episodes/{id}/publish; says whether its alarms were queued; the reason stays in the output', async () => {
    reply = (path) =>
      json(200, { result: 'SUCCESS', data: { episodeId: 42, publishedAt: '2026-05-01T10:00:00.000Z', announced: path.includes('42') } })
    const res = await ops(['episode', 'publish', '--id', '42', '--reason', 'planning'])
    expect(res.code, res.stderr).toBe(0)
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/api/ops/episodes/42/publish',
        authorization: `Bearer ${LOCAL_OPS_TOKEN}`,
        contentType: 'application/json',
        body: {},
      },
    ])
    expect(res.stdout).toContain('reason: planning (printed here only')
    expect(res.stdout).toContain('published: episode 42, published at 2026-05-01T10:00:00.000Z; its alarms are queued')

    const again = await ops(['episode', 'publish', '--id', '43', '--reason', 'planning'])
    expect(again.stdout).toContain('was already announced; no alarm queued')
  })

  it('prints the plan and sends nothing to an address that is not local without --yes; sends it with --yes', async () => {
    const refused = await ops(['episode', 'publish', '--id', '5', '--reason', 'r'], { OPS_URL: 'http://ops.invalid', OPS_TOKEN: 't' })
    expect(refused.code).toBe(2)
    expect(refused.stdout).toContain('plan (http://ops.invalid):')
    expect(refused.stderr.split('\n')[0]).toBe('ops: http://ops.invalid is not a local run: nothing sent; add --yes to do it')

    const noToken = await ops(['alarm', 'send', '--text', 'x', '--reason', 'r', '--yes'], { OPS_URL: 'https://fr.example.com' })
    expect(noToken.code).toBe(2)
    expect(noToken.stderr).toMatch(/OPS_TOKEN is required for https:\/\/fr.example.com/)
    expect(seen).toEqual([])

    if (!outward) return // no address but loopback on this machine: the refusals above are the test
    reply = () => json(200, { result: 'SUCCESS', data: { broadcastId: 8 } })
    const url = `http://${outward}:${port}`
    const plan = await ops(['alarm', 'send', '--text', 'x', '--reason', 'r'], { OPS_URL: url, OPS_TOKEN: 'deployed' })
    expect(plan.code).toBe(2)
    expect(seen).toEqual([])
    const sent = await ops(['alarm', 'send', '--text', 'x', '--reason', 'r', '--yes'], { OPS_URL: url, OPS_TOKEN: 'deployed' })
    expect(sent.code, sent.stderr).toBe(0)
    expect(seen).toMatchObject([{ path: '/api/ops/alarms', authorization: 'Bearer deployed' }])
  })

  it("prints the API's refusal as one line with its code and message, exit code 1", async () => {
    const error = (status: number, code: string, message: string) => json(status, { result: 'ERROR', code, message, requestId: 'r1' })
    reply = () => error(404, 'NOT_EXIST', 'Ce contenu n’existe pas.')
    const unknown = await ops(['alarm', 'send', '--series', '999', '--text', 'x', '--reason', 'r'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim()).toBe(
      'ops: NOT_EXIST (HTTP 404) from POST /api/ops/alarms: Ce contenu n’existe pas. (no series 999, or the operator API is off: no OPS_TOKEN on the server)',
    )
    const episode = await ops(['episode', 'publish', '--id', '999', '--reason', 'r'])
    expect(episode.code).toBe(1)
    expect(episode.stderr.trim()).toMatch(/^ops: NOT_EXIST \(HTTP 404\) from POST \/api\/ops\/episodes\/999\/publish: .*\(no episode 999,/)

    reply = () => error(401, 'NOT_LOGIN_USER', 'Connectez-vous.')
    const denied = await ops(['episode', 'publish', '--id', '5', '--reason', 'r'], { OPS_TOKEN: 'wrong' })
    expect(denied.code).toBe(1)
    expect(denied.stderr.trim()).toBe(
      'ops: NOT_LOGIN_USER (HTTP 401) from POST /api/ops/episodes/5/publish: Connectez-vous. (check OPS_TOKEN)',
    )

    reply = () => ({ status: 502, body: 'Bad gateway' })
    const proxy = await ops(['episode', 'publish', '--id', '5', '--reason', 'r'])
    expect(proxy.code).toBe(1)
    expect(proxy.stderr.trim()).toBe(
      `ops: HTTP 502 from POST http://127.0.0.1:${port}/api/ops/episodes/5/publish is not an operator API answer`,
    )
    expect(seen).toHaveLength(4)
  })

  it('lists both commands in --help and explains them in help <command>', async () => {
    const [all, send, publish] = await Promise.all([ops(['--help']), ops(['help', 'alarm', 'send']), ops(['help', 'episode', 'publish'])])
    expect(all.stdout).toMatch(/alarm send\s+send a notice alarm/)
    expect(all.stdout).toMatch(/episode publish\s+publish an episode now/)
    expect(send.stdout).toContain('usage: npm run ops -- alarm send --text TEXT --reason TEXT [--series N] [--link /path] [--yes]')
    expect(send.stdout).toContain('OPS_URL')
    expect(publish.stdout).toContain('the API has no field for it yet: it is only printed in this output')
  })
})

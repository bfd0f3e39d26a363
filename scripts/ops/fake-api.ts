/**
 * A tiny HTTP server standing in for the operator API in the `npm run ops` tests (remote.test.ts, daily.test.ts):
 * it records each request (method, path, bearer token, JSON body or a file's size) and answers what the test sets; `ops` runs the
 * command line against it as a child process.
 */
import { execFile } from 'node:child_process'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { networkInterfaces } from 'node:os'
import { expect } from 'vitest'
import { LOCAL_OPS_TOKEN, quietEnv, root } from '../lib.ts'

type Seen = { method: string; path: string; authorization: string; contentType: string; body: unknown }
export type Reply = { status: number; body: string; headers?: Record<string, string> }

export const json = (status: number, body: unknown): Reply => ({ status, body: JSON.stringify(body) })
export const success = (data: unknown): Reply => json(200, { result: 'SUCCESS', data })
export { LOCAL_OPS_TOKEN }

const read = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
  })

/** An address of this machine that is not loopback (the CLI treats it as a deployed edition), if it has one. */
export const outward = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address

export type FakeApi = {
  port: number
  seen: Seen[]
  /** What the server answers to a path; reset by `reset`. */
  reply: (path: string) => Reply
  reset: () => void
  close: () => Promise<void>
  /** `npm run ops -- …args` against this server (OPS_URL http://127.0.0.1:port, no OPS_TOKEN unless given). */
  ops: (args: string[], env?: Record<string, string>) => Promise<{ code: number; stdout: string; stderr: string }>
}

export async function fakeApi(): Promise<FakeApi> {
  const api = {
    port: 0,
    seen: [] as Seen[],
    reply: (() => ({ status: 500, body: 'no reply set' })) as (path: string) => Reply,
  } as FakeApi
  const server: Server = createServer(async (req, res) => {
    const bytes = await read(req)
    const contentType = req.headers['content-type'] ?? ''
    api.seen.push({
      method: req.method!,
      path: req.url!,
      authorization: req.headers.authorization ?? '',
      contentType,
      // a text (an Analytics Engine query) as it is; a file (an import's rendition): its size and whether it is WebP
      body: !bytes.length
        ? null
        : contentType.startsWith('application/json')
          ? JSON.parse(bytes.toString('utf8'))
          : contentType.startsWith('text/')
            ? bytes.toString('utf8')
            : { bytes: bytes.length, webp: bytes.subarray(8, 12).toString('latin1') === 'WEBP' },
    })
    const r = api.reply(req.url!)
    res.writeHead(r.status, { 'content-type': r.body.startsWith('{') ? 'application/json' : 'text/plain', ...r.headers }).end(r.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve))
  api.port = (server.address() as AddressInfo).port
  api.reset = () => {
    api.seen = []
    api.reply = () => ({ status: 500, body: 'no reply set' })
  }
  api.close = () => new Promise<void>((resolve) => server.close(() => resolve()))
  api.ops = (args, env = {}) => {
    const base: NodeJS.ProcessEnv = { ...process.env, ...quietEnv, EDITION: 'fr', OPS_URL: `http://127.0.0.1:${api.port}` }
    delete base.OPS_TOKEN
    delete base.PORT
    return new Promise((resolve) => {
      execFile(process.execPath, ['scripts/ops.ts', ...args], { cwd: root, env: { ...base, ...env } }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      )
    })
  }
  return api
}

/**
 * Runs each bad command line against `api` and expects it refused before anything is sent: exit code 2, the first
 * line of stderr matching its pattern, no plan printed, no request seen.
 */
const REFUSAL_CONCURRENCY = 4

/** What a test of `expectRefusedUnsent` may take on a busy 2-core machine (a process per case, 20× the quiet figure). */
export const REFUSAL_TEST_TIMEOUT_MS = 120_000

export async function expectRefusedUnsent(api: FakeApi, cases: [string[], RegExp][]): Promise<void> {
  // a process per case, REFUSAL_CONCURRENCY at a time: ~0.25 s of CPU each, so a 30-case test needs ~8 s of a core
  const results: Awaited<ReturnType<FakeApi['ops']>>[] = []
  for (let i = 0; i < cases.length; i += REFUSAL_CONCURRENCY)
    results.push(...(await Promise.all(cases.slice(i, i + REFUSAL_CONCURRENCY).map(([args]) => api.ops(args)))))
  results.forEach((res, i) => {
    expect(res.code, cases[i]![0].join(' ')).toBe(2)
    expect(res.stderr.split('\n')[0], cases[i]![0].join(' ')).toMatch(cases[i]![1])
    expect(res.stdout).not.toMatch(/plan/)
  })
  expect(api.seen).toEqual([])
}

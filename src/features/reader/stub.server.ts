/**
 * The way to a reader's object: `withReader(id, (reader) => reader.method(…))`. Each call made while the edge app
 * answers a request is counted in its context (Hono's context storage) and reported beside the D1 queries
 * (`X-Reader-Calls`, functions/app.ts; docs/SCALE.md); a queue, cron or object call counts nowhere.
 */
import { env } from 'cloudflare:workers'
import { tryGetContext } from 'hono/context-storage'
import type { Reader } from '../../objects/reader/reader.server.ts'

export function withReader<T>(readerId: number, call: (reader: DurableObjectStub<Reader>) => Promise<T>): Promise<T> {
  const calls = tryGetContext<{ Variables: { objectCalls?: { count: number } } }>()?.var.objectCalls
  if (calls) calls.count++
  return call(env.READER.getByName(String(readerId)))
}

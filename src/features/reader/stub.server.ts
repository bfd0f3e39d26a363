/**
 * The way to a reader's object: `withReader(id, (reader) => reader.method(…))`. Each call is counted in the request's
 * context and reported beside the D1 queries (`X-Reader-Calls`, functions/app.ts; docs/SCALE.md).
 */
import { env } from 'cloudflare:workers'
import { requestContext } from '../../lib/server/context.ts'
import type { Reader } from './reader.server.ts'

export function withReader<T>(readerId: number, call: (reader: DurableObjectStub<Reader>) => Promise<T>): Promise<T> {
  requestContext().objectCalls.count++
  return call(env.READER.getByName(String(readerId)))
}

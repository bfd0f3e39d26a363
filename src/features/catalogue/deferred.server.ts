/** Work done after a page or API answer (counters, aggregates): nobody waits for it. */
import { env, waitUntil } from 'cloudflare:workers'
import { createDb, type Db } from '../../lib/server/db.ts'

/**
 * Runs `work` after the response is sent (workerd's waitUntil), on its own D1 helper: deferred writes are
 * not part of the page's queries (X-D1-Queries). Outside a request it just runs. Failures are logged.
 */
export function afterResponse(work: (db: Db) => Promise<unknown>): void {
  const p = work(createDb(env.DB)).catch((e) => console.error('deferred work failed', e))
  try {
    waitUntil(p)
  } catch {
    void p
  }
}

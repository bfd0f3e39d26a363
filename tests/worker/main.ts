/**
 * The worker tests' `main` (vitest.config.ts): the Durable Object classes of functions/worker.ts and the consumer of
 * the reader events' queue, without Astro's virtual modules. The tests build the app themselves (tests/worker/app.ts);
 * this entry's fetch answers nothing.
 */
import { createDb } from '../../src/lib/server/db.ts'
import { consumeReaderEvents } from '../../src/objects/reader/events.server.ts'

export { Reader } from '../../src/objects/reader/reader.server.ts'
export { Hasher } from '../../src/features/auth/hasher.server.ts'
export { Tally } from '../../src/features/catalogue/tally.server.ts'

export default {
  fetch: () => new Response(null, { status: 404 }),
  queue: async (batch, env) => {
    await consumeReaderEvents(batch, createDb(env.DB))
  },
} satisfies ExportedHandler<Cloudflare.Env>

/**
 * The worker entry (wrangler `main`): the Hono edge app is the outer router of every request, static
 * assets included (`run_worker_first`), so redirects and security headers apply everywhere; pages and
 * assets are then handed to Astro's Cloudflare handler. While pre-rendering at build time, requests go
 * straight to Astro.
 */
import { handle } from '@astrojs/cloudflare/handler'
import { isPrerender } from 'virtual:astro-cloudflare:config'
import { env } from 'cloudflare:workers'
import { buildId, edition as rawEdition, messages } from 'virtual:edition'
import { parseEdition } from '../src/lib/edition/schema.ts'
import { createApp } from './app.ts'
import { pageContext } from './lib/page-context.ts'
import { withOwnHashes } from '../src/lib/server/csp.ts'
import { createDb } from '../src/lib/server/db.ts'
import { expireLots } from '../src/features/wallet/wallet.server.ts'
import { settleRefunds } from '../src/features/payment/payment.server.ts'
import { rekeyNicknames } from '../src/features/account/profile.server.ts'
import { refreshRanking } from '../src/features/catalogue/ranking.server.ts'
import { purgeExpired } from '../src/features/retention/retention.server.ts'
import { sweepAlarms } from '../src/features/alarm/alarm.server.ts'
import { abortAbandonedImports } from '../src/features/catalogue/series-import.server.ts'
import { abortAbandonedUploads, deleteRetiredMedia } from '../src/features/catalogue/episode-upload.server.ts'
import { consumeAlarms } from '../src/features/alarm/queue.server.ts'
import { receiveQnaReply } from '../src/features/qna/qna-mail.server.ts'
import { moveWaitingReaders } from '../src/objects/reader/move.server.ts'
import { consumeReaderEvents } from '../src/objects/reader/events.server.ts'
import { runSweeps } from '../src/features/operator/alerts.server.ts'
import { sweepExports } from '../src/features/export/export.server.ts'

/** Each reader's Durable Object (wrangler.jsonc `durable_objects`). */
export { Reader } from '../src/objects/reader/reader.server.ts'
/** Each series' counts (issue 38, counting outside D1). */
export { Tally } from '../src/features/catalogue/tally.server.ts'
/** Password hashing in objects of its own (issue 34 point 5). */
export { Hasher } from '../src/features/auth/hasher.server.ts'

/** Validated again at start: a worker never serves with a bad edition. */
const edition = parseEdition(rawEdition.id, rawEdition)

const app = createApp({
  edition,
  messages,
  buildId,
  pages: [
    // a copy either way: asset responses have immutable headers, and the edge adds its own
    async (c) => withOwnHashes(await handle(c.req.raw, env, pageContext(c))),
  ],
})

export default {
  fetch(request, workerEnv, ctx) {
    return isPrerender ? handle(request, workerEnv, ctx) : app.fetch(request, workerEnv, ctx)
  },
  /**
   * Cron trigger (wrangler `triggers.crons`, every 10 minutes): the wallet's expiry sweep writes EXPIRE rows
   * (issue 4 §1), the ranking is recounted from the last 30 days' reads and purchases (issue 5), expired rows are
   * deleted, the fan-outs of newly published episodes are queued and the alarms of ready tickets, ending rentals,
   * expiring coins and new gifts are written (issue 13), series imports abandoned for a day are aborted, readers whose progress is still in D1 are moved into their objects, refunds cut off before the provider answered are settled, nicknames keyed by an older rule re-keyed. A sweep that fails alerts the operator; the others go on (`runSweeps`). A local run triggers it itself (scripts/start.ts).
   */
  scheduled(_controller, workerEnv, ctx) {
    const db = createDb(workerEnv.DB)
    ctx.waitUntil(
      runSweeps(db, {
        expireLots: () => expireLots(db),
        settleRefunds: () => settleRefunds(db),
        rekeyNicknames: () => rekeyNicknames(db),
        refreshRanking: () => refreshRanking(db),
        purgeExpired: () => purgeExpired(db),
        sweepAlarms: () => sweepAlarms(db, workerEnv.ALARMS),
        abortAbandonedImports: () => abortAbandonedImports(db, workerEnv.MEDIA, new Date()),
        abortAbandonedUploads: () => abortAbandonedUploads(db, workerEnv.MEDIA, new Date()),
        deleteRetiredMedia: () => deleteRetiredMedia(db, workerEnv.MEDIA, new Date()),
        moveWaitingReaders: () => moveWaitingReaders(db, workerEnv.READER),
        sweepExports: () => sweepExports(db, workerEnv.MEDIA, workerEnv.ALARMS, new Date()),
      }),
    )
  },
  /**
   * The queues' consumer (wrangler.jsonc `queues`): readers' objects' events for D1 (issue 38), else the alarm queue's
   * fan-outs and pushes (issue 13 point 3).
   */
  async queue(batch, workerEnv) {
    const db = createDb(workerEnv.DB)
    const tallyCalls = batch.queue.startsWith('webtoon-reader-events-')
      ? await consumeReaderEvents(batch, db)
      : (await consumeAlarms(batch, workerEnv, db), 0)
    // a batch's D1 work, as X-D1-Usage reports a request's (`npm run capacity` adds it to the request that caused it)
    console.log(JSON.stringify({ event: 'queue.usage', queue: batch.queue, messages: batch.messages.length, tallyCalls, ...db.usage }))
  },
  /**
   * Email Routing (issue 22): a reader's reply to a support answer lands on the question (qna-mail.server.ts);
   * any other mail to the routed address is refused at the SMTP step.
   */
  async email(message, workerEnv) {
    await receiveQnaReply(createDb(workerEnv.DB), edition, message)
  },
} satisfies ExportedHandler<Cloudflare.Env>

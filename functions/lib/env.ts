import type { Edition } from '../../src/lib/edition/schema.ts'
import type { Translate } from '../../src/lib/i18n/i18n.ts'
import type { Db } from '../../src/lib/server/db.ts'
import type { AudienceClass } from '../../src/lib/cache.ts'

/** Hono typing shared by every sub-app. */
export type AppEnv = {
  Variables: {
    requestId: string
    edition: Edition
    t: Translate
    db: Db
    /** Calls made to readers' Durable Objects (src/features/reader/stub.server.ts), reported as `X-Reader-Calls`. */
    objectCalls: { count: number }
    /** The audience class pages render for (issue 11), set by the edge's audience step for page requests. */
    audience?: AudienceClass
  }
}

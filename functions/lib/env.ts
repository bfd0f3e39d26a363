import type { Edition } from '../../src/lib/edition/schema.ts'
import type { Translate } from '../../src/lib/i18n/i18n.ts'
import type { Db } from '../../src/lib/server/db.ts'

/** Hono typing shared by every sub-app. */
export type AppEnv = {
  Variables: {
    requestId: string
    edition: Edition
    t: Translate
    db: Db
  }
}

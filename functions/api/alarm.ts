/**
 * `/api/v1/alarm` (spec §7 alarm, alarm count; issue 13 point 1; login required): `GET /?cursor=` the reader's
 * alarms, newest first (`{items, nextCursor}`), `GET /count` their unread count (`{count}`), `POST /read` `{id}`
 * marks one read (NOT_EXIST when it is not theirs), `POST /read-all` marks them all (`{count}` newly read).
 * Plain forms of /alarm: `POST /web/open` (field `id`) marks one read and goes to its page, `POST /web/read-all`
 * back to /alarm?read=all.
 */
import { Hono, type Context } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { AlarmListQuery, AlarmReadRequest, alarmView } from '../../src/features/alarm/alarm.ts'
import { listAlarms, markAllRead, markRead, unreadCount } from '../../src/features/alarm/alarm.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { formRoute, fromForm, toLogin } from './forms.ts'

async function readOne(c: Context<AppEnv>, id: number) {
  const link = await markRead(currentUserId(c), id)
  if (link === false) throw new AppError('NOT_EXIST')
  return { id, link }
}

export const alarm = new Hono<AppEnv>()
  .post(
    '/web/open',
    ...formRoute({
      schema: fromForm(AlarmReadRequest),
      guest: toLogin('/alarm'),
      run: (data, c) => readOne(c, data.id),
      done: (_data, result) => result.link ?? '/alarm',
      failed: (code) => `/alarm?error=${code}`,
    }),
  )
  .post(
    '/web/read-all',
    ...formRoute({
      schema: fromForm(AlarmReadRequest.omit({ id: true })),
      guest: toLogin('/alarm'),
      run: (_data, c) => markAllRead(currentUserId(c)),
      done: () => '/alarm?read=all',
      failed: (code) => `/alarm?error=${code}`,
    }),
  )
  // members only below (the forms above send a guest to log in instead)
  .use(requireUser)
  .get('/', validate('query', AlarmListQuery), async (c) => {
    const page = await listAlarms(currentUserId(c), c.req.valid('query').cursor ?? null)
    return ok(c, { items: page.items.map((a) => alarmView(a, c.var.t, c.var.edition)), nextCursor: page.nextCursor })
  })
  .get('/count', async (c) => ok(c, { count: await unreadCount(currentUserId(c)) }))
  .post('/read', validate('json', AlarmReadRequest), async (c) => ok(c, await readOne(c, c.req.valid('json').id)))
  .post('/read-all', async (c) => ok(c, { count: await markAllRead(currentUserId(c)) }))

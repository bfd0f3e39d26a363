import { Hono, type Context } from 'hono'
import type { AppEnv } from '../lib/env.ts'
import { auth } from './auth.ts'
import { oauth } from './oauth.ts'
import { appPush, user } from './user.ts'
import { age } from './age.ts'
import { contents } from './contents.ts'
import { coin } from './coin.ts'
import { purchase } from './purchase.ts'
import { search } from './search.ts'
import { payment } from './payment.ts'
import { viewer } from './viewer.ts'
import { viewcount } from './viewcount.ts'
import { coupon } from './coupon.ts'
import { library } from './library.ts'
import { gift } from './gift.ts'
import { roulette } from './roulette.ts'
import { shelves } from './shelves.ts'
import { comment } from './comment.ts'
import { qna } from './qna.ts'
import { logger } from './logger.ts'
import { alarm } from './alarm.ts'
import { push } from './push.ts'
import { openApiDocument } from '../lib/openapi.ts'
import { referencePage } from '../lib/reference.ts'

/** The backend API (`/api/v1`); feature sub-apps are mounted here as they arrive. */
export const v1 = new Hono<AppEnv>()
// Routers mounted at the same path: a router's members-only group (`.use(requireUser)`) also guards every route under
// its path registered after it, so a router with open routes comes first: age before user (GET /user/adult is
// open), library before shelves (library's forms send a guest to log in; shelves is members only, guarded twice).
// push is members only like appPush, whose group covers /app/push too.
v1.route('/auth/oauth', oauth)
v1.route('/auth', auth)
v1.route('/user', age)
v1.route('/user', user)
v1.route('/app', appPush)
v1.route('/app/push', push)
v1.route('/contents', contents)
v1.route('/search', search)
v1.route('/coin', coin)
v1.route('/purchase', purchase)
v1.route('/viewer', viewer)
v1.route('/viewcount', viewcount)
v1.route('/payment', payment)
v1.route('/library', library)
v1.route('/library', shelves)
v1.route('/coupon', coupon)
v1.route('/gift', gift)
v1.route('/roulette', roulette)
v1.route('/comment', comment)
v1.route('/qna', qna)
v1.route('/logger', logger)
v1.route('/alarm', alarm)

/** `GET /api/v1/openapi.json`: the API reference generated from these routes (functions/lib/openapi.ts), once per isolate. */
let reference: ReturnType<typeof openApiDocument> | undefined
const document = (c: Context<AppEnv>) => (reference ??= openApiDocument(v1, c.var.edition.siteUrl))
v1.get('/openapi.json', async (c) => {
  c.header('Cache-Control', 'public, max-age=3600') // the same for everyone until the next deploy
  return c.json(await document(c))
})
/** `GET /api/v1/reference`: the same document as a page to read (functions/lib/reference.ts). */
v1.get('/reference', async (c) => {
  const page = await referencePage(await document(c), c.var.t, c.var.edition)
  c.header('Cache-Control', 'public, max-age=3600')
  c.header('Content-Security-Policy', page.policy)
  return c.html(page.html)
})

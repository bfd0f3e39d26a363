/**
 * Age check API under `/api/v1/user` (spec §4/§5/§7), mounted beside the user routes:
 * - `GET  /user/adult`                 what the age popup must ask this reader (guests too)
 * - `PUT  /user/adult`                 adult authentication {birthedAt?, refreshToken?} → renewed tokens
 * - `PUT  /user/adult/toggle/{value}`  show adult series on/off (members; on needs an adult)
 * - `PUT  /user/BL/toggle/{value}`     BL on/off (members, {product}-me edition only)
 * Toggles and authentication answer `{user, coin}` as GET /user/me (spec §7: "user reloaded after success").
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { getCookie, setCookie } from 'hono/cookie'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { isKoreanIp, isAdult, popupMode, todayIn, toggleAllowed, NOT_LOGGED_IN_ADULT_COOKIE } from '../../src/features/age/age.ts'
import { ToggleValue, VerifyAdultBody } from '../../src/features/age/age.schema.ts'
import { readAdultState, setBlToggle, setShowAdult, verifyAdult } from '../../src/features/age/age.server.ts'
import { refreshTokens, sessionKeys, userMe } from '../../src/features/auth/auth.server.ts'
import { openSession, sealSession, sessionCookieOptions } from '../../src/features/session/cookie.ts'
import { SESSION_COOKIE } from '../../src/features/session/routes.ts'
import type { Token } from '../../src/lib/tokens.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { currentUserId, requireUser } from '../middleware/session.ts'
import { authContext } from './auth.ts'

const ToggleParam = z.object({ value: ToggleValue })

/** The reader as GET /user/me answers it (spec §7 "user reloaded after success"). */
export async function me(c: Context<AppEnv>) {
  const data = await userMe(currentUserId(c))
  if (!data) throw new AppError('NOT_LOGIN_USER')
  return data
}

/**
 * Spec §4 "new tokens are stored … and the session is re-read": after the adult authentication the pair is
 * rotated. The web's pair lives in the encrypted HttpOnly session cookie, so the renewed pair goes straight
 * back into it (no token ever reaches page scripts); an app (Bearer) that sent its refresh token gets the
 * renewed pair in the answer (spec §7 authResponse). A pair another tab rotated a moment ago stays as it is.
 */
export async function renewTokens(
  c: Context<AppEnv>,
  appRefreshToken: string | undefined,
): Promise<{ accessToken: Token; refreshToken: Token } | null> {
  const state = c.var.session
  try {
    if (state.userId !== null && state.source === 'cookie') {
      const web = await openSession(await sessionKeys(), getCookie(c, SESSION_COOKIE))
      if (!web) return null
      const fresh = await refreshTokens(
        c.var.db,
        { accessToken: web.accessToken.value, refreshToken: web.refreshToken.value },
        authContext(c),
      )
      setCookie(
        c,
        SESSION_COOKIE,
        await sealSession(await sessionKeys(), fresh),
        sessionCookieOptions(c.req.url, fresh.refreshToken.expiredAt),
      )
      return null
    }
    const bearer = /^Bearer +(\S+)$/i.exec(c.req.header('authorization') ?? '')?.[1]
    if (!bearer || !appRefreshToken) return null
    const fresh = await refreshTokens(c.var.db, { accessToken: bearer, refreshToken: appRefreshToken }, authContext(c))
    return { accessToken: fresh.accessToken, refreshToken: fresh.refreshToken }
  } catch (e) {
    // the authentication itself is done; a pair that cannot rotate now rotates at the next refresh
    if (e instanceof AppError && e.status < 500) return null
    throw e
  }
}

/** Spec §4 adult authentication of the signed-in reader (kr: with the request's Korean-IP flag). */
export async function verifyAdultOf(c: Context<AppEnv>, birthedAt: string | undefined) {
  const koreanIp = c.var.edition.krAdultAuth ? isKoreanIp(c.req.header('cf-ipcountry')) : undefined
  await verifyAdult(c.var.db, currentUserId(c), c.var.edition, birthedAt, { koreanIp })
}

/** `PUT /adult` and `PUT /adult/toggle/{value}`, members only (`GET /adult`, registered before them, is open). */
const adultOfMember = new Hono<AppEnv>()
  .use(requireUser)
  .put('/', validate('json', VerifyAdultBody), async (c) => {
    const body = c.req.valid('json')
    await verifyAdultOf(c, body.birthedAt)
    const tokens = await renewTokens(c, body.refreshToken)
    return ok(c, { ...(await me(c)), ...(tokens ?? {}) })
  })
  .put('/toggle/:value', validate('param', ToggleParam), async (c) => {
    await setShowAdult(c.var.db, currentUserId(c), c.var.edition, c.req.valid('param').value)
    return ok(c, await me(c))
  })

export const age = new Hono<AppEnv>()
  /** What the popup shows (guest: jp yes/no or "log in first"; member: the edition's check, or kr phone). */
  .get('/adult', async (c) => {
    const edition = c.var.edition
    const userId = c.var.session.userId
    const state = userId === null ? null : await readAdultState(c.var.db, userId)
    const adult = isAdult(edition, state, getCookie(c, NOT_LOGGED_IN_ADULT_COOKIE))
    return ok(c, {
      signedIn: state !== null,
      isAdult: adult,
      showAdult: state ? state.showAdult : adult,
      mode: popupMode(edition, state),
      checkType: edition.adultCheckType,
      adultAge: edition.adultAge,
      today: todayIn(edition.timeZone),
      birthedAt: state?.birthedAt ?? null,
    })
  })
  .put('/BL/toggle/:value', validate('param', ToggleParam), async (c) => {
    const allowed = toggleAllowed('bl', c.var.edition, c.var.session.userId !== null)
    if (allowed !== 'ok') throw new AppError(allowed)
    await setBlToggle(c.var.db, currentUserId(c), c.req.valid('param').value)
    return ok(c, await me(c))
  })
  .route('/adult', adultOfMember)

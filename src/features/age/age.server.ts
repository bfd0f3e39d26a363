/**
 * Age check on D1 (spec §4 adult authentication, §5 toggles, §6 events): the rules are in age.ts, this file
 * only reads and writes the reader's row. The columns exist since 0001 (birthed_at, is_adult,
 * adult_verified_at, is_adult_kr, is_kr_ip_user, show_adult, is_bl_toggle, events.adult_restriction).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { flag, type Cols } from '../../lib/server/rows.ts'
import type { EventsRow } from '../../lib/server/db-types.ts'
import { adultAuthentication, audienceClass, isAdult, type AgeEdition, type AudienceFlags } from './age.ts'
import type { AudienceClass } from '../../lib/cache.ts'
import { eventAccess } from '../event/event.ts'
import { withReader } from '../reader/stub.server.ts'

/**
 * The row of ADULT_STATE_SQL. `session_version`: features that read this row in their own batch check the session
 * there (ASVS 7.4.3).
 */
export type AdultRow = Cols<
  'users',
  'is_adult' | 'is_kr_ip_user' | 'is_adult_kr' | 'birthed_at' | 'adult_verified_at' | 'show_adult' | 'is_bl_toggle' | 'session_version'
>

/** An `AdultRow`'s columns of `users`, unqualified (the account card's join adds no table with these names). */
export const ADULT_COLUMNS = `is_adult AS isAdult, is_kr_ip_user AS isKrIpUser, is_adult_kr AS isAdultKr, birthed_at AS birthedAt,
            adult_verified_at AS adultVerifiedAt, show_adult AS showAdult, is_bl_toggle AS isBlToggle, session_version AS sessionVersion`

/** The columns of the reader's adult flags and switches, for a query of their own or inside another feature's batch. */
export const ADULT_STATE_SQL = `SELECT ${ADULT_COLUMNS} FROM users WHERE id = ? AND deleted_at IS NULL`

/**
 * After a write in D1 to what the reader's account card holds (account-card.server.ts: the adult flags, switches,
 * session version, `deleted_at`, profile, e-mail consent, push settings, first identity): their object drops the card,
 * so the next session check reads the change. The write stands when the object cannot be reached: it is logged, and
 * the card is read again within an access token's life.
 */
export async function accountChanged(userId: number): Promise<void> {
  await withReader(userId, (r) => r.forgetAccount()).catch((e: unknown) =>
    console.error(JSON.stringify({ event: 'reader.account.failed', userId, error: String(e) })),
  )
}

export function toAdultState(row: AdultRow | undefined): AudienceFlags {
  if (!row) return null
  return {
    isAdult: flag(row.isAdult),
    isKrIpUser: flag(row.isKrIpUser),
    isAdultKr: flag(row.isAdultKr),
    birthedAt: row.birthedAt,
    adultVerifiedAt: row.adultVerifiedAt,
    showAdult: flag(row.showAdult),
    isBlToggle: flag(row.isBlToggle),
  }
}

/**
 * Whether the reader of an ADULT_STATE_SQL row is an adult now (spec §4/§5); null for a missing or withdrawn
 * account. For features that read the row inside their own batch (purchase, gift, wait-until-free).
 */
export function adultNow(
  row: AdultRow | undefined,
  rules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>,
  now: Date,
): boolean | null {
  const state = toAdultState(row)
  return state === null ? null : isAdult(rules, state, undefined, now)
}

/** The reader's adult flags and switches (1 query); null for a missing or withdrawn account. */
export async function readAdultState(db: Db, userId: number) {
  return toAdultState((await db.first<AdultRow>(ADULT_STATE_SQL, userId)) ?? undefined)
}

export async function readerAdult(db: Db, userId: number, edition: AgeEdition, now: Date = new Date()): Promise<boolean> {
  const state = await readAdultState(db, userId)
  return state !== null && isAdult(edition, state, undefined, now)
}

/**
 * Spec §4 adult authentication: the declared birth date (or the yes/no epoch date) is checked by
 * `adultAuthentication`; on success the account becomes adult for one year from now and shows adult
 * series. On kr the Korean-IP flag is refreshed from the request's country. A refusal writes nothing.
 */
export async function verifyAdult(
  db: Db,
  userId: number,
  edition: AgeEdition,
  declared: string | undefined,
  opts: { now?: Date; koreanIp?: boolean } = {},
): Promise<void> {
  const now = opts.now ?? new Date()
  const state = await readAdultState(db, userId)
  if (!state) throw new AppError('NOT_LOGIN_USER')
  const result = adultAuthentication(edition, state.birthedAt, declared, now)
  if (!result.ok) throw new AppError(result.code, { fields: 'birthedAt' })
  const nowIso = now.toISOString()
  const kr = edition.krAdultAuth && opts.koreanIp !== undefined ? (opts.koreanIp ? 1 : 0) : null
  await db.run(
    `UPDATE users SET birthed_at = ?, is_adult = 1, adult_verified_at = ?, show_adult = 1,
            is_kr_ip_user = COALESCE(?, is_kr_ip_user), updated_at = ?
      WHERE id = ? AND deleted_at IS NULL`,
    result.birthedAt,
    nowIso,
    kr,
    nowIso,
    userId,
  )
  await accountChanged(userId)
}

/**
 * Spec §5/§7 PUT /user/adult/toggle/{value}: turning adult series on needs an adult reader
 * (ADULT_ONLY_CONTENTS opens the age popup); turning them off always works.
 */
export async function setShowAdult(db: Db, userId: number, edition: AgeEdition, on: boolean, now: Date = new Date()): Promise<void> {
  if (on && !(await readerAdult(db, userId, edition, now))) throw new AppError('ADULT_ONLY_CONTENTS')
  await db.run(`UPDATE users SET show_adult = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`, on ? 1 : 0, now.toISOString(), userId)
  await accountChanged(userId)
}

/** Spec §5/§7 PUT /user/BL/toggle/{value} (the route checks that the edition has the toggle). */
export async function setBlToggle(db: Db, userId: number, on: boolean, now: Date = new Date()): Promise<void> {
  await db.run(
    `UPDATE users SET is_bl_toggle = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL`,
    on ? 1 : 0,
    now.toISOString(),
    userId,
  )
  await accountChanged(userId)
}

/**
 * Spec §6/§8: may this reader (null: a guest) join event `eventId`? Throws the event code
 * (NOT_FOUND_EVENT, NOT_EVENT_PERIOD, UNAUTHORIZED_USER, UNAUTHORIZED_ADULT, UNAUTHORIZED_NON_ADULT).
 * For the event and roulette routes, before they spend a ticket.
 */
export async function assertEventAccess(
  db: Db,
  eventId: number,
  userId: number | null,
  edition: AgeEdition,
  now: Date = new Date(),
): Promise<void> {
  const event = await db.first<{ restriction: EventsRow['adult_restriction'] } & Cols<'events', 'starts_at' | 'ends_at' | 'is_active'>>(
    `SELECT adult_restriction AS restriction, starts_at AS startsAt, ends_at AS endsAt, is_active AS isActive FROM events WHERE id = ?`,
    eventId,
  )
  const adult = userId === null ? false : await readerAdult(db, userId, edition, now)
  const verdict = eventAccess(event && { ...event, isActive: flag(event.isActive) }, { signedIn: userId !== null, adult }, now)
  if (verdict !== 'ok') throw new AppError(verdict)
}

/**
 * Spec §5 audience class of one request (issue 11): a guest's (the jp cookie counted) or the signed-in
 * reader's. `reader` is the row the session check already read (no query then); absent, it is read here.
 */
export async function requestAudience(
  db: Db,
  edition: AgeEdition,
  session: { userId: number | null; reader?: AudienceFlags },
  adultCookie: string | undefined,
  now: Date = new Date(),
): Promise<AudienceClass> {
  if (session.userId === null) return audienceClass(edition, null, adultCookie, now)
  return audienceClass(edition, session.reader ?? (await readAdultState(db, session.userId)), adultCookie, now)
}

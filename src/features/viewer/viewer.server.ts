/**
 * Viewer reads and writes on D1 and R2 (spec §2 viewer, §8 Viewer errors): one D1 batch opens an episode with its
 * neighbours, then the reader's holdings of the paid ones are read among their money rows (`moneyDb`,
 * src/features/reader/money-db.server.ts); slices of paid episodes get per-reader signed URLs.
 */
import { isPrivateMediaKey } from '../../lib/server/media.ts'
import { env } from 'cloudflare:workers'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { AutoUnlockKind, AutoUnlockState } from './continuous.ts'
import type { Db } from '../../lib/server/db.ts'
import type { EpisodeImagesRow, SeriesRow } from '../../lib/server/db-types.ts'
import { firstRow, flag, rows, type Cols, type Flag } from '../../lib/server/rows.ts'
import { isAdult, type AdultFlags } from '../age/age.ts'
import { SLICE_WIDTHS, scheduleSummary, sortSchedule } from '../catalogue/catalogue.ts'
import { opensAt, termsAt } from '../catalogue/early.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import {
  episodeAccess,
  EPISODE_IMAGE_PREFIX,
  paragraphs,
  signedSliceUrl,
  signPublicSlice,
  signSlice,
  sliceExpiry,
  sliceKey,
  verifyPublicSlice,
  verifySlice,
  type EpisodeLink,
  type ViewerEpisode,
  type ViewerSlice,
} from './viewer.ts'
import { parseTranscript } from '../catalogue/transcript.ts'
import { moneyDb } from '../reader/money-db.server.ts'
import { withReader } from '../reader/stub.server.ts'
import { HOLDINGS_SQL, type EpisodeHoldingRow } from '../ownership/holding.server.ts'
import { toAdultState } from '../age/age.server.ts'

/** The edition switches the viewer needs (spec §5 adult status). */
export type ViewerEdition = { krAdultAuth: boolean; adultNeedsBirthDate: boolean; notLoggedInAdultCookie: boolean; timeZone: string }

/**
 * Who is reading: a signed-in reader's id or null, and the guest adult cookie (jp). `session`: the access token's
 * session claim, checked by the reader's object in the open's one call (the route is marked `checksSessionItself`).
 */
export type ViewerReader = { userId: number | null; adultCookie?: string | undefined; session?: SessionClaim }

type EpisodeRow = Cols<
  'episodes',
  | 'id'
  | 'no'
  | 'title'
  | 'series_id'
  | 'content_type'
  | 'is_free'
  | 'price_rent'
  | 'price_buy'
  | 'text_body'
  | 'like_count'
  | 'published_at'
> & { early: Flag } & Cols<'series', 'cover_key' | 'cover_width' | 'cover_height' | 'reading_direction' | 'next_update_at' | 'status'> & {
    seriesTitle: SeriesRow['title']
    /** JSON array of the series' weekdays. */
    schedule: string
    lastPublishedAt: string | null
    seriesIsAdult: SeriesRow['is_adult']
    prev: string | null
    next: string | null
  }
type UserRow = Cols<'users', 'is_adult' | 'is_kr_ip_user' | 'is_adult_kr' | 'birthed_at' | 'adult_verified_at'>
type ImageRow = { n: EpisodeImagesRow['position'] } & Cols<'episode_images', 'key' | 'width' | 'height' | 'alt' | 'transcript'>
type HoldingRow = Cols<'ownerships', 'kind' | 'expires_at'>

const NEIGHBOUR = (op: '<' | '>', order: 'DESC' | 'ASC') =>
  `(SELECT json_object('id', x.id, 'no', x.no, 'title', x.title, 'isFree', json(CASE x.is_free WHEN 1 THEN 'true' ELSE 'false' END), 'priceRent', x.price_rent, 'priceBuy', x.price_buy) FROM episodes x WHERE x.series_id = e.series_id AND x.no ${op} e.no AND x.published_at <= ?1 ORDER BY x.no ${order} LIMIT 1)`

const EPISODE_SQL = `SELECT e.id, e.no, e.title, e.series_id AS seriesId, s.title AS seriesTitle, e.content_type AS contentType,
    ${termsAt('e', '?1')}, e.published_at AS publishedAt, e.text_body AS textBody, e.like_count AS likeCount, s.is_adult AS seriesIsAdult,
    s.cover_key AS coverKey, s.cover_width AS coverWidth, s.cover_height AS coverHeight,
    s.reading_direction AS readingDirection, s.next_update_at AS nextUpdateAt, s.status,
    (SELECT json_group_array(weekday) FROM schedules WHERE series_id = s.id) AS schedule,
    (SELECT max(x.published_at) FROM episodes x WHERE x.series_id = s.id AND x.published_at <= ?1) AS lastPublishedAt,
    ${NEIGHBOUR('<', 'DESC')} AS prev, ${NEIGHBOUR('>', 'ASC')} AS next
  FROM episodes e JOIN series s ON s.id = e.series_id
  WHERE e.id = ?2 AND s.is_published = 1 AND ${opensAt('e', '?1')}`
const USER_SQL = `SELECT is_adult AS isAdult, is_kr_ip_user AS isKrIpUser, is_adult_kr AS isAdultKr, birthed_at AS birthedAt, adult_verified_at AS adultVerifiedAt FROM users WHERE id = ? AND deleted_at IS NULL`

/** Holdings by episode. */
function byEpisode(rows: readonly EpisodeHoldingRow[]): Map<number, HoldingRow[]> {
  const map = new Map<number, HoldingRow[]>()
  for (const { episodeId, ...h } of rows) map.set(episodeId, [...(map.get(episodeId) ?? []), h])
  return map
}

/** Reader `userId`'s holdings of the paid episodes among `episodes` (none asked: no read), by episode. */
async function holdingsOf(
  db: Db,
  userId: number | null,
  episodes: readonly (ViewerHoldingAsk | null)[],
): Promise<Map<number, HoldingRow[]>> {
  const ids = episodes.flatMap((e) => (e && !e.isFree ? [e.id] : []))
  if (userId === null || ids.length === 0) return new Map()
  return byEpisode(await moneyDb(db, userId).all<EpisodeHoldingRow>(HOLDINGS_SQL, userId, JSON.stringify(ids)))
}
/** An episode whose holdings may be needed: only a paid one's are read. */
type ViewerHoldingAsk = { id: number; isFree: boolean }

function adultFlags(row: UserRow | undefined): AdultFlags {
  return row
    ? {
        isAdult: flag(row.isAdult),
        isKrIpUser: flag(row.isKrIpUser),
        isAdultKr: flag(row.isAdultKr),
        birthedAt: row.birthedAt,
        adultVerifiedAt: row.adultVerifiedAt,
      }
    : null
}

let derived: { secret: string; key: Promise<CryptoKey> } | null = null

/** The slice-URL key from SESSION_SECRET (derived once per isolate); NO_SECRET without one (no slice is served then). */
function slicesKey(): Promise<CryptoKey> {
  const secret = env.SESSION_SECRET
  if (!secret || secret.length < 16) throw new AppError('NO_SECRET')
  if (derived?.secret !== secret) derived = { secret, key: sliceKey(secret) }
  return derived.key
}

/** How a slice's URLs are signed: public (/media, the same for everyone) or for one reader until `exp`. */
type SliceSigner = { public: true } | { public: false; episodeId: number; userId: number; exp: number }

/** The URLs of one slice at every stored width (SLICE_WIDTHS order), signed as `signer` says. */
async function sliceUrls(key: CryptoKey, signer: SliceSigner, image: ImageRow): Promise<string[]> {
  if (signer.public) {
    const sig = await signPublicSlice(key, image.key)
    return SLICE_WIDTHS.map((w) => `/media/${image.key}/${w}.webp?s=${sig}`)
  }
  return Promise.all(
    SLICE_WIDTHS.map(async (w) => {
      const claim = { episodeId: signer.episodeId, n: image.n, key: image.key, w, exp: signer.exp }
      return signedSliceUrl(claim, await signSlice(key, { ...claim, userId: signer.userId }))
    }),
  )
}

/**
 * Opens episode `episodeId` for `reader`: null when it is not a published episode of a published series
 * (NOT_FOUND_EPISODE). One D1 batch reads the episode, its neighbours and its slices; for a signed-in reader one call to
 * their object (`Reader.opening`) then checks `reader.session` (NEED_TO_REFRESH when it has ended), gives their account
 * card, their holdings of the episode and of the next one when they are paid, and their place, and counts the view
 * when the episode opens to them (once per UTC day, told through its outbox to the series' tally; reader events
 * `view`). Slices and text are filled only when the access rule opens it: free episodes of series for everyone get
 * public `/media` URLs, others (paid, adult) per-reader URLs of the slice route, signed until `sliceExpiry` (never past
 * a rental's end).
 */
export async function openEpisode(
  db: Db,
  episodeId: number,
  reader: ViewerReader,
  edition: ViewerEdition,
  now = new Date(),
): Promise<ViewerEpisode | null> {
  const nowIso = now.toISOString()
  const uid = reader.userId
  const [epRes, imgRes] = await db.batch([
    { sql: EPISODE_SQL, params: [nowIso, episodeId] },
    {
      sql: `SELECT position AS n, key, width, height, alt, transcript FROM episode_images WHERE episode_id = ? ORDER BY position LIMIT 500`,
      params: [episodeId],
    },
  ])
  const row = firstRow<EpisodeRow>(epRes)
  // an episode open early (issue 37 point 1) is for signed-in readers: a guest never sees it
  if (!row || (flag(row.early) && uid === null)) return null
  const next = row.next ? (JSON.parse(row.next) as EpisodeLink) : null
  const episode = { isFree: flag(row.isFree), seriesIsAdult: flag(row.seriesIsAdult) }
  // one call to the reader's object: the session, their account card, their holdings, their place, the day's view
  const { krAdultAuth, adultNeedsBirthDate, notLoggedInAdultCookie } = edition
  const opened =
    uid === null
      ? null
      : await withReader(uid, (r) =>
          r.opening(uid, {
            session: reader.session,
            episodeId,
            seriesId: row.seriesId,
            episode,
            paidIds: [{ id: row.id, isFree: episode.isFree }, next].flatMap((e) => (e && !e.isFree ? [e.id] : [])),
            ageRules: { krAdultAuth, adultNeedsBirthDate, notLoggedInAdultCookie },
            now: nowIso,
          }),
        )
  // the session ended (withdrawal, password change, sign-out everywhere): no slice URL for it
  if (opened?.ended) throw new AppError('NEED_TO_REFRESH')
  const holdings = byEpisode(opened?.holdings ?? [])
  const adult = { adult: isAdult(edition, toAdultState(opened?.card ?? undefined), reader.adultCookie, now) }
  const access = episodeAccess(episode, adult, holdings.get(row.id) ?? [], now)
  const nextOpen =
    next !== null &&
    episodeAccess({ isFree: next.isFree, seriesIsAdult: episode.seriesIsAdult }, adult, holdings.get(next.id) ?? [], now).open
  const progress = opened?.position ?? null
  let slices: ViewerSlice[] = []
  if (access.open && row.contentType === 'IMAGE') {
    const key = await slicesKey()
    // a free episode of a series for everyone: public URLs; anything else (paid, adult): this reader's, short-lived
    const signer: SliceSigner =
      access.via === 'FREE' && !flag(row.seriesIsAdult)
        ? { public: true }
        : { public: false, episodeId, userId: uid ?? 0, exp: sliceExpiry(now, access.expiresAt) }
    slices = await Promise.all(
      rows<ImageRow>(imgRes).map(async (i) => {
        const urls = await sliceUrls(key, signer, i)
        return {
          n: i.n,
          width: i.width,
          height: i.height,
          alt: i.alt,
          transcript: parseTranscript(i.transcript),
          src: urls[0]!,
          srcset: urls.map((u, k) => `${u} ${SLICE_WIDTHS[k]}w`).join(', '),
        }
      }),
    )
  }
  return {
    id: row.id,
    no: row.no,
    title: row.title,
    seriesId: row.seriesId,
    seriesTitle: row.seriesTitle,
    contentType: row.contentType,
    isFree: flag(row.isFree),
    priceRent: row.priceRent,
    priceBuy: row.priceBuy,
    earlyUntil: flag(row.early) ? row.publishedAt : null,
    readingDirection: row.readingDirection,
    // the series page's rule (scheduleSummary), so both say the same day
    nextUpdateDay:
      scheduleSummary(
        {
          status: row.status,
          schedule: sortSchedule(JSON.parse(row.schedule)),
          nextUpdateAt: row.nextUpdateAt,
          lastPublishedAt: row.lastPublishedAt,
        },
        edition.timeZone,
        now,
      )?.next ?? null,
    prev: row.prev ? (JSON.parse(row.prev) as EpisodeLink) : null,
    next,
    nextOpen,
    access,
    slices,
    text: access.open && row.contentType === 'TEXT' ? paragraphs(row.textBody) : [],
    progress: access.open ? progress : null,
    // issue 37 point 3: its count (D1's, the tally's flush behind) and whether this reader likes it
    likes: row.likeCount,
    liked: opened?.liked ?? false,
    seriesCover: { coverKey: row.coverKey, coverWidth: row.coverWidth, coverHeight: row.coverHeight, isAdult: flag(row.seriesIsAdult) },
  }
}

/** Access to one episode for a reader (1 D1 batch, then 1 `moneyDb` read of the reader's holdings of a paid one). */
async function accessOf(db: Db, episodeId: number, reader: ViewerReader, edition: ViewerEdition, now: Date) {
  const nowIso = now.toISOString()
  const statements: { sql: string; params: unknown[] }[] = [
    {
      sql: `SELECT e.series_id AS seriesId, ${termsAt('e', '?1')}, s.is_adult AS seriesIsAdult
            FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.id = ?2 AND s.is_published = 1 AND ${opensAt('e', '?1')}`,
      params: [nowIso, episodeId],
    },
  ]
  if (reader.userId !== null) statements.push({ sql: USER_SQL, params: [reader.userId] })
  const [epRes, userRes] = await db.batch(statements)
  const row = firstRow<Cols<'episodes', 'series_id' | 'is_free'> & { seriesIsAdult: SeriesRow['is_adult'] }>(epRes)
  if (!row) return null
  const holdings = await holdingsOf(db, reader.userId, [{ id: episodeId, isFree: flag(row.isFree) }])
  const access = episodeAccess(
    { isFree: flag(row.isFree), seriesIsAdult: flag(row.seriesIsAdult) },
    { adult: isAdult(edition, adultFlags(firstRow<UserRow>(userRes)), reader.adultCookie) },
    holdings.get(episodeId) ?? [],
    now,
  )
  return { seriesId: row.seriesId, access }
}

export type SliceRequest = { episodeId: number; n: number; w: number; key: string | null; exp: number | null; sig: string | null }

/**
 * A reader's slice image, served on its signature alone, without a query (docs/ARCHITECTURE.md "Slices"): the
 * signature must name this episode, slice, R2 key and width, the caller (`userId`; 0 for a guest) and be unexpired,
 * else UNAUTHORIZED_CONTENTS. Whether the episode opens was decided when the URL was signed (`openEpisode`); the
 * URL lives minutes and never past a rental's end. null when the object is missing from R2.
 */
export async function sliceObject(req: SliceRequest, userId: number | null, now = new Date()): Promise<R2ObjectBody | null> {
  const ok =
    req.exp !== null &&
    req.sig !== null &&
    req.key !== null &&
    (await verifySlice(
      await slicesKey(),
      { episodeId: req.episodeId, n: req.n, key: req.key, w: req.w, userId: userId ?? 0, exp: req.exp },
      req.sig,
      now,
    ))
  if (!ok) throw new AppError('UNAUTHORIZED_CONTENTS')
  return env.MEDIA.get(`${req.key}/${req.w}.webp`)
}

/**
 * Saves where the reader is in an episode (spec "reading progress": one row per series, the last episode read and the
 * position in it; docs/API.md "Reading progress"): one D1 read of the episode (published, in a published series: its
 * series, number and whether it is free), then one call to the reader's object, which checks the access token's
 * session when its claim is given (the API route is marked `checksSessionItself`; a page passes none, the middleware
 * has checked it), for a paid episode that the reader holds it now (`HELD_SQL` over their own rights), and keeps the
 * row. The adult rule is not re-checked: a position reveals nothing, and every list that shows one filters series by
 * the reader's audience when it is read. A refused save changes nothing: NEED_TO_REFRESH (the session ended), else one
 * more read says why: NOT_FOUND_EPISODE, ADULT_ONLY_CONTENTS or UNAUTHORIZED_CONTENTS (a paid episode not held).
 */
export async function saveProgress(
  db: Db,
  userId: number,
  episodeId: number,
  position: number,
  edition: ViewerEdition,
  session?: SessionClaim,
  now = new Date(),
) {
  const at = now.toISOString()
  const found = await db.first<{ seriesId: number; no: number; isFree: Flag }>(
    `SELECT e.series_id AS seriesId, e.no, ${termsAt('e', '?2')} FROM episodes e JOIN series s ON s.id = e.series_id
      WHERE e.id = ?1 AND s.is_published = 1 AND ${opensAt('e', '?2')}`,
    episodeId,
    at,
  )
  if (found) {
    const saved = await withReader(userId, (r) =>
      r.saveProgress(
        userId,
        { seriesId: found.seriesId, episodeId, episodeNo: found.no, position, updatedAt: at },
        { session, paid: !flag(found.isFree) },
      ),
    )
    if (saved.refused === null) return { episodeId, position, updatedAt: saved.updatedAt }
    if (saved.refused === 'NEED_TO_REFRESH') throw new AppError('NEED_TO_REFRESH')
  }
  const opened = await accessOf(db, episodeId, { userId }, edition, now)
  if (!opened) throw new AppError('NOT_FOUND_EPISODE')
  throw new AppError(opened.access.open ? 'UNAUTHORIZED_CONTENTS' : opened.access.code)
}

/** An episode's and its series' view counts (docs/API.md "View counts"), 1 statement; null when not published. */
export async function viewCounts(db: Db, episodeId: number, now = new Date()) {
  return db.first<{ episodeId: number; views: number; seriesId: number; seriesViews: number }>(
    `SELECT e.id AS episodeId, e.view_count AS views, s.id AS seriesId, s.view_count AS seriesViews
       FROM episodes e JOIN series s ON s.id = e.series_id WHERE e.id = ? AND s.is_published = 1 AND e.published_at <= ?`,
    episodeId,
    now.toISOString(),
  )
}

/**
 * Whether /media may serve the R2 object `objectKey` to anyone and keep it in the edge cache, decided without a
 * query: private uploads never; an episode image (under EPISODE_IMAGE_PREFIX) only with the public signature `s`
 * that a free episode of a series for everyone carries (`openEpisode`); covers, banners and icons always.
 */
export async function isPublicMedia(objectKey: string, sig: string | null): Promise<boolean> {
  if (isPrivateMediaKey(objectKey)) return false
  if (!objectKey.startsWith(EPISODE_IMAGE_PREFIX)) return true
  return sig !== null && verifyPublicSlice(await slicesKey(), objectKey.slice(0, objectKey.lastIndexOf('/')), sig)
}

// ───────────────────────────── continuous reading: automatic unlock (spec §1) ─────────────────────────────

const AUTO_STATE_SQL = `SELECT budget, kind, spent FROM auto_unlock WHERE user_id = ? AND series_id = ?`

type AutoRow = Cols<'auto_unlock', 'budget' | 'kind' | 'spent'>

function autoState(seriesId: number, row: AutoRow | null | undefined): AutoUnlockState {
  return row
    ? { seriesId, enabled: true, budget: row.budget, kind: row.kind, spent: row.spent }
    : { seriesId, enabled: false, budget: null, kind: 'RENT', spent: 0 }
}

/** Whether series `?` is published (shared: the opt-in itself is among the reader's money rows). */
const SERIES_PUBLISHED_SQL = `SELECT 1 AS x FROM series WHERE id = ? AND is_published = 1`

/**
 * The reader's automatic-unlock opt-in for a published series (the series from D1 and the opt-in through `moneyDb`,
 * side by side): the coins spent so far are kept in the row by the automatic purchases themselves (`POST /purchase`
 * with `auto`). NOT_EXIST for an unknown series.
 */
export async function getAutoUnlock(db: Db, userId: number, seriesId: number): Promise<AutoUnlockState> {
  const [series, auto] = await Promise.all([
    db.first(SERIES_PUBLISHED_SQL, seriesId),
    moneyDb(db, userId).first<AutoRow>(AUTO_STATE_SQL, userId, seriesId),
  ])
  if (series === null) throw new AppError('NOT_EXIST')
  return autoState(seriesId, auto)
}

/**
 * Opts in (the reader confirmed) or changes the cap and kind; the count of coins spent starts at the first
 * opt-in and survives a change of cap. The series is checked in D1 first, then the opt-in is written and read back
 * in one `moneyDb` batch. NOT_EXIST for an unknown series.
 */
export async function setAutoUnlock(
  db: Db,
  userId: number,
  seriesId: number,
  body: { budget: number; kind: AutoUnlockKind },
  now = new Date(),
): Promise<AutoUnlockState> {
  if ((await db.first(SERIES_PUBLISHED_SQL, seriesId)) === null) throw new AppError('NOT_EXIST')
  const [, auto] = await moneyDb(db, userId).batch([
    {
      sql: `INSERT INTO auto_unlock (user_id, series_id, budget, kind, enabled_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, series_id) DO UPDATE SET budget = excluded.budget, kind = excluded.kind`,
      params: [userId, seriesId, body.budget, body.kind, now.toISOString()],
    },
    { sql: AUTO_STATE_SQL, params: [userId, seriesId] },
  ])
  return autoState(seriesId, firstRow<AutoRow>(auto))
}

/**
 * Opts out: nothing more is unlocked automatically in this series (the opt-in dropped through `moneyDb`, the series
 * checked in D1, side by side). NOT_EXIST for an unknown series.
 */
export async function clearAutoUnlock(db: Db, userId: number, seriesId: number): Promise<AutoUnlockState> {
  const [, series] = await Promise.all([
    moneyDb(db, userId).run(`DELETE FROM auto_unlock WHERE user_id = ? AND series_id = ?`, userId, seriesId),
    db.first(SERIES_PUBLISHED_SQL, seriesId),
  ])
  if (series === null) throw new AppError('NOT_EXIST')
  return autoState(seriesId, null)
}

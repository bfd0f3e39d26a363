/** The operator's banners on D1 (docs/API.md `/api/ops/banners`; rules: banner-ops.ts). */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { OpsListQuery, OpsPage } from '../../lib/ops.ts'
import { newestFirst } from '../../lib/server/ops-list.ts'
import type { Db } from '../../lib/server/db.ts'
import { flag, type Cols, type Flag } from '../../lib/server/rows.ts'
import type { BannerCreateRequest } from './banner-ops.ts'

type BannerRow = Cols<
  'banners',
  | 'id'
  | 'placement'
  | 'display'
  | 'title'
  | 'subtitle'
  | 'link'
  | 'image_key'
  | 'image_width'
  | 'image_height'
  | 'background'
  | 'starts_at'
  | 'ends_at'
  | 'position'
  | 'created_at'
> & { isAdult: Flag }

/** A banner as the operator sees it, and whether its placement shows it at `now`. */
export type OpsBanner = Omit<BannerRow, 'isAdult'> & { isAdult: boolean; state: 'SHOWN' | 'NOT_STARTED' | 'ENDED' }

const OPS_COLUMNS = `id, placement, display, title, subtitle, link, image_key AS imageKey, image_width AS imageWidth, image_height AS imageHeight,
  background, starts_at AS startsAt, ends_at AS endsAt, position, is_adult AS isAdult, created_at AS createdAt`

function toOps(row: BannerRow, now: Date): OpsBanner {
  const iso = now.toISOString()
  const state = row.endsAt !== null && row.endsAt <= iso ? 'ENDED' : row.startsAt !== null && row.startsAt > iso ? 'NOT_STARTED' : 'SHOWN'
  return { ...row, isAdult: flag(row.isAdult), state }
}

async function opsBanner(db: Db, id: number, now: Date): Promise<OpsBanner | null> {
  const row = await db.first<BannerRow>(`SELECT ${OPS_COLUMNS} FROM banners WHERE id = ?`, id)
  return row && toOps(row, now)
}

/** One page of every banner, whatever its placement and state, newest first (docs/API.md `GET /api/ops/banners`). */
export async function listOpsBanners(db: Db, query: OpsListQuery, now: Date): Promise<OpsPage<OpsBanner>> {
  return newestFirst(db, 'banners', OPS_COLUMNS, query, (row: BannerRow) => toOps(row, now))
}

/** Creates a banner (rules: `BannerCreateRequest`); INVALID_PARAMETER `endsAt` for an end that is not after `now`. */
export async function createBanner(db: Db, input: BannerCreateRequest, now: Date): Promise<OpsBanner> {
  const nowIso = now.toISOString()
  if (input.endsAt !== undefined && input.endsAt <= nowIso) throw new AppError('INVALID_PARAMETER', { fields: 'endsAt' })
  const row = await db.first<{ id: number }>(
    `INSERT INTO banners (placement, display, title, subtitle, link, image_key, image_width, image_height, background, starts_at, ends_at,
                          position, is_adult, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    input.placement,
    input.display,
    input.title,
    input.subtitle ?? null,
    input.link,
    input.imageKey ?? null,
    input.imageWidth ?? null,
    input.imageHeight ?? null,
    input.background ?? null,
    input.startsAt ?? nowIso,
    input.endsAt ?? null,
    input.position,
    input.adult ? 1 : 0,
    nowIso,
  )
  return (await opsBanner(db, row!.id, now))!
}

/** Ends a banner now (its end becomes `now`). NOT_EXIST for an unknown id, NOT_EVENT_PERIOD for one already ended. */
export async function endBanner(db: Db, id: number, now: Date): Promise<OpsBanner> {
  const nowIso = now.toISOString()
  const ended = await db.first<{ id: number }>(
    `UPDATE banners SET ends_at = ?2 WHERE id = ?1 AND (ends_at IS NULL OR ends_at > ?2) RETURNING id`,
    id,
    nowIso,
  )
  if (!ended) throw new AppError((await opsBanner(db, id, now)) ? 'NOT_EVENT_PERIOD' : 'NOT_EXIST')
  return (await opsBanner(db, id, now))!
}

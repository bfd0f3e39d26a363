/**
 * Following a creator (issue 37 point 2): one D1 read (the creator exists) and one call to the reader's object, which
 * keeps the state and tells D1's `creator_followers` through its outbox (the new-episode fan-out reads it).
 */
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { withReader } from '../reader/stub.server.ts'

import type { Following } from './library.ts'

/** Follows creator `creatorId` (`on`) or stops; repeatable. NOT_EXIST for an unknown creator. */
export async function followCreator(db: Db, userId: number, creatorId: number, on: boolean): Promise<Following> {
  if (!(await db.first(`SELECT 1 AS x FROM creators WHERE id = ?`, creatorId))) throw new AppError('NOT_EXIST')
  await withReader(userId, (r) => r.follow(userId, creatorId, on))
  return { creatorId, following: on }
}

/** Whether the reader follows creator `creatorId` (the creator page's reader part, after its paint). */
export async function followingCreator(userId: number, creatorId: number): Promise<Following> {
  return { creatorId, following: await withReader(userId, (r) => r.following(userId, creatorId)) }
}

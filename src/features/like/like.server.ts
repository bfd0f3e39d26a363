/**
 * Episode likes (issue 37 point 3): a reader likes a published episode once, or stops liking it. One D1 read (the
 * episode, its series and its count) and one call to the reader's object, which keeps the like and tells the series'
 * tally through its outbox; the episode's count in D1 follows within the tally's flush (TALLY_FLUSH_MS), never a write
 * per like. The answer's count is D1's with this call's change.
 */
import { opensAt } from '../catalogue/early.server.ts'
import { AppError } from '../../lib/errors/catalogue.ts'
import type { Db } from '../../lib/server/db.ts'
import { flag, type Flag } from '../../lib/server/rows.ts'
import { withReader } from '../reader/stub.server.ts'
import type { SessionClaim } from '../reader/session-claim.ts'
import type { AgeEdition } from '../age/age.ts'

/** What a like answers: whether the reader likes the episode now, and its count. */
export type Liked = { episodeId: number; liked: boolean; likes: number }

export async function likeEpisode(
  db: Db,
  session: SessionClaim & { userId: number },
  episodeId: number,
  on: boolean,
  ageRules: Pick<AgeEdition, 'krAdultAuth' | 'adultNeedsBirthDate' | 'notLoggedInAdultCookie'>,
  now = new Date(),
): Promise<Liked> {
  const at = now.toISOString()
  const episode = await db.first<{ seriesId: number; seriesIsAdult: Flag; likes: number }>(
    `SELECT e.series_id AS seriesId, s.is_adult AS seriesIsAdult, e.like_count AS likes FROM episodes e JOIN series s ON s.id = e.series_id
      WHERE e.id = ?1 AND s.is_published = 1 AND ${opensAt('e', '?2')}`, // an early episode's readers like it too
    episodeId,
    at,
  )
  if (!episode) throw new AppError('NOT_FOUND_EPISODE')
  const { krAdultAuth, adultNeedsBirthDate, notLoggedInAdultCookie } = ageRules
  const done = await withReader(session.userId, (r) =>
    r.like(session.userId, {
      session: { sessionVersion: session.sessionVersion, sessionId: session.sessionId },
      seriesId: episode.seriesId,
      episodeId,
      seriesIsAdult: flag(episode.seriesIsAdult),
      ageRules: { krAdultAuth, adultNeedsBirthDate, notLoggedInAdultCookie },
      on,
      now: at,
    }),
  )
  if (done.refused) throw new AppError(done.refused)
  return { episodeId, liked: on, likes: Math.max(0, episode.likes + (done.changed ? (on ? 1 : -1) : 0)) }
}

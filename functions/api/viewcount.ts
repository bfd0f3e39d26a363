/**
 * `/api/v1/viewcount` (spec §7 "viewcount", docs/API.md "View counts"): an episode's and its series' view counts.
 * Views are counted where an episode is opened (openEpisode); this route only reads them. An unknown, unpublished
 * or malformed episode id is NOT_FOUND_EPISODE.
 */
import { Hono } from 'hono'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { parseId } from '../../src/lib/ids.ts'
import { viewCounts } from '../../src/features/viewer/viewer.server.ts'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'

export const viewcount = new Hono<AppEnv>().get('/:episodeId', async (c) => {
  const id = parseId(c.req.param('episodeId'))
  const counts = id === null ? null : await viewCounts(c.var.db, id)
  if (!counts) throw new AppError('NOT_FOUND_EPISODE')
  return ok(c, counts)
})

/**
 * `GET /api/v1/search?keyword=&cursor=` (spec §2 /search, §7 "contents search"): series whose title,
 * creators or tags match the keyword (D1 FTS5), one page; `GET /api/v1/search/tags`: tag top 10 and
 * recommended tags (spec §7 "tag top10/recommend"). Empty or over-long keyword: 400 INVALID_PARAMETER.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../lib/env.ts'
import { ok } from '../lib/respond.ts'
import { validate } from '../lib/validate.ts'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { audienceSees } from '../../src/features/age/age.ts'
import { audienceOf } from '../middleware/audience.ts'
import { resolveSearch } from '../../src/features/search/search.ts'
import { countTagSearch, searchSeries, tagLists } from '../../src/features/search/search.server.ts'
import { afterResponse } from '../../src/features/catalogue/deferred.server.ts'

/** Raw lengths are bounded before any rule runs (a huge query string is refused, not processed). */
const SearchQuery = z.object({
  keyword: z.string().max(1000).optional(),
  cursor: z.string().max(50).optional(),
  suggest: z.string().max(5).optional(),
})

export const search = new Hono<AppEnv>()
  .get('/', validate('query', SearchQuery), async (c) => {
    const query = c.req.valid('query')
    const resolved = resolveSearch(query)
    if (!resolved.ok) throw new AppError(resolved.code, { fields: resolved.field })
    // The reader's audience class (issue 11): adult and BL series only for the classes that may see them.
    const audience = audienceSees(await audienceOf(c))
    // Suggestions while typing (`suggest=1`) are not searches: only submitted ones count for the tag top 10.
    if (resolved.request.offset === 0 && query.suggest === undefined) afterResponse((db) => countTagSearch(db, resolved.request.keyword))
    return ok(c, await searchSeries(c.get('db'), resolved.request, audience))
  })
  .get('/tags', async (c) => {
    c.header('Cache-Control', 'public, max-age=0, s-maxage=300, stale-while-revalidate=3600')
    return ok(c, await tagLists(c.get('db')))
  })

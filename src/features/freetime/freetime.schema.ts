/** The wait-until-free route's request body, apart from the ticket rules (freetime.ts) the browser loads (issue 43 point 4). */
import { z } from 'zod'
import { RowId } from '../../lib/ids.ts'

/** docs/API.md body of `POST /api/v1/purchase/freetime`. */
export const FreetimeRequest = z.object({ episodeId: RowId })
export type FreetimeRequest = z.infer<typeof FreetimeRequest>

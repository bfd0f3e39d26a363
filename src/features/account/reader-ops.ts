/**
 * The operator's view of one reader (docs/API.md `GET /api/ops/readers`, `POST /api/ops/readers/{id}/sessions/end`;
 * `npm run ops -- reader show|sessions end`): how a reader is looked up, and what ending their sessions asks for.
 * The queries are in reader-ops.server.ts.
 */
import { z } from 'zod'

/** Rows of each list `readerReport` returns (payments, purchases, sign-ins), newest first. */
export const READER_LIST_SIZE = 20

const userId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/)
  .transform(Number)

/** `?email=` or `?id=`, exactly one: a reader is found by the e-mail of their live account or by their id. */
export const ReaderLookup = z
  .object({ email: z.email().max(254).optional(), id: userId.optional() })
  .refine((q) => (q.email === undefined) !== (q.id === undefined), { path: ['email'], message: 'an e-mail or an id, exactly one' })
export type ReaderLookup = z.infer<typeof ReaderLookup>

/**
 * A sign-in as the operator sees it: a refresh-token family's first token (one per sign-in, its rotations excluded).
 * `open`: the family still has a live token (not rotated, revoked nor expired): that device is signed in.
 */
export type ReaderSignIn = { at: string; client: string; ipAddress: string | null; open: boolean }

/**
 * The operator's view of one reader (docs/API.md `GET /api/ops/readers`, `POST /api/ops/readers/{id}/sessions/end`;
 * `npm run ops -- reader show|sessions end`): how a reader is looked up, and what ending their sessions asks for.
 * The queries are in reader-ops.server.ts.
 */
import { z } from 'zod'
import { RowIdText } from '../../lib/ids.ts'

/** Rows of each list `readerReport` returns (payments, purchases, sign-ins), newest first. */
export const READER_LIST_SIZE = 20

/** How a reader may be looked up (`reader show --email|--id|--nickname|--payment|--phone`): exactly one of them. */
export const READER_KEYS = ['email', 'id', 'nickname', 'payment', 'phone'] as const

/**
 * `?email=`, `?id=`, `?nickname=`, `?payment=` or `?phone=`, exactly one (issue 39 point 6): a reader is found by the
 * e-mail of their live account, their id, their nickname (as readers see it: any case, lookalike letters), the id of
 * one of their payments (`pay_…`) or their phone number (as they typed it: read in the edition's country).
 */
export const ReaderLookup = z
  .object({
    email: z.email().max(254).optional(),
    id: RowIdText.optional(),
    nickname: z.string().trim().min(1).max(40).optional(),
    payment: z
      .string()
      .regex(/^pay_[0-9a-z_]{1,64}$/)
      .optional(),
    phone: z
      .string()
      .trim()
      .regex(/^[+\d][\d ().-]{3,30}$/)
      .optional(),
  })
  .refine((q) => READER_KEYS.filter((k) => q[k] !== undefined).length === 1, {
    path: ['email'],
    message: 'an e-mail, an id, a nickname, a payment id or a phone number, exactly one',
  })
export type ReaderLookup = z.infer<typeof ReaderLookup>

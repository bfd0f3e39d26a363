/**
 * The wallet routes' request shapes (coin history, the operator's grant, deduction and report), apart from the
 * wallet rules (wallet.ts) the browser loads through the rent-or-buy preview, which then comes without zod (issue 43
 * point 4).
 */
import { z } from 'zod'
import { OpsDate, OpsReason } from '../../lib/ops.ts'
import { COIN_TYPES, HISTORY_PAGES, MAX_ADMIN_ADJUST, MAX_WALLET_REPORT_ROWS, type HistoryPage } from './wallet.ts'

const CoinTypeSchema = z.enum(COIN_TYPES)

/**
 * An operator's change to one user's wallet (docs/API.md `POST /api/ops/coins`, `npm run ops -- coins …`):
 * a positive amount charges a new ADMIN lot, a negative one deducts from that type's lots.
 * `expiresAt` (grants only): a date `YYYY-MM-DD` (valid through the end of that day, UTC) or an ISO instant.
 */
export const AdminAdjustRequest = z
  .object({
    /** The account's e-mail (compared case-insensitively). */
    email: z.email().max(254),
    /** Which balance moves (spec §3 coin types). */
    type: CoinTypeSchema,
    /** Signed coins: > 0 grants, < 0 deducts; never 0, at most ±1,000,000. */
    amount: z
      .number()
      .int()
      .min(-MAX_ADMIN_ADJUST)
      .max(MAX_ADMIN_ADJUST)
      .refine((n) => n !== 0, 'amount must not be 0'),
    /** Why, kept in the ledger row's description (spec §6: admin actions appear as history entries). */
    reason: OpsReason,
    /** Expiry of a granted lot; absent: never expires. */
    expiresAt: OpsDate.optional(),
  })
  .refine((r) => r.expiresAt === undefined || r.amount > 0, { path: ['expiresAt'], message: 'only a grant can carry an expiry' })
export type AdminAdjustRequest = z.infer<typeof AdminAdjustRequest>

/** `GET /api/ops/coins?email=&limit=` (docs/API.md "Operator API"): whose wallet, and how many ledger rows. */
export const WalletReportQuery = z.object({
  email: z.email().max(254),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/)
    .transform(Number)
    .refine((n) => n <= MAX_WALLET_REPORT_ROWS)
    .default(20),
})
export type WalletReportQuery = z.infer<typeof WalletReportQuery>

/** `GET /api/v1/coin/history?kind=&cursor=` (docs/API.md). */
export const HistoryQuery = z.object({
  kind: z.enum(Object.keys(HISTORY_PAGES) as [HistoryPage, ...HistoryPage[]]),
  cursor: z.string().max(100).optional(),
})
export type HistoryQuery = z.infer<typeof HistoryQuery>

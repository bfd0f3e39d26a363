/**
 * The money work a reader's object decides itself (issue 38 point 1; docs/ARCHITECTURE.md "Reader objects"): each
 * procedure reads the reader's money rows, applies its feature's rules and writes, through `run` (one batch, one
 * transaction), without awaiting anything in between, so no other call of that reader interleaves and nothing is
 * re-planned. The worker reads the shared facts first and passes them in the input; `decide` (money-db.server.ts) calls
 * one by name.
 */
import type { Statement } from '../../lib/server/db.ts'
import type { MoneyOutcome } from './money-store.server.ts'
import { sell } from '../purchase/purchase.server.ts'
import { useTicket } from '../freetime/freetime.server.ts'
import { exchange } from '../mileage/mileage.server.ts'
import { openGift } from '../gift/gift.server.ts'
import { spin } from '../roulette/roulette.server.ts'
import { deduct } from '../wallet/wallet.server.ts'
import { redeemOnce } from '../coupon/coupon.server.ts'
import { reverse, settle, takeRefund } from '../payment/payment.server.ts'
import { me } from '../auth/auth.server.ts'
import { pushOf } from '../account/account.server.ts'

/**
 * One batch over the reader's money rows, run in one transaction inside their object. Its writes' `meta.changes` and
 * `last_row_id` are not read (0): a procedure decides from its rows and `rows_written` (money-store.server.ts `counted`).
 */
export type MoneyRun = (statements: Statement[]) => MoneyOutcome

export const PROCEDURES = {
  sell,
  useTicket,
  exchange,
  openGift,
  spin,
  deduct,
  redeemOnce,
  reverse,
  settle,
  takeRefund,
  me,
  push: pushOf,
} satisfies Record<string, (run: MoneyRun, input: never) => unknown>

export type ProcedureName = keyof typeof PROCEDURES
export type ProcedureInput<K extends ProcedureName> = Parameters<(typeof PROCEDURES)[K]>[1]
export type ProcedureOutcome<K extends ProcedureName> = ReturnType<(typeof PROCEDURES)[K]>

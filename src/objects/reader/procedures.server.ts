/**
 * The money work a reader's object decides itself (issue 38 point 1; docs/ARCHITECTURE.md "Reader objects"): each
 * procedure reads the reader's money rows, applies its feature's rules and writes, through `run` (one batch, one
 * transaction), without awaiting anything in between, so no other call of that reader interleaves and nothing is
 * re-planned. The worker reads the shared facts first and passes them in the input; `decide` (money-db.server.ts) calls
 * one by name.
 */
import type { MoneyRun } from '../../features/reader/money-store.server.ts'
import { sell } from '../../features/purchase/purchase.server.ts'
import { useTicket } from '../../features/freetime/freetime.server.ts'
import { exchange } from '../../features/mileage/mileage.server.ts'
import { openGift } from '../../features/gift/gift.server.ts'
import { spin } from '../../features/roulette/roulette.server.ts'
import { deduct } from '../../features/wallet/wallet.server.ts'
import { redeemOnce } from '../../features/coupon/coupon.server.ts'
import { reverse, settle, takeRefund } from '../../features/payment/payment.server.ts'
import { me } from './me.server.ts'
import { pushOf } from '../../features/account/account.server.ts'

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

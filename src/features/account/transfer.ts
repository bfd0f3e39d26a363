/**
 * Account transfer (spec §2 /transfer/*, §4: statuses error/start/request/finish, once per account, not
 * cancellable after it proceeds). The reader signs in, agrees, and receives a one-time transfer code by mail;
 * the new device (app) redeems the code and is signed in to the account, which finishes the transfer. Pure rules.
 */
import type { ErrorCode } from '../../lib/errors/catalogue.ts'

export type TransferStatus = 'START' | 'REQUEST' | 'FINISH' | 'ERROR'
export type TransferAction = 'start' | 'request' | 'cancel' | 'finish' | 'fail'
/** Why a transfer ended in ERROR: the mailed code was entered wrong too often, or it expired unused. */
export type TransferErrorReason = 'ATTEMPTS' | 'EXPIRED'
/** The transfer code: 12 characters of an unambiguous alphabet (~60 bits), valid 7 days. */
const TRANSFER_CODE_LENGTH = 12
const TRANSFER_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
export const TRANSFER_CODE_TTL_SECONDS = 7 * 24 * 60 * 60
/**
 * The code's first 4 characters locate its transfer (unique among live codes, ~20 bits); the other 8 (~40 bits)
 * are the secret. Spec §8 EXCEED_AUTH_COUNT (max 5): the 5th wrong code for a transfer ends it in ERROR.
 */
const TRANSFER_LOCATOR_LENGTH = 4
export const TRANSFER_MAX_ATTEMPTS = 5

/**
 * Spec §4 transfer transitions: the next status (null: no transfer any more) or the refusal code.
 * - start: none/ERROR → START; START stays START; REQUEST/FINISH → ALREADY_USED_ANOTHER_PLATFORM (once per account).
 * - request (the consent): START → REQUEST; none → INVALID_PARAMETER.
 * - cancel: START → none; REQUEST/FINISH → ALREADY_USED_ANOTHER_PLATFORM (not cancellable after it proceeds).
 * - finish (the code redeemed): REQUEST → FINISH.
 * - fail (5 wrong codes, or the code expired): REQUEST → ERROR; from ERROR the reader may start again.
 */
export function nextTransferStatus(
  current: TransferStatus | null,
  action: TransferAction,
): { status: TransferStatus | null } | { error: ErrorCode } {
  const proceeded = current === 'REQUEST' || current === 'FINISH'
  switch (action) {
    case 'start':
      return proceeded ? { error: 'ALREADY_USED_ANOTHER_PLATFORM' } : { status: 'START' }
    case 'request':
      if (proceeded) return { error: 'ALREADY_USED_ANOTHER_PLATFORM' }
      return current === 'START' ? { status: 'REQUEST' } : { error: 'INVALID_PARAMETER' }
    case 'cancel':
      if (proceeded) return { error: 'ALREADY_USED_ANOTHER_PLATFORM' }
      return current === null ? { error: 'NOT_EXIST' } : { status: null }
    case 'finish':
      return current === 'REQUEST' ? { status: 'FINISH' } : { error: 'INVALID_PARAMETER' }
    case 'fail':
      return current === 'REQUEST' ? { status: 'ERROR' } : { error: 'INVALID_PARAMETER' }
  }
}

/** A uniformly drawn transfer code (rejection sampling over the 32-letter alphabet: no bias). */
export function generateTransferCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TRANSFER_CODE_LENGTH))
  return [...bytes].map((b) => TRANSFER_CODE_ALPHABET[b % 32]).join('')
}

/** The part of a (normalised) code that locates its transfer. */
export function transferLocator(code: string): string {
  return code.slice(0, TRANSFER_LOCATOR_LENGTH)
}

/** The code as typed: upper case, spaces and dashes dropped; null when it cannot be a code. */
export function normaliseTransferCode(code: string): string | null {
  const c = code.toUpperCase().replace(/[\s-]/g, '')
  return c.length === TRANSFER_CODE_LENGTH && [...c].every((ch) => TRANSFER_CODE_ALPHABET.includes(ch)) ? c : null
}

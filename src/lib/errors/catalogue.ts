/**
 * The one error catalogue (spec §8, docs/CONVENTIONS.md "Errors as data").
 *
 * Every code the product can show is an entry `{ code, status, messageKey, followUp }`. Codes are permanent:
 * a retired code stays here with `deprecated` set, so old apps that still send or expect it keep working.
 * The message text lives in `editions/<id>/messages/errors.json` under `error.<CODE>`, one per edition; a
 * message that needs a value uses i18next `{{name}}` interpolation filled from `AppError.details`. The
 * current texts need none: the numbers they quote (1 hour, 5 minutes, 5 IDs, 30 days) are fixed by spec §9.
 *
 * Several codes appear in more than one group of §8. Each appears here ONCE, with the status and follow-up
 * that fit the API; the other uses are noted beside the entry.
 */

/**
 * What the client does after showing the message (spec §8 "follow-up").
 * - `none`: only the message.
 * - `returnUrl`: go back to the page that started the flow (the `callbackUrl`/return URL it carried).
 * - `reload`: reload the current page (state changed under the reader).
 * - `back`: history back.
 * - `adultPopup`: open the age-check popup (spec §4).
 * - `logout`: clear tokens and reload as guest (spec §4 token handling).
 * - `toShop`: go to /shop. `toLogin`: go to the login route with a callback (spec §2). `toGift`: go to /gift.
 * - `home`: go to /.
 * - `refreshAndRetry`: refresh the tokens and retry the call once (spec §4).
 * - `resend`: offer to send a new code or mail.
 */
type FollowUp =
  | 'none'
  | 'returnUrl'
  | 'reload'
  | 'back'
  | 'adultPopup'
  | 'logout'
  | 'toShop'
  | 'toLogin'
  | 'toGift'
  | 'home'
  | 'refreshAndRetry'
  | 'resend'

/** HTTP statuses the catalogue uses; always an error status (4xx/5xx). */
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 405 | 409 | 410 | 413 | 415 | 429 | 500 | 502 | 503

/** One catalogue entry. `C` ties `code` and `messageKey` to the key the entry is stored under. */
export type ErrorEntry<C extends string = string> = {
  /** Permanent wire code, the same as the key in `ERRORS` (docs/API.md: "codes never change"). */
  readonly code: C
  /** HTTP status of an API response carrying this code. UI-only codes still get one, for logs and tests. */
  readonly status: ErrorStatus
  /** Message key in every edition's `messages/errors.json`. */
  readonly messageKey: `error.${C}`
  /** What the client does after the message (spec §8). */
  readonly followUp: FollowUp
  /** Set when the code is retired: never emitted any more, kept so old clients still understand it. */
  readonly deprecated?: true
}

export const ERRORS = {
  // ── Common (§8) ──────────────────────────────────────────────────────────────────────────────────
  /** Legacy spelling of the generic failure, from the Common group; the server emits UNKNOWN. */
  Unknown: { code: 'Unknown', status: 500, messageKey: 'error.Unknown', followUp: 'none' },
  MALFORMED_JWT: { code: 'MALFORMED_JWT', status: 401, messageKey: 'error.MALFORMED_JWT', followUp: 'logout' },
  /** Common and Detail groups (series not found); also every unknown API route (docs/API.md). */
  NOT_EXIST: { code: 'NOT_EXIST', status: 404, messageKey: 'error.NOT_EXIST', followUp: 'back' },
  EMPTY_EMAIL: { code: 'EMPTY_EMAIL', status: 400, messageKey: 'error.EMPTY_EMAIL', followUp: 'none' },
  NOT_LOGIN_USER: { code: 'NOT_LOGIN_USER', status: 401, messageKey: 'error.NOT_LOGIN_USER', followUp: 'toLogin' },

  // ── Gift: every gift error sends the reader to the gift box (§8) ────────────────────────────────
  ALREADY_GIVEN_GIFT: { code: 'ALREADY_GIVEN_GIFT', status: 409, messageKey: 'error.ALREADY_GIVEN_GIFT', followUp: 'toGift' },
  NOT_FOUND_GIFT: { code: 'NOT_FOUND_GIFT', status: 404, messageKey: 'error.NOT_FOUND_GIFT', followUp: 'toGift' },
  NOT_FOUND_GIFT_INFO: { code: 'NOT_FOUND_GIFT_INFO', status: 404, messageKey: 'error.NOT_FOUND_GIFT_INFO', followUp: 'toGift' },
  UN_MATCHED_GIFT_TARGET_TYPE: {
    code: 'UN_MATCHED_GIFT_TARGET_TYPE',
    status: 400,
    messageKey: 'error.UN_MATCHED_GIFT_TARGET_TYPE',
    followUp: 'toGift',
  },

  // ── Mileage: reload to show the true balance (§8) ───────────────────────────────────────────────
  /** The mileage balance is lower than the amount asked for (a balance shortfall, like COIN_INSUFFICIENT). */
  MILEAGE_INSUFFICIENT: { code: 'MILEAGE_INSUFFICIENT', status: 402, messageKey: 'error.MILEAGE_INSUFFICIENT', followUp: 'reload' },
  /** The amount is below the exchange minimum or not a multiple of the unit (spec §5: units of 200, minimum 3000). */
  EXCHANGE_MILEAGE_INSUFFICIENT: {
    code: 'EXCHANGE_MILEAGE_INSUFFICIENT',
    status: 400,
    messageKey: 'error.EXCHANGE_MILEAGE_INSUFFICIENT',
    followUp: 'reload',
  },

  // ── Purchase (§8) ────────────────────────────────────────────────────────────────────────────────
  /** Spec §4: a rental cannot be bought again while time remains. */
  RENT_PURCHASE_IMPOSSIBLE: {
    code: 'RENT_PURCHASE_IMPOSSIBLE',
    status: 409,
    messageKey: 'error.RENT_PURCHASE_IMPOSSIBLE',
    followUp: 'reload',
  },
  POSSESSION_PURCHASE_IMPOSSIBLE: {
    code: 'POSSESSION_PURCHASE_IMPOSSIBLE',
    status: 409,
    messageKey: 'error.POSSESSION_PURCHASE_IMPOSSIBLE',
    followUp: 'reload',
  },
  EXIST_LIBRARY: { code: 'EXIST_LIBRARY', status: 409, messageKey: 'error.EXIST_LIBRARY', followUp: 'reload' },
  /**
   * Issue 37 point 5: the sale would pass the monthly spending limit the reader set (/setting). Details `limit`, `spent`
   * (this month) and `resetsAt` (the edition's next month start), which the message quotes.
   */
  SPENDING_LIMIT_REACHED: { code: 'SPENDING_LIMIT_REACHED', status: 409, messageKey: 'error.SPENDING_LIMIT_REACHED', followUp: 'none' },
  /** docs/API.md: 402; the reader is sent to the coin shop. */
  COIN_INSUFFICIENT: { code: 'COIN_INSUFFICIENT', status: 402, messageKey: 'error.COIN_INSUFFICIENT', followUp: 'toShop' },
  /** Purchase and Detail groups: both open the age-check popup. */
  ADULT_ONLY_CONTENTS: { code: 'ADULT_ONLY_CONTENTS', status: 403, messageKey: 'error.ADULT_ONLY_CONTENTS', followUp: 'adultPopup' },
  /** The episode is not offered for rent (buy-only); the page's prices were stale. */
  UN_MATCHED_RENT_SALE_TYPE: {
    code: 'UN_MATCHED_RENT_SALE_TYPE',
    status: 409,
    messageKey: 'error.UN_MATCHED_RENT_SALE_TYPE',
    followUp: 'reload',
  },
  /** The episode is not offered for purchase (rent-only); the page's prices were stale. */
  UN_MATCHED_POSSESSION_SALE_TYPE: {
    code: 'UN_MATCHED_POSSESSION_SALE_TYPE',
    status: 409,
    messageKey: 'error.UN_MATCHED_POSSESSION_SALE_TYPE',
    followUp: 'reload',
  },

  // ── Detail (§8; NOT_EXIST and ADULT_ONLY_CONTENTS above) ────────────────────────────────────────
  INVALID_CONTENTS: { code: 'INVALID_CONTENTS', status: 404, messageKey: 'error.INVALID_CONTENTS', followUp: 'back' },

  // ── Login (§8) ───────────────────────────────────────────────────────────────────────────────────
  /** Login and Sign-up mail groups. */
  ALREADY_USED_EMAIL: { code: 'ALREADY_USED_EMAIL', status: 409, messageKey: 'error.ALREADY_USED_EMAIL', followUp: 'none' },
  /**
   * Sign-in: wrong password. docs/API.md: same status and timing as NOT_REGISTERED_USER, hence 401 for both.
   * Also in Change password (new password refused), where the same message fits.
   */
  INVALID_PASSWORD: { code: 'INVALID_PASSWORD', status: 401, messageKey: 'error.INVALID_PASSWORD', followUp: 'none' },
  /** Login (sign-up) and Change password groups: the password does not meet the rules of spec §5. */
  INVALID_PW_REGEX: { code: 'INVALID_PW_REGEX', status: 400, messageKey: 'error.INVALID_PW_REGEX', followUp: 'none' },
  /** Login and Change password groups (spec §5 'Mot de passe incorrect.'): current password or confirmation wrong. */
  INCORRECT_PASSWORD: { code: 'INCORRECT_PASSWORD', status: 400, messageKey: 'error.INCORRECT_PASSWORD', followUp: 'none' },
  INVALID_MAIL_FORM: { code: 'INVALID_MAIL_FORM', status: 400, messageKey: 'error.INVALID_MAIL_FORM', followUp: 'none' },
  /** Sign-in callback failed (auth service error type "Callback"): back to the login page. */
  Callback: { code: 'Callback', status: 401, messageKey: 'error.Callback', followUp: 'toLogin' },
  /** Too many sign-in attempts: locked for 1 hour. */
  DUPLICATE_LOGIN: { code: 'DUPLICATE_LOGIN', status: 429, messageKey: 'error.DUPLICATE_LOGIN', followUp: 'none' },
  /**
   * Account being withdrawn. Login group (sign-in refused) and Withdrawal group (already requested, reload);
   * 409 + reload serves both.
   */
  WITHDRAWAL: { code: 'WITHDRAWAL', status: 409, messageKey: 'error.WITHDRAWAL', followUp: 'reload' },
  /** docs/API.md: same status and timing as INVALID_PASSWORD. */
  NOT_REGISTERED_USER: { code: 'NOT_REGISTERED_USER', status: 401, messageKey: 'error.NOT_REGISTERED_USER', followUp: 'none' },
  NOT_REGISTERED_PHONE_USER: {
    code: 'NOT_REGISTERED_PHONE_USER',
    status: 404,
    messageKey: 'error.NOT_REGISTERED_PHONE_USER',
    followUp: 'none',
  },
  ALREADY_USED_ANOTHER_PLATFORM: {
    code: 'ALREADY_USED_ANOTHER_PLATFORM',
    status: 409,
    messageKey: 'error.ALREADY_USED_ANOTHER_PLATFORM',
    followUp: 'none',
  },
  /** Spec §9: at most 5 auth IDs. */
  EXCEED_AUTH_COUNT: { code: 'EXCEED_AUTH_COUNT', status: 409, messageKey: 'error.EXCEED_AUTH_COUNT', followUp: 'none' },

  // ── Refresh (§8, §4 token handling) ──────────────────────────────────────────────────────────────
  EXPIRED_REFRESH_TOKEN: { code: 'EXPIRED_REFRESH_TOKEN', status: 401, messageKey: 'error.EXPIRED_REFRESH_TOKEN', followUp: 'logout' },
  NOT_FOUND_REFRESH_TOKEN: {
    code: 'NOT_FOUND_REFRESH_TOKEN',
    status: 401,
    messageKey: 'error.NOT_FOUND_REFRESH_TOKEN',
    followUp: 'logout',
  },
  NEED_TO_REFRESH: { code: 'NEED_TO_REFRESH', status: 401, messageKey: 'error.NEED_TO_REFRESH', followUp: 'refreshAndRetry' },

  // ── Viewer (§8) ──────────────────────────────────────────────────────────────────────────────────
  /** The reader does not own or rent the episode. */
  UNAUTHORIZED_CONTENTS: { code: 'UNAUTHORIZED_CONTENTS', status: 403, messageKey: 'error.UNAUTHORIZED_CONTENTS', followUp: 'back' },
  /** Viewer and Payment groups. */
  NOT_FOUND_EPISODE: { code: 'NOT_FOUND_EPISODE', status: 404, messageKey: 'error.NOT_FOUND_EPISODE', followUp: 'back' },
  NOT_FOUND_ACCESS_TOKEN: { code: 'NOT_FOUND_ACCESS_TOKEN', status: 401, messageKey: 'error.NOT_FOUND_ACCESS_TOKEN', followUp: 'logout' },

  // ── Events (§8; spec §6: events may be adults-only or minors-only) ───────────────────────────────
  NOT_FOUND_EVENT: { code: 'NOT_FOUND_EVENT', status: 404, messageKey: 'error.NOT_FOUND_EVENT', followUp: 'back' },
  NOT_EVENT_PERIOD: { code: 'NOT_EVENT_PERIOD', status: 403, messageKey: 'error.NOT_EVENT_PERIOD', followUp: 'back' },
  UNAUTHORIZED_USER: { code: 'UNAUTHORIZED_USER', status: 403, messageKey: 'error.UNAUTHORIZED_USER', followUp: 'back' },
  /** Minors-only event, adult reader. */
  UNAUTHORIZED_ADULT: { code: 'UNAUTHORIZED_ADULT', status: 403, messageKey: 'error.UNAUTHORIZED_ADULT', followUp: 'back' },
  /** Adults-only event, reader not verified adult: offer the age check. */
  UNAUTHORIZED_NON_ADULT: {
    code: 'UNAUTHORIZED_NON_ADULT',
    status: 403,
    messageKey: 'error.UNAUTHORIZED_NON_ADULT',
    followUp: 'adultPopup',
  },
  NOT_EVENT_REMAIN_TICKET: { code: 'NOT_EVENT_REMAIN_TICKET', status: 409, messageKey: 'error.NOT_EVENT_REMAIN_TICKET', followUp: 'none' },

  // ── Theme (§8) ───────────────────────────────────────────────────────────────────────────────────
  NOT_FOUND_THEME: { code: 'NOT_FOUND_THEME', status: 404, messageKey: 'error.NOT_FOUND_THEME', followUp: 'back' },

  // ── Coupon (§8) ──────────────────────────────────────────────────────────────────────────────────
  NOT_FOUND_COUPON_USER: { code: 'NOT_FOUND_COUPON_USER', status: 404, messageKey: 'error.NOT_FOUND_COUPON_USER', followUp: 'reload' },
  INVALID_MINIMUM_AMOUNT_COUPON: {
    code: 'INVALID_MINIMUM_AMOUNT_COUPON',
    status: 400,
    messageKey: 'error.INVALID_MINIMUM_AMOUNT_COUPON',
    followUp: 'none',
  },
  ALREADY_USED_COUPON: { code: 'ALREADY_USED_COUPON', status: 409, messageKey: 'error.ALREADY_USED_COUPON', followUp: 'none' },
  NOT_FOUND_COUPON: { code: 'NOT_FOUND_COUPON', status: 404, messageKey: 'error.NOT_FOUND_COUPON', followUp: 'none' },
  EXPIRED_COUPON: { code: 'EXPIRED_COUPON', status: 410, messageKey: 'error.EXPIRED_COUPON', followUp: 'none' },
  ALREADY_RECEIVED_COUPON: { code: 'ALREADY_RECEIVED_COUPON', status: 409, messageKey: 'error.ALREADY_RECEIVED_COUPON', followUp: 'none' },
  SOLD_OUT_COUPON: { code: 'SOLD_OUT_COUPON', status: 410, messageKey: 'error.SOLD_OUT_COUPON', followUp: 'none' },

  // ── Payment (§8; NOT_FOUND_EPISODE above) ───────────────────────────────────────────────────────
  /** Payment already completed: return to where the checkout started. */
  ALREADY_PAID: { code: 'ALREADY_PAID', status: 409, messageKey: 'error.ALREADY_PAID', followUp: 'returnUrl' },
  NOT_FOUND_PAYMENT_METHOD: {
    code: 'NOT_FOUND_PAYMENT_METHOD',
    status: 404,
    messageKey: 'error.NOT_FOUND_PAYMENT_METHOD',
    followUp: 'none',
  },
  NOT_FOUND_COIN_PRODUCT: { code: 'NOT_FOUND_COIN_PRODUCT', status: 404, messageKey: 'error.NOT_FOUND_COIN_PRODUCT', followUp: 'reload' },
  /** The product's overall sales limit is reached. */
  LIMITED_COIN_PRODUCT: { code: 'LIMITED_COIN_PRODUCT', status: 409, messageKey: 'error.LIMITED_COIN_PRODUCT', followUp: 'reload' },
  /** This reader's purchase limit for the product is reached. */
  LIMITED_COIN_PRODUCT_USER: {
    code: 'LIMITED_COIN_PRODUCT_USER',
    status: 409,
    messageKey: 'error.LIMITED_COIN_PRODUCT_USER',
    followUp: 'none',
  },

  // ── Password mail, QnA (§8) ──────────────────────────────────────────────────────────────────────
  /** Password mail group (retry in 5 minutes) and Withdrawal group (reload); reload serves both. */
  FREQUENT_REQUEST: { code: 'FREQUENT_REQUEST', status: 429, messageKey: 'error.FREQUENT_REQUEST', followUp: 'reload' },
  /**
   * Password mail, Find password and Withdrawal groups. The first two let the reader correct the address,
   * hence `none`; the withdrawal screen sends the reader home (§8) on its own.
   */
  NOT_FOUND_USER: { code: 'NOT_FOUND_USER', status: 404, messageKey: 'error.NOT_FOUND_USER', followUp: 'none' },
  /**
   * Generic unexpected failure (the only code the server maps unknown exceptions to). Password mail, Change
   * password, sign-up event and reset-password result groups (§3, §8) use the same code.
   */
  UNKNOWN: { code: 'UNKNOWN', status: 500, messageKey: 'error.UNKNOWN', followUp: 'none' },
  /** The daily maximum of support requests is reached. */
  LIMIT_QNA_COUNT: { code: 'LIMIT_QNA_COUNT', status: 429, messageKey: 'error.LIMIT_QNA_COUNT', followUp: 'none' },
  /** Issue 37 point 6: one export of the reader's data per edition day. */
  LIMIT_DATA_EXPORT: { code: 'LIMIT_DATA_EXPORT', status: 429, messageKey: 'error.LIMIT_DATA_EXPORT', followUp: 'none' },

  // ── Sign-up mail (§8) and sign-up event results (§3; ALREADY_USED_EMAIL above) ──────────────────
  INVALID_EMAIL: { code: 'INVALID_EMAIL', status: 400, messageKey: 'error.INVALID_EMAIL', followUp: 'none' },
  /** Spec §4: re-sign-up is blocked for 30 days after withdrawal. */
  DELETED_USER: { code: 'DELETED_USER', status: 403, messageKey: 'error.DELETED_USER', followUp: 'none' },
  /** §3 sign-up event error: the address was already verified. */
  ALREADY_AUTH_MAIL: { code: 'ALREADY_AUTH_MAIL', status: 409, messageKey: 'error.ALREADY_AUTH_MAIL', followUp: 'toLogin' },
  /** §3 sign-up event error: the link does not match an account. */
  INVALID_USER: { code: 'INVALID_USER', status: 404, messageKey: 'error.INVALID_USER', followUp: 'home' },

  // ── OTP (§8) ─────────────────────────────────────────────────────────────────────────────────────
  /** OTP group; also every request-validation failure of the API (docs/API.md: 400 with a code, never 500). */
  INVALID_PARAMETER: { code: 'INVALID_PARAMETER', status: 400, messageKey: 'error.INVALID_PARAMETER', followUp: 'none' },
  /** Spec §9: e-mail OTP valid 1 hour, SMS code 10 minutes. */
  EXPIRED_OTP: { code: 'EXPIRED_OTP', status: 410, messageKey: 'error.EXPIRED_OTP', followUp: 'resend' },

  // ── Withdrawal (§8; FREQUENT_REQUEST, WITHDRAWAL, NOT_FOUND_USER above) ─────────────────────────
  /** Withdrawal group (go home) and reset-password result (§3; link valid 1 hour, §4). */
  TIMEOUT: { code: 'TIMEOUT', status: 410, messageKey: 'error.TIMEOUT', followUp: 'home' },

  // ── Change password / reset password (§8, §3; others above) ─────────────────────────────────────
  /** Change password and Find password groups, reset-password result (§3). */
  EQUAL_PASSWORD: { code: 'EQUAL_PASSWORD', status: 400, messageKey: 'error.EQUAL_PASSWORD', followUp: 'none' },
  /** §3 reset-password result: a social-login account has no password here (spec §6: recover at the provider). */
  NOT_LOCAL_LOGIN_USER: { code: 'NOT_LOCAL_LOGIN_USER', status: 400, messageKey: 'error.NOT_LOCAL_LOGIN_USER', followUp: 'none' },

  // ── Find password (§8; NOT_FOUND_USER, EQUAL_PASSWORD above) ────────────────────────────────────
  /** The SMS code entered is wrong. */
  NOT_FOUND_SMS_USER: { code: 'NOT_FOUND_SMS_USER', status: 400, messageKey: 'error.NOT_FOUND_SMS_USER', followUp: 'none' },
  ALREADY_SEND_SMS: { code: 'ALREADY_SEND_SMS', status: 409, messageKey: 'error.ALREADY_SEND_SMS', followUp: 'none' },
  ALREADY_USE_SMS: { code: 'ALREADY_USE_SMS', status: 409, messageKey: 'error.ALREADY_USE_SMS', followUp: 'resend' },

  // ── Also (§8): client-side errors, given a status for logs ──────────────────────────────────────
  POPUP_BLOCKED: { code: 'POPUP_BLOCKED', status: 400, messageKey: 'error.POPUP_BLOCKED', followUp: 'none' },
  PAYMENT_CANCELLED: { code: 'PAYMENT_CANCELLED', status: 400, messageKey: 'error.PAYMENT_CANCELLED', followUp: 'returnUrl' },
  SESSION_EXPIRED: { code: 'SESSION_EXPIRED', status: 401, messageKey: 'error.SESSION_EXPIRED', followUp: 'toLogin' },
  /** Mobile-carrier identity check (/callback/auth-mobilians): the result was tampered with in transit. */
  CARRIER_TAMPERED: { code: 'CARRIER_TAMPERED', status: 400, messageKey: 'error.CARRIER_TAMPERED', followUp: 'back' },

  /**
   * Spec §8 "Also … App: retry": the mail or SMS provider failed or did not answer in time. The code or link
   * already stored stays valid (it may still arrive); the reader tries again in a moment.
   */
  RETRY: { code: 'RETRY', status: 503, messageKey: 'error.RETRY', followUp: 'none' },

  // ── Auth session service (§8, NextAuth wire names kept as they are) ─────────────────────────────
  CLIENT_FETCH_ERROR: { code: 'CLIENT_FETCH_ERROR', status: 503, messageKey: 'error.CLIENT_FETCH_ERROR', followUp: 'reload' },
  CLIENT_SESSION_ERROR: { code: 'CLIENT_SESSION_ERROR', status: 500, messageKey: 'error.CLIENT_SESSION_ERROR', followUp: 'reload' },
  MISSING_NEXTAUTH_API_ROUTE_ERROR: {
    code: 'MISSING_NEXTAUTH_API_ROUTE_ERROR',
    status: 500,
    messageKey: 'error.MISSING_NEXTAUTH_API_ROUTE_ERROR',
    followUp: 'none',
  },
  NO_SECRET: { code: 'NO_SECRET', status: 500, messageKey: 'error.NO_SECRET', followUp: 'none' },
  CALLBACK_CREDENTIALS_HANDLER_ERROR: {
    code: 'CALLBACK_CREDENTIALS_HANDLER_ERROR',
    status: 500,
    messageKey: 'error.CALLBACK_CREDENTIALS_HANDLER_ERROR',
    followUp: 'toLogin',
  },
  /** This edition sends no mail (no sender configured): e-mail sign-up and reset are unavailable; the login page offers the social logins. */
  EMAIL_REQUIRES_ADAPTER_ERROR: {
    code: 'EMAIL_REQUIRES_ADAPTER_ERROR',
    status: 503,
    messageKey: 'error.EMAIL_REQUIRES_ADAPTER_ERROR',
    followUp: 'toLogin',
  },
  CALLBACK_CREDENTIALS_JWT_ERROR: {
    code: 'CALLBACK_CREDENTIALS_JWT_ERROR',
    status: 500,
    messageKey: 'error.CALLBACK_CREDENTIALS_JWT_ERROR',
    followUp: 'toLogin',
  },
  INVALID_CALLBACK_URL_ERROR: {
    code: 'INVALID_CALLBACK_URL_ERROR',
    status: 400,
    messageKey: 'error.INVALID_CALLBACK_URL_ERROR',
    followUp: 'home',
  },
  /** The OAuth provider's answer could not be used (upstream failure). */
  OAuthCallbackError: { code: 'OAuthCallbackError', status: 502, messageKey: 'error.OAuthCallbackError', followUp: 'toLogin' },
  /** The e-mail is already linked to an account of another provider: sign in with that one. */
  AccountNotLinkedError: { code: 'AccountNotLinkedError', status: 409, messageKey: 'error.AccountNotLinkedError', followUp: 'toLogin' },
  UnknownError: { code: 'UnknownError', status: 500, messageKey: 'error.UnknownError', followUp: 'none' },
  /** Spec §8: missing session redirects to sign-in with `error=SessionRequired` and a callbackUrl. */
  SessionRequired: { code: 'SessionRequired', status: 401, messageKey: 'error.SessionRequired', followUp: 'toLogin' },

  // ── API contract (docs/API.md) ────────────────────────────────────────────────────────────────────────
  /** Same Idempotency-Key, different body. */
  IDEMPOTENCY_KEY_REUSED: { code: 'IDEMPOTENCY_KEY_REUSED', status: 409, messageKey: 'error.IDEMPOTENCY_KEY_REUSED', followUp: 'none' },
  /** A cookie-authenticated write from another Origin. */
  FORBIDDEN_ORIGIN: { code: 'FORBIDDEN_ORIGIN', status: 403, messageKey: 'error.FORBIDDEN_ORIGIN', followUp: 'reload' },
  PAYLOAD_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', status: 413, messageKey: 'error.PAYLOAD_TOO_LARGE', followUp: 'none' },
  METHOD_NOT_ALLOWED: { code: 'METHOD_NOT_ALLOWED', status: 405, messageKey: 'error.METHOD_NOT_ALLOWED', followUp: 'none' },
  UNSUPPORTED_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415, messageKey: 'error.UNSUPPORTED_MEDIA_TYPE', followUp: 'none' },
  TOO_MANY_REQUESTS: { code: 'TOO_MANY_REQUESTS', status: 429, messageKey: 'error.TOO_MANY_REQUESTS', followUp: 'none' },
} as const satisfies Record<string, ErrorEntry>

/** Every permanent error code (spec §8 plus the API contract's own). */
export type ErrorCode = keyof typeof ERRORS

/** Compile-time check that every entry's `code` and `messageKey` match the key it is stored under. */
type KeysMatchCodes<T> = { readonly [K in keyof T]: K extends string ? ErrorEntry<K> : never }
ERRORS satisfies KeysMatchCodes<typeof ERRORS>

/** All codes, in catalogue order. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[]

/** True when `x` is a catalogue code (own key only, so `toString` & co. are not codes). */
export function isErrorCode(x: string): x is ErrorCode {
  return Object.hasOwn(ERRORS, x)
}

/**
 * The one error type thrown for an expected failure; `onError` turns it into the API envelope
 * (`{"result":"ERROR","code","message","requestId"}`) with the entry's status.
 * `details` are interpolation values for the message (`{{name}}`) and diagnostic data; they are never
 * required by the current messages.
 */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: ErrorStatus
  readonly details?: Record<string, unknown>

  constructor(code: ErrorCode, details?: Record<string, unknown>) {
    super(code)
    this.name = 'AppError'
    this.code = code
    this.status = ERRORS[code].status
    if (details !== undefined) this.details = details
  }
}

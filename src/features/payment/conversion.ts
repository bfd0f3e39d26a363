/**
 * The Facebook conversion call of spec §7 (`POST /third-party/facebook/conversion` {acToken, action, actionUrl,
 * purchaseParamsRequest{currency, value}}), fired on a paid charge when the edition's `features.facebookConversion`
 * flag is on (issue 4 §2), behind a small provider interface. The local default records the call in D1
 * (`conversion_events`, one per payment) in the shared step that follows the reader's credit batch (`creditShared`,
 * payment.server.ts), so it happens once and only after the credit commits; a real provider would send the same body
 * after the commit.
 */

/** What spec §7 sends for a purchase. `value` is in minor units of `currency`. */
type ConversionEvent = {
  paymentId: string
  action: 'Purchase'
  actionUrl: string
  currency: string
  value: number
}

export type ConversionProvider = {
  readonly id: string
  /** Shared statements that record the call after the credit batch; repeating them records nothing twice. */
  statements(e: ConversionEvent, nowIso: string): { sql: string; params: unknown[] }[]
}

/** Local default: the call as a row of `conversion_events` (provider 'local'), shown to operators and tests. */
const localConversion: ConversionProvider = {
  id: 'local',
  statements(e, nowIso) {
    return [
      {
        sql: `INSERT OR IGNORE INTO conversion_events (provider, payment_id, action, action_url, currency, value, created_at) VALUES ('local', ?, ?, ?, ?, ?, ?)`,
        params: [e.paymentId, e.action, e.actionUrl, e.currency, e.value, nowIso],
      },
    ]
  },
}

/** The provider for an edition: the local one when the flag is on, none otherwise. */
export function conversionFor(flags: { facebookConversion: boolean }): ConversionProvider | null {
  return flags.facebookConversion ? localConversion : null
}

/** Money, numbers and lists through Intl with the edition's locale, currency and forms (spec §1; issue 35); dates: dates.ts. */
import type { Edition } from '../edition/schema.ts'

/**
 * A price in minor units in the edition's currency, as its readers write prices (`price`): the symbol (Intl's or the
 * edition's own) before or after, spaced or not, cents dropped from a whole price where readers do.
 */
export function formatMoney(minor: number, edition: Pick<Edition, 'locale' | 'currency' | 'price'>): string {
  const nf = new Intl.NumberFormat(edition.locale, { style: 'currency', currency: edition.currency })
  const digits = nf.resolvedOptions().maximumFractionDigits ?? 2
  const amount = minor / 10 ** digits
  const whole = edition.price.cents === 'unlessWhole' && Number.isInteger(amount)
  const parts = (
    whole ? new Intl.NumberFormat(edition.locale, { style: 'currency', currency: edition.currency, maximumFractionDigits: 0 }) : nf
  ).formatToParts(amount)
  const symbol =
    edition.price.symbol ??
    parts
      .filter((p) => p.type === 'currency')
      .map((p) => p.value)
      .join('')
  const number = parts
    .filter((p) => p.type !== 'currency' && p.type !== 'literal')
    .map((p) => p.value)
    .join('')
  const gap = edition.price.space ? '\u00a0' : ''
  return edition.price.position === 'before' ? `${symbol}${gap}${number}` : `${number}${gap}${symbol}`
}

/** One formatter per locale (building one costs far more than using it). */
const numberFormats = new Map<string, Intl.NumberFormat>()
const listFormats = new Map<string, Intl.ListFormat>()
const compactFormats = new Map<string, Intl.NumberFormat>()

/**
 * A count (coins, mileage, views) with the locale's digits and grouping: 3600 → "3 600" (fr), "3,600" (th, jp), "3.600"
 * (de); `signed`: a movement, "+3 600" / "-10".
 */
export function formatNumber(n: number, edition: Pick<Edition, 'locale'>, signed = false): string {
  const key = `${edition.locale}${signed ? ' signed' : ''}`
  let f = numberFormats.get(key)
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(edition.locale, signed ? { signDisplay: 'exceptZero' } : {})))
  return f.format(n)
}

/** A count shown short (view counts), Intl compact notation: 12345 → "12 k" (fr), "1.2万" (jp), "1.2만" (kr). */
export function formatCompact(n: number, edition: Pick<Edition, 'locale'>): string {
  let f = compactFormats.get(edition.locale)
  if (!f) compactFormats.set(edition.locale, (f = new Intl.NumberFormat(edition.locale, { notation: 'compact', maximumFractionDigits: 1 })))
  return f.format(n)
}

/** A list in the locale's way: "dimanche et mercredi", "日曜日、水曜日", "الأحد والأربعاء". */
export function formatList(items: readonly string[], edition: Pick<Edition, 'locale'>): string {
  let f = listFormats.get(edition.locale)
  if (!f) listFormats.set(edition.locale, (f = new Intl.ListFormat(edition.locale, { type: 'conjunction', style: 'long' })))
  return f.format(items)
}

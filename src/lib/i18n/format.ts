/** Dates and money through Intl with the edition's locale, time zone and currency (spec §1, §9). */
import type { Edition } from '../edition/schema.ts'

/** One formatter per time zone: building an Intl.DateTimeFormat costs far more than using one (a detail page formats dozens of dates). */
const dateFormats = new Map<string, Intl.DateTimeFormat>()
function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let f = dateFormats.get(timeZone)
  if (!f) dateFormats.set(timeZone, (f = new Intl.DateTimeFormat('en-GB', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' })))
  return f
}

/** Spec §9: dates as dd.MM.yyyy (in every edition, in the edition's time zone). */
export function formatDate(date: Date | string, edition: Pick<Edition, 'timeZone'>): string {
  const parts = dateFormat(edition.timeZone).formatToParts(new Date(date))
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${get('day')}.${get('month')}.${get('year')}`
}

/** Date and time for "rented until …" style labels, in the edition's language and time zone. */
export function formatDateTime(date: Date | string, edition: Pick<Edition, 'timeZone' | 'locale'>): string {
  const d = new Date(date)
  const time = new Intl.DateTimeFormat(edition.locale, { timeZone: edition.timeZone, hour: '2-digit', minute: '2-digit' }).format(d)
  return `${formatDate(d, edition)} ${time}`
}

/** A price in minor units in the edition's currency, symbol before or after as the edition says. */
export function formatMoney(minor: number, edition: Pick<Edition, 'locale' | 'currency' | 'currencySymbolPosition'>): string {
  const nf = new Intl.NumberFormat(edition.locale, { style: 'currency', currency: edition.currency })
  const digits = nf.resolvedOptions().maximumFractionDigits ?? 2
  const parts = nf.formatToParts(minor / 10 ** digits)
  const symbol = parts
    .filter((p) => p.type === 'currency')
    .map((p) => p.value)
    .join('')
  const number = parts
    .filter((p) => p.type !== 'currency' && p.type !== 'literal')
    .map((p) => p.value)
    .join('')
  return edition.currencySymbolPosition === 'before' ? `${symbol}${number}` : `${number}\u00a0${symbol}`
}

/** A calendar day (YYYY-MM-DD, already in the edition's time zone) as spec §9's dd.MM.yyyy. */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-')
  return `${d}.${m}.${y}`
}

/** One formatter per locale (building one costs far more than using it). */
const numberFormats = new Map<string, Intl.NumberFormat>()
const listFormats = new Map<string, Intl.ListFormat>()
const compactFormats = new Map<string, Intl.NumberFormat>()

/** A count (coins, mileage, views) with the locale's digits and grouping: 3600 → "3 600" (fr), "3,600" (th, jp), "3.600" (de). */
export function formatNumber(n: number, edition: Pick<Edition, 'locale'>): string {
  let f = numberFormats.get(edition.locale)
  if (!f) numberFormats.set(edition.locale, (f = new Intl.NumberFormat(edition.locale)))
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

/** Titles compared as a reader sees them: width forms, spaces and case do not count ("第 2 話" is "第2話"). */
const asRead = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').toLowerCase()

/**
 * An episode's label (issue 25: a label never repeats its own number): `full` ("Épisode 6 : Le retour") for a
 * titled episode, `numberLabel` alone ("Épisode 6") when the title is empty or is that label itself.
 */
export function episodeLabel(title: string, numberLabel: string, full: string): string {
  return isNumberLabel(title, numberLabel) ? numberLabel : full
}

/** Whether an episode's title says nothing but its number label ("第 2 話" for "第2話"), or nothing at all. */
export function isNumberLabel(title: string, numberLabel: string): boolean {
  return title.trim() === '' || asRead(title) === asRead(numberLabel)
}

/** Dates and money through Intl with the edition's locale, time zone, currency and forms (spec §1, §9; issue 35). */
import type { Edition } from '../edition/schema.ts'

/** What writing a date needs of an edition (pages pass it to their scripts as `data-dates`, `datesOf`). */
export type DateEdition = Pick<Edition, 'timeZone' | 'locale' | 'dateForm'>
export const datesOf = ({ timeZone, locale, dateForm }: DateEdition): DateEdition => ({ timeZone, locale, dateForm })

/** One formatter per edition form and time zone: building an Intl.DateTimeFormat costs far more than using one (a detail page formats dozens of dates). */
const dateFormats = new Map<string, Intl.DateTimeFormat>()
function dateFormat(edition: DateEdition, timeZone: string): Intl.DateTimeFormat {
  const locale = edition.dateForm === 'dotted' ? 'en-GB' : edition.locale
  const key = `${locale} ${timeZone}`
  let f = dateFormats.get(key)
  if (!f) dateFormats.set(key, (f = new Intl.DateTimeFormat(locale, { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' })))
  return f
}

function formatIn(date: Date, edition: DateEdition, timeZone: string): string {
  const f = dateFormat(edition, timeZone)
  if (edition.dateForm === 'locale') return f.format(date)
  const parts = f.formatToParts(date)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${get('day')}.${get('month')}.${get('year')}`
}

/**
 * A date in the edition's time zone, written as its readers write dates (`dateForm`): spec §9's dd.MM.yyyy in fr,
 * the locale's own short date elsewhere (2026/11/29 in jp, 2026. 11. 29. in kr, 29/11/2569 in th).
 */
export function formatDate(date: Date | string, edition: DateEdition): string {
  return formatIn(new Date(date), edition, edition.timeZone)
}

/** Date and 24-hour time for "rented until …" labels, in the edition's forms and time zone; '' for a bad date. */
export function formatDateTime(date: Date | string, edition: DateEdition): string {
  const d = new Date(date)
  if (Number.isNaN(d.getTime())) return ''
  const time = new Intl.DateTimeFormat(edition.locale, {
    timeZone: edition.timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(d)
  return `${formatDate(d, edition)} ${time}`
}

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

/** A calendar day (YYYY-MM-DD, already in the edition's time zone) written as the edition writes dates. */
export function formatDay(day: string, edition: DateEdition): string {
  return formatIn(new Date(`${day}T12:00:00Z`), edition, 'UTC')
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

/**
 * Dates through Intl in the edition's time zone and form (spec §9; issue 35 point 1), apart from format.ts so that a
 * page formatting numbers (the plural rules) loads no date code.
 */
import type { Edition } from '../edition/schema.ts'
import { BoundedMap } from '../bounded-map.ts'

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

/** Dates written, by form, zone and instant: a series page writes the same dates each time. */
const written = new BoundedMap<string, string>(2000)

function formatIn(date: Date, edition: DateEdition, timeZone: string): string {
  const key = `${edition.locale} ${edition.dateForm} ${timeZone} ${date.getTime()}`
  let out = written.get(key)
  if (out === undefined) {
    const f = dateFormat(edition, timeZone)
    if (edition.dateForm === 'locale') out = f.format(date)
    else {
      const parts = f.formatToParts(date)
      const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
      out = `${get('day')}.${get('month')}.${get('year')}`
    }
    written.set(key, out)
  }
  return out
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

/** A calendar day (YYYY-MM-DD, already in the edition's time zone) written as the edition writes dates. */
export function formatDay(day: string, edition: DateEdition): string {
  return formatIn(new Date(`${day}T12:00:00Z`), edition, 'UTC')
}

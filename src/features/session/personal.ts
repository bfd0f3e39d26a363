/**
 * The texts of the header's personal part (the coin balance and the alarm bell), the same on the server (HeaderMe.astro
 * renders them with the page's personal part) and in the browser (header.ts keeps them live).
 */
import { pluralText, type Plural } from '../../lib/i18n/plural.ts'
import { formatNumber } from '../../lib/i18n/format.ts'

/** The balance link's text: "N coins" in the edition's plural form. */
export const balanceText = (label: Plural, total: number): string => pluralText(label, total)

/** The bell's badge (empty at none, 99+ past 99) and its spoken label (`empty` at none). */
export function bellText(label: Plural, empty: string, count: number): { badge: string; label: string } {
  if (count <= 0) return { badge: '', label: empty }
  return { badge: count > 99 ? '99+' : formatNumber(count, label), label: pluralText(label, count) }
}

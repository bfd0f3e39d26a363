import { describe, expect, it } from 'vitest'
import { EDITION_IDS } from '../../src/lib/edition/schema.ts'
import { loadEdition } from '../../src/lib/edition/load.ts'
import { WEEKDAYS, scheduleSummary, sortSchedule } from '../../src/features/catalogue/catalogue.ts'
import { buildDemo } from './data.ts'

/**
 * Issue 35 point 3, the demo's half: a series' schedule lists the weekdays its episodes came out on (a daily series
 * every day), and the one next-episode rule (`scheduleSummary`, used by the series page and by the end of the latest
 * episode) gives the date the seed planned, in every edition's time zone, whenever the demo is seeded.
 */

const weekdayFormats = new Map<string, Intl.DateTimeFormat>()
const weekdayIn = (iso: string, timeZone: string) => {
  let f = weekdayFormats.get(timeZone)
  if (!f) weekdayFormats.set(timeZone, (f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' })))
  return f.format(new Date(iso)).toUpperCase()
}
const dayFormats = new Map<string, Intl.DateTimeFormat>()
const dayIn = (iso: string, timeZone: string) => {
  let f = dayFormats.get(timeZone)
  if (!f) dayFormats.set(timeZone, (f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })))
  return f.format(new Date(iso))
}
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000)

/** Seeding moments: now, and moments near midnight, around Europe's DST changes and across a year's end. */
const MOMENTS = [
  new Date(),
  new Date('2026-03-29T00:30:00Z'), // Paris and Berlin move to summer time this night; Asia is at its morning
  new Date('2026-10-25T22:59:00Z'), // a minute before midnight in Paris, the day winter time came back
  new Date('2026-11-28T15:00:00Z'), // midnight in Tokyo and Seoul
  new Date('2026-11-29T17:00:30Z'), // 30 seconds past midnight in Bangkok, past 01:00 in Taipei
  new Date('2026-12-31T20:00:10Z'), // midnight in Dubai, the year's last day
]

const editions = EDITION_IDS.map((id) => {
  const { locale, timeZone, currency } = loadEdition(id).edition
  return { id, locale, timeZone, currency }
})

describe.each(editions)('the $id demo schedules match their episodes', ({ locale, timeZone, currency }) => {
  it.each(MOMENTS.map((now) => [now.toISOString(), now] as const))('seeded at %s', (_, now) => {
    const { tables } = buildDemo({ currency, locale, timeZone, now, passwordHash: 'x', minorPasswordHash: 'y' })
    const schedules = new Map<number, string[]>()
    for (const r of tables.schedules!)
      schedules.set(Number(r.series_id), [...(schedules.get(Number(r.series_id)) ?? []), String(r.weekday)])
    const ongoing = tables.series!.filter((s) => s.status === 'SCHEDULED')
    expect(ongoing.length).toBeGreaterThan(20)
    const wrong: string[] = []
    for (const s of ongoing) {
      const id = Number(s.id)
      const days = sortSchedule(schedules.get(id) ?? [])
      const weekdays = days.filter((d) => d !== 'TEN')
      const episodes = tables
        .episodes!.filter((e) => e.series_id === id)
        .sort((a, b) => Number(a.no) - Number(b.no))
        .map((e) => String(e.published_at))
      const last = episodes[episodes.length - 1]!
      if (days.length === 0) wrong.push(`series ${id} is ongoing without a schedule`)
      // the weekdays the episodes came out on (in the edition's time zone) are the schedule's
      if (weekdays.length > 0) {
        const off = episodes.filter((at) => !weekdays.includes(weekdayIn(at, timeZone) as (typeof WEEKDAYS)[number]))
        if (off.length) wrong.push(`series ${id} (${weekdays.join(', ')}) has episodes out on other days: ${off.join(', ')}`)
      }
      // a series out every day is scheduled every day
      const gaps = episodes.slice(1).map((at, i) => daysBetween(dayIn(episodes[i]!, timeZone), dayIn(at, timeZone)))
      if (gaps.every((g) => g === 1) && weekdays.length !== 7)
        wrong.push(`series ${id} comes out daily but is scheduled on ${days.join(', ')}`)
      if (s.last_episode_at !== last) wrong.push(`series ${id}: last_episode_at ${s.last_episode_at}, newest episode ${last}`)
      // the series page and the end of the latest episode say the day the seed planned
      const next = scheduleSummary(
        { status: 'SCHEDULED', schedule: days, nextUpdateAt: s.next_update_at as string, lastPublishedAt: last },
        timeZone,
        now,
      )
      if (next?.next !== dayIn(String(s.next_update_at), timeZone))
        wrong.push(`series ${id}: the pages say ${next?.next}, the seed planned ${s.next_update_at} (${days.join(', ')})`)
    }
    expect(wrong).toEqual([])
    // every weekday of the weekly tab has series
    for (const day of WEEKDAYS)
      expect(
        [...schedules.values()].some((d) => d.includes(day)),
        day,
      ).toBe(true)
  })
})

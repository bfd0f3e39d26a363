/** /event landing data: the events running now, with their adult / minor restriction (real D1, demo seed). */
import { beforeAll, describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { currentEvents } from '../../src/features/event/event.server.ts'
import { eventAccess } from '../../src/features/event/event.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

describe('current events', () => {
  it('lists running events only (not the ended one), in one query, with their restrictions', async () => {
    const db = createDb(env.DB)
    const now = new Date()
    const events = await currentEvents(db, now)
    expect(db.queryCount).toBe(1)
    expect(events.length).toBeGreaterThanOrEqual(3)
    for (const e of events) expect(e.startsAt <= now.toISOString() && e.endsAt > now.toISOString()).toBe(true)
    expect(events.map((e) => e.restriction).sort()).toEqual(expect.arrayContaining(['ADULT', 'NON_ADULT', null]))
    const ended = await env.DB.prepare(`SELECT id FROM events WHERE ends_at <= ?`).bind(now.toISOString()).all<{ id: number }>()
    expect(ended.results.length).toBeGreaterThan(0)
    for (const r of ended.results) expect(events.map((e) => e.id)).not.toContain(r.id)
  })

  it('keeps a minor out of the adults-only event and an adult out of the minors-only one', async () => {
    const events = await currentEvents(createDb(env.DB), new Date())
    const adultsOnly = events.find((e) => e.restriction === 'ADULT')!
    const minorsOnly = events.find((e) => e.restriction === 'NON_ADULT')!
    const adult = { signedIn: true, adult: true }
    const minor = { signedIn: true, adult: false }
    expect(eventAccess({ ...adultsOnly, isActive: true }, minor, new Date())).toBe('UNAUTHORIZED_NON_ADULT')
    expect(eventAccess({ ...minorsOnly, isActive: true }, adult, new Date())).toBe('UNAUTHORIZED_ADULT')
    expect(eventAccess({ ...adultsOnly, isActive: true }, adult, new Date())).toBe('ok')
  })

  it('hides inactive events', async () => {
    const before = await currentEvents(createDb(env.DB), new Date())
    await env.DB.prepare('UPDATE events SET is_active = 0 WHERE id = ?').bind(before[0]!.id).run()
    const after = await currentEvents(createDb(env.DB), new Date())
    expect(after.map((e) => e.id)).not.toContain(before[0]!.id)
  })
})

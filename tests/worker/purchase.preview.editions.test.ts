/**
 * Issue 18 item 1: the rent-or-buy preview and the purchase judge adult status by the same edition rules. On kr a
 * Korean-IP adult without the carrier check, and on th a reader with no birth date, are not adult (spec §5): the
 * preview must refuse what the purchase refuses (it used the common rules before and offered a sale the
 * purchase then refused).
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, read, request } from './app.ts'
import { give, newSeries } from './purchase.helpers.ts'
import { issueTokens } from '../../src/features/auth/auth.server.ts'
import { createDb } from '../../src/lib/server/db.ts'
import { parseEdition, type Edition } from '../../src/lib/edition/schema.ts'
import kr from '../../editions/kr/edition.json'
import th from '../../editions/th/edition.json'

async function readerOf(edition: Edition, flags: { isKrIpUser: number; birthedAt: string | null }) {
  const row = await env.DB.prepare(
    `INSERT INTO users (email, is_adult, adult_verified_at, is_kr_ip_user, is_adult_kr, birthed_at, show_adult) VALUES (?, 1, ?, ?, 0, ?, 1) RETURNING id`,
  )
    .bind(`preview-${crypto.randomUUID()}@example.com`, new Date().toISOString(), flags.isKrIpUser, flags.birthedAt)
    .first<{ id: number }>()
  const token = (await issueTokens(createDb(env.DB), row!.id, { issuer: edition.siteUrl, t: (k) => k })).accessToken
  return { id: row!.id, headers: { authorization: `Bearer ${token.value}` } }
}

describe.each([
  ['kr', parseEdition('kr', kr), { isKrIpUser: 1, birthedAt: '1990-04-01' }],
  ['th', parseEdition('th', th), { isKrIpUser: 0, birthedAt: null }],
])('%s: preview and purchase agree on an adult episode', (_id, edition, flags) => {
  it('both answer ADULT_ONLY_CONTENTS to a reader the edition does not count as adult', async () => {
    const app = appFor(edition)
    const reader = await readerOf(edition, flags)
    await give(reader.id, 'COIN', 50)
    const { episodeIds } = await newSeries({ episodes: 2, adult: true })
    const preview = await request(app, `/api/v1/purchase/preview?episodeId=${episodeIds[0]}`, { headers: reader.headers })
    const purchase = await request(app, '/api/v1/purchase', {
      method: 'POST',
      headers: { ...reader.headers, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ episodeIds: [episodeIds[0]], kind: 'RENT' }),
    })
    expect([preview.status, (await read(preview)).code]).toEqual([403, 'ADULT_ONLY_CONTENTS'])
    expect([purchase.status, (await read(purchase)).code]).toEqual([403, 'ADULT_ONLY_CONTENTS'])
  })
})

/** Fixtures of the comment and QnA worker tests: the edge app, JSON and form calls. */
import { expect } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, expectError, frEdition, frMessages, read, request } from './app.ts'

export { expectError, read }
import { createDb } from '../../src/lib/server/db.ts'
import { issueTokens } from '../../src/features/auth/auth.server.ts'

export const app = appFor(frEdition, frMessages)
export const db = createDb(env.DB)
export { frEdition }
let seq = 0

export type Reader = { id: number; email: string; headers: Record<string, string> }

/** A new account (adult unless told) signed in with a Bearer access token. */
export async function newReader(opts: { adult?: boolean } = {}): Promise<Reader> {
  const email = `community-${Date.now()}-${++seq}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const row = await db.first<{ id: number }>(
    `INSERT INTO users (email, is_adult) VALUES (?, ?) RETURNING id`,
    email,
    opts.adult === false ? 0 : 1,
  )
  const token = (await issueTokens(createDb(env.DB), row!.id, { issuer: frEdition.siteUrl, t: (k) => k })).accessToken
  return { id: row!.id, email, headers: { authorization: `Bearer ${token.value}` } }
}

/** A published series with `episodes` free episodes. */
export async function newSeries(opts: {
  episodes: number
  free?: number
  adult?: boolean
}): Promise<{ seriesId: number; episodeIds: number[] }> {
  const s = await db.first<{ id: number }>(
    `INSERT INTO series (title, status, genre, is_adult) VALUES (?, 'COMPLETED', 'DRAMA', ?) RETURNING id`,
    `Série commentée ${++seq}`,
    opts.adult ? 1 : 0,
  )
  const rows = await db.all<{ id: number }>(
    `INSERT INTO episodes (series_id, no, title, is_free, price_rent, price_buy, published_at)
     SELECT ?, value, 'Épisode ' || value, 1, 2, 4, '2026-01-01T00:00:00.000Z' FROM json_each(?) RETURNING id`,
    s!.id,
    JSON.stringify(Array.from({ length: opts.episodes }, (_, i) => i + 1)),
  )
  return { seriesId: s!.id, episodeIds: rows.map((r) => r.id).sort((a, b) => a - b) }
}

export function call(reader: Pick<Reader, 'headers'> | null, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { ...(reader?.headers ?? {}) }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return request(app, path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
}

/** A plain form post from the site's own origin (as the browser sends it), redirects not followed. */
export function form(reader: Pick<Reader, 'headers'> | null, path: string, fields: Record<string, string>, origin = 'http://localhost') {
  return request(app, path, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...(reader?.headers ?? {}), origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

/** Everything a comment call could write. */
export async function communitySnapshot() {
  return db.first(`SELECT (SELECT count(*) FROM comments) AS comments, (SELECT coalesce(sum(like_count + dislike_count + report_count + reply_count), 0) FROM comments) AS counters,
    (SELECT group_concat(coalesce(state, '-')) FROM comments) AS states, (SELECT count(*) FROM comment_reactions) AS reactions,
    (SELECT count(*) FROM user_blocks) AS blocks, (SELECT count(*) FROM qnas) AS qnas, (SELECT count(*) FROM outbox) AS mails`)
}

/** A tiny PNG: the attachment of `askWithImage`'s question. */
export const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])

/** A support question with one image (`PNG`), filed through /qna/register as a reader does: its id. */
export async function askWithImage(
  reader: Pick<Reader, 'headers'>,
  question: { category: string; title: string; text: string; file: string },
): Promise<number> {
  const body = new FormData()
  body.set('category', question.category)
  body.set('title', question.title)
  body.set('text', question.text)
  body.append('images', new File([PNG], question.file, { type: 'image/png' }))
  const res = await request(app, '/api/v1/qna/web/register', {
    method: 'POST',
    redirect: 'manual',
    headers: { ...reader.headers, origin: 'http://localhost' },
    body,
  })
  expect(res.status).toBe(303)
  return Number(/sent=(\d+)/.exec(res.headers.get('location')!)![1])
}

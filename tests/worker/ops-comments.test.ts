/**
 * Comment moderation through the operator API (issue 39 point 7; docs/API.md "Operator API":
 * `GET /api/ops/comments/reported`, `POST /api/ops/comments/{id}/hide|restore`,
 * `POST /api/ops/readers/{id}/comment-block|comment-unblock`; `npm run ops -- comments …`) on the real edge app and
 * D1: reported comments listed with their ids, newest or most reported first; a hidden comment gone from readers'
 * lists and counts, its reports reviewed, restored back; a blocked reader's post refused (UNAUTHORIZED_USER, reason
 * COMMENT_BLOCKED, until when and why) until unblocked; each change one audit row; 40 concurrent calls of each change
 * one effect and one audit row; 1,000 generated bad bodies per changing route answer no 5xx and change nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { env, withEnv } from 'cloudflare:workers'
import { seedDemo } from './seed.ts'
import { OPS, auditLines, expectBadBodiesRefused, logSpy } from './ops.helpers.ts'
import { call, db, expectError, form, newReader, newSeries, read, type Reader } from './comment.helpers.ts'

beforeAll(async () => {
  await seedDemo(env.DB)
})

const ops = (method: string, path: string, body?: unknown) => call(OPS, method, `/api/ops${path}`, body)
const post = async (reader: Reader, body: Record<string, unknown>) => {
  const res = await call(reader, 'POST', '/api/v1/comment', body)
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(201)
  return (await read(res)).data as { id: number }
}
const report = async (reader: Reader, id: number) =>
  expect((await call(reader, 'POST', `/api/v1/comment/${id}/reaction`, { kind: 'REPORT' })).status).toBe(200)
const readersList = async (seriesId: number) =>
  (await read(await call(null, 'GET', `/api/v1/comment?contentsId=${seriesId}`))).data as { items: { id: number }[]; total: number }
const reported = async (query: string) => (await read(await ops('GET', `/comments/reported?${query}`))).data
const auditOf = (target: string) => db.all(`SELECT action, operator, reason FROM ops_audit WHERE target = ? ORDER BY id`, target)

/** Everything a moderation call could change. */
const snapshot = () =>
  db.first(`SELECT (SELECT group_concat(id || ':' || coalesce(state, '-')) FROM comments) AS states,
    (SELECT count(*) FROM comment_reactions WHERE reviewed_at IS NOT NULL) AS reviewed,
    (SELECT group_concat(user_id || ':' || until) FROM comment_bans) AS bans, (SELECT count(*) FROM ops_audit) AS audit`)

/** A series with one comment by `author` reported by `reporters` readers. */
async function reportedComment(reporters: number) {
  const s = await newSeries({ episodes: 1, free: 1 })
  const author = await newReader()
  const comment = await post(author, { contentsId: s.seriesId, text: 'Un commentaire signalé' })
  for (let i = 0; i < reporters; i++) await report(await newReader(), comment.id)
  return { seriesId: s.seriesId, author, id: comment.id }
}

describe('operator API: comment moderation', () => {
  it('every route is 404 NOT_EXIST without OPS_TOKEN and 401 NOT_LOGIN_USER without the right token, changing nothing', async () => {
    const c = await reportedComment(1)
    const before = await snapshot()
    const routes: [string, string][] = [
      ['GET', '/api/ops/comments/reported'],
      ['POST', `/api/ops/comments/${c.id}/hide`],
      ['POST', `/api/ops/comments/${c.id}/restore`],
      ['POST', `/api/ops/readers/${c.author.id}/comment-block`],
      ['POST', `/api/ops/readers/${c.author.id}/comment-unblock`],
    ]
    for (const [method, path] of routes) {
      const body = method === 'GET' ? undefined : { reason: 'x', days: 3 }
      for (const OPS_TOKEN of ['', undefined])
        await expectError((await withEnv({ ...env, OPS_TOKEN }, () => call(OPS, method, path, body))) as Response, 404, 'NOT_EXIST')
      await expectError(await call(null, method, path, body), 401, 'NOT_LOGIN_USER')
      await expectError(await call({ headers: { authorization: 'Bearer wrong' } }, method, path, body), 401, 'NOT_LOGIN_USER')
    }
    expect(await snapshot()).toEqual(before)
  })

  it('lists reported comments with their ids, newest or most reported first, by series and days', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const author = await newReader()
    const once = await post(author, { contentsId: s.seriesId, text: 'Signalé une fois' })
    const twice = await post(author, { contentsId: s.seriesId, episodeId: s.episodeIds[0], text: 'Signalé deux fois' })
    const never = await post(author, { contentsId: s.seriesId, text: 'Jamais signalé' })
    await report(await newReader(), twice.id)
    await report(await newReader(), twice.id)
    await report(await newReader(), once.id) // the latest report
    const newest = await reported(`series=${s.seriesId}`)
    expect(newest.items.map((c: any) => [c.id, c.openReports])).toEqual([
      [once.id, 1],
      [twice.id, 2],
    ])
    expect(newest.items[1]).toMatchObject({
      seriesId: s.seriesId,
      episodeId: s.episodeIds[0],
      episodeNo: 1,
      author: { id: author.id },
      text: 'Signalé deux fois',
      state: 'REPORT',
      reports: 2,
    })
    expect(newest.timeZone).toBe('Europe/Paris')
    expect(newest.next).toBeNull()
    const most = await reported(`series=${s.seriesId}&sort=most`)
    expect(most.items.map((c: any) => c.id)).toEqual([twice.id, once.id])
    expect(most.items.map((c: any) => c.id)).not.toContain(never.id)
    // a page at a time (newest): the second page after the first's cursor
    const first = await reported(`series=${s.seriesId}&limit=1`)
    expect(first.items.map((c: any) => c.id)).toEqual([once.id])
    const second = await reported(`series=${s.seriesId}&limit=1&cursor=${first.next}`)
    expect(second.items.map((c: any) => c.id)).toEqual([twice.id])
    expect(second.next).toBeNull()
    // --days: the latest report's age
    await db.run(`UPDATE comment_reactions SET created_at = '2020-01-01T00:00:00.000Z' WHERE comment_id = ?`, twice.id)
    expect((await reported(`series=${s.seriesId}&days=7`)).items.map((c: any) => c.id)).toEqual([once.id])
    for (const bad of ['days=0', 'days=367', 'series=x', 'sort=best', 'limit=0', 'limit=201', 'cursor=-1'])
      await expectError(await ops('GET', `/comments/reported?${bad}`), 400, 'INVALID_PARAMETER')
  })

  it('hide: gone from readers’ lists and counts, its reports reviewed, one audit row; restore brings it back', async () => {
    logSpy()
    const c = await reportedComment(3) // three reports: BLIND, shown as a notice
    const other = await post(await newReader(), { contentsId: c.seriesId, text: 'Un autre' })
    expect((await readersList(c.seriesId)).total).toBe(2)
    const hidden = await ops('POST', `/comments/${c.id}/hide`, { reason: 'insultes' })
    expect(hidden.status).toBe(200)
    expect((await read(hidden)).data).toMatchObject({ id: c.id, state: 'BLOCK', changed: true, userId: c.author.id, reports: 3 })
    const list = await readersList(c.seriesId)
    expect(list.items.map((x) => x.id)).toEqual([other.id])
    expect(list.total).toBe(1)
    expect(await db.first(`SELECT count(*) AS open FROM comment_reactions WHERE comment_id = ? AND reviewed_at IS NULL`, c.id)).toEqual({
      open: 0,
    })
    expect((await reported(`series=${c.seriesId}`)).items).toEqual([])
    // a reader cannot react to (or report) a hidden comment
    await expectError(await call(await newReader(), 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'LIKE' }), 404, 'NOT_EXIST')
    // hiding it again changes nothing and writes no audit row
    expect((await read(await ops('POST', `/comments/${c.id}/hide`, { reason: 'encore' }))).data.changed).toBe(false)

    const restored = (await read(await ops('POST', `/comments/${c.id}/restore`, { reason: 'appel accepté' }))).data
    expect(restored).toMatchObject({ id: c.id, state: null, changed: true })
    expect((await readersList(c.seriesId)).total).toBe(2)
    // only new reports count towards the third that hides it again
    await report(await newReader(), c.id)
    expect(await db.first(`SELECT state FROM comments WHERE id = ?`, c.id)).toEqual({ state: 'REPORT' })
    expect((await reported(`series=${c.seriesId}`)).items.map((x: any) => [x.id, x.openReports, x.reports])).toEqual([[c.id, 1, 4]])

    const rows = await db.all<{ action: string; before_json: string; after_json: string; reason: string }>(
      `SELECT action, before_json, after_json, reason FROM ops_audit WHERE target = ? ORDER BY id`,
      `comment:${c.id}`,
    )
    expect(rows.map((r) => [r.action, r.reason])).toEqual([
      ['comment.hide', 'insultes'],
      ['comment.restore', 'appel accepté'],
    ])
    expect(JSON.parse(rows[0]!.before_json)).toMatchObject({ state: 'BLIND', body: 'Un commentaire signalé' })
    expect(JSON.parse(rows[0]!.after_json)).toMatchObject({ state: 'BLOCK' })
    expect(JSON.parse(rows[1]!.after_json)).toMatchObject({ state: null })
    expect(auditLines().map((l) => [l.ops, l.commentId, l.reason])).toEqual([
      ['comment.hide', c.id, 'insultes'],
      ['comment.restore', c.id, 'appel accepté'],
    ])
    const before = await snapshot()
    await expectError(await ops('POST', '/comments/999999999/hide', { reason: 'r' }), 404, 'NOT_EXIST')
    await expectError(await ops('POST', '/comments/999999999/restore', { reason: 'r' }), 404, 'NOT_EXIST')
    expect(await snapshot()).toEqual(before)
  })

  it('a hidden reply leaves its parent’s reply count and the replies readers see', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const a = await newReader()
    const parent = await post(a, { contentsId: s.seriesId, text: 'Parent' })
    const reply = await post(await newReader(), { contentsId: s.seriesId, parentId: parent.id, text: 'Réponse' })
    await ops('POST', `/comments/${reply.id}/hide`, { reason: 'spam' })
    expect(await db.first(`SELECT reply_count FROM comments WHERE id = ?`, parent.id)).toEqual({ reply_count: 0 })
    expect((await read(await call(null, 'GET', `/api/v1/comment/${parent.id}/reply`))).data.items).toEqual([])
    await ops('POST', `/comments/${reply.id}/restore`, { reason: 'erreur' })
    expect(await db.first(`SELECT reply_count FROM comments WHERE id = ?`, parent.id)).toEqual({ reply_count: 1 })
  })

  it('block: the reader’s posts are refused with until when and why (API and form) until unblocked; one audit row each', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const res = await ops('POST', `/readers/${reader.id}/comment-block`, { days: 7, reason: 'Propos injurieux répétés' })
    expect(res.status).toBe(200)
    const { data } = await read(res)
    expect(data).toMatchObject({ userId: reader.id, changed: true, ban: { reason: 'Propos injurieux répétés', createdBy: 'root' } })
    const until = Date.parse(data.ban.until)
    expect(Math.abs(until - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000)

    const before = await snapshot()
    const refused = await call(reader, 'POST', '/api/v1/comment', { contentsId: s.seriesId, text: 'Je reviens' })
    expect(refused.status).toBe(403)
    const body = (await refused.json()) as { message: string }
    expect(body).toMatchObject({
      code: 'UNAUTHORIZED_USER',
      reason: 'COMMENT_BLOCKED',
      until: data.ban.until,
      blockReason: 'Propos injurieux répétés',
    })
    expect(body.message).toMatch(/^Vous ne pouvez pas commenter jusqu’au \d\d\.\d\d\.\d{4} \d\d:\d\d\. Motif : Propos injurieux répétés$/)
    const web = await form(reader, '/api/v1/comment/web/post', { contentsId: String(s.seriesId), text: 'Je reviens' })
    expect(web.status).toBe(303)
    expect(web.headers.get('location')).toContain('error=UNAUTHORIZED_USER&reason=COMMENT_BLOCKED')
    expect(await snapshot()).toEqual(before)
    // blocking again changes nothing (the block in force stays), no audit row
    const again = (await read(await ops('POST', `/readers/${reader.id}/comment-block`, { days: 30, reason: 'autre' }))).data
    expect(again).toMatchObject({ changed: false, ban: { until: data.ban.until, reason: 'Propos injurieux répétés' } })

    const unblocked = (await read(await ops('POST', `/readers/${reader.id}/comment-unblock`, { reason: 'appel' }))).data
    expect(unblocked.changed).toBe(true)
    expect(Date.parse(unblocked.ban.until)).toBeLessThanOrEqual(Date.now())
    await post(reader, { contentsId: s.seriesId, text: 'Je suis de retour' })
    expect((await read(await ops('POST', `/readers/${reader.id}/comment-unblock`, { reason: 'encore' }))).data.changed).toBe(false)
    // blocked again after an unblock: a new block
    expect((await read(await ops('POST', `/readers/${reader.id}/comment-block`, { days: 1, reason: 'récidive' }))).data.changed).toBe(true)
    expect(await auditOf(`user:${reader.id}`)).toEqual([
      { action: 'comment.block', operator: 'root', reason: 'Propos injurieux répétés' },
      { action: 'comment.unblock', operator: 'root', reason: 'appel' },
      { action: 'comment.block', operator: 'root', reason: 'récidive' },
    ])
    const before2 = await snapshot()
    await expectError(await ops('POST', '/readers/999999999/comment-block', { days: 1, reason: 'r' }), 404, 'NOT_FOUND_USER')
    await expectError(await ops('POST', '/readers/999999999/comment-unblock', { reason: 'r' }), 404, 'NOT_FOUND_USER')
    for (const bad of [
      { days: 0, reason: 'r' },
      { days: 367, reason: 'r' },
      { days: 1.5, reason: 'r' },
      { days: '3', reason: 'r' },
      { days: 3 },
    ])
      await expectError(await ops('POST', `/readers/${reader.id}/comment-block`, bad), 400, 'INVALID_PARAMETER')
    expect(await snapshot()).toEqual(before2)
  })

  it('40 concurrent hides: one state change, one audit row; 40 restores, 40 blocks, 40 unblocks: one each', async () => {
    const c = await reportedComment(2)
    const times = (n: number, f: () => Response | Promise<Response>) => Promise.all(Array.from({ length: n }, async () => f()))
    const changed = async (answers: Response[]) =>
      (await Promise.all(answers.map(async (r) => (expect(r.status).toBe(200), (await read(r)).data.changed as boolean)))).filter(Boolean)
    expect(await changed(await times(40, () => ops('POST', `/comments/${c.id}/hide`, { reason: 'course' })))).toHaveLength(1)
    expect(await changed(await times(40, () => ops('POST', `/comments/${c.id}/restore`, { reason: 'course' })))).toHaveLength(1)
    expect((await auditOf(`comment:${c.id}`)).map((r: any) => r.action)).toEqual(['comment.hide', 'comment.restore'])
    const reader = c.author
    expect(
      await changed(await times(40, () => ops('POST', `/readers/${reader.id}/comment-block`, { days: 2, reason: 'course' }))),
    ).toHaveLength(1)
    expect(await changed(await times(40, () => ops('POST', `/readers/${reader.id}/comment-unblock`, { reason: 'course' })))).toHaveLength(1)
    expect((await auditOf(`user:${reader.id}`)).map((r: any) => r.action)).toEqual(['comment.block', 'comment.unblock'])
  })

  it('1,000 generated bad bodies on each changing route: no 5xx, only catalogue codes, nothing changed', { timeout: 600_000 }, async () => {
    const c = await reportedComment(1)
    const before = await snapshot()
    const str = fc.oneof(fc.string({ maxLength: 40 }), fc.anything())
    await expectBadBodiesRefused(
      [
        `/api/ops/comments/${c.id}/hide`,
        `/api/ops/comments/${c.id}/restore`,
        `/api/ops/readers/${c.author.id}/comment-block`,
        `/api/ops/readers/${c.author.id}/comment-unblock`,
      ],
      { days: fc.oneof(fc.integer(), fc.double(), str), state: str },
    )
    expect(await snapshot()).toEqual(before)
  })
})

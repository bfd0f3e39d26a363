/**
 * /api/v1/comment on real workerd + D1 (spec §3 comment states, §5 comment rules, §6 login, §7 comment,
 * reaction, reply, block-user; §8 codes): every refusal with its code and nothing written, the two orders with
 * cursor pages, replies, reactions, reports, blocking, the adult rule, the rate limit and the plain forms.
 */
import { describe, expect, it } from 'vitest'
import { call, communitySnapshot, db, expectError, form, newReader, newSeries, read, type Reader } from './comment.helpers.ts'
import { POST_LIMIT } from '../../src/features/comment/comment.ts'

const post = (reader: Reader | null, body: Record<string, unknown>) => call(reader, 'POST', '/api/v1/comment', body)
const list = (reader: Reader | null, qs: Record<string, string | number>) =>
  call(reader, 'GET', `/api/v1/comment?${new URLSearchParams(Object.entries(qs).map(([k, v]) => [k, String(v)]))}`)

async function posted(reader: Reader, body: Record<string, unknown>) {
  const res = await post(reader, body)
  expect(res.status).toBe(201)
  return (await read(res)).data
}

describe('posting and reading comments', () => {
  it('lets a guest read, a reader post on a series and on an episode, each list apart, newest first', async () => {
    const s = await newSeries({ episodes: 2, free: 2 })
    const reader = await newReader()
    expect((await read(await list(null, { contentsId: s.seriesId }))).data).toEqual({ items: [], nextCursor: null, total: 0 })
    const a = await posted(reader, { contentsId: s.seriesId, text: '  Super série !  ' })
    expect(a).toMatchObject({
      contentsId: s.seriesId,
      episodeId: null,
      parentId: null,
      text: 'Super série !',
      mine: true,
      likeCount: 0,
      notice: null,
    })
    const b = await posted(reader, { contentsId: s.seriesId, episodeId: s.episodeIds[0], text: '<b>Chapitre</b> génial' })
    expect(b.text).toBe('<b>Chapitre</b> génial') // plain text, escaped on output
    const series = (await read(await list(null, { contentsId: s.seriesId }))).data
    expect(series.items.map((c: any) => c.id)).toEqual([a.id])
    expect(series.items[0].mine).toBe(false)
    const episode = (await read(await list(reader, { contentsId: s.seriesId, episodeId: s.episodeIds[0] }))).data
    expect(episode.items.map((c: any) => c.id)).toEqual([b.id])
    expect(episode.total).toBe(1)
  })

  it('refuses guests (NOT_LOGIN_USER), unknown series (NOT_EXIST), foreign episodes (NOT_FOUND_EPISODE) and writes nothing', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const other = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const before = await communitySnapshot()
    await expectError(await post(null, { contentsId: s.seriesId, text: 'x' }), 401, 'NOT_LOGIN_USER')
    await expectError(await post(reader, { contentsId: 999_999_999, text: 'x' }), 404, 'NOT_EXIST')
    await expectError(await list(null, { contentsId: 999_999_999 }), 404, 'NOT_EXIST')
    await expectError(await post(reader, { contentsId: s.seriesId, episodeId: other.episodeIds[0], text: 'x' }), 404, 'NOT_FOUND_EPISODE')
    await expectError(await list(null, { contentsId: s.seriesId, episodeId: other.episodeIds[0] }), 404, 'NOT_FOUND_EPISODE')
    await db.run(`UPDATE series SET is_published = 0 WHERE id = ?`, other.seriesId)
    await expectError(await post(reader, { contentsId: other.seriesId, text: 'x' }), 404, 'NOT_EXIST')
    expect(await communitySnapshot()).toEqual(before)
  })

  it('applies spec §5: empty, over 500 characters and prohibited words are INVALID_PARAMETER with the spec message', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    await db.run(`INSERT OR IGNORE INTO banned_words (word) VALUES ('crétin')`)
    const before = await communitySnapshot()
    for (const text of ['', '   ', '\n\u200b\n']) {
      const body = await read(await post(reader, { contentsId: s.seriesId, text }))
      expect(body).toMatchObject({ result: 'ERROR', code: 'INVALID_PARAMETER', reason: 'EMPTY', message: 'Veuillez saisir le texte.' })
    }
    const long = await post(reader, { contentsId: s.seriesId, text: 'é'.repeat(501) })
    expect(long.status).toBe(400)
    expect(await read(long)).toMatchObject({ code: 'INVALID_PARAMETER', reason: 'TOO_LONG' })
    const banned = await read(await post(reader, { contentsId: s.seriesId, text: 'Quel CRÉTIN ce héros' }))
    expect(banned).toMatchObject({
      code: 'INVALID_PARAMETER',
      reason: 'BANNED',
      word: 'crétin',
      message: "Le mot crétin n'est pas autorisé.",
    })
    expect(await communitySnapshot()).toEqual(before)
    expect((await post(reader, { contentsId: s.seriesId, text: 'é'.repeat(500) })).status).toBe(201)
  })

  it('shows adult series comments only to readers who may see the series (ADULT_ONLY_CONTENTS otherwise)', async () => {
    const s = await newSeries({ episodes: 1, free: 1, adult: true })
    const adult = await newReader()
    const minor = await newReader({ adult: false })
    await posted(adult, { contentsId: s.seriesId, text: 'Pour adultes' })
    const before = await communitySnapshot()
    await expectError(await list(null, { contentsId: s.seriesId }), 403, 'ADULT_ONLY_CONTENTS')
    await expectError(await list(minor, { contentsId: s.seriesId }), 403, 'ADULT_ONLY_CONTENTS')
    await expectError(await post(minor, { contentsId: s.seriesId, text: 'moi aussi' }), 403, 'ADULT_ONLY_CONTENTS')
    expect(await communitySnapshot()).toEqual(before)
    expect((await read(await list(adult, { contentsId: s.seriesId }))).data.total).toBe(1)
  })

  it('limits posting to 10 in 5 minutes (FREQUENT_REQUEST), the 11th writes nothing', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    for (let i = 0; i < POST_LIMIT; i++) expect((await post(reader, { contentsId: s.seriesId, text: `n°${i}` })).status).toBe(201)
    const before = await communitySnapshot()
    await expectError(await post(reader, { contentsId: s.seriesId, text: 'encore' }), 429, 'FREQUENT_REQUEST')
    expect(await communitySnapshot()).toEqual(before)
    expect((await post(await newReader(), { contentsId: s.seriesId, text: 'un autre lecteur' })).status).toBe(201)
  })
})

describe('pages, replies, deletion', () => {
  it('pages newest and best by cursor without repeats or gaps; a bad cursor is INVALID_PARAMETER', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const ids: number[] = []
    for (let i = 0; i < 25; i++) ids.push((await posted(await newReader(), { contentsId: s.seriesId, text: `c${i}` })).id)
    const fans = await Promise.all([newReader(), newReader()])
    for (const f of fans) expect((await call(f, 'POST', `/api/v1/comment/${ids[3]}/reaction`, { kind: 'LIKE' })).status).toBe(200)
    expect((await call(fans[0], 'POST', `/api/v1/comment/${ids[7]}/reaction`, { kind: 'LIKE' })).status).toBe(200)
    const first = (await read(await list(null, { contentsId: s.seriesId }))).data
    expect(first.items).toHaveLength(20)
    expect(first.total).toBe(25)
    const second = (await read(await list(null, { contentsId: s.seriesId, cursor: first.nextCursor }))).data
    expect([...first.items, ...second.items].map((c: any) => c.id)).toEqual([...ids].reverse())
    expect(second.nextCursor).toBeNull()
    const best = (await read(await list(null, { contentsId: s.seriesId, sort: 'best' }))).data
    expect(best.items.slice(0, 3).map((c: any) => [c.id, c.likeCount])).toEqual([
      [ids[3], 2],
      [ids[7], 1],
      [ids[24], 0],
    ])
    const bestNext = (await read(await list(null, { contentsId: s.seriesId, sort: 'best', cursor: best.nextCursor }))).data
    expect(new Set([...best.items, ...bestNext.items].map((c: any) => c.id)).size).toBe(25)
    for (const cursor of ['x', 'n0', 'b1', best.nextCursor]) {
      await expectError(await list(null, { contentsId: s.seriesId, cursor }), 400, 'INVALID_PARAMETER')
    }
  })

  it('replies go under the top comment (a reply to a reply too); deleting keeps a notice while replies remain', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const [alice, bob] = await Promise.all([newReader(), newReader()])
    const top = await posted(alice, { contentsId: s.seriesId, text: 'Question ?' })
    const r1 = await posted(bob, { contentsId: s.seriesId, parentId: top.id, text: 'Réponse' })
    const r2 = await posted(alice, { contentsId: s.seriesId, parentId: r1.id, text: 'Merci' })
    expect(r2.parentId).toBe(top.id)
    const replies = (await read(await call(null, 'GET', `/api/v1/comment/${top.id}/reply`))).data
    expect(replies.items.map((c: any) => c.id)).toEqual([r1.id, r2.id])
    expect((await read(await list(null, { contentsId: s.seriesId }))).data.items[0].replyCount).toBe(2)
    // a reply must stay in its scope
    const other = await newSeries({ episodes: 1, free: 1 })
    await expectError(await post(bob, { contentsId: other.seriesId, parentId: top.id, text: 'x' }), 404, 'NOT_EXIST')
    // only the author deletes
    await expectError(await call(bob, 'DELETE', `/api/v1/comment/${top.id}`), 404, 'NOT_EXIST')
    expect((await call(alice, 'DELETE', `/api/v1/comment/${top.id}`)).status).toBe(200)
    await expectError(await call(alice, 'DELETE', `/api/v1/comment/${top.id}`), 404, 'NOT_EXIST')
    const after = (await read(await list(null, { contentsId: s.seriesId }))).data
    expect(after.items[0]).toMatchObject({ id: top.id, text: null, notice: 'DELETED' })
    expect(after.total).toBe(0)
    await expectError(await post(bob, { contentsId: s.seriesId, parentId: top.id, text: 'x' }), 404, 'NOT_EXIST')
    expect((await call(bob, 'DELETE', `/api/v1/comment/${r1.id}`)).status).toBe(200)
    expect((await call(alice, 'DELETE', `/api/v1/comment/${r2.id}`)).status).toBe(200)
    expect((await read(await list(null, { contentsId: s.seriesId }))).data.items).toEqual([])
    for (const id of ['0', 'abc', '99999999999']) await expectError(await call(alice, 'DELETE', `/api/v1/comment/${id}`), 404, 'NOT_EXIST')
  })
})

describe('reactions, reports, blocking', () => {
  it('toggles LIKE and DISLIKE, which exclude each other', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const [author, fan] = await Promise.all([newReader(), newReader()])
    const c = await posted(author, { contentsId: s.seriesId, text: 'Avis' })
    const react = async (kind: string) => (await read(await call(fan, 'POST', `/api/v1/comment/${c.id}/reaction`, { kind }))).data
    expect(await react('LIKE')).toMatchObject({ likeCount: 1, dislikeCount: 0, myReactions: ['LIKE'] })
    expect(await react('DISLIKE')).toMatchObject({ likeCount: 0, dislikeCount: 1, myReactions: ['DISLIKE'] })
    expect(await react('DISLIKE')).toMatchObject({ likeCount: 0, dislikeCount: 0, myReactions: [] })
    await expectError(await call(fan, 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'LOVE' }), 400, 'INVALID_PARAMETER')
    await expectError(await call(null, 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'LIKE' }), 401, 'NOT_LOGIN_USER')
    await expectError(await call(fan, 'POST', `/api/v1/comment/999999999/reaction`, { kind: 'LIKE' }), 404, 'NOT_EXIST')
  })

  it('reports once per reader, never one’s own, and hides the comment (BLIND) at the third report', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const author = await newReader()
    const c = await posted(author, { contentsId: s.seriesId, text: 'Litigieux' })
    await expectError(await call(author, 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'REPORT' }), 400, 'INVALID_PARAMETER')
    const reporters = await Promise.all([newReader(), newReader(), newReader()])
    expect((await read(await call(reporters[0], 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'REPORT' }))).data.state).toBe('REPORT')
    expect((await read(await call(reporters[0], 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'REPORT' }))).data.state).toBe('REPORT')
    let shown = (await read(await list(null, { contentsId: s.seriesId }))).data.items[0]
    expect(shown).toMatchObject({ text: 'Litigieux', reported: true })
    await call(reporters[1], 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'REPORT' })
    expect((await read(await call(reporters[2], 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'REPORT' }))).data.state).toBe('BLIND')
    shown = (await read(await list(null, { contentsId: s.seriesId }))).data.items[0]
    expect(shown).toMatchObject({ text: null, notice: 'BLIND' })
    await expectError(await call(reporters[0], 'POST', `/api/v1/comment/${c.id}/reaction`, { kind: 'LIKE' }), 404, 'NOT_EXIST')
  })

  it('blocks an author for the blocker only; self and unknown users are refused', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const [troll, reader, other] = await Promise.all([newReader(), newReader(), newReader()])
    await posted(troll, { contentsId: s.seriesId, text: 'Bof' })
    const mine = await posted(reader, { contentsId: s.seriesId, text: 'Génial' })
    expect((await call(reader, 'POST', '/api/v1/comment/block-user', { userId: troll.id })).status).toBe(200)
    expect((await call(reader, 'POST', '/api/v1/comment/block-user', { userId: troll.id })).status).toBe(200) // idempotent
    expect((await read(await list(reader, { contentsId: s.seriesId }))).data.items.map((c: any) => c.id)).toEqual([mine.id])
    expect((await read(await list(other, { contentsId: s.seriesId }))).data.items).toHaveLength(2)
    const before = await communitySnapshot()
    await expectError(await call(reader, 'POST', '/api/v1/comment/block-user', { userId: reader.id }), 400, 'INVALID_PARAMETER')
    await expectError(await call(reader, 'POST', '/api/v1/comment/block-user', { userId: 999_999_999 }), 404, 'NOT_FOUND_USER')
    await expectError(await call(null, 'POST', '/api/v1/comment/block-user', { userId: troll.id }), 401, 'NOT_LOGIN_USER')
    expect(await communitySnapshot()).toEqual(before)
    expect((await call(reader, 'DELETE', `/api/v1/comment/block-user/${troll.id}`)).status).toBe(200)
    expect((await read(await list(reader, { contentsId: s.seriesId }))).data.items).toHaveLength(2)
  })

  it('lists the reader’s own comments on /my, newest first, without deleted ones', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const a = await posted(reader, { contentsId: s.seriesId, text: 'un' })
    const b = await posted(reader, { contentsId: s.seriesId, episodeId: s.episodeIds[0], text: 'deux' })
    await call(reader, 'DELETE', `/api/v1/comment/${a.id}`)
    const mine = (await read(await call(reader, 'GET', '/api/v1/comment/my'))).data
    expect(mine.items.map((c: any) => [c.id, c.episodeNo])).toEqual([[b.id, 1]])
    await expectError(await call(null, 'GET', '/api/v1/comment/my'), 401, 'NOT_LOGIN_USER')
  })
})

describe('plain forms (no JavaScript)', () => {
  it('posts, replies and deletes with 303 back to the page; refusals come back with the code and write nothing', async () => {
    const s = await newSeries({ episodes: 1, free: 1 })
    const reader = await newReader()
    const res = await form(reader, '/api/v1/comment/web/post', {
      contentsId: String(s.seriesId),
      episodeId: String(s.episodeIds[0]),
      text: 'Par formulaire',
    })
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get('location')!, 'http://localhost')
    expect(location.pathname).toBe('/comment')
    const id = Number(location.searchParams.get('posted'))
    expect(location.searchParams.get('episodeId')).toBe(String(s.episodeIds[0]))
    expect(location.hash).toBe(`#c${id}`)
    const reply = await form(reader, '/api/v1/comment/web/post', {
      contentsId: String(s.seriesId),
      episodeId: String(s.episodeIds[0]),
      parentId: String(id),
      text: 'Réponse',
    })
    expect(reply.status).toBe(303)

    const before = await communitySnapshot()
    const empty = await form(reader, '/api/v1/comment/web/post', { contentsId: String(s.seriesId), text: ' ' })
    expect(empty.headers.get('location')).toBe(`/comment?contentsId=${s.seriesId}&error=INVALID_PARAMETER&reason=EMPTY#comment-form`)
    const foreign = await form(reader, '/api/v1/comment/web/post', { contentsId: '999999999', text: 'x' })
    expect(foreign.headers.get('location')).toBe('/comment?contentsId=999999999&error=NOT_EXIST#comment-status')
    const guest = await form(null, '/api/v1/comment/web/post', { contentsId: String(s.seriesId), text: 'x' })
    expect(guest.status).toBe(303)
    expect(guest.headers.get('location')).toMatch(/^\/user\/login\?/)
    const forged = await form(reader, '/api/v1/comment/web/post', { contentsId: String(s.seriesId), text: 'x' }, 'https://evil.example')
    await expectError(forged, 403, 'FORBIDDEN_ORIGIN')
    const evilBack = await form(reader, '/api/v1/comment/web/delete/999999999', { contentsId: 'https://evil.example', from: '//evil' })
    expect(evilBack.headers.get('location')).toMatch(/^\/comment\/my\?/)
    expect(await communitySnapshot()).toEqual(before)

    const del = await form(reader, `/api/v1/comment/web/delete/${id}`, { from: 'my' })
    expect(del.headers.get('location')).toBe('/comment/my?deleted=1#comment-status')
    const like = await form(reader, `/api/v1/comment/web/reaction/${id}`, { contentsId: String(s.seriesId), kind: 'LIKE' })
    expect(like.headers.get('location')).toBe(`/comment?contentsId=${s.seriesId}&error=NOT_EXIST#comment-status`)
  })
})

/** Bad input on /api/v1/comment and /api/v1/qna: 1,000 generated bodies and queries, never a 5xx, nothing written. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { expectHandled } from './app.ts'
import { call, communitySnapshot, form, newReader, newSeries } from './comment.helpers.ts'

const anyBody = fc.oneof(
  fc.string(),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        contentsId: fc.anything(),
        episodeId: fc.anything(),
        parentId: fc.anything(),
        text: fc.anything(),
        kind: fc.anything(),
        userId: fc.anything(),
        category: fc.anything(),
        title: fc.anything(),
      },
      { requiredKeys: [] },
    )
    .map((v) => {
      try {
        return JSON.stringify(v)
      } catch {
        return '{}'
      }
    }),
)

describe('comment and QnA bad input', () => {
  it('never answers 5xx nor writes to 1,000 generated bad bodies', async () => {
    const reader = await newReader()
    const s = await newSeries({ episodes: 1 })
    // one valid comment so that ids in range exist
    expect((await call(reader, 'POST', '/api/v1/comment', { contentsId: s.seriesId, text: 'ok' })).status).toBe(201)
    const before = await communitySnapshot()
    let accepted = 0
    const routes = ['/api/v1/comment', '/api/v1/comment/1/reaction', '/api/v1/comment/block-user', '/api/v1/qna']
    await fc.assert(
      fc.asyncProperty(anyBody, fc.constantFrom(...routes), async (body, route) => {
        const res = await call(reader, 'POST', route, body)
        if (res.status < 300) {
          // a generated body that happens to be valid (e.g. blocking user 1): allowed, but then writes are expected
          accepted++
          await res.body?.cancel()
          return
        }
        await expectHandled(res)
      }),
      { numRuns: 1000 },
    )
    if (accepted === 0) expect(await communitySnapshot()).toEqual(before)
  }, 120_000)

  it('never answers 5xx to generated queries, ids and form fields', async () => {
    const reader = await newReader()
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), async (a, b, c) => {
        await expectHandled(
          await call(null, 'GET', `/api/v1/comment?${new URLSearchParams({ contentsId: a, episodeId: b, cursor: c, sort: b })}`),
        )
        await expectHandled(
          await call(reader, 'GET', `/api/v1/comment/${encodeURIComponent(a) || 'x'}/reply?after=${encodeURIComponent(b)}`),
        )
        await expectHandled(await call(reader, 'DELETE', `/api/v1/comment/${encodeURIComponent(a) || 'x'}`))
        const res = await form(reader, `/api/v1/comment/web/reaction/${encodeURIComponent(b) || 'x'}`, { contentsId: a, kind: c, from: b })
        expect(res.status).toBeLessThan(500)
      }),
      { numRuns: 200 },
    )
  }, 120_000)
})

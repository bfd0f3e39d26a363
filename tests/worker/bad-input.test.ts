import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Hono } from 'hono'
import { z } from 'zod'
import { appFor, request } from './app.ts'
import { validate } from '../../functions/lib/validate.ts'
import { ok } from '../../functions/lib/respond.ts'
import { v1 } from '../../functions/api/v1.ts'
import { isErrorCode } from '../../src/lib/errors/catalogue.ts'
import type { AppEnv } from '../../functions/lib/env.ts'

// A route shaped like the real ones (docs/API.md purchase body), mounted on the real edge app for this test.
const Body = z.object({ episodeIds: z.array(z.number().int().positive()).min(1).max(100), kind: z.enum(['RENT', 'POSSESSION']) })
v1.route(
  '/_test',
  new Hono<AppEnv>().post('/echo', validate('json', Body), (c) => ok(c, c.req.valid('json'))),
)
const app = appFor()

const post = (body: BodyInit, type = 'application/json') =>
  request(app, '/api/v1/_test/echo', { method: 'POST', headers: { 'content-type': type }, body })

async function expectCatalogueError(res: Response, status: number) {
  expect(res.status).toBe(status)
  const body = (await res.json()) as { result: string; code: string; message: string; requestId: string }
  expect(body.result).toBe('ERROR')
  expect(isErrorCode(body.code)).toBe(true)
  expect(body.message).not.toMatch(/^error\./)
  expect(body.requestId).toBeTruthy()
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(ts|js):\d+/) // no stack trace
  return body
}

describe('bad input on the API', () => {
  it('accepts a well-formed body in the success envelope', async () => {
    const res = await post(JSON.stringify({ episodeIds: [1, 2], kind: 'RENT' }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ result: 'SUCCESS', data: { episodeIds: [1, 2], kind: 'RENT' } })
  })

  it('answers malformed JSON, wrong types and wrong content types with INVALID_PARAMETER', async () => {
    for (const body of [
      '{',
      '{"episodeIds":',
      'null',
      '[]',
      '"x"',
      '{"episodeIds":"1","kind":"RENT"}',
      '{"episodeIds":[1],"kind":"STEAL"}',
      '{"episodeIds":[-1],"kind":"RENT"}',
    ]) {
      expect((await expectCatalogueError(await post(body), 400)).code, body).toBe('INVALID_PARAMETER')
    }
    expect((await expectCatalogueError(await post('episodeIds=1', 'application/x-www-form-urlencoded'), 400)).code).toBe(
      'INVALID_PARAMETER',
    )
  })

  it('never answers 5xx to 1,000 generated bad bodies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.record({ episodeIds: fc.anything(), kind: fc.anything() }).map((v) => {
            try {
              return JSON.stringify(v)
            } catch {
              return '{}'
            }
          }),
        ),
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
        async (body, type) => {
          const res = await post(body, type)
          expect(res.status).toBeLessThan(500)
          if (res.status >= 400) await expectCatalogueError(res, res.status)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

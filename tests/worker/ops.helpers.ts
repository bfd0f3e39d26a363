/**
 * Shared by the operator API's worker tests (ops-*.test.ts): the bearer token of the worker bindings and the JSON log
 * lines the operator routes write with the operator's reason (docs/API.md "Operator API").
 */
import { afterEach, expect, vi } from 'vitest'
import fc from 'fast-check'
import { expectApiAnswer, request } from './app.ts'
import { app } from './comment.helpers.ts'

/** `Authorization: Bearer $OPS_TOKEN` as vitest.config.ts binds it. */
export const OPS = { headers: { authorization: 'Bearer test-ops-token' } }

let logged: string[] = []
afterEach(() => vi.restoreAllMocks())

/** Captures console.log from now until the end of the test. */
export function logSpy(): void {
  logged = []
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void logged.push(String(line)))
}

/** The operator routes' log lines (`{"ops": …, "reason": …}`) captured since `logSpy()`. */
export function auditLines(): Record<string, unknown>[] {
  return logged.flatMap((l) => {
    try {
      const v = JSON.parse(l) as Record<string, unknown>
      return typeof v.ops === 'string' ? [v] : []
    } catch {
      return []
    }
  })
}

/**
 * 1,000 generated bad bodies (any text, any JSON, records of `fields` without a valid reason; JSON or other content
 * types) posted to each of `paths`: every answer is a 4xx with a catalogue code and a translated message. The caller
 * checks that nothing changed.
 */
export async function expectBadBodiesRefused(paths: string[], fields: Record<string, fc.Arbitrary<unknown>>): Promise<void> {
  const anyJson = (v: unknown) => {
    try {
      return JSON.stringify(v) ?? '{}'
    } catch {
      return '{}'
    }
  }
  // never a valid reason: a body that passes every other check must still change nothing
  const badReason = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('', '   ', 'r'.repeat(201)),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
  )
  const record = fc
    .tuple(fc.record(fields, { requiredKeys: [] }), badReason)
    .map(([r, reason]) => anyJson(reason === undefined ? r : { ...r, reason }))
  const bodies = fc.oneof(fc.string(), fc.json(), fc.jsonValue().map(anyJson), record, record)
  const types = fc.constantFrom('application/json', 'application/json', 'text/plain', '')
  for (const path of paths) {
    await fc.assert(
      fc.asyncProperty(bodies, types, async (body, type) => {
        const res = await request(app, path, {
          method: 'POST',
          headers: { ...OPS.headers, ...(type ? { 'content-type': type } : {}) },
          body,
        })
        expect(res.status, `${path} ${body.slice(0, 200)}`).toBeGreaterThanOrEqual(400)
        expect(res.status, `${path} ${body.slice(0, 200)}`).toBeLessThan(500)
        await expectApiAnswer(res, body.slice(0, 200))
      }),
      { numRuns: 1000 },
    )
  }
}

/**
 * The API reference generated from the routes (functions/lib/openapi.ts, docs/API.md "Reference"): every route of
 * `/api/v1` is in it with its method; a route behind `requireUser` says so (`security`) and refuses a guest, a route
 * without it does not; real answers match the envelope the reference gives for their status; the request schemas
 * are the routes' own (a bad body is refused as the reference says it would be).
 */
import { describe, expect, it } from 'vitest'
import { env } from 'cloudflare:workers'
import { appFor, frMessages, request } from './app.ts'
import { parseEdition } from '../../src/lib/edition/schema.ts'
import ar from '../../editions/ar/edition.json'
import { v1 } from '../../functions/api/v1.ts'
import { seedDemo } from './seed.ts'

type Schema = { $ref?: string; type?: string; required?: string[]; properties?: Record<string, Schema>; const?: unknown; enum?: unknown[] }
type Operation = {
  security?: unknown[]
  requestBody?: unknown
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>
}
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } }

const app = appFor()
const load = async () => (await (await request(app, '/api/v1/openapi.json')).json()) as Document
const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))

/** Whether `body` has the shape of `schema` (the reference's envelopes: objects, required keys, constants, enums). */
function matches(body: unknown, schema: Schema, doc: Document): boolean {
  if (schema.$ref) return matches(body, doc.components.schemas[schema.$ref.split('/').pop()!]!, doc)
  if (schema.const !== undefined && body !== schema.const) return false
  if (schema.enum && !schema.enum.includes(body)) return false
  if (schema.type === 'string' && typeof body !== 'string') return false
  if (schema.type !== 'object') return true
  if (typeof body !== 'object' || body === null) return false
  const record = body as Record<string, unknown>
  return (
    (schema.required ?? []).every((k) => k in record) &&
    Object.entries(schema.properties ?? {}).every(([k, s]) => !(k in record) || matches(record[k], s, doc))
  )
}

/** The route's path with a sample value in each parameter. */
const sample = (path: string) => `/api/v1${path.replace(/\{[^}]+\}/g, '1')}`

describe('GET /api/v1/openapi.json', () => {
  it('has every route of /api/v1, each with the envelope answers', async () => {
    const doc = await load()
    const listed = new Set(operations(doc).map((o) => `${o.method.toUpperCase()} ${o.path}`))
    const routes = [
      ...new Set(v1.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`)),
    ]
    const missing = routes.filter((r) => r !== 'GET /openapi.json' && r !== 'GET /reference' && !listed.has(r))
    expect(missing).toEqual([])
    expect(listed.size).toBeGreaterThanOrEqual(130)
    for (const { path, method, op } of operations(doc)) {
      expect(op.responses.default, `${method} ${path}`).toBeDefined()
      expect(
        Object.keys(op.responses).some((s) => /^[23]/.test(s)),
        `${method} ${path}`,
      ).toBe(true)
    }
    expect(doc.paths['/purchase']!.post!.requestBody).toMatchObject({
      content: { 'application/json': { schema: { required: ['episodeIds', 'kind'] } } },
    })
    expect(doc.paths['/coin']!.get!.security).toEqual([{ accessToken: [] }, { webSession: [] }])
    expect(doc.paths['/contents']!.get!.security).toBeUndefined()
  })

  it(
    'a members-only route refuses a guest as the reference says; an open one does not ask a guest to log in',
    { timeout: 120_000 },
    async () => {
      await seedDemo(env.DB)
      const doc = await load()
      const wrong: string[] = []
      for (const { path, method, op } of operations(doc)) {
        if (path.includes('/web/') || path.endsWith('/web') || path.startsWith('/payment/webhook') || path.startsWith('/payment/sandbox'))
          continue // forms, providers
        const init: RequestInit = {
          method: method.toUpperCase(),
          headers: { 'content-type': 'application/json', origin: 'http://localhost' },
        }
        if (method !== 'get' && method !== 'delete') init.body = '{}'
        const res = await request(app, sample(path), init)
        const body = (await res.json().catch(() => null)) as { code?: string } | null
        const refusedGuest = res.status === 401 && body?.code === 'NOT_LOGIN_USER'
        if (res.status === 404 && body?.code === 'NOT_EXIST') continue // not a route of this edition (fr has no app transfer)
        if (op.security && !refusedGuest) wrong.push(`${method} ${path}: members only, a guest got ${res.status} ${body?.code}`)
        if (!op.security && refusedGuest) wrong.push(`${method} ${path}: open, a guest got NOT_LOGIN_USER`)
        const documented = op.responses[String(res.status)] ?? op.responses.default!
        const schema = documented.content?.['application/json']?.schema
        if (schema && body !== null && !matches(body, schema, doc))
          wrong.push(`${method} ${path}: ${res.status} ${JSON.stringify(body).slice(0, 80)}`)
      }
      expect(wrong).toEqual([])
    },
  )
})

describe('GET /api/v1/reference', () => {
  it('shows every operation of the document, "members only" where it says so, in the edition’s language, without a script', async () => {
    const ops = operations(await load())
    const res = await request(app, '/api/v1/reference')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    const html = await res.text()
    expect(html).toContain('<html lang="fr-FR" dir="ltr">')
    expect(ops.filter(({ path, method }) => !html.includes(`<code>${method.toUpperCase()} ${path}</code>`))).toEqual([])
    expect(html.split('>Réservé aux membres<').length - 1).toBe(ops.filter(({ op }) => op.security?.length).length)
    expect(html).toContain('href="openapi.json"')
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]) // the /contents group and the page's contents each have their own
    expect(html).not.toContain('<script')
    const policy = res.headers.get('content-security-policy') ?? ''
    const style = /<style>([^<]*)<\/style>/.exec(html)![1]!
    const digest = btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(style)))))
    expect(policy).toContain(`default-src 'none'; style-src 'sha256-${digest}'`)
  })

  it('runs right to left on ar', async () => {
    const res = await request(appFor(parseEdition('ar', ar), frMessages), '/api/v1/reference')
    expect(await res.text()).toContain('<html lang="ar" dir="rtl">')
  })
})

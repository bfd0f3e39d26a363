/**
 * The browsable API reference (docs/API.md "Reference"): `GET /api/v1/reference`, the generated OpenAPI document
 * (functions/lib/openapi.ts) as one HTML page in the edition's language and direction — every route grouped by its
 * first path segment, "members only" where the document says so, each parameter and the JSON schema of each request
 * body — with a link to `openapi.json` for the apps' client generators. No script; its one style is allowed by hash.
 */
import { html, raw } from 'hono/html'
import type { Translate } from '../../src/lib/i18n/i18n.ts'
import type { Edition } from '../../src/lib/edition/schema.ts'
import { sha256 } from '../../src/lib/server/csp.ts'

type Parameter = { name: string; in: string; required?: boolean; schema?: unknown }
type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: unknown }> }; security?: unknown[] }
type Document = { paths?: object }

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

const STYLE =
  ':root{color-scheme:light dark}body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem}' +
  'code,pre{font-family:ui-monospace,monospace;direction:ltr;unicode-bidi:isolate}pre{overflow:auto;background:rgba(127,127,127,.14);padding:.5rem;font-size:.875rem}' +
  'h3{font-size:1rem;margin:1.5rem 0 .25rem;overflow-wrap:anywhere}.members{font-size:.8125rem;font-weight:400;border:1px solid;' +
  'border-radius:1rem;padding:0 .5rem;margin-inline-start:.5rem;white-space:nowrap}nav ul{columns:10rem;padding-inline-start:1rem}' +
  'h4{font-size:.875rem;margin:.5rem 0 0}ul code{overflow-wrap:anywhere}'

/** The operations of `doc`, grouped by their path's first segment, in the document's order. */
function groups(doc: Document) {
  const byGroup = new Map<string, { method: string; path: string; op: Operation }[]>()
  for (const [path, methods] of Object.entries(doc.paths ?? {}) as [string, Partial<Record<string, Operation>> | undefined][])
    for (const method of METHODS) {
      const op = methods?.[method]
      if (!op) continue
      const group = path.split('/')[1] ?? ''
      byGroup.set(group, [...(byGroup.get(group) ?? []), { method: method.toUpperCase(), path, op }])
    }
  return [...byGroup]
}

/** A heading's id from a group or a route: letters, digits and `-` only, so the contents' own id (`_contents`) is never one. */
const anchor = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-')

/** The page and the policy that lets its style apply. */
export async function referencePage(doc: Document, t: Translate, edition: Pick<Edition, 'locale' | 'direction' | 'siteName'>) {
  const title = `${t('apiReference.title')} · ${edition.siteName}`
  const grouped = groups(doc)
  const page = html`<!doctype html>
    <html lang="${edition.locale}" dir="${edition.direction}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        ${raw(`<style>${STYLE}</style>`)}
      </head>
      <body>
        <main>
          <h1>${t('apiReference.title')}</h1>
          <p>
            ${t('apiReference.intro', { site: edition.siteName })} <a href="openapi.json"><code>openapi.json</code></a>
          </p>
          <p>${t('apiReference.envelope')}</p>
          <nav aria-labelledby="_contents">
            <h2 id="_contents">${t('apiReference.contents')}</h2>
            <ul>
              ${grouped.map(
                ([group]) =>
                  html`<li>
                    <a href="#${anchor(group)}"><code>/${group}</code></a>
                  </li>`,
              )}
            </ul>
          </nav>
          ${grouped.map(
            ([group, ops]) =>
              html`<section aria-labelledby="${anchor(group)}">
                <h2 id="${anchor(group)}"><code>/${group}</code></h2>
                ${ops.map(
                  ({ method, path, op }) =>
                    html`<h3 id="${anchor(`${method} ${path}`)}">
                        <code>${method} ${path}</code>${
                          op.security?.length ? html`<span class="members">${t('apiReference.membersOnly')}</span>` : ''
                        }
                      </h3>
                      ${
                        op.parameters?.length
                          ? html`<h4>${t('apiReference.parameters')}</h4>
                              <ul>
                                ${op.parameters.map(
                                  (p) =>
                                    html`<li>
                                      <code>${p.name}</code> (${p.in}${p.required ? `, ${t('apiReference.required')}` : ''})
                                      <code>${JSON.stringify(p.schema ?? {})}</code>
                                    </li>`,
                                )}
                              </ul>`
                          : ''
                      }${
                        op.requestBody?.content
                          ? Object.entries(op.requestBody.content).map(
                              ([type, { schema }]) =>
                                html`<details>
                                  <summary>${t('apiReference.body')} (<code>${type}</code>)</summary>
                                  <pre>${JSON.stringify(schema ?? {}, null, 2)}</pre>
                                </details>`,
                            )
                          : ''
                      }`,
                )}
              </section>`,
          )}
        </main>
      </body>
    </html>`
  return { html: await page, policy: `default-src 'none'; style-src '${await sha256(STYLE)}'` }
}

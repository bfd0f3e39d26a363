/**
 * A page's Content-Security-Policy with only the hashes of its own inline scripts and styles. Astro puts in every
 * page's policy the hashes of every inline script and style of the whole build (fr: 10 + 60, 3.8 KB of header on
 * each rendered page, and as much again in each pre-rendered page's `<meta>`), when a page has one or two. Trimmed
 * where a page is made: a rendered page as the worker answers it (before the edge cache keeps it), a pre-rendered
 * one once at build time (scripts/build.ts). Nothing is added: a token this does not check (another algorithm,
 * `'self'`, a host) is kept, and an inline element whose hash Astro did not list stays blocked.
 */
import { BoundedMap } from '../bounded-map.ts'

/** The policy a pre-rendered page carries in its `<meta http-equiv="content-security-policy">` (Astro writes it). */
export const META_CSP = /<meta http-equiv="content-security-policy" content="([^"]*)"/i

/** A script element that runs its own text: no `src`, and not a data block (JSON-LD, JSON). */
const runsInline = (attributes: string) => !/\ssrc\s*=/i.test(attributes) && !/\stype\s*=\s*["']?application\/(ld\+)?json/i.test(attributes)

/**
 * The text of each inline `<script>` and `<style>` element of `html`, as the HTML parser reads it (raw text up to its
 * end tag), but for scripts that do not run it. Found with indexOf, not a regular expression: it runs on every page
 * the worker renders.
 */
function* inlineTexts(html: string): Generator<string> {
  for (const tag of ['script', 'style'] as const) {
    const end = `</${tag}>`
    for (let at = html.indexOf(`<${tag}`); at !== -1; at = html.indexOf(`<${tag}`, at)) {
      const open = html.indexOf('>', at)
      const close = open === -1 ? -1 : html.indexOf(end, open)
      if (close === -1) return
      const attributes = html.slice(at + tag.length + 1, open)
      if (/^[\s/]|^$/.test(attributes) && (tag === 'style' || runsInline(attributes))) yield html.slice(open + 1, close)
      at = close + end.length
    }
  }
}

/** Hashes already made: a page type's inline style and scripts are the same on every render (and the API reference's style). */
const hashes = new BoundedMap<string, string>(200) // fr has 60 inline styles and 10 scripts

export async function sha256(text: string): Promise<string> {
  let hash = hashes.get(text)
  if (hash === undefined) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
    hash = `sha256-${btoa(String.fromCharCode(...digest))}`
    hashes.set(text, hash)
  }
  return hash
}

/** Policies trimmed already, by policy and the hashes kept: a page type gives the same pair on every render. */
const trimmed = new BoundedMap<string, string>(100)

/** `policy` keeping, of its sha256 sources, those `html`'s inline elements use. */
async function ownHashes(policy: string, html: string): Promise<string> {
  const own = new Set<string>()
  for (const text of inlineTexts(html)) own.add(await sha256(text))
  const key = `${[...own].join(' ')}\n${policy}`
  let out = trimmed.get(key)
  if (out === undefined) {
    out = policy
      .split(';')
      .map((directive) =>
        directive
          .trim()
          .split(/\s+/)
          .filter((token) => {
            const source = token.slice(1, -1) // a hash source is quoted: 'sha256-…'
            return !source.startsWith('sha256-') || own.has(source)
          })
          .join(' '),
      )
      .join('; ')
    trimmed.set(key, out)
  }
  return out
}

/**
 * A rendered page's answer with its policy trimmed; any other answer as it is. The page is read once as bytes, sent on
 * as they are (encoding its text again cost 2 % of a render) and read as text through a Response (workerd's
 * TextDecoder took 3 % of a render for the same 49 KB).
 */
export async function withOwnHashes(res: Response): Promise<Response> {
  const policy = res.headers.get('content-security-policy')
  if (!policy || !(res.headers.get('content-type') ?? '').startsWith('text/html')) return new Response(res.body, res)
  const bytes = await res.arrayBuffer()
  const html = await new Response(bytes).text()
  const out = new Response(bytes, res)
  out.headers.set('content-security-policy', await ownHashes(policy, html))
  return out
}

/** A pre-rendered page's HTML with its `<meta>` policy trimmed (scripts/build.ts). */
export async function withOwnMetaHashes(html: string): Promise<string> {
  const meta = META_CSP.exec(html)
  if (!meta) return html
  // Astro writes the policy's quotes as they are; an escaped spelling is read too, and written back plain
  const trimmed = meta[0].replace(meta[1]!, await ownHashes(meta[1]!.replaceAll('&#39;', "'"), html))
  return html.replace(meta[0], () => trimmed)
}

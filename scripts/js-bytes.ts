/**
 * The JavaScript a page makes the browser load before anyone touches it (issue 40 point 3), counted from its HTML
 * without a browser: its inline scripts (not JSON-LD), `<script src>`, `<link rel="modulepreload">`, the
 * `component-url` and `renderer-url` of its islands, and every module those import statically, each once. What
 * loads on use (`import()`) is not counted. Sizes are gzip bytes (level 9), the same on every machine.
 * Used by the browser suite's budget test (tests/e2e/js-budget.ts) and by `npm run bench`.
 */
import { gzipSync } from 'node:zlib'

export type JsFile = { url: string; gz: number }

const gz = (text: string) => gzipSync(text, { level: 9 }).length

/** `import … from "x"` and `import "x"` (minified or not), never `import("x")`. */
const STATIC_IMPORT = /\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'`]([^"'`]+)["'`]/g

/** The URLs and inline scripts a page's HTML loads at once. */
function entries(html: string): { urls: string[]; inline: string[] } {
  const urls = new Set<string>()
  const inline: string[] = []
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1]!
    const src = /\bsrc="([^"]+)"/.exec(attrs)?.[1]
    if (src) urls.add(src)
    else if (!/type="application\/(ld\+)?json"/.test(attrs) && m[2]!.trim()) inline.push(m[2]!)
  }
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/gi)) {
    const href = /\bhref="([^"]+)"/.exec(m[0])?.[1]
    if (href) urls.add(href)
  }
  for (const m of html.matchAll(/<astro-island\b[^>]*>/gi))
    for (const a of ['component-url', 'renderer-url']) {
      const url = new RegExp(`\\b${a}="([^"]+)"`).exec(m[0])?.[1]
      if (url) urls.add(url)
    }
  return { urls: [...urls], inline }
}

/** Every file (and inline script) `html` at `pageUrl` loads at once, with its gzip size; `fetchText` reads a URL. */
export async function pageJs(html: string, pageUrl: string, fetchText: (url: string) => Promise<string>): Promise<JsFile[]> {
  const { urls, inline } = entries(html)
  const files: JsFile[] = inline.map((code, i) => ({ url: `(inline #${i + 1})`, gz: gz(code) }))
  const seen = new Set<string>()
  const visit = async (url: string, code: string) => {
    files.push({ url: new URL(url).pathname, gz: gz(code) })
    for (const m of code.matchAll(STATIC_IMPORT)) await load(new URL(m[1]!, url).href)
  }
  const load = async (url: string) => {
    if (seen.has(url)) return
    seen.add(url)
    await visit(url, await fetchText(url))
  }
  for (const code of inline) for (const m of code.matchAll(STATIC_IMPORT)) await load(new URL(m[1]!, pageUrl).href)
  for (const url of urls) await load(new URL(url, pageUrl).href)
  return files
}

/** Total gzip bytes of `files`, in KB (one decimal). */
export const totalKb = (files: readonly JsFile[]) => Math.round(files.reduce((n, f) => n + f.gz, 0) / 102.4) / 10

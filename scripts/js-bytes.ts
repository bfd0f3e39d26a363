/**
 * Counting a page's JavaScript (issue 40 point 3) in gzip bytes (level 9), the same on every machine: the browser
 * suite's budget test (tests/e2e/js-budget.fr.spec.ts) counts each script the browser fetched and, with `inlineScripts`,
 * the page's own inline scripts.
 */
import { gzipSync } from 'node:zlib'

export type JsFile = { url: string; gz: number }

/** `text`'s gzip size (level 9). */
export const gz = (text: string | Buffer) => gzipSync(text, { level: 9 }).length

/** The inline scripts of a page's HTML (JSON data blocks, such as JSON-LD, are not script). */
export const inlineScripts = (html: string): string[] =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attrs, code]) => !/\bsrc=/.test(attrs!) && !/type="application\/(ld\+)?json"/.test(attrs!) && code!.trim())
    .map(([, , code]) => code!)

/** Total gzip bytes of `files`, in KB (one decimal). */
export const totalKb = (files: readonly JsFile[]) => Math.round(files.reduce((n, f) => n + f.gz, 0) / 102.4) / 10

/**
 * Build step: Astro's Content-Security-Policy work done once per build instead of once per render (issue 40 point 4,
 * docs/QUALITY.md). On each page it renders, Astro
 * - hashes the page's inline styles again (SHA-256 of fr's 20 KB stylesheet: 1.8 % of a rendered series page), when
 *   that text is the same on every render: its digest function remembers the hashes it made, in the worker's bundle;
 * - copies and merges the build's hash lists, which hold each page's styles once per page that has them (fr: 499 style
 *   hashes, 60 distinct): the lists are written to the server's manifest without their repeats (renderCspContent made
 *   one set of them per render anyway).
 * Both change Astro's own output, not what a page's policy says; either fails the build when Astro's code no longer
 * has the shape they change.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AstroIntegration } from 'astro'

const DIGEST = 'async function generateCspDigest('

/**
 * Astro's `generateCspDigest` kept under another name, and a memo of it in its place: by text alone, a build hashing
 * with one algorithm (`security.csp.algorithm`); bounded, as server islands' contents would be texts without end.
 */
const MEMO = `
const cspDigests = new Map();
function generateCspDigest(data, algorithm) {
  let hash = cspDigests.get(data);
  if (hash === undefined) {
    if (cspDigests.size >= 500) cspDigests.clear();
    cspDigests.set(data, (hash = digestOnce(data, algorithm)));
  }
  return hash;
}
`

/** A hash list of the serialized manifest: `"styleHashes":["sha256-…",…]` (also `scriptHashes` and the directives' `hashes`). */
const HASH_LIST = /"(styleHashes|scriptHashes|hashes)":\[((?:"sha(?:256|384|512)-[A-Za-z0-9+/=]+",?)*)\]/g

/** `code` with each hash list of its manifest without repeats; null when it holds no manifest. */
function withoutRepeats(code: string): string | null {
  if (!code.includes('"styleHashes":[')) return null
  return code.replace(
    HASH_LIST,
    (_, name: string, list: string) => `"${name}":[${[...new Set(list.split(','))].filter(Boolean).join(',')}]`,
  )
}

/** The Astro integration of astro.config.mjs. */
export function cspOnce(): AstroIntegration {
  let server = ''
  return {
    name: 'csp-once',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'csp-digest-once',
                transform(code, id) {
                  if (this.environment.name === 'client' || !id.endsWith('/astro/dist/core/encryption.js')) return undefined
                  if (!code.includes(DIGEST)) this.error(`${id}: no generateCspDigest to remember (src/lib/server/csp.build.ts)`)
                  return { code: code.replace(DIGEST, 'async function digestOnce(') + MEMO, map: null }
                },
              },
            ],
          },
        })
      },
      'astro:config:done': ({ config }) => {
        server = fileURLToPath(config.build.server)
      },
      'astro:build:done': async ({ logger }) => {
        let lists = 0
        for (const file of await readdir(server, { recursive: true }))
          if (file.endsWith('.mjs')) {
            const path = join(server, file)
            const code = await readFile(path, 'utf8')
            const out = withoutRepeats(code)
            if (out === null) continue
            lists++
            if (out !== code) await writeFile(path, out)
          }
        if (lists === 0) throw new Error(`no manifest with CSP hashes under ${server} (src/lib/server/csp.build.ts)`)
        logger.info(`CSP hash lists written without repeats (${lists} manifest)`)
      },
    },
  }
}

import { describe, expect, it } from 'vitest'
import { pageJs, totalKb } from './js-bytes.ts'

describe('pageJs: the JavaScript a page loads before anyone touches it', () => {
  const files: Record<string, string> = {
    'https://x.test/_astro/a.js': 'import{b as c}from"./b.js";import"./c.js";const l=()=>import("./lazy.js");export{l}',
    'https://x.test/_astro/b.js': 'import"./c.js";export const b=1',
    'https://x.test/_astro/c.js': 'export{}',
    'https://x.test/_astro/island.js': 'import { b } from "./b.js"\nexport default b',
    'https://x.test/_astro/client.js': 'export const r=0',
    'https://x.test/_astro/pre.js': 'export const p=0',
    'https://x.test/_astro/lazy.js': 'x'.repeat(10_000),
  }
  const fetched: string[] = []
  const fetchText = async (url: string) => {
    fetched.push(url)
    return files[url] ?? ''
  }
  const html = `<html><head>
    <script>window.t=1</script>
    <script type="application/ld+json">{"@type":"Thing"}</script>
    <script type="module" src="/_astro/a.js"></script>
    <link rel="modulepreload" href="/_astro/pre.js">
    </head><body><astro-island component-url="/_astro/island.js" renderer-url="/_astro/client.js"></astro-island>
    <script type="module">import "/_astro/c.js"</script></body></html>`

  it('counts inline scripts, script src, modulepreload, islands and their static imports once each, never import()', async () => {
    const found = await pageJs(html, 'https://x.test/detail/1', fetchText)
    expect(found.map((f) => f.url).sort()).toEqual(
      [
        '(inline #1)',
        '(inline #2)',
        '/_astro/a.js',
        '/_astro/b.js',
        '/_astro/c.js',
        '/_astro/client.js',
        '/_astro/island.js',
        '/_astro/pre.js',
      ].sort(),
    )
    expect(fetched).not.toContain('https://x.test/_astro/lazy.js')
    expect(new Set(fetched).size).toBe(fetched.length)
    for (const f of found) expect(f.gz).toBeGreaterThan(0)
  })

  it('totals in KB with one decimal', () => {
    expect(
      totalKb([
        { url: 'a', gz: 1024 },
        { url: 'b', gz: 512 },
      ]),
    ).toBe(1.5)
  })
})

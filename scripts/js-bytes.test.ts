import { describe, expect, it } from 'vitest'
import { gz, inlineScripts, totalKb } from './js-bytes.ts'

describe('counting a page’s JavaScript', () => {
  it('finds the inline scripts, not the ones with a src, JSON-LD, JSON data or empty ones', () => {
    const html = `<html><head>
      <script>window.t=1</script>
      <script type="application/ld+json">{"@type":"Thing"}</script>
      <script type="application/json" id="data">{"a":1}</script>
      <script type="module" src="/_astro/a.js"></script>
      <script> </script>
      </head><body><script type="module">import "/_astro/c.js"</script></body></html>`
    expect(inlineScripts(html)).toEqual(['window.t=1', 'import "/_astro/c.js"'])
  })

  it('sizes in gzip bytes and totals in KB with one decimal', () => {
    expect(gz('a'.repeat(10_000))).toBeLessThan(100)
    expect(
      totalKb([
        { url: 'a', gz: 1024 },
        { url: 'b', gz: 512 },
      ]),
    ).toBe(1.5)
  })
})

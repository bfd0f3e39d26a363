import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { withOwnHashes, withOwnMetaHashes } from './csp.ts'

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`
const boot = 'document.documentElement.dataset.theme="dark"'
const style = 'body{margin:0}'
const other = hash('somebody else’s script')
const page = `<html><head><style>${style}</style><script>${boot}</script><script type="module" src="/_astro/a.js"></script>
<script type="application/ld+json">{"@type":"Thing"}</script></head><body></body></html>`
// a data block is no script: its hash goes too
const policy = `script-src 'self' ${hash(boot)} ${other} ${hash('{"@type":"Thing"}')} 'sha384-kept'; style-src 'self' ${hash('p{}')} ${hash(style)}`
const ownHashes = async (policy: string, html: string) =>
  (await withOwnHashes(new Response(html, { headers: { 'content-type': 'text/html', 'content-security-policy': policy } }))).headers.get(
    'content-security-policy',
  )

describe('a page’s policy with its own hashes only', () => {
  it('keeps the hashes of the page’s inline script and style, drops the rest of the build’s, keeps other sources', async () => {
    expect(await ownHashes(policy, page)).toBe(`script-src 'self' ${hash(boot)} 'sha384-kept'; style-src 'self' ${hash(style)}`)
  })

  it('adds nothing: an inline script Astro did not list stays blocked', async () => {
    const injected = page.replace('</body>', '<script>alert(1)</script></body>')
    expect(await ownHashes(policy, injected)).not.toContain(hash('alert(1)'))
  })

  it('trims a rendered page’s header and leaves other answers alone', async () => {
    const html = new Response(page, { headers: { 'content-type': 'text/html', 'content-security-policy': policy } })
    const trimmed = await withOwnHashes(html)
    expect(trimmed.headers.get('content-security-policy')).not.toContain(other)
    expect(await trimmed.text()).toBe(page)
    // the page's bytes go on as they came, text in any script included
    const titled = page.replace('<body>', '<body><h1>L’Académie des mages · 魔法学院 · أكاديمية</h1>')
    const bytes = new TextEncoder().encode(titled)
    const sent = await withOwnHashes(new Response(bytes, { headers: { 'content-type': 'text/html', 'content-security-policy': policy } }))
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(bytes)
    expect(sent.headers.get('content-security-policy')).toContain(hash(style))
    const script = await withOwnHashes(
      new Response('x', { headers: { 'content-type': 'text/javascript', 'content-security-policy': policy } }),
    )
    expect(script.headers.get('content-security-policy')).toBe(policy)
  })

  it('trims a pre-rendered page’s <meta> policy, read with its quotes escaped or not', async () => {
    const meta = `<meta http-equiv="content-security-policy" content="${policy.replaceAll("'", '&#39;')}">`
    const out = await withOwnMetaHashes(page.replace('<head>', `<head>${meta}`))
    expect(out).toContain(`content="script-src 'self' ${hash(boot)} 'sha384-kept'; style-src 'self' ${hash(style)}"`)
    expect(out).not.toContain(other.slice(1, -1))
    expect(out).toContain(`<script>${boot}</script>`)
  })
})

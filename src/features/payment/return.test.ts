import { describe, expect, it } from 'vitest'
import { shopReturnPath } from './return.ts'
import { shopHref } from './shop-link.ts'

describe('shopReturnPath (the shop never redirects off site)', () => {
  it('keeps a same-site relative path, with its query and fragment', () => {
    expect(shopReturnPath('/viewer/12')).toBe('/viewer/12')
    expect(shopReturnPath('/viewer/12?from=detail#unlock')).toBe('/viewer/12?from=detail#unlock')
  })
  it('refuses absolute, protocol-relative and disguised URLs', () => {
    for (const bad of [
      'https://evil.example/viewer/1',
      '//evil.example/viewer/1',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/%2F%2Fevil.example/../x',
      'viewer/1',
      '/viewer/1\n',
      ' /viewer/1',
      `/${'a'.repeat(600)}`,
    ]) {
      expect(shopReturnPath(bad), bad).toBeNull()
    }
  })
  it('refuses home, the shop itself and the API (nothing to come back to, or a loop)', () => {
    for (const loop of ['/', '/shop', '/shop/result?payment=x', '/api/v1/coin', null, undefined, ''])
      expect(shopReturnPath(loop), String(loop)).toBeNull()
    expect(shopReturnPath('/shopping')).toBe('/shopping')
  })
  it('what shopHref sends comes back whole', () => {
    const href = shopHref('/viewer/12#unlock')
    expect(href).toBe('/shop?return=%2Fviewer%2F12%23unlock')
    expect(shopReturnPath(new URL(href, 'https://x.invalid').searchParams.get('return'))).toBe('/viewer/12#unlock')
  })
})

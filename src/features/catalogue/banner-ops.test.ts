import { describe, expect, it } from 'vitest'
import { BannerCreateRequest } from './banner-ops.ts'

const ok = { display: 'ONLY_TEXT', title: 'Nouvelle saison', link: '/detail/24', reason: 'r' }
const pictured = { ...ok, display: 'ICON_TEXT', imageKey: 'banners/12', imageWidth: 720, imageHeight: 300 }

describe('BannerCreateRequest (npm run ops -- banner create)', () => {
  it('a text banner on HOME by default, at position 0, for everyone; a picture banner with its key and size', () => {
    expect(BannerCreateRequest.parse(ok)).toEqual({ ...ok, placement: 'HOME', position: 0, adult: false })
    expect(BannerCreateRequest.parse({ ...pictured, link: 'https://example.com/x', endsAt: '2099-01-31' })).toMatchObject({
      imageKey: 'banners/12',
      endsAt: '2099-01-31T23:59:59.999Z',
    })
  })
  it('the picture follows the display (bannerLayout), the link bannerHref, the key an R2 prefix', () => {
    for (const bad of [
      { ...ok, display: 'ONLY_ICON' },
      { ...pictured, display: 'ONLY_TEXT' },
      { ...pictured, imageHeight: undefined },
      { ...pictured, imageKey: 'Banners/12' },
      { ...pictured, imageKey: 'banners/../x' },
      { ...pictured, imageKey: '/banners' },
      { ...pictured, imageWidth: 8 },
      { ...ok, link: 'javascript:alert(1)' },
      { ...ok, link: '//evil.example' },
      { ...ok, link: '/a b' },
      { ...ok, title: 'a\nb' },
      { ...ok, background: '#12345' },
      { ...ok, startsAt: '2099-02-01', endsAt: '2099-01-31' },
      { ...ok, reason: '' },
    ]) {
      expect(BannerCreateRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    }
  })
})

import { describe, expect, it } from 'vitest'
import { loaderSrcset } from './images.ts'

describe('the image loader URLs (spec §7/§9)', () => {
  it("a small image's srcset adds the loader's sizes below the smallest stored width", () => {
    expect(loaderSrcset('covers/3', 96)).toBe(
      [
        '/media/image?url=%2Fmedia%2Fcovers%2F3%2F256.webp&w=96 96w',
        '/media/image?url=%2Fmedia%2Fcovers%2F3%2F256.webp&w=128 128w',
        '/media/covers/3/256.webp 256w',
        '/media/covers/3/384.webp 384w',
        '/media/covers/3/640.webp 640w',
      ].join(', '),
    )
    expect(loaderSrcset('banners/2', 750, [828, 1080])).toBe(
      '/media/image?url=%2Fmedia%2Fbanners%2F2%2F828.webp&w=750 750w, /media/banners/2/828.webp 828w, /media/banners/2/1080.webp 1080w',
    )
    expect(loaderSrcset('covers/3', 300)).toBe(
      '/media/covers/3/256.webp 256w, /media/covers/3/384.webp 384w, /media/covers/3/640.webp 640w',
    )
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { findChromium } from './chromium.ts'

describe('findChromium', () => {
  const saved = process.env.CHROME_PATH
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROME_PATH
    else process.env.CHROME_PATH = saved
  })

  it('says in one line why a CHROME_PATH that does not exist cannot be used', async () => {
    process.env.CHROME_PATH = '/nowhere/chromium'
    expect(await findChromium()).toEqual({ path: null, reason: 'CHROME_PATH=/nowhere/chromium does not exist' })
  })

  it('finds a browser on this machine without CHROME_PATH (system or the npm-installed one)', async () => {
    delete process.env.CHROME_PATH
    const found = await findChromium()
    expect(found.path).toMatch(/chrom/)
  }, 60_000)
})

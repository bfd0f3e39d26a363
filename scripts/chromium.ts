/**
 * The Chromium every browser-using script runs (browser tests, bench, screenshots): `CHROME_PATH` when set, else
 * the machine's Chromium (Debian's package), else the one `npm install` brought (`@sparticuz/chromium`: a Chromium
 * build shipped inside the registry package, unpacked once into the temp folder). Playwright's own browser
 * download cannot reach its host from these machines, so it is never used.
 */
import { existsSync } from 'node:fs'

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

/** Flags that keep Chromium quiet offline (no background connections a closed network refuses). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** The path of a Chromium that runs here, or null with the reason. */
export async function findChromium(): Promise<{ path: string; from: string } | { path: null; reason: string }> {
  const fromEnv = process.env.CHROME_PATH
  if (fromEnv)
    return existsSync(fromEnv) ? { path: fromEnv, from: 'CHROME_PATH' } : { path: null, reason: `CHROME_PATH=${fromEnv} does not exist` }
  const system = SYSTEM.find((p) => existsSync(p))
  if (system) return { path: system, from: 'system' }
  try {
    const { default: packaged } = await import('@sparticuz/chromium')
    return { path: await packaged.executablePath(), from: '@sparticuz/chromium' }
  } catch (e) {
    return {
      path: null,
      reason: `no CHROME_PATH, no system Chromium (${SYSTEM.join(', ')}), and @sparticuz/chromium could not be unpacked: ${(e as Error).message}`,
    }
  }
}

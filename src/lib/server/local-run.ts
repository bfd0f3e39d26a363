/**
 * Whether this worker is a local run (`npm start`, `astro dev`, the tests): the one switch of the sandboxes (payment
 * sandbox, carrier sandbox) and the dev pages (/dev/outbox). A deployed worker has none of them, whatever its secrets.
 */
import { env } from 'cloudflare:workers'
import { localRunOn } from '../edition/local-switches.ts'

export function isLocalRun(): boolean {
  return localRunOn(import.meta.env.DEV, (env as unknown as Record<string, unknown>).DEV_OUTBOX)
}

/** Paths that exist only in a local run: the sandboxes' pages and routes and the outbox. */
export function isLocalOnlyPath(path: string): boolean {
  return (
    path === '/dev' ||
    path.startsWith('/dev/') ||
    path === '/nice/sandbox' ||
    path.startsWith('/nice/sandbox/') ||
    path.startsWith('/shop/checkout/') ||
    path.startsWith('/api/v1/payment/sandbox/') ||
    path === '/api/v1/payment/webhook/sandbox'
  )
}

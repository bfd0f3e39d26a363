/**
 * Vitest globalSetup of the worker project (runs in Node): the local push service (scripts/push-service.ts) on a free
 * port, with a fresh VAPID key pair for the worker, so Web Push is tested over real HTTP with real encryption (issue
 * 13 point 2). The tests reach it through `GET /__subscribe` and `GET /__received`.
 */
import { generateKeyPairSync } from 'node:crypto'
import type { TestProject } from 'vitest/node'
import { startPushService } from '../../scripts/push-service.ts'

const VAPID_SUBJECT = 'mailto:push-test@fr.bomtoon.example'

declare module 'vitest' {
  export interface ProvidedContext {
    pushServiceBase: string
    vapidKeys: { publicKey: string; privateKey: string }
  }
}

export default async function setup(project: TestProject) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const publicRaw = Buffer.from(publicKey.export({ format: 'der', type: 'spki' }))
    .subarray(-65)
    .toString('base64url')
  const service = await startPushService({ vapidPublicKey: publicRaw })
  project.provide('pushServiceBase', service.base)
  project.provide('vapidKeys', { publicKey: publicRaw, privateKey: String(privateKey.export({ format: 'jwk' }).d) })
  return service.close
}

/** The worker project's bindings for the service at `base` (vitest.config.ts). */
export function pushTestBindings(base: string, vapid: { publicKey: string; privateKey: string }): Record<string, string> {
  return { PUSH_SERVICE_BASE: base, VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, VAPID_SUBJECT }
}

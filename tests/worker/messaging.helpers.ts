/**
 * Helpers of the delivery tests (issue 22): run app calls as a deployed worker does (no local-run switch, so
 * the real providers are used and the outbox is not), recording each mail on its way into the real simulated
 * send_email binding, and reading what the local Twilio stand-in received.
 */
import { vi } from 'vitest'
import { env, withEnv } from 'cloudflare:workers'
import { inject } from 'vitest'
import type { RecordedSms } from './sms-global-setup.ts'

export type SentMail = EmailMessageBuilder & { messageId: string }

/**
 * Runs `fn` as a deployment: `import.meta.env.DEV` off and no DEV_OUTBOX (the local-run switch is off), mail
 * through `EMAIL` (the miniflare binding, which refuses senders outside its allowed list). `email` replaces the
 * binding (e.g. a failing one); every mail the real binding accepted is in `sent`, with its message id.
 */
export async function deployed<T>(fn: (sent: SentMail[]) => T | Promise<T>, overrides: Partial<Cloudflare.Env> = {}): Promise<T> {
  const sent: SentMail[] = []
  const real = env.EMAIL!
  const recording = {
    async send(message: EmailMessageBuilder) {
      const result = await real.send(message)
      sent.push({ ...message, messageId: result.messageId })
      return result
    },
  } as SendEmail
  vi.stubEnv('DEV', false)
  try {
    return (await withEnv({ ...env, DEV_OUTBOX: undefined, EMAIL: recording, ...overrides }, () => fn(sent))) as T
  } finally {
    vi.unstubAllEnvs()
  }
}

/** Every request the Twilio stand-in received so far (all test files share it: filter by number). */
export async function smsRequests(to?: string): Promise<RecordedSms[]> {
  const all = (await (await fetch(`${inject('smsApiBase')}/__requests`)).json()) as RecordedSms[]
  return to === undefined ? all : all.filter((r) => r.to === to)
}

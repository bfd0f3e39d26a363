/**
 * Vitest globalSetup of the worker project (runs in Node): a local stand-in for Twilio's Messages API on
 * 127.0.0.1:<free port>, answering with the documented shapes, so the SMS adapter is tested over real HTTP
 * (issue 22). It records every request (HTTP basic auth, To, From / MessagingServiceSid, Body) for the tests,
 * which read them back with `GET /__requests`.
 *
 * Numbers with a fixed answer (every other number is accepted: 201 with a message `sid`):
 * - SMS_FAILING (+33612340500): 500, Twilio's error body;
 * - SMS_SLOW (+33612340408): answers only after 8 s, longer than the adapter waits;
 * - SMS_REJECTED (+33612340400): 400 with error 21211 (not a valid phone number).
 * Wrong credentials: 401 with error 20003, as Twilio answers.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { TestProject } from 'vitest/node'

export const SMS_ACCOUNT_SID = 'AC00000000000000000000000000000001'
export const SMS_AUTH_TOKEN = 'test-twilio-auth-token'
export const SMS_FROM = '+15005550006'
export const SMS_FAILING = '+33612340500'
export const SMS_SLOW = '+33612340408'
export const SMS_REJECTED = '+33612340400'

declare module 'vitest' {
  export interface ProvidedContext {
    smsApiBase: string
  }
}

export type RecordedSms = {
  path: string
  auth: string | null
  to: string | null
  from: string | null
  messagingServiceSid: string | null
  body: string | null
}

export default async function setup(project: TestProject) {
  const recorded: RecordedSms[] = []
  let seq = 0
  const server = http.createServer((req, res) => {
    const reply = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(json))
    }
    if (req.method === 'GET' && req.url === '/__requests') return reply(200, recorded)
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
    req.on('end', () => {
      const form = new URLSearchParams(raw)
      const to = form.get('To')
      recorded.push({
        path: req.url ?? '',
        auth: req.headers.authorization ?? null,
        to,
        from: form.get('From'),
        messagingServiceSid: form.get('MessagingServiceSid'),
        body: form.get('Body'),
      })
      const expected = `Basic ${Buffer.from(`${SMS_ACCOUNT_SID}:${SMS_AUTH_TOKEN}`).toString('base64')}`
      if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${SMS_ACCOUNT_SID}/Messages.json`)
        return reply(404, { code: 20404, message: 'The requested resource was not found', status: 404 })
      if (req.headers.authorization !== expected)
        return reply(401, { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 })
      if (to === SMS_FAILING)
        return reply(500, {
          code: 20500,
          message: 'Internal Server Error',
          more_info: 'https://www.twilio.com/docs/errors/20500',
          status: 500,
        })
      if (to === SMS_REJECTED)
        return reply(400, {
          code: 21211,
          message: `The 'To' number ${to} is not a valid phone number.`,
          more_info: 'https://www.twilio.com/docs/errors/21211',
          status: 400,
        })
      const answer = () =>
        reply(201, {
          sid: `SM${String(++seq).padStart(32, '0')}`,
          account_sid: SMS_ACCOUNT_SID,
          to,
          from: form.get('From'),
          body: form.get('Body'),
          status: 'queued',
          num_segments: '1',
          direction: 'outbound-api',
          api_version: '2010-04-01',
          error_code: null,
          error_message: null,
        })
      if (to === SMS_SLOW) setTimeout(answer, 8_000)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  project.provide('smsApiBase', `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  return async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** The worker project's bindings for the stand-in at `base` (vitest.config.ts). */
export function smsTestBindings(base: string): Record<string, string> {
  return { TWILIO_API_BASE: base, TWILIO_ACCOUNT_SID: SMS_ACCOUNT_SID, TWILIO_AUTH_TOKEN: SMS_AUTH_TOKEN, TWILIO_FROM: SMS_FROM }
}

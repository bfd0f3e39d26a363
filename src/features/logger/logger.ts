/**
 * Spec §7 "Logger POST" (logType, platform, ip, date, url, action, data): a client's log line. It is written to the
 * Worker's log as one JSON object (Workers Logs collects `console.log`), never stored in D1. A body is at most
 * `LOG_MAX_BYTES`; each field is bounded, `data` is any JSON the cap lets through.
 */
import { z } from 'zod'
import { PLATFORMS } from '../../lib/platform.ts'

/** A log body over this many bytes is refused (PAYLOAD_TOO_LARGE) before it is read. */
export const LOG_MAX_BYTES = 4096

export const LogBody = z.object({
  logType: z.string().regex(/^[A-Za-z0-9_.-]{1,32}$/),
  platform: z.enum(PLATFORMS),
  /** The address the client believes it has; the one the edge saw is logged beside it. */
  ip: z.string().max(64).optional(),
  date: z.iso.datetime({ offset: true }),
  url: z.string().max(2048),
  action: z.string().min(1).max(128),
  data: z.json().optional(),
})
export type LogBody = z.infer<typeof LogBody>

/** The structured line written for one accepted body: what the client sent, with what the server knows of the call. */
export function logLine(body: LogBody, server: { requestId: string; edition: string; address: string | null; at: string }): string {
  return JSON.stringify({
    source: 'client-log',
    ...body,
    requestId: server.requestId,
    edition: server.edition,
    address: server.address,
    receivedAt: server.at,
  })
}

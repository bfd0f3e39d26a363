/** The API envelope of docs/API.md and the one error mapper behind `onError`. */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { AppError, ERRORS, type ErrorCode } from '../../src/lib/errors/catalogue.ts'
import type { AppEnv } from './env.ts'

/** Success: `{"result":"SUCCESS","data":...}`. */
export function ok<T>(c: Context<AppEnv>, data: T, status: ContentfulStatusCode = 200) {
  return c.json({ result: 'SUCCESS' as const, data }, status)
}

/** Failure body: `{"result":"ERROR","code","message","requestId"}`, message in the edition's language. */
export function errorResponse(c: Context<AppEnv>, code: ErrorCode, details?: Record<string, unknown>) {
  const entry = ERRORS[code]
  const t = c.get('t')
  const message = t ? t(entry.messageKey, details) : code
  return c.json({ result: 'ERROR' as const, code, message, requestId: c.get('requestId') ?? '' }, entry.status as ContentfulStatusCode)
}

/** A refusal whose message is more precise than its code's (a refused comment text, a nickname), with `extra` fields for apps. */
export function refusal(c: Context<AppEnv>, code: ErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return c.json(
    { result: 'ERROR' as const, code, message, requestId: c.get('requestId') ?? '', ...extra },
    ERRORS[code].status as ContentfulStatusCode,
  )
}

/** An uploaded image from R2 (a question's attachment), shown inline under its stored type; `NOT_EXIST` when absent. */
export function storedImage(object: R2ObjectBody | null | undefined, headers: Record<string, string> = {}): Response {
  if (!object) throw new AppError('NOT_EXIST')
  return new Response(object.body, {
    headers: {
      'content-type': object.httpMetadata?.contentType ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
      ...headers,
    },
  })
}

/** Maps anything thrown to a catalogue code; never leaks a stack trace. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err
  if (err instanceof HTTPException) {
    const byStatus: Partial<Record<number, ErrorCode>> = {
      400: 'INVALID_PARAMETER',
      404: 'NOT_EXIST',
      405: 'METHOD_NOT_ALLOWED',
      413: 'PAYLOAD_TOO_LARGE',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      429: 'TOO_MANY_REQUESTS',
    }
    return new AppError(byStatus[err.status] ?? 'INVALID_PARAMETER')
  }
  if (err instanceof SyntaxError) return new AppError('INVALID_PARAMETER')
  return new AppError('UNKNOWN')
}

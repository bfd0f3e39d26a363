/**
 * Input validation for API handlers: zod schemas through hono-openapi's validator (Standard Schema), which also hands
 * each schema to the generated API reference (`GET /api/v1/openapi.json`, functions/lib/openapi.ts). Any failure (wrong
 * types, missing fields, malformed JSON, wrong content type) becomes 400 INVALID_PARAMETER and the handler never runs.
 */
import { validator } from 'hono-openapi'
import type { ValidationTargets } from 'hono'
import type { ZodType } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return validator(target, schema, (result) => {
    if (!result.success) {
      const path = (i: (typeof result.error)[number]) => (i.path ?? []).map((p) => (typeof p === 'object' ? p.key : p)).join('.')
      const fields = [...new Set(result.error.map((i) => path(i) || target))]
      throw new AppError('INVALID_PARAMETER', { fields: fields.join(', ') })
    }
  })
}

/**
 * Input validation for API handlers: zod schemas through @hono/zod-validator; any failure (wrong types,
 * missing fields, malformed JSON, wrong content type) becomes 400 INVALID_PARAMETER and the handler never runs.
 */
import { zValidator } from '@hono/zod-validator'
import type { ValidationTargets } from 'hono'
import type { ZodType } from 'zod'
import { AppError } from '../../src/lib/errors/catalogue.ts'

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const fields = [...new Set(result.error.issues.map((i) => i.path.join('.') || target))]
      throw new AppError('INVALID_PARAMETER', { fields: fields.join(', ') })
    }
  })
}

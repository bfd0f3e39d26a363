import { createMiddleware } from 'hono/factory'
import { AppError } from '../../src/lib/errors/catalogue.ts'
import { deliveryChannels } from '../../src/lib/messaging/messaging.server.ts'
import type { AppEnv } from '../lib/env.ts'

/**
 * Routes that send a code or a link by mail or SMS run only where the edition can deliver it (issue 22): without
 * a mail provider EMAIL_REQUIRES_ADAPTER_ERROR (the pages offer the social logins instead), without an SMS
 * provider NOT_EXIST (the phone flows do not exist on that edition), before anything is written.
 */
export const needs = (channel: 'mail' | 'sms') =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!deliveryChannels(c.var.edition)[channel]) throw new AppError(channel === 'mail' ? 'EMAIL_REQUIRES_ADAPTER_ERROR' : 'NOT_EXIST')
    await next()
  })

import { Hono } from 'hono'
import type { AppEnv } from '../lib/env.ts'

/** The backend API (`/api/v1`); feature sub-apps are mounted here as they arrive. */
export const v1 = new Hono<AppEnv>()

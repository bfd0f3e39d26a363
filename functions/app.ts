import { Hono } from 'hono'
import { cf } from '@astrojs/cloudflare/hono'
import { astro } from 'astro/hono'

const app = new Hono()
const cloudflare = cf()
app.get('/_/health', (c) => c.json({ status: 'ok' }))
app.use(async (c, next) => {
  try {
    c.executionCtx
  } catch {
    return next() // prerendering at build time: no ExecutionContext, no assets binding
  }
  return cloudflare(c as never, next)
})
app.all('*', astro())
export default app

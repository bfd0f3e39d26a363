import app from '../functions/app.ts'

/** Astro 7 advanced-routing entry: the Hono edge app is the outer router of the worker. */
export default app

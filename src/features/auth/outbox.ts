/**
 * The dev-only outbox page (issue 3 §6: absent in production builds): shown under `astro dev`, or when the
 * worker runs with DEV_OUTBOX=1 (set by scripts/start.ts for local runs and the browser tests). Pure.
 */
export function isOutboxPageEnabled(dev: boolean, devOutboxVar: unknown): boolean {
  return dev || devOutboxVar === '1'
}

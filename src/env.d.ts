/// <reference types="astro/client" />

declare module 'virtual:edition' {
  export const edition: import('./lib/edition/schema.ts').Edition
  export const messages: Record<string, string>
  /** Changes with every build: versions the edge cache. */
  export const buildId: string
}

declare namespace Cloudflare {
  interface Env {
    DB: D1Database
    MEDIA: R2Bucket
    /** Cloudflare Images (wrangler.jsonc `images`): the image loader's resizing, functions/api/media.ts. */
    IMAGES: ImagesBinding
    CACHE: KVNamespace
    SESSION: KVNamespace
    ASSETS: Fetcher
    EDITION: string
    OPS_TOKEN?: string
    SESSION_SECRET?: string
    PASSWORD_PEPPER?: string
    PAYMENT_WEBHOOK_SECRET?: string
    /** Local run switch (scripts/start.ts): the outbox is the mail and SMS provider. */
    DEV_OUTBOX?: string
    /** Cloudflare Email Service (wrangler.jsonc send_email). */
    EMAIL?: SendEmail
    TWILIO_ACCOUNT_SID?: string
    TWILIO_AUTH_TOKEN?: string
    TWILIO_FROM?: string
    TWILIO_MESSAGING_SERVICE_SID?: string
    /** Overrides Twilio's API origin (the worker tests' local server). */
    TWILIO_API_BASE?: string
    /** The alarm queue (wrangler.jsonc `queues`): fan-outs and pushes, src/features/alarm/queue.server.ts. */
    ALARMS: Queue<import('./features/alarm/alarm.ts').AlarmJob>
    /** Each reader's Durable Object (wrangler.jsonc `durable_objects`): src/objects/reader/reader.server.ts. */
    READER: DurableObjectNamespace<import('./objects/reader/reader.server.ts').Reader>
    /** Password hashing away from the pages' isolates (wrangler.jsonc `durable_objects`): src/features/auth/hasher.server.ts. */
    HASHER: DurableObjectNamespace<import('./features/auth/hasher.server.ts').Hasher>
    /** Each series' counts (src/features/catalogue/tally.server.ts). */
    TALLY: DurableObjectNamespace<import('./features/catalogue/tally.server.ts').Tally>
    /** What readers' objects tell the shared side (wrangler.jsonc `queues`): src/objects/reader/events.server.ts. */
    READER_EVENTS: Queue<import('./features/reader/events.ts').ReaderEventJob>
    /** Web Push (src/features/push/push.server.ts): the VAPID key pair (public a var, private a secret) and subject. */
    VAPID_PUBLIC_KEY?: string
    VAPID_PRIVATE_KEY?: string
    VAPID_SUBJECT?: string
    /** Local runs only: stands in for every push service's origin (the worker tests' local push service). */
    PUSH_SERVICE_BASE?: string
    /** Rate limiting (wrangler.jsonc `ratelimits`): see src/features/auth/limits.server.ts. */
    LIMIT_ADDRESS_ATTEMPT?: RateLimit
    LIMIT_ADDRESS_SEND?: RateLimit
    LIMIT_EDITION_ATTEMPT?: RateLimit
    LIMIT_EDITION_SEND?: RateLimit
    /** The daily report's figures (wrangler.jsonc `analytics_engine_datasets`): src/lib/metrics/metrics.server.ts. */
    METRICS?: AnalyticsEngineDataset
  }
}
declare module 'virtual:edition-theme.css'

declare module 'virtual:astro-cloudflare:config' {
  export const isPrerender: boolean
}

declare module '@astrojs/cloudflare/handler' {
  export function handle(request: Request, env: Cloudflare.Env, ctx: ExecutionContext): Promise<Response>
}

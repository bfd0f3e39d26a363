import { z } from 'zod'

/** Edition ids, one worker each (spec §1). fr is the default. */
export const EDITION_IDS = ['fr', 'de', 'th', 'tw', 'jp', 'kr', 'ar'] as const

const Provider = z.enum(['google', 'facebook', 'twitter', 'apple'])
/** A price in coins. */
const Coins = z.number().int().min(0).max(10_000)

/**
 * Every per-edition switch of spec §1 and §5. Parsed once at build (astro.config.mjs)
 * and once when the worker starts (functions/app.ts); a bad file names the edition and the field.
 */
const EditionSchema = z
  .object({
    /** Edition id; must equal the folder name under `editions/`. */
    id: z.enum(EDITION_IDS),
    /** Platform identifier sent to apps and logs (spec §1: beltoon-jp, bom-th, bom-tw, {product}-me…). */
    platformId: z.string().min(1),
    /** Product name shown in titles and the header. */
    siteName: z.string().min(1),
    /** Public origin of this edition (canonical URLs, sitemap, hreflang). */
    siteUrl: z.url(),
    /** The company running this edition (spec §2 app settings "company info"), shown on /setting as written here. */
    company: z
      .object({
        name: z.string().min(1),
        /** Postal address of the registered office. */
        address: z.string().min(1),
        /** Trade register or tax number, with its register's name. */
        registration: z.string().min(1),
        /** E-mail address for the company (not the support form). */
        contact: z.email(),
      })
      .strict(),
    /** BCP 47 language tag of the interface and of Intl formatting (spec §1: fr). */
    locale: z.string().min(2),
    /** Text direction; ar is right-to-left. */
    direction: z.enum(['ltr', 'rtl']),
    /** IANA time zone for dates and the weekly schedule (spec §1: Europe/Paris). */
    timeZone: z
      .string()
      .min(1)
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz })
          return true
        } catch {
          return false
        }
      }, 'unknown IANA time zone'),
    /**
     * Names no reader may take as (or inside) a nickname: the service's own, its staff's (issue 34 point 6), matched
     * after folding (`foldBare`: case, accents, invisible and confusable characters).
     */
    reservedNames: z.array(z.string().min(2).max(40)).min(1).max(100),
    /** ISO 3166-1 country in which phone numbers without an international prefix are read (SMS codes go there). */
    phoneCountry: z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, e.g. FR'),
    /** ISO 4217 currency of the coin shop (spec §1: EUR). */
    currency: z.string().regex(/^[A-Z]{3}$/, 'ISO 4217 code, e.g. EUR'),
    /**
     * How prices are written, as the edition's readers write them (spec §1: fr puts the symbol in front; issue 35):
     * `symbol` replaces Intl's where readers use another (kr 원, tw NT$), `space` puts a no-break space between number
     * and symbol, `cents` "unlessWhole" drops ".00" from a whole price (th ฿35, tw NT$30).
     */
    price: z
      .object({
        symbol: z.string().min(1).max(4).nullable(),
        position: z.enum(['before', 'after']),
        space: z.boolean(),
        cents: z.enum(['always', 'unlessWhole']),
      })
      .strict(),
    /**
     * How dates are written: "dotted" is spec §9's dd.MM.yyyy (the French edition's constant), "locale" the short
     * numeric date of the edition's locale and calendar (jp 2026/11/29, kr 2026. 11. 29., th 29/11/2569, ar in its
     * own digits).
     */
    dateForm: z.enum(['dotted', 'locale']),
    /** Login providers offered, in order (spec §1). E-mail login is always offered. */
    loginProviders: z.array(Provider),
    /** Adult check (spec §4): BIRTHDAY picker or YES_NO question. */
    adultCheckType: z.enum(['BIRTHDAY', 'YES_NO']),
    /** Age from which a reader is adult (spec §9: 18). */
    adultAge: z.number().int().min(12).max(25),
    /** When set, every path but /_/health redirects here (spec §1: German edition). */
    redirectAllUrl: z.url().nullable(),
    /** Korean adult auth (spec §5): a Korean-IP user also needs isAdultKr. */
    krAdultAuth: z.boolean(),
    /** BL toggle (spec §5): applies only on the {product}-me platform. */
    blToggle: z.boolean(),
    /** JP rule (spec §4/§5): a guest answering "yes" gets a not-logged-in-adult cookie. */
    notLoggedInAdultCookie: z.boolean(),
    /** TH/TW rule (spec §5): a birth date must be present for the reader to count as adult. */
    adultNeedsBirthDate: z.boolean(),
    /** Mileage points per coin when exchanging (spec §9: 200; one text says 20). */
    mileagePerCoin: z.number().int().positive(),
    /** Smallest mileage exchange (spec §9: 3000). */
    mileageMinimum: z.number().int().positive(),
    /** Hours a rental lasts. */
    rentalHours: z.number().int().positive(),
    /**
     * Early access (issue 37 point 1): how many of a series' next scheduled episodes `npm run ops -- early open` opens
     * to signed-in readers by default, and the coins each costs to rent and to buy before its publication.
     */
    earlyAccess: z.object({ episodes: z.number().int().min(1).max(20), rent: Coins, buy: Coins }).strict(),
    /** Feature flags; a flag absent here is off. */
    features: z.object({
      /** Roulette event page. */
      roulette: z.boolean(),
      /** Facebook conversion call on a paid charge (spec §7). */
      facebookConversion: z.boolean(),
      /** Offerwall (Tapjoy) entry on /my, app only. */
      tapjoy: z.boolean(),
      /** Comments under episodes. */
      comments: z.boolean(),
      /** Account transfer pages (/transfer/*). */
      transfer: z.boolean(),
      /** Coupon page (web only, spec §2). */
      coupon: z.boolean(),
    }),
    /**
     * Outgoing mail through Cloudflare Email Service (the `EMAIL` send_email binding): the sender, its display
     * name, the support address replies go to, the operator's address for alerts, and whether a reader's reply to a support answer is taken in by
     * the worker's `email()` handler (Email Routing). null: this edition sends no mail, so e-mail sign-up and
     * password reset are unavailable and the reader is offered the social logins instead.
     */
    mail: z
      .object({
        from: z.email(),
        fromName: z.string().min(1),
        replyTo: z.email(),
        inboundReplies: z.boolean(),
        /** The operator's address for alerts (issue 39 point 4: `raiseAlert`), at most one mail per kind per hour. */
        alertsTo: z.email(),
      })
      .strict()
      .nullable(),
    /** SMS provider for find-ID / find-password codes (secrets TWILIO_*); null: no phone flows on this edition. */
    sms: z.enum(['twilio']).nullable(),
    /**
     * Who takes the coin shop's payments. `stripe`: Stripe Checkout with the secrets STRIPE_SECRET_KEY and
     * STRIPE_WEBHOOK_SECRET (without them the shop says payments are unavailable). `sandbox`: the local payment
     * sandbox only, which answers in local runs alone (a deployed edition with it sells nothing).
     */
    payment: z.object({ provider: z.enum(['sandbox', 'stripe']) }).strict(),
    /** Theme tokens (spec §9). */
    theme: z.object({
      /** Primary colour (spec: orange). */
      primary: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      /** Text colour on the primary colour. */
      onPrimary: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      /** Page background. */
      background: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      /** Main text colour. */
      text: z.string().regex(/^#[0-9a-fA-F]{6}$/),
      /** Content maximum width in px (spec §9: 720). */
      maxWidth: z.number().int().positive(),
    }),
  })
  .strict()

export type Edition = z.infer<typeof EditionSchema>

/** A readable message naming the edition and each failing field. */
function describeEditionError(id: string, error: z.ZodError): string {
  const lines = error.issues.map((i) => `  - ${i.path.join('.') || '(root)'}: ${i.message}`)
  return `Edition "${id}" is invalid (editions/${id}/edition.json):\n${lines.join('\n')}`
}

/** Parse raw edition data; throws an Error naming the edition and the fields. */
export function parseEdition(id: string, raw: unknown): Edition {
  const result = EditionSchema.safeParse(raw)
  if (!result.success) throw new Error(describeEditionError(id, result.error))
  if (result.data.id !== id) throw new Error(`Edition "${id}" is invalid: field id is "${result.data.id}", expected "${id}"`)
  return result.data
}

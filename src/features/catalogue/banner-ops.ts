/**
 * The operator's banner requests (docs/API.md `/api/ops/banners`, `npm run ops -- banner create|end`; spec §3 banner
 * fields): what a new banner must carry for the home carousel to show it (`bannerLayout`, `bannerHref`).
 */
import { z } from 'zod'
import { OpsDate, OpsReason, OpsStart } from '../../lib/ops.ts'
import { expiryInstant } from '../wallet/wallet.ts'
import { cleanText } from '../../lib/text/clean.ts'
import { BANNER_DISPLAYS, bannerHref, bannerLayout } from './catalogue.ts'

/** banners.placement; the pages show the HOME ones (the home carousel). */
export const BANNER_PLACEMENTS = ['HOME', 'SHOP', 'MY', 'EVENT', 'VIEWER', 'SIGNUP'] as const
export const MAX_BANNER_TITLE = 100
/** Largest picture side an operator declares (the seed's wide banners are 720 × 300). */
export const MAX_BANNER_SIDE = 4096
const MAX_POSITION = 1000

const line = (max: number) =>
  z
    .string()
    .max(max * 2)
    .transform(cleanText)
    .pipe(
      z
        .string()
        .min(1)
        .max(max)
        .regex(/^[^\n]*$/),
    )
const side = z.number().int().min(16).max(MAX_BANNER_SIDE)

/**
 * A new banner (docs/API.md `POST /api/ops/banners`). A display with a picture (`bannerLayout(display).image`) needs
 * `imageKey` (the R2 prefix of its WebP widths, `banners/<name>`: `<imageKey>/<width>.webp`, uploaded beforehand) and
 * its size; `link` a path of this site or an http(s) address (`bannerHref`); `startsAt` a date is that day's start,
 * absent now; `endsAt` a date is through that day's end, absent never; `position` orders the carousel (low first).
 */
export const BannerCreateRequest = z
  .object({
    placement: z.enum(BANNER_PLACEMENTS).default('HOME'),
    display: z.enum(BANNER_DISPLAYS),
    title: line(MAX_BANNER_TITLE),
    subtitle: line(MAX_BANNER_TITLE).optional(),
    link: z
      .string()
      .trim()
      .max(500)
      .refine((l) => bannerHref(l) !== null && !/\s/.test(l)),
    imageKey: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9_-]+)*$/)
      .max(200)
      .optional(),
    imageWidth: side.optional(),
    imageHeight: side.optional(),
    background: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .optional(),
    startsAt: OpsStart.optional(),
    endsAt: OpsDate.transform((d) => expiryInstant(d)!).optional(),
    position: z.number().int().min(0).max(MAX_POSITION).default(0),
    adult: z.boolean().default(false),
    reason: OpsReason,
  })
  .superRefine((r, ctx) => {
    const bad = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message })
    const image = bannerLayout(r.display).image
    if (image && r.imageKey === undefined) bad('imageKey', `${r.display} shows a picture`)
    if (!image && r.imageKey !== undefined) bad('imageKey', `${r.display} shows no picture`)
    if ((r.imageKey === undefined) !== (r.imageWidth === undefined) || (r.imageKey === undefined) !== (r.imageHeight === undefined))
      bad('imageWidth', 'with the picture, its width and height')
    if (r.startsAt && r.endsAt && r.endsAt <= r.startsAt) bad('endsAt', 'after the start')
  })
export type BannerCreateRequest = z.infer<typeof BannerCreateRequest>

/** Request shapes of the age API (zod; kept apart from age.ts so the popup island stays small). */
import { z } from 'zod'

/** `{value}` of PUT /user/adult/toggle/{value} and /user/BL/toggle/{value}: on or off. */
export const ToggleValue = z.enum(['true', 'false', 'Y', 'N', '1', '0']).transform((v) => v === 'true' || v === 'Y' || v === '1')

/** Body of the adult authentication (spec §7 PUT /user action ADULT: verifyAdultRequest{birthedAt}, refreshToken). */
export const VerifyAdultBody = z.object({
  birthedAt: z.string().max(10).optional(),
  /** Apps send their refresh token to get the renewed pair back (spec §7 authResponse). */
  refreshToken: z.string().max(256).optional(),
})
export type VerifyAdultBody = z.infer<typeof VerifyAdultBody>

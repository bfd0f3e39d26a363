/**
 * Spec §3 platforms. The caller's is its session's, fixed at sign-in by the app's client credential
 * (src/features/auth/app-client.ts), WEB otherwise — never the client's X-Platform header.
 */
export const PLATFORMS = ['WEB', 'AND_PLAY', 'AND_PLUS', 'IOS_APP'] as const
export type Platform = (typeof PLATFORMS)[number]

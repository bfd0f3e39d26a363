/**
 * Path data of the site's icons (24×24 viewBox, drawn in currentColor), shared by Icon.astro and Icon.tsx:
 * SVG shipped with the page, so no icon depends on a font having a symbol (issue 14 §4). Icons are
 * decorative (aria-hidden): the control carrying one names itself (its text, aria-label or hidden text). Those
 * a React island draws (Icon.tsx: the viewer's) live in island-icons.ts, so an island's script carries no other.
 */
import { ISLAND_ICON_PATHS } from './island-icons.ts'

export const ICON_PATHS = {
  home: 'M3 11l9-8 9 8v9a1 1 0 0 1-1 1h-5v-6H9v6H4a1 1 0 0 1-1-1z',
  shop: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm1 15h-2v-1.2c-1.5-.3-2.6-1.2-2.7-2.6h1.9c.1.7.7 1.1 1.8 1.1 1.1 0 1.7-.4 1.7-1 0-.6-.5-.9-2-1.2-2-.4-3.1-1.1-3.1-2.6 0-1.3 1-2.2 2.4-2.5V6h2v1.1c1.4.3 2.3 1.2 2.4 2.4h-1.9c-.1-.6-.6-1-1.5-1s-1.5.4-1.5.9c0 .6.6.8 2 1.1 2.1.4 3.1 1.2 3.1 2.7 0 1.3-1 2.3-2.6 2.6z',
  gift: 'M20 7h-2.2A3 3 0 0 0 12 3.8 3 3 0 0 0 6.2 7H4a1 1 0 0 0-1 1v3h18V8a1 1 0 0 0-1-1zM9 7a1 1 0 1 1 1-1v1zm5 0V6a1 1 0 1 1 1 1zM4 13v7a1 1 0 0 0 1 1h6v-8zm9 8h6a1 1 0 0 0 1-1v-7h-7z',
  search: 'M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z',
  my: 'M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v2h16v-2c0-2.8-3.6-5-8-5z',
  bell: 'M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6v-5c0-3.1-1.6-5.6-4.5-6.3V4a1.5 1.5 0 0 0-3 0v.7C7.6 5.4 6 7.9 6 11v5l-2 2v1h16v-1z',
  ...ISLAND_ICON_PATHS,
  star: 'M22 9.24l-7.19-.62L12 2 9.19 8.63 2 9.24l5.46 4.73L5.82 21 12 17.27 18.18 21l-1.63-7.03zM12 15.4l-3.76 2.27 1-4.28-3.32-2.88 4.38-.38L12 6.1l1.71 4.04 4.38.38-3.32 2.88 1 4.28z',
  starFilled: 'M12 17.27L18.18 21l-1.64-7.03L22 9.24l-7.19-.61L12 2 9.19 8.63 2 9.24l5.46 4.73L5.82 21z',
} as const

export type IconName = keyof typeof ICON_PATHS

/**
 * Path data of the icons a React island draws (Icon.tsx; today the viewer's bar and key help), in the site's
 * icon set (icons.ts spreads them into ICON_PATHS): kept apart so the viewer's script carries only these.
 */
export const ISLAND_ICON_PATHS = {
  up: 'M12 5l7 7-1.4 1.4L13 8.8V20h-2V8.8l-4.6 4.6L5 12z',
  down: 'M12 19l-7-7 1.4-1.4 4.6 4.6V4h2v11.2l4.6-4.6L19 12z',
  left: 'M5 12l7-7 1.4 1.4L8.8 11H20v2H8.8l4.6 4.6L12 19z',
  right: 'M19 12l-7 7-1.4-1.4 4.6-4.6H4v-2h11.2l-4.6-4.6L12 5z',
  previous: 'M15.4 7.4L14 6l-6 6 6 6 1.4-1.4-4.6-4.6z',
  next: 'M8.6 16.6L10 18l6-6-6-6-1.4 1.4 4.6 4.6z',
  play: 'M8 5v14l11-7z',
  heart:
    'M12 20.5l-1.4-1.3C5.4 14.5 2 11.4 2 7.7 2 4.9 4.2 2.7 7 2.7c1.9 0 3.7.9 5 2.4 1.3-1.5 3.1-2.4 5-2.4 2.8 0 5 2.2 5 5 0 3.7-3.4 6.8-8.6 11.5z',
  pause: 'M6 5h4v14H6zm8 0h4v14h-4z',
  fullscreen: 'M4 4h6v2H6v4H4zm10 0h6v6h-2V6h-4zM4 14h2v4h4v2H4zm14 0h2v6h-6v-2h4z',
  comment: 'M5 3h14a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 2-2zm0 2v12.6L7.3 16H19V5z',
  share:
    'M18 16.08c-.76 0-1.44.3-1.96.77L8.91 12.7c.05-.23.09-.46.09-.7s-.04-.47-.09-.7l7.05-4.11c.54.5 1.25.81 2.04.81 1.66 0 3-1.34 3-3s-1.34-3-3-3-3 1.34-3 3c0 .24.04.47.09.7L8.04 9.81C7.5 9.31 6.79 9 6 9c-1.66 0-3 1.34-3 3s1.34 3 3 3c.79 0 1.5-.31 2.04-.81l7.12 4.16c-.05.21-.08.43-.08.65 0 1.61 1.31 2.92 2.92 2.92 1.61 0 2.92-1.31 2.92-2.92s-1.31-2.92-2.92-2.92z',
} as const

export type IslandIconName = keyof typeof ISLAND_ICON_PATHS

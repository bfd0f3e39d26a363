/** Icon.astro for React islands: the same inline SVG icons (the islands' own, island-icons.ts), decorative (aria-hidden). */
import { ISLAND_ICON_PATHS, type IslandIconName } from './island-icons.ts'

export function Icon({ name, size = 24 }: { name: IslandIconName; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path fill="currentColor" d={ISLAND_ICON_PATHS[name]} />
    </svg>
  )
}

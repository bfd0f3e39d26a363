/** Icon.astro for React islands: the same inline SVG icons (icons.ts), decorative (aria-hidden). */
import { ICON_PATHS, type IconName } from './icons.ts'

export function Icon({ name, size = 24 }: { name: IconName; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path fill="currentColor" d={ICON_PATHS[name]} />
    </svg>
  )
}

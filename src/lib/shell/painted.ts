/**
 * `client:painted` (astro.config.mjs): hydrates an island once the image it marks as its largest
 * (`fetchpriority="high"`, the viewer's first slice) is on screen, so the island's JavaScript never shares the
 * network with the image a reader waits for (docs/QUALITY.md: viewer LCP; islands hydrated no earlier than they
 * must be). The server HTML is readable meanwhile. "On screen" is the browser's own largest-contentful-paint entry
 * for that image where it reports one, else the frame after its load event. An island without such an image, or
 * whose image failed (the island offers the retry) or is still loading after `PAINT_WAIT_MS`, hydrates anyway.
 */
import type { ClientDirective } from 'astro'

const PAINT_WAIT_MS = 4000

const painted: ClientDirective = (load, _options, el) => {
  let started = false
  const hydrate = () => {
    if (started) return
    started = true
    void load().then((run) => run())
  }
  const img = el.querySelector<HTMLImageElement>('img[fetchpriority="high"]')
  if (!img) return hydrate()
  setTimeout(hydrate, PAINT_WAIT_MS)
  img.addEventListener('error', hydrate, { once: true })
  if (PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
    const seen = (entries: PerformanceEntryList) => entries.some((e) => (e as PerformanceEntry & { element?: Element }).element === img)
    const observer = new PerformanceObserver((list) => {
      if (!seen(list.getEntries())) return
      observer.disconnect()
      hydrate()
    })
    observer.observe({ type: 'largest-contentful-paint', buffered: true })
    // Another element may be the page's largest: the image painted is then enough.
    img.addEventListener('load', () => setTimeout(hydrate, 500), { once: true })
    if (img.complete) setTimeout(hydrate, 500)
    return
  }
  const afterFrame = () => requestAnimationFrame(() => setTimeout(hydrate))
  if (img.complete) return afterFrame()
  img.addEventListener('load', afterFrame, { once: true })
}

export default painted

declare module 'astro' {
  interface AstroClientDirectives {
    'client:painted'?: boolean
  }
}

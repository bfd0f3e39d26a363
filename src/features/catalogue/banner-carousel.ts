/**
 * Home banner carousel (spec §9: auto-slide every 5000 ms), a progressive enhancement of the plain list
 * HomeBanners.astro renders. Rotation stops while the reader hovers or focuses it, after the pause button,
 * and from the start under prefers-reduced-motion; previous/next always work. Only the current slide is
 * visible and reachable by keyboard (the others keep their place, hidden, so nothing shifts); while rotation is off, slide changes are announced (aria-live polite).
 */
function enhance(root: HTMLElement) {
  const slides = [...root.querySelectorAll<HTMLElement>('.banner')]
  const controls = root.querySelector<HTMLElement>('.banner-controls')
  const list = root.querySelector<HTMLElement>('.banner-slides')!
  const pause = root.querySelector<HTMLButtonElement>('[data-banner-pause]')
  if (slides.length < 2 || !controls || !pause) return
  const interval = Number(root.dataset.interval) || 5000
  let current = 0
  let stopped = matchMedia('(prefers-reduced-motion: reduce)').matches
  let timer: ReturnType<typeof setInterval> | undefined

  const show = (i: number) => {
    current = (i + slides.length) % slides.length
    slides.forEach((s, k) => s.toggleAttribute('data-off', k !== current)) // visibility only: no layout shift
  }
  // held while the pointer is over it or focus is in it
  const sync = () => {
    const rotating = !stopped && !root.matches(':hover, :focus-within')
    list.setAttribute('aria-live', rotating ? 'off' : 'polite')
    pause.setAttribute('aria-label', stopped ? root.dataset.labelPlay! : root.dataset.labelPause!)
    pause.toggleAttribute('data-stopped', stopped) // shows the play icon instead of pause
    clearInterval(timer)
    timer = rotating ? setInterval(() => show(current + 1), interval) : undefined
  }
  const step = (by: number) => () => {
    show(current + by)
    sync()
  }

  root.setAttribute('data-enhanced', '')
  controls.hidden = false
  show(0)
  sync()
  pause.addEventListener('click', () => {
    stopped = !stopped
    sync()
  })
  root.querySelector('[data-banner-prev]')!.addEventListener('click', step(-1))
  root.querySelector('[data-banner-next]')!.addEventListener('click', step(1))
  for (const type of ['mouseenter', 'mouseleave', 'focusin', 'focusout']) root.addEventListener(type, sync)
}

/**
 * Started when the main thread is idle (TBT: nothing of it runs in the load's critical tasks); the first
 * slide is already shown by CSS, so waiting changes nothing on screen.
 */
const start = () => document.querySelectorAll<HTMLElement>('.banners').forEach(enhance)
if ('requestIdleCallback' in window) requestIdleCallback(start, { timeout: 2000 })
else setTimeout(start, 200)

export {}

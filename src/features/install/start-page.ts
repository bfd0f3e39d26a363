/**
 * The offline start page's service worker (issue 19 point 1): public/sw.js registered over the whole site
 * (scope /), where it answers only navigations (a page that cannot load offline gets the start page listing the
 * saved episodes). Registered where it serves the reader — once an episode is saved for offline reading, when the
 * browser offers to install the site, in the installed app — rather than on every page, so a catalogue page read
 * online never waits for a service worker to start. The viewer's own registration (scope /viewer/) keeps the
 * saved episodes; both run the same script over the same caches.
 */
export function registerStartPage(): Promise<unknown> {
  if (!('serviceWorker' in navigator)) return Promise.resolve()
  return navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined)
}

/** The site runs as the installed app (its own window, the manifest's `display`). */
export const installedApp = () => matchMedia('(display-mode: standalone)').matches

/**
 * No install banner of the browser's own (Chrome on Android shows one over the page, the viewer included): the
 * site offers installing only on /my (InstallOffer.astro). The browser's menu still installs.
 */
export function keepInstallQuiet() {
  addEventListener('beforeinstallprompt', (event) => event.preventDefault())
}

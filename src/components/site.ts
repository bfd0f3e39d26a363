/**
 * The script of every page (an entry: it composes the features every page needs, which src/lib may not import): the shell (shell.ts), the age popup's listener, and for a signed-in reader the header's
 * balance and bell (header.ts, loaded only where the worker's `wt_signed` mark says so: a guest loads none of it). Pages load it
 * from `SiteScript.astro`, whose file it is (no chunk of its own: a request less before it runs); the viewer's island loads it itself (through site-late.ts) once the first slice is on screen
 * (`lateShell` in Base.astro, docs/QUALITY.md viewer LCP), so no script shares the network with that image. What it
 * imports up front shares one chunk with the islands (`siteChunks` in astro.config.mjs).
 */
import '../lib/shell/shell.ts'
import '../features/age/listen.ts'
import { markedSignedIn, noteSignedOut } from '../features/session/tabs.ts'
import { installedApp, keepInstallQuiet, registerStartPage } from '../features/install/start-page.ts'

if (markedSignedIn()) {
  // not on the page whose island loads this script (the viewer: its bar hides the site header, and the island runs the
  // session client itself, src/features/viewer/Viewer.tsx)
  if (!document.documentElement.hasAttribute('data-late-shell')) void import('../features/session/header.ts')
  // fetched beside the header rather than after it: the header's first question (the session) goes through it
  void import('../features/session/api-client.ts')
} else noteSignedOut()
keepInstallQuiet()
if (installedApp()) void registerStartPage() // the installed app opens on the offline start page without a connection

// The page's script runs (on the viewer page it comes after the island: browser tests wait for this mark).
document.documentElement.setAttribute('data-site', '')

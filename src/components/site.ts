/**
 * The script of every page (an entry: it composes the features every page needs, which src/lib may not import): the shell (shell.ts), the age popup's listener, and for a signed-in reader the session
 * client that keeps the header's balance and bell live (header.ts, loaded only where the worker's `wt_signed` mark says so: a guest loads none of it). Pages load it
 * from `SiteScript.astro`, whose file it is (no chunk of its own: a request less before it runs); the viewer's island loads it itself (through site-late.ts) once the first slice is on screen
 * (`lateShell` in Base.astro, docs/QUALITY.md viewer LCP), so no script shares the network with that image. What it
 * imports up front shares one chunk with the islands (`siteChunks` in astro.config.mjs).
 */
import '../lib/shell/shell.ts'
import '../features/age/listen.ts'
import { markedSignedIn, noteSignedOut, onSessionChange } from '../features/session/tabs.ts'
import { installedApp, keepInstallQuiet, registerStartPage } from '../features/install/start-page.ts'

// a signed-in reader's header comes drawn for them on a page rendered for their class (HeaderMe.astro, `data-signed`): the
// session client keeping it live loads once the session may have changed; a page made for everyone (pre-rendered) needs
// it at once to show the balance (header.ts; on the viewer, the island's first coin movement loads it)
const header = () => void import('../features/session/header.ts')
if (!markedSignedIn()) noteSignedOut()
else if (!document.documentElement.hasAttribute('data-late-shell'))
  if (document.querySelector('.site-header [data-signed]')) onSessionChange(header)
  else header()
keepInstallQuiet()
if (installedApp()) void registerStartPage() // the installed app opens on the offline start page without a connection

// The page's script runs (on the viewer page it comes after the island: browser tests wait for this mark).
document.documentElement.setAttribute('data-site', '')

/**
 * The script of every page: the shell (shell.ts), the age popup's listener and the header's balance. Pages load it
 * from `SiteScript.astro`; the viewer's island loads it itself once the first slice is on screen (`lateShell` in
 * Base.astro, docs/QUALITY.md viewer LCP), so no script shares the network with that image.
 */
import './shell.ts'
import '../../features/age/listen.ts'
import '../../features/session/header.ts'
import { installedApp, keepInstallQuiet, registerStartPage } from '../../features/install/start-page.ts'

keepInstallQuiet()
if (installedApp()) void registerStartPage() // the installed app opens on the offline start page without a connection

// The page's script runs (on the viewer page it comes after the island: browser tests wait for this mark).
document.documentElement.setAttribute('data-site', '')

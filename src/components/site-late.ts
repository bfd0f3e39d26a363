/**
 * The site's script as the viewer's island loads it once the first slice is on screen (Base.astro `lateShell`). A
 * module of its own without exports, so that loading it needs no namespace object of site.ts (and no bundler runtime
 * on every other page).
 */
import './site.ts'

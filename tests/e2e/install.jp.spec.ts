import { installSuite } from './install.ts'

/** Issue 19 point 1 in the jp edition: Chromium finds home installable; the edition's manifest and icons. */
installSuite('jp', false)

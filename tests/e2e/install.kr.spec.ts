import { installSuite } from './install.ts'

/** Issue 19 point 1 in the kr edition: Chromium finds home installable; the edition's manifest and icons. */
installSuite('kr', false)

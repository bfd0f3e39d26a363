import { installSuite } from './install.ts'

/** Issue 19 point 1 in the ar edition: installable, the offline start page, the install offer on /my. */
installSuite('ar', true)

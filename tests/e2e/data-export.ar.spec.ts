import { dataExportSuite } from './data-export.ts'

/** Issue 37 point 6 in the ar edition: a reader exports their data from /setting. */
dataExportSuite('ar')

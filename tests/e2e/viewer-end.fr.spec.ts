import { viewerEndSuite } from './viewer-end.ts'

viewerEndSuite('fr')

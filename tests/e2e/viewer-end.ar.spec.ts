import { viewerEndSuite } from './viewer-end.ts'

// mirrored; the ar test server has no slice images (`--no-images`): their boxes keep their sizes all the same
viewerEndSuite('ar')

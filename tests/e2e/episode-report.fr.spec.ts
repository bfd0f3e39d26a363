import { episodeReportSuite } from './episode-report.ts'

/** Issue 37 point 4 in the fr edition: reporting a problem with an episode from the viewer. */
episodeReportSuite('fr')

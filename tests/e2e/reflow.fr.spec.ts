import { reflowSuite } from './reflow.ts'

reflowSuite('fr')

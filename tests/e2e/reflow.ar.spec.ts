import { reflowSuite } from './reflow.ts'

reflowSuite('ar')

import { pushSuite } from './push.ts'

pushSuite('fr')

import { pushSuite } from './push.ts'

pushSuite('ar')

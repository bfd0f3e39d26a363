import { shareSuite } from './share.ts'

shareSuite('ar')

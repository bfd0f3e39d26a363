import { shareSuite } from './share.ts'

shareSuite('fr')

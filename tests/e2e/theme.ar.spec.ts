import { themeSuite } from './theme.ts'

themeSuite('ar')

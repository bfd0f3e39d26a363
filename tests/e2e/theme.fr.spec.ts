import { themeSuite } from './theme.ts'

themeSuite('fr')

import { viewsSuite } from './views.ts'

viewsSuite('fr')

import { viewsSuite } from './views.ts'

viewsSuite('ar')

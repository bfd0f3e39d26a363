import { formsSuite } from './forms.ts'

formsSuite('fr')

import { formsSuite } from './forms.ts'

formsSuite('ar')

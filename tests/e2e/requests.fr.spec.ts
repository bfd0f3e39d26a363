import { requestsSuite } from './requests.ts'

requestsSuite('fr')

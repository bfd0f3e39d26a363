import { requestsSuite } from './requests.ts'

requestsSuite('ar')

import { mileageSuite } from './mileage.ts'

mileageSuite('ar')

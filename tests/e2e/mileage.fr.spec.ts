import { mileageSuite } from './mileage.ts'

mileageSuite('fr')

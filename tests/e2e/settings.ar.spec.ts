import { settingsSuite } from './settings.ts'

settingsSuite('ar')

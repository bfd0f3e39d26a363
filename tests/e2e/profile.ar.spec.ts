import { profileSuite } from './profile.ts'

profileSuite('ar', 'قارئ')

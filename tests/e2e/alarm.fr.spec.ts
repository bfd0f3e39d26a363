import { alarmSuite } from './alarm.ts'

/** Issue 13 point 1 in the fr edition: the bell and the alarm list. */
alarmSuite('fr')

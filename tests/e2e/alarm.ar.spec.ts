import { alarmSuite } from './alarm.ts'

/** Issue 13 point 1 in the ar edition (right to left): the bell and the alarm list. */
alarmSuite('ar')

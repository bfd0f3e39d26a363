import { alarmSendSuite } from './alarm-send.ts'

/** Issue 13 point 4 in the ar edition (right to left): npm run ops -- alarm send / episode publish, seen by a reader. */
alarmSendSuite('ar')

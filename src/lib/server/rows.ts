/**
 * Typed rows at the database edge (docs/CONVENTIONS.md "Rows"). The row type of every table is generated from the
 * migrations (`npm run db:types` → db-types.ts); a query's row type is written from it, so a column renamed or
 * dropped by a migration fails the type check where it is read:
 *
 *   db.all<Cols<'episodes', 'id' | 'series_id' | 'is_free'>>(`SELECT id, series_id AS seriesId, is_free AS isFree …`)
 *   // → { id: number; seriesId: number; isFree: Flag }[]
 *
 * Columns are aliased to camelCase in SQL (`series_id AS seriesId`); `Cols` makes the same renaming in the type.
 * An alias of another shape is written with the column's type (`{ seriesIsAdult: SeriesRow['is_adult'] }`), and
 * a computed expression (SUM, EXISTS, …) is typed by hand.
 */
import type { Tables } from './db-types.ts'

/** A 0/1 boolean column (`INTEGER … CHECK (col IN (0, 1))`), or a 0/1 expression (EXISTS, comparisons). */
export type Flag = 0 | 1

/** The one 0/1 → boolean conversion. */
export const flag = (value: Flag | null | undefined): boolean => value === 1

/** `snake_case` → `camelCase`, as the SQL aliases columns. */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S

/** Columns `K` of table `T`, under their camelCase alias, with the types the migrations declare. */
export type Cols<T extends keyof Tables, K extends keyof Tables[T] & string> = { [P in K as Camel<P>]: Tables[T][P] }

/** The rows of one statement of a `db.batch`, typed `R`. */
export const rows = <R>(result: D1Result | undefined): R[] => (result?.results ?? []) as R[]

/** The first row of one statement of a `db.batch`, or undefined. */
export const firstRow = <R>(result: D1Result | undefined): R | undefined => result?.results[0] as R | undefined

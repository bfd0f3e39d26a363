/**
 * The reader's shipping address (spec §3 address form) inside their own object (issue 38; docs/ARCHITECTURE.md "Reader
 * objects"): one row at most. Synchronous SQL on the object's SQLite.
 */
import type { Address } from './address.ts'

const COLUMNS = `name, city, zip_code AS zipCode, address1, address2, phone, country`

/** The saved address, or null. */
export function readAddress(sql: SqlStorage): Address | null {
  return (sql.exec(`SELECT ${COLUMNS} FROM address`).toArray()[0] as Address | undefined) ?? null
}

/** Saves (replaces) the address; a move (`onlyIfNewer`) keeps a row the object already has that is as new. */
export function writeAddress(sql: SqlStorage, a: Address, updatedAt: string, onlyIfNewer = false): void {
  sql.exec(
    `INSERT INTO address (id, name, city, zip_code, address1, address2, phone, country, updated_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, city = excluded.city, zip_code = excluded.zip_code,
         address1 = excluded.address1, address2 = excluded.address2, phone = excluded.phone, country = excluded.country,
         updated_at = excluded.updated_at
       WHERE NOT ? OR excluded.updated_at > address.updated_at`,
    a.name,
    a.city,
    a.zipCode,
    a.address1,
    a.address2,
    a.phone,
    a.country,
    updatedAt,
    onlyIfNewer ? 1 : 0,
  )
}

/**
 * A Map for values kept in an isolate (found once, read many times): past `max` entries it starts again empty, so a
 * long-lived isolate never grows it without end.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #max: number

  constructor(max: number) {
    super()
    this.#max = max
  }

  override set(key: K, value: V): this {
    if (this.size >= this.#max && !this.has(key)) this.clear()
    return super.set(key, value)
  }
}

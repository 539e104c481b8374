/** Thrown when an insert would break a uniqueness rule (e.g. a second user with one email). */
export class StoreConflict extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreConflict';
  }
}

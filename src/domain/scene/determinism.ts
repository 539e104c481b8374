/**
 * Deterministic stand-ins for the randomness the editor uses: the same spec
 * must give byte-identical elements in every run and process.
 */

/** A non-zero 31-bit integer from text (FNV-1a), for `seed` and `versionNonce`. */
export function stableInt(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 1) || 1;
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The n-th fractional index key, as the editor's fractional-indexing produces
 * for consecutive keys: a0…az, b00…bzz, c000…, so keys sort as the elements do.
 */
export function fractionalIndex(n: number): string {
  let rest = n;
  for (let digits = 1, head = 'a'.charCodeAt(0); digits <= 26; digits++, head++) {
    const span = 62 ** digits;
    if (rest < span) {
      let key = '';
      for (let i = 0; i < digits; i++) {
        key = DIGITS[rest % 62] + key;
        rest = Math.floor(rest / 62);
      }
      return String.fromCharCode(head) + key;
    }
    rest -= span;
  }
  throw new Error(`fractional index ${n} out of range`);
}

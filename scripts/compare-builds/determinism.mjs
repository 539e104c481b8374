// Preloaded (`--import`) into every process of a build under comparison, workers included (through
// NODE_OPTIONS): the same random numbers and the same clock in both builds, so that ids, tokens, seeds and
// timestamps come out alike when the builds do the same work, and a difference in the answers is a
// difference in behaviour. Only ever used by scripts/compare-builds.ts, never by the service.
//
// Random: one seeded generator (sfc32) behind Math.random and every random source node:crypto offers to
// JavaScript. Keys that OpenSSL makes itself (the OAuth signing key) stay random; the comparison masks them.
// Clock: `Date` reads the time from a clock the scenario moves forward one second per request (and reseeds);
// a process that is not the scenario (a worker) keeps the time it started with.
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

const CLOCK = Symbol.for('drawbridge.compare-builds.clock');
const START = Date.parse(process.env.COMPARE_START ?? '2026-01-01T00:00:00.000Z');
const clock = (globalThis[CLOCK] ??= { now: START });

function sfc32(seed) {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
  const next = () => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) next();
  return next;
}

let next = sfc32(Number(process.env.COMPARE_SEED ?? 1));
/**
 * Starts the random numbers again from `seed`. The scenario does so before each request, so that a build that
 * draws a few numbers more or fewer (at start-up, or in one request) does not shift every id after it.
 */
clock.reseed = (seed) => void (next = sfc32(seed));

function fill(view) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  for (let i = 0; i < bytes.length; i += 4) {
    const word = next();
    for (let j = 0; j < 4 && i + j < bytes.length; j++) bytes[i + j] = (word >>> (8 * j)) & 0xff;
  }
  return view;
}

Math.random = () => next() / 0x100000000;

const randomBytes = (size, callback) => {
  const buffer = fill(Buffer.alloc(size));
  if (callback) return void process.nextTick(callback, null, buffer);
  return buffer;
};
const randomFillSync = (buffer, offset = 0, size) => {
  const view = ArrayBuffer.isView(buffer) ? buffer : new Uint8Array(buffer);
  const start = view.byteOffset + offset * (view.BYTES_PER_ELEMENT ?? 1);
  const length = size === undefined ? view.byteLength - (start - view.byteOffset) : size * (view.BYTES_PER_ELEMENT ?? 1);
  fill(new Uint8Array(view.buffer, start, length));
  return buffer;
};
const randomFill = (buffer, ...rest) => {
  const callback = rest.pop();
  process.nextTick(callback, null, randomFillSync(buffer, ...rest));
};
const randomUUID = () => {
  const b = fill(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Buffer.from(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};
const randomInt = (min, max, callback) => {
  if (typeof max !== 'number') [min, max, callback] = [0, min, max];
  const value = min + Math.floor((next() / 0x100000000) * (max - min));
  if (callback) return void process.nextTick(callback, null, value);
  return value;
};
const getRandomValues = (view) => fill(view);

const replace = (target, values) => {
  for (const [key, value] of Object.entries(values)) Object.defineProperty(target, key, { value, configurable: true, writable: true, enumerable: true });
};
// node:crypto's own getRandomValues cannot be replaced; it calls webcrypto's, which is.
replace(crypto, { randomBytes, randomFillSync, randomFill, randomUUID, randomInt, pseudoRandomBytes: randomBytes });
for (const target of new Set([crypto.webcrypto, globalThis.crypto])) replace(target, { getRandomValues, randomUUID });
syncBuiltinESMExports();

const RealDate = Date;
// A proxy rather than a subclass, so that `Date()` called without `new` still answers (a string, as it does).
globalThis.Date = new Proxy(RealDate, {
  construct: (target, args, newTarget) => Reflect.construct(target, args.length === 0 ? [clock.now] : args, newTarget),
  apply: () => new RealDate(clock.now).toString(),
  get: (target, key, receiver) => (key === 'now' ? () => clock.now : Reflect.get(target, key, receiver)),
});

// Property tests run from a fixed seed so CI is repeatable; FC_SEED=random explores
// new cases (a failure prints its seed: pin it as an `examples` entry).
import fc from 'fast-check';

const chosen = process.env.FC_SEED ?? '20261122';
if (chosen !== 'random') fc.configureGlobal({ seed: Number(chosen) });

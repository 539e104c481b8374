/**
 * Prints the DOT source that dotLayout hands dot for a spec, to compare the
 * converted drawing with dot's own:
 *
 *   node --import tsx bench/quality/dot-source.ts bench/quality/corpus/03-tcp-state-machine.json | dot -Tsvg > tcp.svg
 *
 * Labels are empty fixed-size tables, so dot's own drawing shows their room only.
 */
import fs from 'node:fs';
import { drawBoth } from './corpus.ts';
import { dotGraph } from './dot-layout.ts';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: dot-source.ts spec.json');
console.log(dotGraph(drawBoth(JSON.parse(fs.readFileSync(file, 'utf8'))).input).source);

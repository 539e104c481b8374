/**
 * How revisions' scenes are kept: gzip'd JSON, either the whole elements array
 * (a snapshot) or the delta from the content revision before. A new snapshot
 * starts when the chain of deltas since the last one would hold more bytes
 * than that snapshot, or more than MAX_CHAIN deltas: reading any revision
 * then costs one snapshot and at most MAX_CHAIN small deltas, and a run of
 * small edits costs little more than the deltas themselves.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { applyDelta, type SceneChain, type SceneDelta } from '../../domain/history/delta.ts';
import type { SceneElement } from '../../domain/edit/types.ts';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The most deltas between two snapshots. */
const MAX_CHAIN = 40;

/** Where the chain stands after the content revision before the one being encoded. */
export interface ChainState {
  seq: number;
  baseSeq: number;
  chainLength: number;
  chainBytes: number;
  snapshotBytes: number;
}

export interface EncodedScene {
  encoding: 'snapshot' | 'delta';
  payload: Buffer;
  baseSeq: number;
  chainLength: number;
  chainBytes: number;
  snapshotBytes: number;
}

async function snapshot(seq: number, elementsJson: string): Promise<EncodedScene> {
  const payload = await gzipAsync(elementsJson);
  return { encoding: 'snapshot', payload, baseSeq: seq, chainLength: 0, chainBytes: 0, snapshotBytes: payload.length };
}

/** Revision `seq`'s scene: a delta (or its JSON text) on the chain when one is given and the chain has room, else a snapshot. */
export async function encodeScene(seq: number, elementsJson: string, delta: SceneDelta | string | null, chain: ChainState | null): Promise<EncodedScene> {
  if (delta === null || chain === null || chain.chainLength >= MAX_CHAIN) return snapshot(seq, elementsJson);
  const payload = await gzipAsync(typeof delta === 'string' ? delta : JSON.stringify(delta));
  const chainBytes = chain.chainBytes + payload.length;
  if (chainBytes > chain.snapshotBytes) return snapshot(seq, elementsJson);
  return { encoding: 'delta', payload, baseSeq: chain.baseSeq, chainLength: chain.chainLength + 1, chainBytes, snapshotBytes: chain.snapshotBytes };
}

type ChainRow = { encoding: string | null; payload: Buffer | null };

/** A chain read in order (a snapshot, then its deltas), each row with the elements current after it. */
export async function* chainScenes<Row extends ChainRow>(rows: readonly Row[]): AsyncGenerator<[Row, SceneElement[]]> {
  let elements: SceneElement[] | null = null;
  for (const row of rows) {
    if (row.payload === null) continue;
    const text = (await gunzipAsync(row.payload)).toString('utf8');
    if (row.encoding === 'snapshot') elements = JSON.parse(text) as SceneElement[];
    else {
      if (elements === null) throw new Error('a revision chain must start with a snapshot');
      elements = applyDelta(elements, JSON.parse(text) as SceneDelta);
    }
    yield [row, elements];
  }
}

/** A chain read in order as the elements of its last revision. */
export async function decodeChain(rows: readonly ChainRow[]): Promise<SceneElement[]> {
  let elements: SceneElement[] | null = null;
  for await (const [, scene] of chainScenes(rows)) elements = scene;
  if (elements === null) throw new Error('a revision chain must start with a snapshot');
  return elements;
}

/** A snapshot's elements as their JSON text, without a parse and re-serialisation. */
export async function snapshotJson(payload: Buffer): Promise<string> {
  return (await gunzipAsync(payload)).toString('utf8');
}

/** A chain read in order as its texts, unparsed: whoever needs the elements parses them (a scene worker, for a large diff). */
export async function chainTexts(rows: readonly ChainRow[]): Promise<SceneChain> {
  const texts = await Promise.all(rows.flatMap((row) => (row.payload === null ? [] : [gunzipAsync(row.payload).then((text) => ({ encoding: row.encoding, text: text.toString('utf8') }))])));
  const start = texts.findLastIndex((row) => row.encoding === 'snapshot');
  if (start < 0) throw new Error('a revision chain must start with a snapshot');
  return { snapshotJson: texts[start]!.text, deltasJson: texts.slice(start + 1).map((row) => row.text) };
}

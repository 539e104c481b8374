/**
 * One flooding editor for `npm run bench:neighbours`, run in a worker thread
 * so that its sending (megabytes a second) never delays the bench's own
 * measurements: a real flooder is another person on another machine.
 *
 * workerData: { url, cookie, origin, kind: 'elements' | 'pointers' }. Opens
 * the live socket, waits for its welcome, then sends as fast as the socket
 * takes them until the server closes it, and posts the close code.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, cookie, origin, kind } = workerData;

const rect = (id, y) => ({
  id, type: 'rectangle', x: 0, y, width: 100, height: 50, version: 1, versionNonce: 8, index: `a${id}`, isDeleted: false,
  strokeColor: '#1e1e1e', backgroundColor: 'transparent', fillStyle: 'solid', strokeWidth: 2, strokeStyle: 'solid', roughness: 1, opacity: 100, angle: 0,
  groupIds: [], frameId: null, roundness: null, seed: 1 + y, boundElements: null, updated: 1, link: null, locked: false,
});
// Written once and stamped per message, so that making the flood costs little.
const changes = JSON.stringify({ type: 'elements', seq: 0, elements: Array.from({ length: 400 }, (_, i) => rect(`f${i}`, i * 60)) });
const pointers = JSON.stringify({ type: 'presence', pointer: { x: 0, y: 0, tool: 'pointer' }, selectedElementIds: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`f${i}`, true])) });
// Above every version sent before, by any earlier flooder: at most 1,000 messages a millisecond.
let version = Date.now() * 1000;
const next = kind === 'elements'
  ? (seq) => changes.replace('"seq":0', `"seq":${seq}`).replaceAll('"version":1,', `"version":${++version},`)
  : (seq) => pointers.replace('"x":0', `"x":${seq}`);

const socket = new WebSocket(url, { headers: { cookie }, origin });
socket.on('error', () => undefined);
socket.on('close', (code) => parentPort.postMessage(code));
let seq = 0;
// Keeps 4 MB in flight: past that, waits for the last message to leave instead of spinning (a
// spinning flooder would take a core from the server on a 2-core machine; a real one runs elsewhere).
const pump = () => {
  while (socket.readyState === WebSocket.OPEN) {
    if (socket.bufferedAmount >= 4 * 1024 * 1024) {
      socket.send(next(++seq), () => pump());
      return;
    }
    socket.send(next(++seq));
  }
};
let started = false;
socket.on('message', (data) => {
  if (!started && JSON.parse(data.toString()).type === 'welcome') {
    started = true;
    pump();
  }
});

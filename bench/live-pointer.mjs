/**
 * The third person's pointer for `npm run bench:neighbours`, in a worker
 * thread of its own: two live connections (the mover and the watcher), as
 * two people on other machines would have. In the bench's own thread they
 * would be timed by a loop busy with the neighbour's requests and with reading
 * every flood message twice, and the delay measured would be the bench's.
 *
 * workerData: { url, origin, mover, watcher (cookies), everyMs }. Once both
 * are welcomed, posts 'ready'; then the mover sends its pointer every
 * `everyMs` and the watcher posts each one's delay as it arrives:
 * { at (ms since the thread's time origin plus its offset), delay }.
 * Message 'stop' closes both.
 */
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

const { url, origin, mover, watcher, everyMs } = workerData;
// Arrival times in the parent's clock, so the parent can tell its cases apart by them.
const offset = performance.timeOrigin - workerData.parentTimeOrigin;

function open(cookie, onMessage) {
  const socket = new WebSocket(url, { headers: { cookie }, origin });
  socket.on('error', () => undefined);
  return new Promise((resolve, reject) => {
    socket.on('message', (data) => {
      const text = data.toString();
      // Flood messages are large and are not this thread's business: only welcomes and presence are read.
      if (!text.startsWith('{"type":"welcome"') && !text.startsWith('{"type":"presence"')) return;
      const message = JSON.parse(text);
      if (message.type === 'welcome') resolve({ socket, you: message.you.peerId });
      else onMessage(message);
    });
    socket.on('close', (code) => reject(new Error(`live connection closed before its welcome: ${code}`)));
  });
}

const moving = await open(mover, () => undefined);
const watching = await open(watcher, (message) => {
  if (message.peer?.peerId === moving.you && message.peer.pointer) {
    const now = performance.now();
    parentPort.postMessage({ at: now + offset, delay: now - message.peer.pointer.x });
  }
});
const timer = setInterval(() => moving.socket.send(JSON.stringify({ type: 'presence', pointer: { x: performance.now(), y: 0, tool: 'pointer' } })), everyMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  moving.socket.close();
  watching.socket.close();
  parentPort.close();
});
parentPort.postMessage('ready');

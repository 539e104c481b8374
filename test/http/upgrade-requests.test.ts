/**
 * A request asking to upgrade its connection to a WebSocket, sent to a route
 * that is not the live editor's: it gets that route's usual answer, then the
 * server closes the connection (it is not left half-open), and the server
 * still closes cleanly afterwards.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.ts';

/** Sends an upgrade request and reads until the server ends the connection; the bytes it sent. */
function upgradeRequest(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`),
    );
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // The server, not this client, ends the connection once it has answered.
    socket.on('end', () => resolve(Buffer.concat(received).toString('latin1')));
    socket.on('error', reject);
  });
}

// The deadline only stops a broken run: without the close, the client would wait for the end for good.
test('an upgrade request to a route that is not a WebSocket is answered as usual, then its connection is closed', { timeout: 60_000 }, async () => {
  const h = await startHarness({ engine: 'sqlite' });
  let closed = false;
  try {
    const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = Number(new URL(address).port);
    for (const [path, status] of [
      ['/login', 200],
      ['/api/v1/me', 401],
      ['/no-such-page', 404],
    ] as const) {
      const answer = await upgradeRequest(port, path);
      assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), `${path}: ${answer.slice(0, 80)}`);
    }
    await h.close();
    closed = true;
  } finally {
    if (!closed) await h.close();
  }
});

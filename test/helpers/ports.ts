/** Ports for servers the tests start: free ones, and whether the server on one is the one a test started. */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A TCP port free on 127.0.0.1, for a server that is told its port before it listens (a spawned process, or an
 * app whose PUBLIC_URL names it). Between this answer and that server's listen, another could take the port and
 * answer in its place (seen once: a spawned server's test got another test's 401s). So the port is drawn below
 * the kernel's ephemeral range, where no listen on port 0 and no outgoing connection is given one, and reserved
 * for a while in the temporary folder, which the test files of a run share, so that no other caller is given it.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralPortsFrom();
  if (below === null) return listenOn(0);
  for (let tries = 0; tries < 100; tries++) {
    const port = FIXED_PORTS_FROM + Math.floor(Math.random() * (below - FIXED_PORTS_FROM));
    if (reservePort(port) && (await listenOn(port).then(() => true, () => false))) return port;
  }
  throw new Error(`no free port between ${FIXED_PORTS_FROM} and ${below}`);
}

/** Where freePort draws from, up to the kernel's ephemeral range. */
const FIXED_PORTS_FROM = 10_000;
/** How long a port freePort gave stays out of its answers: long past any server's start. */
const PORT_RESERVATION_MS = 10 * 60 * 1000;

/** Claims `port` for this caller: false when another claimed it less than PORT_RESERVATION_MS ago. */
function reservePort(port: number): boolean {
  const dir = path.join(os.tmpdir(), 'drawbridge-test-ports');
  const file = path.join(dir, String(port));
  fs.mkdirSync(dir, { recursive: true });
  try {
    fs.closeSync(fs.openSync(file, 'wx'));
    return true;
  } catch {
    const claimed = fs.statSync(file, { throwIfNoEntry: false });
    if (!claimed || Date.now() - claimed.mtimeMs < PORT_RESERVATION_MS) return false;
    const now = new Date();
    fs.utimesSync(file, now, now);
    return true;
  }
}

/** The first port of Linux's ephemeral range, when it leaves room below it for freePort; else null. */
function ephemeralPortsFrom(): number | null {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FIXED_PORTS_FROM + 1000 ? low : null;
  } catch {
    return null;
  }
}

/** Listens on `port` of 127.0.0.1 and closes again; resolves with the port it had (the kernel's choice for 0). */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const { port: had } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(had));
    });
  });
}

/**
 * Whether the server answering at `baseUrl` is the one started with `publicUrl` as its PUBLIC_URL (its
 * protected-resource metadata names it). A port freePort() found free may be taken by another test's server
 * before a spawned one binds it, and that server answers /healthz too: a readiness check alone can greet the
 * wrong server, whose answers (401 to a token it never minted) then look like the tested one's.
 */
export async function answersAs(baseUrl: string, publicUrl: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}/.well-known/oauth-protected-resource`, { signal: AbortSignal.timeout(5_000) });
  return res.ok && ((await res.json()) as { resource?: unknown }).resource === publicUrl;
}

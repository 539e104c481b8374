// The editor's live client (src/web/client/live-*.ts) in Node: a fake room that speaks the live
// protocol, sockets whose frames the test delivers, timers the test moves, and the editor's own
// reconcileElements and restoreElements. The browser tests show the same in Chromium against the
// real server; these pin the rules, including the orders of events a browser rarely hits.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import { LiveClient, type LiveStatus } from '../../src/web/client/live-client.ts';
import { LiveConnection } from '../../src/web/client/live-connection.ts';
import type { EditorFunctions } from '../../src/web/client/live-elements.ts';
import { initials, people } from '../../src/web/client/live-people.ts';
import { OwnPresence, PeerList } from '../../src/web/client/live-presence.ts';
import { type LivePeer, type LiveRole, liveUrl, parseServerMessage, type PresenceUpdate, type SceneElement } from '../../src/web/client/live-protocol.ts';
import { ArrayScene, edited, editorFunctions, FakeRoom, type FakeSocket, ManualTimers, peer, rectangle } from './live-fakes.ts';

let editor: EditorFunctions;
describe('web/live-client', () => {
  before(async () => {
    editor = await editorFunctions();
  });

  interface Person {
    client: LiveClient;
    scene: ArrayScene;
    sockets: FakeSocket[];
    statuses: LiveStatus['kind'][];
    peers: LivePeer[];
    roles: LiveRole[];
    revisions: string[];
    /** The open socket (the latest). */
    socket(): FakeSocket;
    status(): LiveStatus['kind'];
    /** The person changes the scene in the editor. */
    edit(change: (list: SceneElement[]) => SceneElement[]): void;
  }

  function join(room: FakeRoom, timers: ManualTimers, name: string, options: { role?: () => LiveRole } = {}): Person {
    const scene = new ArrayScene();
    scene.list = structuredClone(room.visible());
    const sockets: FakeSocket[] = [];
    const opener = room.opener(name, options.role);
    const person: Person = {
      scene,
      sockets,
      statuses: [],
      peers: [],
      roles: [],
      revisions: [],
      socket: () => sockets.at(-1)!,
      status: () => person.statuses.at(-1) ?? 'connecting',
      edit(change) {
        scene.list = change(scene.list);
        person.client.changed();
      },
      client: undefined as unknown as LiveClient,
    };
    person.client = new LiveClient({
      url: 'ws://test/app/api/diagrams/d/live',
      editor,
      loaded: { elements: structuredClone(scene.list), docUpdatedAt: room.docUpdatedAt() },
      scene,
      onStatus: (status) => person.statuses.push(status.kind),
      onPeers: (peers) => void (person.peers = peers),
      onRole: (role) => person.roles.push(role),
      onFiles: () => undefined,
      onRevision: (at) => person.revisions.push(at),
      openSocket: (url) => {
        const socket = opener(url);
        sockets.push(socket);
        return socket;
      },
      timers,
      random: () => 0.5,
      now: () => timers.now,
    });
    person.client.start();
    return person;
  }

  /** Delivers every frame in both directions and runs the timers until nothing moves. */
  function settle(room: FakeRoom, timers: ManualTimers, people: Person[]): void {
    for (let round = 0; round < 200; round++) {
      let moved = false;
      for (const person of people) {
        const socket = person.socket();
        while (room.deliverUp(socket)) moved = true;
        while (socket.deliverDown()) moved = true;
      }
      if (!moved) {
        if (timers.pending() === 0) return;
        timers.advance(100);
        if (people.every((p) => p.socket().up.length === 0 && p.socket().down.length === 0)) {
          // Only timers that send nothing are left (presence idle timers): done.
          if (round > 0 && !people.some((p) => p.client.hasUnsavedWork())) return;
        }
      }
    }
  }

  /** Ada in a room holding `elements`, welcomed and settled. */
  function adaAlone(elements: SceneElement[] = []) {
    const room = new FakeRoom(elements);
    const timers = new ManualTimers();
    const ada = join(room, timers, 'ada');
    settle(room, timers, [ada]);
    return { room, timers, ada };
  }

  const ids = (elements: readonly SceneElement[]) => elements.map((element) => element.id).sort();
  const stamps = (elements: readonly SceneElement[]) =>
    Object.fromEntries(elements.map((element) => [element.id, `${element.version}/${element.versionNonce}/${element.isDeleted ? 'deleted' : 'visible'}`]));

  /** The elements frames a person sent, decoded. */
  function sentElements(person: Person): SceneElement[][] {
    return person.sockets.flatMap((socket) => socket.up.map((frame) => JSON.parse(frame))).filter((m) => m.type === 'elements').map((m) => m.elements);
  }

  describe('sending', () => {
    test('only elements whose version moved since the last send go out, deletions included', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1), rectangle('b', 2), rectangle('c', 3)]);
      assert.equal(ada.status(), 'saved');

      ada.edit((list) => list.map((e) => (e.id === 'a' ? edited(e, { x: 500 }) : e)));
      ada.edit((list) => list.map((e) => (e.id === 'c' ? edited(e, { isDeleted: true }) : e)));
      timers.advance(100);
      assert.deepEqual(sentElements(ada).map(ids), [['a', 'c']], 'one message with the moved and the deleted element');
      settle(room, timers, [ada]);

      ada.edit((list) => list.map((e) => (e.id === 'b' ? edited(e, { y: 40 }) : e)));
      timers.advance(100);
      assert.deepEqual(sentElements(ada).map(ids), [['b']], 'then only the next change');
      settle(room, timers, [ada]);
      assert.equal(room.elements.get('a')!.x, 500);
      assert.equal(room.elements.get('c')!.isDeleted, true);
      assert.equal(room.elements.get('b')!.y, 40);
    });

    test('changes made while drawing gather: one message per pause, carrying the latest version', () => {
      const { timers, ada } = adaAlone();
      ada.edit((list) => [...list, rectangle('stroke', 1, { width: 1, height: 1 })]);
      for (let step = 2; step < 10; step++) ada.edit((list) => list.map((e) => edited(e, { width: step * 10, height: step * 5 })));
      timers.advance(100);
      const sent = sentElements(ada);
      assert.equal(sent.length, 1);
      assert.equal(sent[0]![0]!.width, 90);
    });

    test('an element too small to see (a click with a shape tool) is not sent, and a deletion of one the room never had is not either', () => {
      const { timers, ada } = adaAlone();
      ada.edit((list) => [...list, rectangle('dot', 1, { width: 0, height: 0 }), rectangle('gone', 2, { isDeleted: true })]);
      timers.advance(100);
      assert.deepEqual(sentElements(ada), []);
      assert.equal(ada.status(), 'saved');
    });

    test('the save state is Saving until the server stored the message, then Saved', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      ada.edit((list) => list.map((e) => edited(e, { x: 1 })));
      assert.equal(ada.status(), 'saving');
      assert.equal(ada.client.hasUnsavedWork(), true);
      timers.advance(100);
      room.deliverUp(ada.socket());
      assert.equal(ada.status(), 'saving', 'sent, not yet stored');
      ada.socket().deliverDown();
      assert.equal(ada.status(), 'saved');
      assert.equal(ada.client.hasUnsavedWork(), false);
      assert.ok(ada.revisions.length > 0, 'the stored revision is reported');
    });

    test('a message the server refuses is sent again with the next change, and the refusal is shown meanwhile', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      ada.edit((list) => list.map((e) => edited(e, { x: 1 })));
      timers.advance(100);
      const sentFrame = JSON.parse(ada.socket().up.shift()!);
      ada.socket().down.push(JSON.stringify({ type: 'error', code: 'too_large', message: 'the scene is too large', seq: sentFrame.seq }));
      ada.socket().deliverDown();
      assert.equal(ada.status(), 'failed');
      ada.edit((list) => [...list, rectangle('b', 2)]);
      timers.advance(100);
      assert.deepEqual(sentElements(ada).map(ids), [['a', 'b']], 'the refused element goes again, with the new one');
      settle(room, timers, [ada]);
      assert.equal(ada.status(), 'saved');
    });
  });

  describe('receiving', () => {
    test("someone else's change replaces the local copy, and is not sent back", () => {
      const room = new FakeRoom([rectangle('a', 1)]);
      const timers = new ManualTimers();
      const ada = join(room, timers, 'ada');
      const bob = join(room, timers, 'bob');
      settle(room, timers, [ada, bob]);
      bob.edit((list) => list.map((e) => edited(e, { x: 321 })));
      settle(room, timers, [ada, bob]);
      assert.equal(ada.scene.get('a')!.x, 321);
      assert.deepEqual(sentElements(ada), [], 'ada echoes nothing');
    });

    test('the element the person is resizing right now stays theirs while an API write of it arrives; then the newer copy is everyone’s', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      const original = structuredClone(ada.scene.get('a')!);
      // Ada resizes `a` (her copy moves on by several versions) while an API write of the original arrives.
      ada.edit((list) => list.map((e) => ({ ...edited(edited(edited(e, {}), {}), { width: 400 }) })));
      ada.scene.editing = { resizingElement: { id: 'a' } };
      room.apiWrite([{ ...original, version: original.version + 5, x: -50 }]);
      ada.socket().deliverDown();
      assert.equal(ada.scene.get('a')!.width, 400, 'the resize in progress is kept');
      // Done resizing: her copy goes out, and the API's, of a higher version, wins in the room and in her scene.
      ada.scene.editing = {};
      settle(room, timers, [ada]);
      assert.equal(ada.scene.get('a')!.x, -50);
      assert.deepEqual(stamps([ada.scene.get('a')!]), stamps([room.elements.get('a')!]));
    });

    test('an API write appears in the scene without dropping a stroke not yet sent', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      ada.edit((list) => [...list, rectangle('stroke', 5)]);
      room.apiWrite([rectangle('api', 9)]);
      ada.socket().deliverDown();
      assert.deepEqual(ids(ada.scene.visible()), ['a', 'api', 'stroke']);
      settle(room, timers, [ada]);
      assert.deepEqual(ids(room.visible()), ['a', 'api', 'stroke']);
    });

    test('a copy that lost in the room is replaced by the room’s copy', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      // The API wrote `a` at a higher version; before Ada hears of it she sends her older edit.
      room.apiWrite([{ ...room.elements.get('a')!, version: 10, x: 77 }]);
      ada.edit((list) => list.map((e) => edited(e, { x: 5 })));
      timers.advance(100);
      settle(room, timers, [ada]);
      assert.equal(ada.scene.get('a')!.x, 77);
      assert.equal(room.elements.get('a')!.x, 77);
    });
  });

  describe('a replaced scene', () => {
    test('replaces everything the person has, a stroke not yet sent and one sent but not stored included; later changes go out on the new scene', () => {
      const room = new FakeRoom([rectangle('a', 1), rectangle('b', 1)]);
      const timers = new ManualTimers();
      const ada = join(room, timers, 'ada');
      const bob = join(room, timers, 'bob');
      settle(room, timers, [ada, bob]);
      // Ada's change of `a` is on its way, and a new stroke not sent yet, when the scene is replaced.
      ada.edit((list) => list.map((e) => (e.id === 'a' ? edited(e, { x: 500 }) : e)));
      timers.advance(100);
      ada.edit((list) => [...list, rectangle('stroke', 1)]);
      const replacement = [rectangle('b', 2, { x: 42 }), rectangle('c', 3)];
      room.replaceScene(replacement);
      settle(room, timers, [ada, bob]);
      for (const person of [ada, bob]) {
        assert.deepEqual(person.scene.list.map((e) => e.id).sort(), ['b', 'c'], 'nothing of the old scene is left, not even as a tombstone');
        assert.equal(person.scene.get('b')!.x, 42);
        assert.deepEqual(stamps(person.scene.list), stamps(replacement));
        assert.equal(person.client.hasUnsavedWork(), false);
        assert.equal(person.status(), 'saved');
      }
      assert.deepEqual(ids(room.visible()), ['b', 'c'], 'the change sent on the old scene was dropped');
      bob.edit((list) => list.map((e) => (e.id === 'c' ? edited(e, { x: 9 }) : e)));
      settle(room, timers, [ada, bob]);
      assert.equal(room.elements.get('c')!.x, 9);
      assert.equal(ada.scene.get('c')!.x, 9);
    });
  });

  describe('reconnecting', () => {
    test('changes made offline are kept and sent after the reconnect; the save state says offline meanwhile', async () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1), rectangle('b', 2)]);
      ada.socket().drop();
      assert.equal(ada.status(), 'offline');
      ada.edit((list) => [...list.map((e) => (e.id === 'a' ? edited(e, { x: 99 }) : e)), rectangle('offline', 3)]);
      assert.equal(ada.status(), 'offline');
      room.down = true;
      timers.advance(1000);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(ada.sockets.length, 2, 'a try while the server is down');
      assert.equal(ada.status(), 'offline');
      room.down = false;
      timers.advance(2000);
      assert.equal(ada.sockets.length, 3, 'another try, after a longer wait');
      settle(room, timers, [ada]);
      assert.equal(ada.status(), 'saved');
      assert.equal(room.elements.get('a')!.x, 99);
      assert.ok(room.elements.get('offline'));
    });

    test('on reconnecting, an element deleted in the room meanwhile goes, unless the person changed it since', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1), rectangle('b', 2), rectangle('c', 3)]);
      ada.socket().drop();
      // While Ada is away, the API deletes a and b, and the room then forgets its tombstones (the
      // server restarted, or the room emptied): the welcome holds only c.
      room.apiWrite([room.elements.get('a')!, room.elements.get('b')!].map((e) => ({ ...e, isDeleted: true })));
      room.elements.delete('a');
      room.elements.delete('b');
      ada.edit((list) => list.map((e) => (e.id === 'b' ? edited(e, { x: 1234 }) : e)));
      timers.advance(1000);
      settle(room, timers, [ada]);
      assert.deepEqual(ids(ada.scene.visible()), ['b', 'c'], 'a, untouched by ada, went; b, changed by ada, stayed');
      assert.deepEqual(ids(room.visible()), ['b', 'c']);
      assert.equal(room.elements.get('b')!.x, 1234);
    });

    test('on reconnecting, an element the person deleted and that was added again meanwhile below their tombstone stays added', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1), rectangle('x', 2)]);
      ada.edit((list) => list.map((e) => (e.id === 'x' ? edited(edited(e, { x: 55 }), { isDeleted: true }) : e)));
      settle(room, timers, [ada]);
      assert.equal(room.elements.get('x')!.isDeleted, true, "ada's deletion reached the room");
      ada.socket().drop();
      // While Ada is away the room forgets its tombstone (the store keeps none: the room emptied, or
      // the server restarted), and the API adds x again, afresh: version 1, below Ada's tombstone.
      room.elements.delete('x');
      room.elements.set('x', rectangle('x', 2, { x: 777 }));
      timers.advance(1000);
      settle(room, timers, [ada]);
      assert.deepEqual(ids(ada.scene.visible()), ['a', 'x'], "ada's stale tombstone did not win over the new x");
      assert.equal(ada.scene.get('x')!.x, 777);
      assert.equal(room.elements.get('x')!.isDeleted, false, 'nor did it delete x in the room');
      assert.equal(room.elements.get('x')!.x, 777);
    });

    test('a stroke sent just before the connection broke is not taken for a deletion when the room never got it', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      ada.edit((list) => [...list, rectangle('stroke', 2)]);
      timers.advance(100);
      assert.equal(ada.socket().up.length, 1);
      ada.socket().drop();
      timers.advance(1000);
      settle(room, timers, [ada]);
      assert.deepEqual(ids(ada.scene.visible()), ['a', 'stroke']);
      assert.deepEqual(ids(room.visible()), ['a', 'stroke']);
    });

    test('the wait between tries grows up to a ceiling, and a welcome resets it', () => {
      const timers = new ManualTimers();
      const opened: number[] = [];
      let latest: any = null;
      const connection = new LiveConnection({
        url: 'ws://test',
        onMessage: () => undefined,
        onDropped: () => undefined,
        timers,
        random: () => 1,
        maxDelayMs: 3000,
        openSocket: () => {
          opened.push(timers.now);
          latest = { readyState: 0, send() {}, close() {}, onopen: null, onmessage: null, onclose: null, onerror: null };
          return latest;
        },
      });
      const waits: number[] = [];
      const failOnce = () => {
        const closedAt = timers.now;
        latest.onclose({ code: 1006 });
        timers.advance(20_000);
        waits.push(opened.at(-1)! - closedAt);
      };
      connection.start();
      for (let i = 0; i < 5; i++) failOnce();
      assert.deepEqual(waits, [500, 1000, 2000, 3000, 3000]);
      latest.readyState = 1;
      latest.onmessage({ data: JSON.stringify({ type: 'welcome', you: peer('me'), role: 'editor', docUpdatedAt: '', elements: [], files: {}, peers: [] }) });
      failOnce();
      assert.equal(waits.at(-1), 500);
      connection.stop();
    });

    test('a connection the server closed as unused (4408) waits for the person: no tries until their next input, then one at once', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      ada.socket().drop(4408);
      assert.equal(ada.status(), 'offline');
      timers.advance(60_000);
      assert.equal(ada.sockets.length, 1, 'no try while the person does nothing');
      ada.client.presence.pointer({ x: 1, y: 2, tool: 'pointer' }, 'up');
      assert.equal(ada.sockets.length, 2, 'the pointer moved: it connects again');
      settle(room, timers, [ada]);
      assert.equal(ada.status(), 'saved');
      ada.socket().drop(4408);
      ada.edit((list) => [...list, rectangle('later', 2)]);
      assert.equal(ada.sockets.length, 3, 'a change wakes it too');
      settle(room, timers, [ada]);
      assert.ok(room.elements.get('later'), 'and the change is stored');
    });

    test('gone ends the session: no more tries, and the reason is reported', () => {
      const { timers, ada } = adaAlone([rectangle('a', 1)]);
      ada.socket().drop(4403);
      assert.equal(ada.status(), 'gone');
      timers.advance(60_000);
      assert.equal(ada.sockets.length, 1);
      assert.equal(ada.client.hasUnsavedWork(), false);
    });
  });

  describe('roles', () => {
    test('a viewer sees live changes and sends none of its own', () => {
      const room = new FakeRoom([rectangle('a', 1)]);
      const timers = new ManualTimers();
      const ada = join(room, timers, 'ada');
      const vic = join(room, timers, 'vic', { role: () => 'viewer' });
      settle(room, timers, [ada, vic]);
      assert.deepEqual(vic.roles, ['viewer']);
      ada.edit((list) => [...list, rectangle('b', 2)]);
      settle(room, timers, [ada, vic]);
      assert.deepEqual(ids(vic.scene.visible()), ['a', 'b']);
      vic.edit((list) => list.map((e) => edited(e, { x: 1 })));
      timers.advance(1000);
      assert.deepEqual(sentElements(vic), []);
    });

    test('an editor whose share turns into a viewer stops sending', () => {
      const { room, timers, ada } = adaAlone([rectangle('a', 1)]);
      room.setRole(ada.socket(), 'viewer');
      settle(room, timers, [ada]);
      assert.deepEqual(ada.roles, ['editor', 'viewer']);
      ada.edit((list) => list.map((e) => edited(e, { x: 1 })));
      timers.advance(1000);
      assert.deepEqual(sentElements(ada), []);
    });
  });

  describe('presence', () => {
    test('the others are listed without this page, updated, and removed when they leave', () => {
      const room = new FakeRoom();
      const timers = new ManualTimers();
      const ada = join(room, timers, 'ada');
      const bob = join(room, timers, 'bob');
      settle(room, timers, [ada, bob]);
      assert.deepEqual(
        ada.peers.map((p) => p.name),
        ['bob'],
      );
      assert.deepEqual(
        bob.peers.map((p) => p.name),
        ['ada'],
      );
      bob.client.presence.pointer({ x: 10, y: 20, tool: 'pointer' }, 'down');
      bob.client.presence.selection({ a: true });
      settle(room, timers, [ada, bob]);
      assert.deepEqual(ada.peers[0]!.pointer, { x: 10, y: 20, tool: 'pointer' });
      assert.deepEqual(ada.peers[0]!.selectedElementIds, { a: true });
      assert.equal(ada.peers[0]!.button, 'down');
      for (const member of room.live()) if (member.socket !== bob.socket()) room.post(member, { type: 'left', peerId: room.members[1]!.peer.peerId });
      settle(room, timers, [ada]);
      assert.deepEqual(ada.peers, []);
    });

    test('presence is sent at most once per interval, with the latest state', () => {
      const sent: PresenceUpdate[] = [];
      const timers = new ManualTimers();
      const own = new OwnPresence({ send: (u) => (sent.push(u), true), timers, minIntervalMs: 50, now: () => timers.now });
      for (let i = 0; i < 20; i++) {
        own.pointer({ x: i, y: i, tool: 'pointer' }, 'up');
        timers.advance(5);
      }
      timers.advance(100);
      assert.ok(sent.length <= 3, `${sent.length} sends for 100 ms of moves`);
      assert.deepEqual(sent.at(-1)!.pointer, { x: 19, y: 19, tool: 'pointer' });
    });

    test('idle after a quiet minute, away while the tab is hidden, active again on input', () => {
      const sent: PresenceUpdate[] = [];
      const timers = new ManualTimers();
      const own = new OwnPresence({ send: (u) => (sent.push(u), true), timers, minIntervalMs: 50, idleAfterMs: 60_000, now: () => timers.now });
      own.pointer({ x: 1, y: 1, tool: 'pointer' }, 'up');
      timers.advance(59_000);
      assert.equal(sent.at(-1)!.status, 'active');
      timers.advance(2_000);
      assert.equal(sent.at(-1)!.status, 'idle');
      own.activity();
      timers.advance(100);
      assert.equal(sent.at(-1)!.status, 'active');
      own.visibility(true);
      timers.advance(120_000);
      assert.equal(sent.at(-1)!.status, 'away', 'hidden stays away, not idle');
      own.visibility(false);
      timers.advance(100);
      assert.equal(sent.at(-1)!.status, 'active');
      own.stop();
    });

    test('a welcome replaces the list of others: who left while this page was away is gone', () => {
      const list = new PeerList();
      list.welcome(peer('me'), [peer('me'), peer('x'), peer('y')]);
      assert.deepEqual(
        list.list().map((p) => p.peerId),
        ['x', 'y'],
      );
      list.welcome(peer('me2'), [peer('y')]);
      assert.deepEqual(
        list.list().map((p) => p.peerId),
        ['y'],
      );
    });
  });

  describe('avatars', () => {
    test('initials from the name: the first letters of its first two words', () => {
      assert.equal(initials('ada.lovelace'), 'AL');
      assert.equal(initials('grace'), 'G');
      assert.equal(initials('émile-zola_jr'), 'ÉZ');
    });

    test('one person in two tabs is one avatar, as active as their liveliest tab', () => {
      const tab = (peerId: string, userId: string, status: LivePeer['status']) => ({ ...peer(peerId), userId, status });
      const shown = people([tab('p1', 'ada', 'away'), tab('p2', 'bob', 'idle'), tab('p3', 'ada', 'active')]);
      assert.deepEqual(
        shown.map((p) => [p.userId, p.status]),
        [
          ['ada', 'active'],
          ['bob', 'idle'],
        ],
      );
    });
  });

  describe('protocol', () => {
    test('a scene message is parsed; one without a list of elements is ignored', () => {
      assert.equal(parseServerMessage(JSON.stringify({ type: 'scene', elements: [], files: {}, docUpdatedAt: 'x' }))?.type, 'scene');
      assert.equal(parseServerMessage(JSON.stringify({ type: 'scene', elements: 'no' })), null);
    });

    test('unknown or malformed frames are ignored, known ones parsed', () => {
      assert.equal(parseServerMessage('not json'), null);
      assert.equal(parseServerMessage('{"type":"future"}'), null);
      assert.equal(parseServerMessage('{"type":"elements"}'), null);
      assert.deepEqual(parseServerMessage('{"type":"left","peerId":"p"}'), { type: 'left', peerId: 'p' });
      assert.equal(liveUrl({ protocol: 'https:', host: 'draw.example' }, 'a b'), 'wss://draw.example/app/api/diagrams/a%20b/live');
      assert.equal(liveUrl({ protocol: 'http:', host: '127.0.0.1:3000' }, 'd'), 'ws://127.0.0.1:3000/app/api/diagrams/d/live');
    });
  });

  /**
   * Two or three people edit at once while API writes land and connections break, in every order the
   * generator finds: at the end everyone holds the room's scene, no element anyone added is lost or
   * doubled, and an element nobody deleted is visible.
   */
  test('people editing at once, with API writes and dropped connections, end with one scene and nothing lost', () => {
    type Action =
      | { kind: 'add' | 'move' | 'delete'; who: number; pick: number }
      | { kind: 'up' | 'down' | 'drop'; who: number }
      | { kind: 'api'; pick: number; remove: boolean }
      | { kind: 'tick' };
    const who = fc.nat(2);
    const action: fc.Arbitrary<Action> = fc.oneof(
      fc.record({ kind: fc.constantFrom('add' as const, 'move' as const, 'delete' as const), who, pick: fc.nat(50) }),
      fc.record({ kind: fc.constantFrom('up' as const, 'down' as const), who }),
      fc.record({ kind: fc.constant('drop' as const), who }),
      fc.record({ kind: fc.constant('api' as const), pick: fc.nat(50), remove: fc.boolean() }),
      fc.record({ kind: fc.constant('tick' as const) }),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 60 }), (actions) => {
        const room = new FakeRoom([rectangle('seed-1', 1), rectangle('seed-2', 2)]);
        const timers = new ManualTimers();
        const people = [join(room, timers, 'ada'), join(room, timers, 'bob'), join(room, timers, 'cy')];
        const added = new Set(['seed-1', 'seed-2']);
        const deletedBySomeone = new Set<string>();
        let next = 10;
        for (const step of actions) {
          if (step.kind === 'tick') timers.advance(100);
          else if (step.kind === 'api') {
            const visible = room.visible();
            const target = visible[step.pick % Math.max(1, visible.length)];
            if (step.remove && target) {
              deletedBySomeone.add(target.id);
              room.apiWrite([{ ...target, isDeleted: true }]);
            } else if (target && step.pick % 2 === 0) room.apiWrite([{ ...target, x: -step.pick }]);
            else {
              const id = `api-${next}`;
              added.add(id);
              room.apiWrite([rectangle(id, next++)]);
            }
          } else {
            const person = people[step.who]!;
            const socket = person.socket();
            if (step.kind === 'up') room.deliverUp(socket);
            else if (step.kind === 'down') socket.deliverDown();
            else if (step.kind === 'drop') socket.drop();
            else if ('pick' in step) {
              const { pick } = step;
              const visible = person.scene.visible();
              const target = visible[pick % Math.max(1, visible.length)];
              if (step.kind === 'add' || !target) {
                const id = `${step.who}-${next}`;
                added.add(id);
                person.edit((list) => [...list, rectangle(id, next++)]);
              } else if (step.kind === 'move') person.edit((list) => list.map((e) => (e.id === target.id ? edited(e, { x: pick }) : e)));
              else {
                deletedBySomeone.add(target.id);
                person.edit((list) => list.map((e) => (e.id === target.id ? edited(e, { isDeleted: true }) : e)));
              }
            }
          }
        }
        timers.advance(60_000);
        settle(room, timers, people);
        const roomStamps = stamps(room.visible());
        for (const [i, person] of people.entries()) {
          assert.equal(person.status(), 'saved', `person ${i} is saved`);
          const visible = person.scene.visible();
          assert.equal(new Set(ids(visible)).size, visible.length, `person ${i} holds no element twice`);
          assert.deepEqual(stamps(visible), roomStamps, `person ${i} holds the room's scene`);
        }
        for (const id of added) {
          assert.ok(room.elements.has(id), `${id} reached the room`);
          if (!deletedBySomeone.has(id)) assert.equal(room.elements.get(id)!.isDeleted, false, `${id}, deleted by nobody, is visible`);
        }
      }),
      { numRuns: 60 },
    );
  });
});

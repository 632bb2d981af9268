/**
 * A TCP stand-in of a MongoDB server speaking just enough of the wire protocol for the driver's
 * connection handling to be tested without a server: the handshake (OP_QUERY `isMaster` answered
 * with OP_REPLY), then OP_MSG commands: `hello`/`isMaster` (a standalone server, wire version
 * 21, no streaming monitoring), `find` (documents set by the test, `_id` equality or all),
 * `ping` and `endSessions`. `silent` makes it read and never answer, on every connection, old or
 * new: a server that stopped answering without closing anything (a partition).
 */
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { BSON } from 'mongodb';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

type Doc = Record<string, unknown>;

/** A running wire stand-in. */
export interface MongoWireStandIn {
  /** `mongodb://127.0.0.1:<port>/` plus `query` (connection string options). */
  url(query?: string): string;
  /** Documents by collection name, returned by `find`. */
  collections: Map<string, Doc[]>;
  /** While true, nothing is answered (requests are read and dropped). */
  silent: boolean;
  /** TCP connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

function cstring(buf: Buffer, at: number): [string, number] {
  const end = buf.indexOf(0, at);
  return [buf.toString('utf8', at, end), end + 1];
}

function frame(opCode: number, responseTo: number, body: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + body.length, 0);
  header.writeInt32LE(Math.floor(Math.random() * 2 ** 30), 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, body]);
}

const hello = (): Doc => ({
  helloOk: true,
  isWritablePrimary: true,
  ismaster: true,
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48_000_000,
  maxWriteBatchSize: 100_000,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  minWireVersion: 0,
  maxWireVersion: 21,
  readOnly: false,
  ok: 1,
});

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startMongoWireStandIn(): Promise<MongoWireStandIn> {
  const collections = new Map<string, Doc[]>();
  const sockets = new Set<Socket>();
  let connections = 0;
  const state = { silent: false };

  const answer = (command: Doc): Doc => {
    const name = Object.keys(command)[0] ?? '';
    if (['hello', 'isMaster', 'ismaster'].includes(name)) return hello();
    if (name === 'ping' || name === 'endSessions') return { ok: 1 };
    if (name === 'find') {
      const collection = String(command['find']);
      const filter = (command['filter'] ?? {}) as Doc;
      const all = collections.get(collection) ?? [];
      const docs = '_id' in filter ? all.filter((d) => d['_id'] === filter['_id']) : all;
      return {
        cursor: { id: BSON.Long.fromNumber(0), ns: `${String(command['$db'])}.${collection}`, firstBatch: docs },
        ok: 1,
      };
    }
    return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
  };

  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(message.length);
        if (state.silent) continue;
        const requestId = message.readInt32LE(4);
        const opCode = message.readInt32LE(12);
        if (opCode === OP_QUERY) {
          const [, at] = cstring(message, 20);
          const query = BSON.deserialize(message.subarray(at + 8));
          const reply = Buffer.alloc(20);
          reply.writeInt32LE(1, 16); // numberReturned (flags, cursor id and startingFrom stay 0)
          socket.write(frame(OP_REPLY, requestId, Buffer.concat([reply, BSON.serialize(answer(query))])));
        } else if (opCode === OP_MSG) {
          let at = 20;
          let command: Doc = {};
          while (at < message.length) {
            const kind = message[at]!;
            at += 1;
            const size = message.readInt32LE(at);
            if (kind === 0) command = BSON.deserialize(message.subarray(at, at + size));
            at += size;
          }
          const body = Buffer.concat([Buffer.alloc(5), BSON.serialize(answer(command))]); // flagBits 0, section kind 0
          socket.write(frame(OP_MSG, requestId, body));
        }
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (query = '') => `mongodb://127.0.0.1:${port}/${query ? `?${query}` : ''}`,
    collections,
    get silent() {
      return state.silent;
    },
    set silent(value: boolean) {
      state.silent = value;
    },
    get connections() {
      return connections;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

/**
 * `node --import tsx scripts/bus-outage.ts [seconds]`: the NATS bus through a nats-server outage
 * (DESIGN §2, distributed profile), with the bus's default timings and an `info` logger. A bus
 * consumes one subject; nats-server stops for `seconds` (default 60), then starts again on the
 * same port, once with its store and once with an empty one. Prints, per run, the log lines the
 * bus wrote while the server was away (and per second), the seconds from the server's return to
 * the first successful publish and to the first delivered message, and the status changes.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { NatsBus, type NatsBusStatus } from '../adapters/nats/bus.js';
import { startNatsServer } from '../test/helpers/nats-server.js';

const awaySeconds = Number(process.argv[2] ?? 60);

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function run(emptyStore: boolean): Promise<void> {
  const server = await startNatsServer();
  const lines: { at: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push({ at: Date.now(), msg: (JSON.parse(line) as { msg: string }).msg });
      done();
    },
  });
  const statuses: NatsBusStatus[] = [];
  const bus = await NatsBus.connect({
    servers: server.url,
    stream: 'OUTAGE',
    subjects: ['outage.>'],
    log: pino({ level: 'info' }, sink),
    onStatus: (s) => statuses.push(s),
  });
  const delivered: { id: string; at: number }[] = [];
  const consumer = bus.consume<{ n: number }>('outage.solve', (m) => {
    delivered.push({ id: m.id, at: Date.now() });
    m.ack();
    return Promise.resolve();
  });
  await bus.publish('outage.solve', 'before', { n: 0 });
  await until(() => delivered.length === 1);

  await server.stop({ keepStore: true });
  const stoppedAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, awaySeconds * 1000));
  const linesAway = lines.filter((l) => l.at >= stoppedAt).length;
  await server.start({ emptyStore });
  const returnedAt = Date.now();
  let published = 0;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await bus.publish('outage.solve', 'after', { n: 1 });
      published = Date.now();
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  await until(() => delivered.length === 2);
  const deliveredAt = delivered[1]!.at;
  console.log(
    [
      emptyStore ? 'empty store' : 'same store',
      `away ${awaySeconds} s`,
      `log lines while away: ${linesAway} (${(linesAway / awaySeconds).toFixed(2)}/s)`,
      `return → publish ok: ${((published - returnedAt) / 1000).toFixed(2)} s`,
      `return → first delivery: ${((deliveredAt - returnedAt) / 1000).toFixed(2)} s`,
      `statuses: ${statuses.map((s) => s.state).join(' → ')}`,
    ].join('\n  '),
  );
  console.log(`  log: ${lines.map((l) => l.msg).join(' | ')}`);
  await consumer.close();
  await bus.close();
  await server.stop();
}

await run(false);
await run(true);

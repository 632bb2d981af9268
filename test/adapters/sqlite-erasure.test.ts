/**
 * Retention on the embedded profile erases (README Retention): SqliteEventStore.deleteStream
 * with `secure_delete` overwrites the deleted events' bytes, so once the WAL is checkpointed
 * into events.db no copy of a deleted body is left in the file's free pages.
 */
import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../adapters/sqlite/event-store.js';

t.test("a deleted stream's bodies are not in events.db after the checkpoint; the others are", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'packing-erasure-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'events.db');
  const store = new SqliteEventStore(file);
  // Bodies of both sizes: in the table's pages (2 kB) and in overflow pages (60 kB).
  const marker = (i: number) => `BODY-MARKER-${String(i).padStart(4, '0')}-`;
  for (let i = 0; i < 40; i++) {
    const text = marker(i).repeat((i % 2 === 0 ? 2_000 : 60_000) / marker(i).length);
    await store.append(`jobbody-${i}`, [{ id: randomUUID(), type: 'JobBodyStored', data: { text } }], 'no_stream');
  }
  for (let i = 0; i < 20; i++) t.equal(await store.deleteStream(`jobbody-${i}`), 1);
  await store.close(); // the last connection checkpoints the WAL into the file and removes it
  const bytes = readFileSync(file);
  const left = [];
  for (let i = 0; i < 20; i++) if (bytes.includes(Buffer.from(marker(i)))) left.push(i);
  t.same(left, [], 'no deleted body left in events.db');
  for (let i = 20; i < 40; i++) t.ok(bytes.includes(Buffer.from(marker(i))), `kept body ${i} is there`);
});

/**
 * The scavenge schedule documented in docker-compose.yml (retention on EventStoreDB: bodies leave
 * the chunk files only when a scavenge runs): the crontab line is well formed, runs the admin's
 * `scavenge` command in a service of the file that is built from the Dockerfile and whose
 * environment points at the file's EventStoreDB.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { program } from '../../scripts/admin.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8');

t.test(
  'the crontab example runs `admin scavenge` in a built service that reaches the EventStoreDB of the file',
  async (t) => {
    const lines = text.split('\n').filter((l) => /^#\s+[0-9*]/.test(l) && l.includes('scavenge'));
    t.equal(lines.length, 1, 'one crontab line');
    const line = lines[0]!.replace(/^#\s+/, '');
    const fields = line.split(/\s+/);
    const [minute, hour, day, month, weekday] = fields;
    t.ok(
      Number(minute) >= 0 && Number(minute) < 60 && Number(hour) >= 0 && Number(hour) < 24,
      `minute and hour (${minute} ${hour})`,
    );
    t.same([day, month, weekday], ['*', '*', '*'], 'daily');
    const command = fields.slice(5).join(' ');
    const run = /docker compose run --rm --no-deps (\S+) npm run admin -- scavenge$/.exec(command);
    t.ok(run, `a one-off run of the admin: ${command}`);
    const doc = parse(text, { merge: true }) as {
      services: Record<string, { build?: unknown; environment?: Record<string, string> }>;
    };
    const service = doc.services[run?.[1] ?? ''];
    t.ok(service?.build !== undefined, `${run?.[1]} is built from the Dockerfile`);
    t.equal(service?.environment?.['PACKING_EVENT_STORE'], 'eventstoredb');
    t.equal(
      new URL(service?.environment?.['EVENTSTORE_URL'] ?? 'x:').hostname,
      'eventstore',
      "EVENTSTORE_URL names the file's EventStoreDB",
    );
    t.ok(doc.services['eventstore'], 'which the file runs');
    t.ok(
      program.commands.some((c) => c.name() === 'scavenge'),
      'scavenge is an admin command',
    );
  },
);

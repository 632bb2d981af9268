/** The process profile (service/profile.ts): roles and adapters from the environment, checked at start. */
import t from 'tap';
import { DEFAULT_ACK_WAIT_SECONDS, ProfileError, isEmbedded, profileFromEnvironment } from '../../service/profile.js';

t.test('no variables: the embedded profile, every role in one process', async (t) => {
  const p = profileFromEnvironment({});
  t.same([...p.roles].sort(), ['api', 'projector', 'scheduler', 'solver']);
  t.same([p.eventStore.kind, p.readStore.kind, p.bus.kind], ['sqlite', 'sqlite', 'inproc']);
  t.equal(isEmbedded(p), true);
});

t.test('a solver node of the distributed profile', async (t) => {
  const p = profileFromEnvironment({
    PACKING_ROLES: ' solver ',
    PACKING_EVENT_STORE: 'eventstoredb',
    EVENTSTORE_URL: 'esdb://es:2113?tls=false',
    PACKING_READ_STORE: 'mongodb',
    MONGODB_URL: 'mongodb://mongo:27017',
    PACKING_BUS: 'nats',
    NATS_URL: 'nats://nats:4222',
    SOLVER_ACK_WAIT_SECONDS: '5',
  });
  t.same([...p.roles], ['solver']);
  t.same(p.eventStore, { kind: 'eventstoredb', url: 'esdb://es:2113?tls=false', namespace: '' });
  t.same(p.readStore, { kind: 'mongodb', url: 'mongodb://mongo:27017', database: 'packing' });
  t.same(p.bus, { kind: 'nats', url: 'nats://nats:4222', ackWaitMs: 5000 });
  t.equal(isEmbedded(p), false);
  t.same(
    profileFromEnvironment({ PACKING_BUS: 'nats', NATS_URL: 'nats://x:1' }).bus,
    { kind: 'nats', url: 'nats://x:1', ackWaitMs: DEFAULT_ACK_WAIT_SECONDS * 1000 },
    'the ack wait defaults to 30 s',
  );
});

t.test('each bad setting is refused with one message naming the variable and the accepted values', async (t) => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [{ PACKING_ROLES: 'api,worker' }, 'PACKING_ROLES', /"worker".*api, projector, scheduler, solver/],
    [{ PACKING_ROLES: ' , ' }, 'PACKING_ROLES', /empty/],
    [{ PACKING_EVENT_STORE: 'postgres' }, 'PACKING_EVENT_STORE', /"postgres".*sqlite, eventstoredb/],
    [{ PACKING_READ_STORE: 'redis' }, 'PACKING_READ_STORE', /"redis".*memory, mongodb/],
    [{ PACKING_BUS: 'kafka' }, 'PACKING_BUS', /"kafka".*inproc, nats/],
    [{ PACKING_ROLES: 'api' }, 'PACKING_BUS', /inproc.*lacks solver/],
    [{ PACKING_ROLES: 'api,solver' }, 'PACKING_BUS', /inproc.*lacks scheduler/],
    [{ PACKING_EVENT_STORE: 'eventstoredb' }, 'EVENTSTORE_URL', /EVENTSTORE_URL is required/],
    [
      { PACKING_EVENT_STORE: 'eventstoredb', EVENTSTORE_URL: 'esdb://x', EVENTSTORE_NAMESPACE: 'a b' },
      'EVENTSTORE_NAMESPACE',
      /letters, digits/,
    ],
    [{ PACKING_READ_STORE: 'mongodb' }, 'MONGODB_URL', /MONGODB_URL is required/],
    [{ PACKING_BUS: 'nats' }, 'NATS_URL', /NATS_URL is required/],
    [
      { PACKING_BUS: 'nats', NATS_URL: 'nats://x:1', SOLVER_ACK_WAIT_SECONDS: '1' },
      'SOLVER_ACK_WAIT_SECONDS',
      /2 to 600/,
    ],
  ];
  for (const [env, variable, message] of cases) {
    try {
      profileFromEnvironment(env);
      t.fail(`${JSON.stringify(env)} was accepted`);
    } catch (err) {
      t.ok(err instanceof ProfileError, `${JSON.stringify(env)}: ProfileError`);
      t.equal((err as ProfileError).variable, variable, `${JSON.stringify(env)} names ${variable}`);
      t.match((err as Error).message, message);
    }
  }
});

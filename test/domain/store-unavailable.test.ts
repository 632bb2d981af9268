/**
 * Which errors say a store cannot be reached (domain/ports/store-unavailable.ts), answered 503
 * with Retry-After instead of 500 (api/http/errors.ts): the EventStoreDB driver's connection errors,
 * MongoDB network errors, a busy SQLite file, also as the cause of another error; not a bug.
 */
import t from 'tap';
import { DeadlineExceededError, StreamNotFoundError, UnavailableError } from '@eventstore/db-client';
import { isStoreUnavailable } from '../../domain/ports/store-unavailable.js';
import { InjectedConnectionLoss } from '../helpers/faulty-event-store.js';

const grpc = (code: number, details: string) => ({ code, details, message: `${code} ${details}` }) as never;
const named = (name: string): Error => Object.assign(new Error('x'), { name });

t.test('unreachable stores', async (t) => {
  t.ok(isStoreUnavailable(new UnavailableError(grpc(14, 'Connection dropped'))), 'EventStoreDB UnavailableError');
  t.ok(
    isStoreUnavailable(new DeadlineExceededError(grpc(4, 'Deadline exceeded'))),
    'EventStoreDB DeadlineExceededError',
  );
  // The driver's NotLeaderError and WrongExpectedVersionError need server metadata to be built: their shape here.
  t.ok(
    isStoreUnavailable(Object.assign(new Error('not leader'), { type: 'not-leader' })),
    'EventStoreDB NotLeaderError (type not-leader)',
  );
  t.ok(isStoreUnavailable(new InjectedConnectionLoss('test')), "the fault injector's error");
  t.ok(isStoreUnavailable(named('MongoNetworkError')), 'MongoNetworkError');
  t.ok(isStoreUnavailable(named('MongoServerSelectionError')), 'MongoServerSelectionError');
  t.ok(isStoreUnavailable(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })), 'SQLITE_BUSY');
  t.ok(
    isStoreUnavailable(new Error('append failed', { cause: new UnavailableError(grpc(14, 'x')) })),
    'as the cause of another error',
  );
});

t.test('not unreachable stores', async (t) => {
  t.notOk(isStoreUnavailable(new Error('a bug')), 'a plain Error');
  t.notOk(isStoreUnavailable(new TypeError('x is undefined')), 'a TypeError');
  t.notOk(isStoreUnavailable(new StreamNotFoundError(grpc(5, 'not found'))), 'EventStoreDB stream not found');
  t.notOk(
    isStoreUnavailable(Object.assign(new Error('wrong version'), { type: 'wrong-expected-version' })),
    'EventStoreDB wrong expected version',
  );
  t.notOk(
    isStoreUnavailable(Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' })),
    'SQLITE_CONSTRAINT',
  );
  t.notOk(isStoreUnavailable('a string'), 'not an Error');
});

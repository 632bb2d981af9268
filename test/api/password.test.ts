/**
 * Password hashes: scrypt with its parameters and salt stored, salted per hash, checked by the
 * stored parameters; the cost of new hashes is a setting (DEFAULT_PASSWORD_COST in production).
 */
import t from 'tap';
import {
  DEFAULT_PASSWORD_COST,
  checkedPasswordCost,
  hashPassword,
  verifyPassword,
} from '../../application/password.js';

t.test('hash and verify', async (t) => {
  const a = await hashPassword('correct horse battery');
  const b = await hashPassword('correct horse battery');
  t.match(a, { algorithm: 'scrypt', N: 32768, r: 8, p: 1, keyLength: 64 });
  t.not(a.salt, b.salt, 'a fresh salt per hash');
  t.not(a.hash, b.hash);
  t.equal(Buffer.from(a.hash, 'base64').length, 64);
  t.equal(await verifyPassword('correct horse battery', a), true);
  t.equal(await verifyPassword('correct horse batterY', a), false);
  t.equal(await verifyPassword('correct horse battery', null), false, 'no stored hash (unknown email): false');
});

t.test('the production cost is the one docs/web-app.md states: N = 2^15, r = 8, p = 1', async (t) => {
  t.same({ ...DEFAULT_PASSWORD_COST }, { N: 2 ** 15, r: 8, p: 1 });
});

t.test('a hash keeps its own cost: it verifies after the setting changes, both ways', async (t) => {
  const low = { N: 2 ** 10, r: 8, p: 1 };
  const cheap = await hashPassword('correct horse battery', low);
  t.match(cheap, { algorithm: 'scrypt', N: 1024, r: 8, p: 1, keyLength: 64 });
  t.equal(
    await verifyPassword('correct horse battery', cheap, DEFAULT_PASSWORD_COST),
    true,
    'made low, checked at production cost',
  );
  t.equal(await verifyPassword('correct horse batterY', cheap, DEFAULT_PASSWORD_COST), false);
  const dear = await hashPassword('correct horse battery');
  t.equal(await verifyPassword('correct horse battery', dear, low), true, 'made at production cost, checked at low');
  t.equal(await verifyPassword('correct horse battery', null, low), false, 'the decoy at the low cost: false');
});

t.test('a cost scrypt cannot use is refused', async (t) => {
  t.throws(() => checkedPasswordCost({ N: 1000, r: 8, p: 1 }), RangeError, 'N not a power of two');
  t.throws(() => checkedPasswordCost({ N: 1, r: 8, p: 1 }), RangeError, 'N below 2');
  t.throws(() => checkedPasswordCost({ N: 1024, r: 0, p: 1 }), RangeError);
  t.throws(() => checkedPasswordCost({ N: 1024, r: 8, p: 1.5 }), RangeError);
  t.same(checkedPasswordCost({ N: 1024, r: 8, p: 1 }), { N: 1024, r: 8, p: 1 });
});

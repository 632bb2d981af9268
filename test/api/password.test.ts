/** Password hashes: scrypt with its parameters and salt stored, salted per hash, checked by the stored parameters. */
import t from 'tap';
import { hashPassword, verifyPassword } from '../../application/password.js';

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

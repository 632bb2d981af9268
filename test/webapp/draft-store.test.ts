/**
 * The playground's kept draft (webapp/src/playground/draft-store.ts): one per member, the text
 * kept as typed (also when it does not parse) with its time, another member's never read, the
 * empty request forgotten, a refusing or full storage answered by the copy in memory, and what
 * is not a kept draft in storage counting as none.
 */
import t from 'tap';
import fc from 'fast-check';
import {
  draftKey,
  forgetDraft,
  keepDraft,
  keptDraft,
  MAX_KEPT_DRAFT_CHARS,
  type DraftStorage,
} from '../../webapp/src/playground/draft-store.js';

/** A Storage stand-in over a Map; `refuse` makes every call throw as a disabled or full storage does. */
function storage(refuse: { get?: boolean; set?: boolean } = {}): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem(key) {
      if (refuse.get) throw new Error('SecurityError');
      return map.get(key) ?? null;
    },
    setItem(key, value) {
      if (refuse.set) throw new Error('QuotaExceededError');
      map.set(key, value);
    },
    removeItem(key) {
      map.delete(key);
    },
  };
}

const pat = { organizationId: 'org_1', userId: 'usr_pat' };
const sam = { organizationId: 'org_1', userId: 'usr_sam' };
const patElsewhere = { organizationId: 'org_2', userId: 'usr_pat' };

t.test("a member's draft comes back as typed, with its time; another member's is never read", async (t) => {
  const s = storage();
  const at = new Date('2026-12-03T10:00:00Z');
  t.equal(keepDraft(s, pat, '{"items": [', false, at), true, 'kept in the browser');
  t.same(
    keptDraft(s, pat),
    { text: '{"items": [', savedAt: '2026-12-03T10:00:00.000Z' },
    'text that does not parse too',
  );
  t.equal(keepDraft(s, sam, '{"vehicles": []}', false, at), true);
  t.equal(keptDraft(s, pat)?.text, '{"items": [', "Sam's draft leaves Pat's alone");
  forgetDraft(s, sam);
  t.equal(keptDraft(s, sam), null, 'forgotten');
  t.equal(keptDraft(s, patElsewhere), null, 'the same user in another organization has none');
  t.not(draftKey(pat), draftKey(sam));
  t.not(draftKey({ organizationId: 'a:b', userId: 'c' }), draftKey({ organizationId: 'a', userId: 'b:c' }));
});

t.test('keys are one per member: distinct owners never share one', async (t) => {
  fc.assert(
    fc.property(fc.tuple(fc.string(), fc.string()), fc.tuple(fc.string(), fc.string()), ([o1, u1], [o2, u2]) => {
      fc.pre(o1 !== o2 || u1 !== u2);
      return draftKey({ organizationId: o1, userId: u1 }) !== draftKey({ organizationId: o2, userId: u2 });
    }),
    { seed: 41, numRuns: 300 },
  );
  t.pass('300 pairs of owners, 300 distinct key pairs');
});

t.test('the empty request is not kept: keeping it forgets the draft', async (t) => {
  const s = storage();
  keepDraft(s, pat, '{"items": [1]}', false);
  t.equal(keepDraft(s, pat, '{"vehicles": [], "items": []}', true), true);
  t.equal(keptDraft(s, pat), null);
  t.equal(s.map.size, 0, 'nothing left in storage');
});

t.test('a storage that refuses or is full: the copy in memory stands, and the page is told', async (t) => {
  const full = storage({ set: true });
  t.equal(keepDraft(full, sam, '{"items": [2]}', false), false, 'not kept in the browser');
  t.equal(keptDraft(full, sam)?.text, '{"items": [2]}', 'but read back from memory');
  const disabled = storage({ get: true, set: true });
  t.equal(keptDraft(disabled, sam)?.text, '{"items": [2]}', 'a storage that throws on reading too');
  t.equal(keepDraft(null, sam, '{"items": [3]}', false), false, 'no storage at all');
  t.equal(keptDraft(null, sam)?.text, '{"items": [3]}');
  const big = 'x'.repeat(MAX_KEPT_DRAFT_CHARS + 1);
  const s = storage();
  t.equal(keepDraft(s, sam, big, false), false, 'a draft over the size kept in the browser');
  t.equal(s.map.size, 0);
  forgetDraft(s, sam);
});

t.test('what is not a kept draft in storage counts as none', async (t) => {
  const s = storage();
  for (const junk of ['not json', '{"text": 5}', 'null', '"a string"']) {
    s.map.set(draftKey(pat), junk);
    forgetDraft(null, pat);
    t.equal(keptDraft(s, pat), null, junk);
  }
});

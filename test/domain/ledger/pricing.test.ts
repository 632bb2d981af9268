import t from 'tap';
import fc from 'fast-check';
import {
  admissionTerms,
  computeCharge,
  largeLoad,
  MIN_USEFUL_BUDGET_MS,
  priceRun,
  settlementCharge,
  smallestUsefulRun,
  total,
} from '../../../domain/ledger/pricing.js';
import { RATE_CARDS } from '../../../domain/ledger/rate-card.js';

const card = RATE_CARDS[1]!;

t.test('components of rate card 1 in micro-credits', async (t) => {
  t.same(priceRun(card, { vehicles: 3, computeMs: 1500, units: 120 }), {
    base: 100_000,
    vehicles: 150_000,
    compute: 3_000,
    large_load: 0,
  });
  t.equal(largeLoad(card, 500), 0, 'the threshold itself is included');
  t.equal(largeLoad(card, 501), 100_000, 'one started block');
  t.equal(largeLoad(card, 600), 100_000);
  t.equal(largeLoad(card, 601), 200_000);
  t.equal(computeCharge(card, 1), 2, '2 µcr per ms');
  t.equal(computeCharge(card, 90_000), 180_000);
});

t.test('settlement per outcome (spec Credits and pricing)', async (t) => {
  const run = { vehicles: 2, computeMs: 4_000, units: 750, budgetMs: 30_000, reserved: 10_000_000 };
  const rows: [Parameters<typeof settlementCharge>[1], number][] = [
    ['succeeded', 100_000 + 100_000 + 8_000 + 300_000],
    ['canceled', 100_000 + 8_000],
    ['time_limit_exceeded', 100_000 + 8_000 + 300_000],
    ['engine_failed', 0],
    ['queue_timeout', 0],
    ['server_restarted', 0],
  ];
  for (const [outcome, expected] of rows) t.equal(total(settlementCharge(card, outcome, run)), expected, outcome);
  t.equal(settlementCharge(card, 'time_limit_exceeded', run).vehicles, 0, 'never per vehicle');
});

t.test('compute is billed up to the budget and the charge never exceeds the reservation', async (t) => {
  const b = settlementCharge(card, 'succeeded', {
    vehicles: 1,
    computeMs: 5_000,
    units: 10,
    budgetMs: 2_000,
    reserved: 10_000_000,
  });
  t.equal(b.compute, 4_000);
  const capped = settlementCharge(card, 'succeeded', {
    vehicles: 1,
    computeMs: 2_000,
    units: 10,
    budgetMs: 2_000,
    reserved: 151_000,
  });
  t.equal(total(capped), 151_000);
});

t.test(
  'admission reserves the worst case, shrinks the run to fit the balance, refuses below the smallest useful run',
  async (t) => {
    const job = { units: 100, minVehicles: 1, maxVehicles: 20, budgetMs: 10_000 };
    const full = admissionTerms(card, 100_000_000, job)!;
    t.same(full, {
      reserved: 100_000 + 20 * 50_000 + 20_000,
      maxVehicles: 20,
      budgetMs: 10_000,
      limitedByBalance: false,
    });
    t.equal(admissionTerms(card, 151_999, job), null, 'base + one vehicle + 1 s of compute (152,000) not covered');
    t.ok(admissionTerms(card, 152_000, job), 'exactly the smallest useful run is admitted');
    const tight = admissionTerms(card, 500_000, job)!;
    t.equal(tight.limitedByBalance, true);
    t.equal(tight.maxVehicles, 7, 'a vehicle less, so that the useful minimum of compute fits');
    t.equal(tight.budgetMs, 10_000, 'the rest of the balance (25 s worth) goes to compute, up to the request');
    t.equal(
      tight.reserved,
      100_000 + 7 * 50_000 + 20_000,
      'holds the worst case of the reduced run, not the whole balance',
    );
    t.ok(tight.reserved <= 500_000);
    const fewerMs = admissionTerms(card, 1_105_000, job)!;
    t.same([fewerMs.maxVehicles, fewerMs.budgetMs, fewerMs.reserved], [20, 2_500, 1_105_000]);
  },
);

t.test(
  'the smallest useful run: fewest vehicles and 1 s of compute (or the requested budget when shorter)',
  async (t) => {
    t.same(smallestUsefulRun(card, { units: 100, minVehicles: 8, budgetMs: 30_000 }), {
      vehicles: 8,
      budgetMs: MIN_USEFUL_BUDGET_MS,
      price: 100_000 + 8 * 50_000 + 2_000,
    });
    t.same(smallestUsefulRun(card, { units: 100, minVehicles: 1, budgetMs: 300 }), {
      vehicles: 1,
      budgetMs: 300,
      price: 100_000 + 50_000 + 600,
    });
    t.equal(
      smallestUsefulRun(card, { units: 650, minVehicles: 1, budgetMs: 30_000 }).price,
      100_000 + 50_000 + 2_000 + 200_000,
      'with the large-load surcharge',
    );
    // The case: 0.5 credits, 8 vehicles needed: refused instead of "8 vehicles and 0 ms".
    t.equal(admissionTerms(card, 500_000, { units: 100, minVehicles: 8, maxVehicles: 20, budgetMs: 30_000 }), null);
  },
);

t.test('property: an admitted run is at least the useful minimum and its reservation fits the balance', async () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 3_000_000 }),
      fc.integer({ min: 1, max: 2000 }),
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 0, max: 19 }),
      fc.integer({ min: 1, max: 90_000 }),
      (available, units, minVehicles, extra, budgetMs) => {
        const job = { units, minVehicles, maxVehicles: Math.min(20, minVehicles + extra), budgetMs };
        const terms = admissionTerms(card, available, job);
        const smallest = smallestUsefulRun(card, job);
        if (!terms) return available < smallest.price;
        const reservedIsWorstCase =
          terms.reserved === total(priceRun(card, { vehicles: terms.maxVehicles, computeMs: terms.budgetMs, units }));
        return (
          reservedIsWorstCase &&
          terms.reserved <= available &&
          terms.budgetMs >= smallest.budgetMs &&
          terms.budgetMs <= budgetMs &&
          terms.maxVehicles >= minVehicles &&
          terms.maxVehicles <= job.maxVehicles
        );
      },
    ),
  );
});

/**
 * The search under group routings (spec Options.group_routing): three stops' cartons in one truck.
 * `wall` gives each stop its own section front to back, `no_stack` keeps stops off each other,
 * `routing` loads stops in order even when a later stop has the higher priority.
 */
import t from 'tap';
import type { GroupRouting, ItemModel, PackModel, Plan } from '../../../domain/pack/plan.js';
import { search } from '../../../solver/search/search.js';
import { verifyPlan } from '../../../solver/verify/verify.js';

/** Deterministic search budget of these tests: block placements per worker (search.ts SearchTask.work). */
const SEARCH_WORK = 4000;

const carton = (id: string, group: string, order: number, o: Partial<ItemModel> = {}): ItemModel => ({
  id,
  label: id,
  shape: 'box',
  length: 60,
  width: 40,
  height: 40,
  weight: 10,
  quantity: 30,
  stackable: true,
  maxStackWeight: 0,
  nestingHeight: 0,
  orientations: ['lwh', 'wlh'],
  priority: 0,
  hazardous: false,
  group,
  groupOrder: order,
  color: null,
  ...o,
});
const model = (mode: GroupRouting, items: ItemModel[]): PackModel => ({
  vehicles: [
    {
      id: 'v',
      name: 'Box truck',
      type: 'truck',
      length: 720,
      width: 245,
      height: 240,
      maxWeight: 10_000,
      quantity: 1,
      blockedAreas: [],
      floorLoadCapacity: 0,
      axles: null,
      auxDeck: null,
    },
  ],
  items,
  packingMode: 'fleet_only',
  maxVehicles: 1,
  allowOverweight: false,
  maxStackItems: 0,
  maxStackDensity: 0,
  enforceAxle: false,
  groupRouting: mode,
  budgetMs: 500,
  seed: 1,
});
const stops = [carton('stop1', 'Stop 1', 1), carton('stop2', 'Stop 2', 2), carton('stop3', 'Stop 3', 3)];
const solve = (m: PackModel): Plan =>
  search({ model: m, worker: 0, stride: 1, deadline: Date.now() + 3000, work: SEARCH_WORK }).plans[0]!.plan;
const sections = (p: Plan) =>
  ['stop1', 'stop2', 'stop3'].map((id) => {
    const ps = p.vehicles[0]!.placements.filter((q) => q.item_id === id);
    return [Math.min(...ps.map((q) => q.x)), Math.max(...ps.map((q) => q.x + q.length))];
  });

t.test('wall: each stop its own section, stop 1 at the front wall', async (t) => {
  const m = model('wall', stops);
  const p = solve(m);
  t.same(verifyPlan(m, p), []);
  t.equal(p.vehicles[0]!.items_placed, 90);
  const [a, b, c] = sections(p);
  t.ok(a![0] === 0 && a![1]! <= b![0]! && b![1]! <= c![0]!, `sections ${JSON.stringify(sections(p))} cm`);
});

t.test('no_stack and routing plans verify; routing keeps stop order over priority', async (t) => {
  const flat = model('no_stack', stops);
  const p = solve(flat);
  t.same(verifyPlan(flat, p), []);
  t.equal(p.vehicles[0]!.items_placed, 90);
  const urgent = model('routing', [stops[0]!, stops[1]!, carton('stop3', 'Stop 3', 3, { priority: 5 })]);
  const q = solve(urgent);
  t.same(verifyPlan(urgent, q), []);
  const steps = (id: string) => q.vehicles[0]!.placements.filter((x) => x.item_id === id).map((x) => x.step);
  t.ok(Math.max(...steps('stop1')) < Math.min(...steps('stop3')), 'stop 1 loads before the urgent stop 3');
});

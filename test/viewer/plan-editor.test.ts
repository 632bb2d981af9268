/**
 * The viewer's edit state (viewer/src/edit/plan-editor.ts and edit-history.ts) on the verifier's
 * small hand-made plan (test/solver/verify/plan-fixture.ts: truck 300 × 200 × 200; A#1, A#2 on the
 * floor, A#3 turned across them at y 40, B#1 at x 100; B#2 in an added copy; C#1 unplaced):
 * the operations recorded by each deed in the wire shapes of a revision, keyboard steps merged,
 * undo and redo, and the check by the service's verifier turning invalid and valid again.
 */
import t from 'tap';
import { EditHistory } from '../../viewer/src/edit/edit-history.js';
import { PlanEditor, problemsOf } from '../../viewer/src/edit/plan-editor.js';
import { editedPlan } from '../../viewer/src/edit/edited-plan.js';
import { viewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import { smallModel, smallPlan } from '../solver/verify/plan-fixture.js';

const A1 = { item_id: 'A', instance: 1 };
const A3 = { item_id: 'A', instance: 3 };
const B1 = { item_id: 'B', instance: 1 };
const C1 = { item_id: 'C', instance: 1 };

const editor = (): PlanEditor => new PlanEditor(smallModel(), smallPlan());

t.test('opened: no operations, the plan checks valid, units are where the plan has them', async (t) => {
  const e = editor();
  t.same(e.operations, []);
  const check = e.check();
  t.equal(check.valid, true, JSON.stringify(check.problems));
  t.ok(check.ms >= 0 && check.ms < 1000, `checked in ${check.ms.toFixed(2)} ms`);
  t.match(e.where(A3), { vehicle: 0, unit: { item_id: 'A', instance: 3, x: 0, y: 40, z: 0, orientation: 'wlh' } });
  t.same(e.where({ item_id: 'B', instance: 2 })?.vehicle, 1, 'B#2 in the second vehicle');
  t.equal(e.where(C1), null, 'C#1 unplaced');
  t.same(e.space(0), { length: 300, width: 200, height: 200, deckHeight: null });
});

t.test('a drag onto another unit: the move operation, the overlap reported on it, undo, redo', async (t) => {
  const e = editor();
  // B#1 (60³, not stackable) dragged onto A#1/A#2 at y 40, where A#3 lies: overlap.
  const dropped = e.snapped(B1, 0, e.boxOf('B', { x: 2, y: 40, z: 3 }, 'lwh'));
  t.same(dropped, { x: 0, y: 40, z: 0, length: 60, width: 60, height: 60 }, 'snapped to the front and right walls');
  t.equal(e.put(B1, 0, dropped, 'lwh'), true);
  t.same(e.operations, [{ op: 'move', item_id: 'B', instance: 1, vehicle: 0, x: 0, y: 40, z: 0, orientation: 'lwh' }]);
  const bad = e.check();
  t.equal(bad.valid, false);
  const mine = problemsOf(bad, B1);
  t.ok(
    mine.some((p) => p.rule === 'overlap'),
    `B#1 is named in an overlap: ${mine.map((p) => `${p.rule}: ${p.message}`).join(' | ')}`,
  );
  t.equal(bad.touchedBy.get('B#1'), 0, 'operation 0 moved it');

  // Back to where it was: a second move, valid again.
  t.equal(e.put(B1, 0, e.boxOf('B', { x: 100, y: 0, z: 0 }, 'lwh'), 'lwh'), true);
  t.equal(e.check().valid, true, 'valid again');
  t.equal(e.operations.length, 2);

  t.same(e.undo(), { op: 'move', item_id: 'B', instance: 1, vehicle: 0, x: 100, y: 0, z: 0, orientation: 'lwh' });
  t.equal(e.check().valid, false, 'undo: invalid again');
  t.match(e.where(B1)?.unit, { item_id: 'B', instance: 1, x: 0, y: 40, z: 0, orientation: 'lwh' });
  t.ok(e.redo(), 'redo');
  t.equal(e.check().valid, true);
  t.equal(e.redo(), null, 'nothing more to redo');
  t.equal(
    e.put(B1, 0, e.boxOf('B', { x: 100, y: 0, z: 0 }, 'lwh'), 'lwh'),
    false,
    'a drop where it stands records nothing',
  );
});

t.test('keyboard steps of one unit merge into one move; a turn and a removal are their own', async (t) => {
  const e = editor();
  // B#1 from x 100 toward the door in 10 cm steps: 110, 120, 130.
  t.equal(e.step(B1, 'x', 10), true);
  t.equal(e.step(B1, 'x', 10), true);
  t.equal(e.step(B1, 'x', 10), true);
  t.same(e.operations, [{ op: 'move', item_id: 'B', instance: 1, vehicle: 0, x: 130, y: 0, z: 0, orientation: 'lwh' }]);
  // Toward the front wall: stops against A#1/A#3's door-side face at x 100.
  t.equal(e.step(B1, 'x', -50), true);
  t.equal(e.where(B1)?.unit.x, 100, 'stopped at the face at x 100');
  t.equal(e.step(B1, 'x', -10), true, 'then on: into A#1 (the next step passes the face)');
  t.equal(e.where(B1)?.unit.x, 90);
  t.equal(e.operations.length, 1, 'still one operation');
  t.equal(e.undo()?.op, 'move');
  t.same(e.where(B1)?.unit.x, 100, 'one undo takes the whole run back');

  // Turning B#1 (allowed lwh, wlh): wlh, a new operation.
  t.equal(e.turn(B1), true);
  t.same(e.operations.at(-1), {
    op: 'move',
    item_id: 'B',
    instance: 1,
    vehicle: 0,
    x: 100,
    y: 0,
    z: 0,
    orientation: 'wlh',
  });
  // A step after a turn merges into the turn's move (same unit, last operation a move).
  t.equal(e.step(B1, 'z', 10), true);
  t.equal(e.operations.length, 1);
  t.same(e.operations[0], {
    op: 'move',
    item_id: 'B',
    instance: 1,
    vehicle: 0,
    x: 100,
    y: 0,
    z: 10,
    orientation: 'wlh',
  });

  // Taking A#3 out: a remove; it is unplaced in the check, the plan stays valid.
  t.equal(e.remove(A3), true);
  t.same(e.operations.at(-1), { op: 'remove', item_id: 'A', instance: 3 });
  const check = e.check();
  t.equal(check.valid, true, JSON.stringify(check.problems));
  t.ok(
    check.plan.unplaced.some((u) => u.item_id === 'A' && u.instance === 3),
    'A#3 is unplaced',
  );
  t.equal(e.remove(A3), false, 'an unplaced unit cannot be taken out again');
  t.equal(e.step(A3, 'x', 10), false, 'nor stepped');
});

t.test('placing an unplaced unit: a place operation; steps after it merge into it', async (t) => {
  const e = editor();
  t.equal(e.put(C1, 0, e.boxOf('C', { x: 250, y: 0, z: 0 }, 'lwh'), 'lwh'), true);
  t.same(e.operations, [
    { op: 'place', item_id: 'C', instance: 1, vehicle: 0, x: 250, y: 0, z: 0, orientation: 'lwh' },
  ]);
  t.equal(e.step(C1, 'z', 10), true);
  t.same(e.operations, [
    { op: 'place', item_id: 'C', instance: 1, vehicle: 0, x: 250, y: 0, z: 10, orientation: 'lwh' },
  ]);
  const check = e.check();
  t.equal(check.valid, true, JSON.stringify(check.problems));
  t.notOk(
    check.plan.unplaced.some((u) => u.item_id === 'C'),
    'C#1 is placed',
  );
  t.equal(check.plan.vehicles[0]!.placements.length, 5);
  // A tentative drag checks without recording.
  const tentative = e.check(e.destination(C1, 0, e.boxOf('C', { x: 0, y: 0, z: 0 }, 'lwh'), 'lwh'));
  t.equal(tentative.valid, false, 'C#1 dropped into A#1 is invalid');
  t.ok(problemsOf(tentative, C1).some((p) => p.rule === 'overlap'));
  t.equal(e.operations.length, 1, 'the tentative move is not recorded');
  // And the first unit stays placed where the operation put it.
  t.same(e.where(A1)?.unit.x, 0);
  // On top of B#1 (not stackable): a stacking problem naming both.
  const onB = e.check(e.destination(C1, 0, e.boxOf('C', { x: 120, y: 60, z: 20 }, 'lwh'), 'lwh'));
  const stacking = onB.problems.find((p) => p.rule === 'stacking');
  t.ok(stacking, 'a stacking problem');
  t.same(problemsOf(onB, C1), [stacking], "it is C#1's problem");
  t.same(problemsOf(onB, B1), [stacking], "and B#1's");
  // A problem listing one unit only still belongs to a unit its message names.
  const listed = {
    rule: 'stacking',
    message: 'C#1 rests on B#1 in vehicle 0, but item B is not stackable.',
    units: [B1],
  };
  t.same(problemsOf({ problems: [listed] }, C1), [listed], 'named in the message');
  t.same(problemsOf({ problems: [listed] }, { item_id: 'C', instance: 11 }), [], 'C#11 is not C#1');
});

t.test('editedPlan: the opened vehicles in their order, rebuilt; an emptied one drawn empty', async (t) => {
  const e = editor();
  const opened = viewerPlan({
    jobId: 'job_x',
    reference: null,
    createdAt: '',
    expiresAt: '',
    plan: smallPlan(),
    revision: 0,
    model: smallModel(),
    requestGroups: [],
    warnings: [],
  });
  e.remove({ item_id: 'B', instance: 2 }); // the second vehicle's only unit
  e.put(C1, 0, e.boxOf('C', { x: 250, y: 0, z: 0 }, 'lwh'), 'lwh');
  const check = e.check();
  t.equal(check.plan.vehicles.length, 1, "the check's plan leaves the empty vehicle out");
  const drawn = editedPlan(opened, check.plan);
  t.same(
    drawn.vehicles.map((v) => [v.index, v.copy, v.placements.length, v.total_weight]),
    [
      [0, 1, 5, 51],
      [1, 2, 0, 0],
    ],
  );
  t.same(drawn.vehicles[1]!.blocked_areas, opened.vehicles[1]!.blocked_areas, 'zones kept');
  t.same(
    drawn.unplaced.map((u) => `${u.item_id}#${u.instance}`),
    ['B#2'],
  );
});

t.test('EditHistory: a new deed forgets what was undone; clear empties both', async (t) => {
  const h = new EditHistory();
  const remove = (instance: number) => ({ op: 'remove' as const, item_id: 'A', instance });
  h.record(remove(1));
  h.record(remove(2));
  t.same(h.undo(), remove(2));
  t.equal(h.canRedo, true);
  h.record(remove(3));
  t.equal(h.canRedo, false, 'redo is gone after a new deed');
  t.same(h.operations, [remove(1), remove(3)]);
  // merge only joins moves of the same unit.
  h.record(
    { op: 'move', item_id: 'B', instance: 1, vehicle: 0, x: 1, y: 0, z: 0, orientation: 'lwh' },
    { merge: true },
  );
  t.equal(h.operations.length, 3, 'a move after a remove is not merged');
  h.record(
    { op: 'move', item_id: 'B', instance: 2, vehicle: 0, x: 1, y: 0, z: 0, orientation: 'lwh' },
    { merge: true },
  );
  t.equal(h.operations.length, 4, 'another unit is not merged');
  h.clear();
  t.same([h.operations, h.canUndo, h.canRedo], [[], false, false]);
  t.equal(h.undo(), null);
});

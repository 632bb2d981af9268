/**
 * The viewer's edit mode (plan editing), offered when the page is opened by a signed-in member of
 * the job's organization (edit-calls.ts editAccess) and the plan data carries the job's model:
 * - pick a unit (click, or `[` / `]` for the previous / next one in loading order), drag it along
 *   the floor or onto another unit's top, snapped to its neighbours' faces and the walls
 *   (snapping.ts); arrow keys move it 10 cm (Shift: 1 cm) as seen from the camera, Page Up / Page
 *   Down raise and lower it, a step stopping at the first face; R turns it to its item's next
 *   allowed orientation; Delete takes it out to the unplaced units;
 * - place an unplaced unit: its row's Place button, then a click in the 3D view (Enter: at the
 *   door end of the floor, Esc: cancel);
 * - every deed is checked at once by the service's own verifier (solver/edit checkLayout); while
 *   a unit is dragged, at most every 120 ms. The moved unit glows red while a check names it, green
 *   when the plan is valid, with the problem and rule beside it; units a check names are marked
 *   red; the status line says valid, or invalid with how many problems, and every problem is
 *   listed under it, in a planner's words (problem-words.ts: `Vehicle 1`, `Crate #3`, rounded
 *   figures in the display units);
 * - undo / redo (buttons, Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y);
 * - "Save as revision", offered while the edited plan is valid (else disabled, the reason beside
 *   it): POST /v1/jobs/{id}/revisions with the operations since opening; 201 tells the framing job
 *   page (job-page-news.ts) and opens the new revision, 409 says someone saved first and offers
 *   the latest, 422 lists the problems, each named by the unit its operation moved; leaving the
 *   page with changes not saved asks first (beforeunload);
 * - "Re-plan from step K" (any signed-in member, also outside edit mode): a new job packing the
 *   rest around the units loaded up to step K of the shown vehicle, started only once its price
 *   ("at most N credits", POST /v1/estimate) is confirmed, opened in the web app (by the
 *   job page when it frames the viewer, told by a message).
 * For tests the page marks on `<body>`: `data-editing`, `data-valid`, `data-operations`,
 * `data-check-ms` (the last check) and `data-drop-ms` (a drop or key until its frame is drawn and
 * finished by the GPU).
 */
import { Raycaster, Vector2, Vector3 } from 'three';
import type { ViewerPlan } from '../../../api/http/plan-viewer/viewer-plan.js';
import type { Placement } from '../../../domain/pack/plan.js';
import type { EditOperation } from '../../../solver/edit/operations.js';
import type { PlanProblem, ProblemUnit } from '../../../solver/edit/plan-check.js';
import type { LoadedUnits } from '../loaded-units.js';
import type { Stage } from '../stage.js';
import type { PackRequest } from '../../../domain/pack/request.js';
import {
  latestViewerPath,
  pathOf,
  priceOf,
  replanRequestOf,
  saveRevision,
  startJob,
  type EditAccess,
  type Fetch,
} from './edit-calls.js';
import { editedPlan } from './edited-plan.js';
import { creditsText as credits } from '../../../display/credits.js';
import { framedByJobPage, jobPagePath, replanCreated, revisionSaved, tellJobPage } from './job-page-news.js';
import { PlanEditor, problemsOf, type TimedCheck } from './plan-editor.js';
import { detailWords, planNames, problemText, problemWords, type PlanNames } from './problem-words.js';
import { arrowDirection, type SolidBox } from './snapping.js';

/** What the edit mode needs of the viewer page (main.ts). */
export interface ViewerHost {
  readonly stage: Stage;
  /** The plan drawn now. */
  plan(): ViewerPlan;
  /** Draws `plan` instead, keeping the camera, the vehicle shown, the step (when it still exists) and the picked unit. */
  redraw(plan: ViewerPlan): void;
  /** Index of the vehicle shown (in the opened plan), or null. */
  shownVehicle(): number | null;
  /** The units of the vehicle shown. */
  shownUnits(): LoadedUnits | null;
  /** The step the slider is at. */
  step(): number;
  /** The picked unit, or null. */
  selected(): Placement | null;
  /** Picks a unit of the vehicle shown (null: none). */
  select(unit: ProblemUnit | null): void;
  /** Calls `f` whenever the step or the vehicle shown changes. */
  onViewChange(f: () => void): void;
  /** Re-lists the unplaced units; with `onPlace`, each row offers to place one of its units. */
  listUnplaced(onPlace: ((unit: ProblemUnit, label: string) => void) | null): void;
}

/** The page's elements of the edit mode (index.html). */
export interface EditElements {
  group: HTMLElement;
  toggle: HTMLButtonElement;
  tools: HTMLElement;
  undo: HTMLButtonElement;
  redo: HTMLButtonElement;
  turn: HTMLButtonElement;
  takeOut: HTMLButtonElement;
  save: HTMLButtonElement;
  /** Beside the save button: why it is disabled (the plan is invalid). */
  saveReason: HTMLElement;
  replan: HTMLButtonElement;
  status: HTMLElement;
  /** Under the status line: every problem of the check shown (a `<ul>`). */
  problems: HTMLElement;
  label: HTMLElement;
  message: HTMLElement;
  help: HTMLElement;
}

/** Cm a keyboard step moves a unit; with Shift, 1 cm. */
const STEP_CM = 10;
/** Ms between checks while a unit is dragged. */
const DRAG_CHECK_MS = 120;
/** CSS px the pointer moves before a press on a unit is a drag (else a click). */
const DRAG_SLOP = 4;

const key = (u: ProblemUnit): string => `${u.item_id}#${u.instance}`;
const sameUnit = (a: ProblemUnit, b: ProblemUnit): boolean => a.item_id === b.item_id && a.instance === b.instance;

/** A unit being dragged: which, in which vehicle, turned how, where the press began, where it is now. */
interface Drag {
  unit: ProblemUnit;
  vehicle: number;
  orientation: Placement['orientation'];
  pointerId: number;
  startX: number;
  startY: number;
  moved: boolean;
  box: SolidBox | null;
}

/** The edit mode of one viewer page. */
export class EditMode {
  private editing = false;
  private readonly editor: PlanEditor;
  private check: TimedCheck;
  /** The unit the last deed moved (its glow and label tell the check's answer). */
  private moved: ProblemUnit | null = null;
  private placing: { unit: ProblemUnit; label: string } | null = null;
  private drag: Drag | null = null;
  private dragTimer = 0;
  private dragCheckDue = false;
  private busy = false;
  /** Set before the page leaves on purpose (a saved revision opens, the latest one is asked for). */
  private leaving = false;
  private readonly body = document.body;

  constructor(
    private readonly host: ViewerHost,
    private readonly els: EditElements,
    private readonly opened: ViewerPlan & { model: NonNullable<ViewerPlan['model']> },
    private readonly access: EditAccess,
    private readonly fetch: Fetch = (input, init) => window.fetch(input, init),
  ) {
    this.editor = new PlanEditor(opened.model, opened);
    this.check = this.editor.check();
    this.body.dataset['checkMs'] = this.check.ms.toFixed(2);
    this.body.dataset['valid'] = this.check.valid ? '1' : '0';
    els.group.hidden = false;
    els.toggle.addEventListener('click', () => (this.editing ? this.leave() : this.enter()));
    els.undo.addEventListener('click', () => this.undo());
    els.redo.addEventListener('click', () => this.redo());
    els.turn.addEventListener('click', () => this.withPicked((u) => this.editor.turn(u)));
    els.takeOut.addEventListener('click', () => this.withPicked((u) => this.editor.remove(u)));
    els.save.addEventListener('click', () => void this.save());
    els.replan.addEventListener('click', () => void this.replan());
    host.onViewChange(() => {
      this.updateButtons();
      this.placeLabel();
    });
    host.stage.controls.addEventListener('change', () => this.placeLabel());
    this.listenToPointer();
    window.addEventListener('keydown', (e) => this.onKey(e));
    // Changes not saved: the browser asks before the page is left or reloaded.
    window.addEventListener('beforeunload', (e) => {
      if (this.editor.operations.length > 0 && !this.leaving) e.preventDefault();
    });
    this.updateButtons();
  }

  /** Turns edit mode on: the tools, place buttons on the unplaced units, the check's state shown. */
  enter(): void {
    this.editing = true;
    this.body.dataset['editing'] = '1';
    this.els.toggle.setAttribute('aria-pressed', 'true');
    this.els.toggle.textContent = 'Stop editing';
    this.els.tools.hidden = false;
    this.els.help.hidden = false;
    this.host.listUnplaced((unit, label) => this.armPlacing(unit, label));
    this.show(this.check);
  }

  /** Turns edit mode off; the edits stay (drawn, and saved with the next save) until the page is left. */
  leave(): void {
    this.editing = false;
    this.placing = null;
    this.body.dataset['editing'] = '0';
    this.els.toggle.setAttribute('aria-pressed', 'false');
    this.els.toggle.textContent = 'Edit plan';
    this.els.tools.hidden = true;
    this.els.help.hidden = true;
    this.els.label.hidden = true;
    this.els.status.textContent = '';
    this.listProblems(null);
    this.host.shownUnits()?.mark([]);
    this.host.shownUnits()?.glow('picked');
    this.host.listUnplaced(null);
    this.host.stage.requestRender();
  }

  // ---- deeds -------------------------------------------------------------------------------

  /** Runs a deed on the picked unit; when it changed the plan, checks and draws it. */
  private withPicked(deed: (unit: ProblemUnit) => boolean, began = performance.now()): void {
    const p = this.host.selected();
    if (!this.editing || !p) return;
    const unit = { item_id: p.item_id, instance: p.instance };
    if (!deed(unit)) return;
    this.moved = unit;
    this.afterDeed(began);
  }

  /** After a recorded deed, undo or redo: check, draw, time until the frame is on screen. */
  private afterDeed(began: number): void {
    this.check = this.editor.check();
    this.host.redraw(editedPlan(this.opened, this.check.plan));
    const moved = this.moved;
    if (moved && this.editor.where(moved)) this.host.select(moved);
    this.show(this.check);
    // The stage draws at the next animation frame (asked for by the redraw, so before this one).
    requestAnimationFrame(() => {
      this.host.stage.renderer.getContext().finish();
      this.body.dataset['dropMs'] = (performance.now() - began).toFixed(1);
    });
  }

  private undo(): void {
    const op = this.editor.undo();
    if (!op) return;
    this.moved = unitOf(op);
    this.afterDeed(performance.now());
  }

  private redo(): void {
    const op = this.editor.redo();
    if (!op) return;
    this.moved = unitOf(op);
    this.afterDeed(performance.now());
  }

  private armPlacing(unit: ProblemUnit, label: string): void {
    if (!this.editing || this.host.shownVehicle() === null) return;
    this.placing = { unit, label };
    this.els.status.textContent = `Click a place in the 3D view for ${this.names().unit(unit)}; Enter: at the door end of the floor; Esc: cancel.`;
    this.listProblems(null);
    this.host.stage.canvas.focus({ preventScroll: true });
  }

  /** Places the armed unplaced unit at the surface point `at` (or the door end of the floor). */
  private placeArmed(at: { x: number; y: number; z: number } | null): void {
    const placing = this.placing;
    const vehicle = this.host.shownVehicle();
    if (!placing || vehicle === null) return;
    const began = performance.now();
    const orientation = this.editor.item(placing.unit.item_id).orientations[0]!;
    const space = this.editor.space(vehicle);
    const size = this.editor.boxOf(placing.unit.item_id, { x: 0, y: 0, z: 0 }, orientation);
    const corner = at
      ? { x: Math.round(at.x - size.length / 2), y: at.y, z: Math.round(at.z - size.width / 2) }
      : { x: space.length - size.length, y: 0, z: 0 };
    const box = this.editor.snapped(placing.unit, vehicle, { ...size, ...corner });
    this.placing = null;
    if (!this.editor.put(placing.unit, vehicle, box, orientation)) return;
    this.moved = placing.unit;
    this.afterDeed(began);
  }

  // ---- what a check says -------------------------------------------------------------------

  /** Shows `check`: status line, marks, the moved unit's glow and label, buttons. */
  private show(check: TimedCheck): void {
    this.body.dataset['valid'] = check.valid ? '1' : '0';
    this.body.dataset['checkMs'] = check.ms.toFixed(2);
    this.body.dataset['operations'] = String(this.editor.operations.length);
    const units = this.host.shownUnits();
    if (!this.editing || !units) return this.updateButtons();
    const focus = this.drag?.unit ?? this.moved;
    const own = focus ? problemsOf(check, focus) : [];
    const problem: PlanProblem | undefined = own[0] ?? check.problems[0];
    const names = this.names(check);
    units.mark(this.markedBoxes(check, focus));
    units.glow(check.valid ? 'valid' : own.length > 0 ? 'invalid' : 'picked');
    const n = check.problems.length;
    this.els.status.textContent = check.valid
      ? `Plan valid: every rule holds (${this.editor.operations.length} change${this.editor.operations.length === 1 ? '' : 's'}; checked in ${check.ms.toFixed(1)} ms).`
      : `Plan invalid, ${problemCount(n)}:`;
    this.listProblems(check.valid ? null : { check, own, names });
    const label = this.els.label;
    if (focus && this.editor.operations.length > 0) {
      label.dataset['state'] = check.valid ? 'valid' : own.length > 0 ? 'invalid' : 'other';
      label.dataset['rule'] = own[0]?.rule ?? '';
      label.textContent = check.valid
        ? 'Valid: every rule holds'
        : own[0]
          ? problemWords(own[0], names)
          : `This unit is fine; ${problemCount(n)} elsewhere: ${problem ? problemWords(problem, names) : ''}`;
      label.hidden = false;
    } else label.hidden = true;
    this.placeLabel();
    this.updateButtons();
    this.host.stage.requestRender();
  }

  /** How the problems of `check` name units and vehicles (its plan numbers the vehicles; the recorded check's by default). */
  private names(check: TimedCheck = this.check): PlanNames {
    return planNames(this.opened, check.plan);
  }

  /**
   * Lists every problem of `shown.check` under the status line, in words, those of the moved or
   * dragged unit marked (`data-own`); null empties and hides the list.
   */
  private listProblems(shown: { check: TimedCheck; own: readonly PlanProblem[]; names: PlanNames } | null): void {
    const list = this.els.problems;
    if (!shown || shown.check.problems.length === 0) {
      list.replaceChildren();
      list.hidden = true;
      return;
    }
    const own = new Set(shown.own);
    list.replaceChildren(
      ...shown.check.problems.map((p) => {
        const li = document.createElement('li');
        li.dataset['rule'] = p.rule;
        if (own.has(p)) li.dataset['own'] = '1';
        li.textContent = problemWords(p, shown.names);
        return li;
      }),
    );
    list.hidden = false;
  }

  /** The boxes of the shown vehicle's units that `check` names (the dragged one where it is dragged). */
  private markedBoxes(check: TimedCheck, except: ProblemUnit | null): SolidBox[] {
    const shown = this.host.shownVehicle();
    const v = shown === null ? undefined : this.opened.vehicles[shown];
    const checked = v && check.plan.vehicles.find((x) => x.vehicle_id === v.vehicle_id && x.copy === v.copy);
    if (!checked) return [];
    const named = new Set(check.problems.flatMap((p) => p.units.map(key)));
    return checked.placements.filter((p) => named.has(key(p)) && (!except || !sameUnit(p, except)));
  }

  /** Puts the label beside the moved unit on screen (hidden when it is not drawn). */
  private placeLabel(): void {
    const label = this.els.label;
    const unit = this.drag?.unit ?? this.moved;
    if (!this.editing || !unit || label.textContent === '') return;
    const units = this.host.shownUnits();
    const p = units?.units.find((u) => sameUnit(u, unit));
    const box = this.drag?.box ?? p;
    if (!box || !p || p.step > this.host.step()) {
      label.style.visibility = 'hidden';
      return;
    }
    const stage = this.host.stage;
    const v = new Vector3(box.x + box.length, box.y + box.height, box.z + box.width / 2).project(stage.camera);
    const r = stage.canvas.getBoundingClientRect();
    const x = ((v.x + 1) / 2) * r.width;
    const y = ((1 - v.y) / 2) * r.height;
    label.style.visibility = 'visible';
    label.style.left = `${Math.max(4, Math.min(r.width - 260, x + 12))}px`;
    label.style.top = `${Math.max(4, Math.min(r.height - 60, y - 12))}px`;
  }

  private updateButtons(): void {
    const ops = this.editor.operations.length;
    this.els.undo.disabled = !this.editor.history.canUndo;
    this.els.redo.disabled = !this.editor.history.canRedo;
    const picked = this.host.selected() !== null;
    this.els.turn.disabled = !picked;
    this.els.takeOut.disabled = !picked;
    // The service refuses an invalid plan: saving waits until every rule holds.
    const problems = this.check.valid ? 0 : this.check.problems.length;
    this.els.save.disabled = ops === 0 || this.busy || problems > 0;
    this.els.saveReason.textContent = problems > 0 ? `Fix the ${problemCount(problems)} to save.` : '';
    this.els.saveReason.hidden = problems === 0;
    const step = this.host.step();
    this.els.replan.textContent = `Re-plan from step ${step}`;
    this.els.replan.disabled = this.busy || ops > 0 || this.host.shownVehicle() === null;
    this.els.replan.title =
      ops > 0
        ? 'Save or undo the changes first: the re-plan starts from the revision shown'
        : `A new job: the units loaded up to step ${step} of this vehicle (and every vehicle before it) stay where they are, the rest is packed again`;
  }

  // ---- pointer -----------------------------------------------------------------------------

  private ray(clientX: number, clientY: number): Raycaster {
    const canvas = this.host.stage.canvas;
    const r = canvas.getBoundingClientRect();
    const ndc = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    const ray = new Raycaster();
    ray.setFromCamera(ndc, this.host.stage.camera);
    return ray;
  }

  private listenToPointer(): void {
    const canvas = this.host.stage.canvas;
    const controls = this.host.stage.controls;
    // Capture: before the orbit controls see the press, so a press on a unit drags it instead.
    canvas.addEventListener(
      'pointerdown',
      (e) => {
        if (!this.editing || e.button !== 0 || e.shiftKey || this.placing || this.drag) return;
        const units = this.host.shownUnits();
        const vehicle = this.host.shownVehicle();
        const p = units?.pick(this.ray(e.clientX, e.clientY));
        if (!p || vehicle === null) return;
        controls.enabled = false;
        canvas.setPointerCapture(e.pointerId);
        this.drag = {
          unit: { item_id: p.item_id, instance: p.instance },
          vehicle,
          orientation: p.orientation,
          pointerId: e.pointerId,
          startX: e.clientX,
          startY: e.clientY,
          moved: false,
          box: null,
        };
      },
      { capture: true },
    );
    canvas.addEventListener('pointermove', (e) => {
      const drag = this.drag;
      if (!drag || e.pointerId !== drag.pointerId) return;
      if (!drag.moved && Math.hypot(e.clientX - drag.startX, e.clientY - drag.startY) <= DRAG_SLOP) return;
      if (!drag.moved) {
        drag.moved = true;
        this.host.select(drag.unit);
      }
      const units = this.host.shownUnits();
      const at = units?.surfaceUnder(this.ray(e.clientX, e.clientY), drag.unit);
      if (!units || !at) return;
      const size = this.editor.boxOf(drag.unit.item_id, { x: 0, y: 0, z: 0 }, drag.orientation);
      // Whole centimetres (what a crew measures), then snapped to faces and walls.
      drag.box = this.editor.snapped(drag.unit, drag.vehicle, {
        ...size,
        x: Math.round(at.x - size.length / 2),
        y: at.y,
        z: Math.round(at.z - size.width / 2),
      });
      units.moveUnit(drag.unit, drag.box);
      this.placeLabel();
      this.host.stage.requestRender();
      this.dragCheckDue = true;
      if (!this.dragTimer) this.dragTimer = window.setTimeout(() => this.dragCheck(), DRAG_CHECK_MS);
    });
    const end = (e: PointerEvent, dropped: boolean): void => {
      const drag = this.drag;
      if (!drag || e.pointerId !== drag.pointerId) return;
      this.drag = null;
      window.clearTimeout(this.dragTimer);
      this.dragTimer = 0;
      this.dragCheckDue = false;
      controls.enabled = true;
      if (canvas.hasPointerCapture(e.pointerId)) canvas.releasePointerCapture(e.pointerId);
      if (!drag.moved) return; // a click: the tap handler picks the unit
      const began = performance.now();
      if (dropped && drag.box && this.editor.put(drag.unit, drag.vehicle, drag.box, drag.orientation)) {
        this.moved = drag.unit;
        this.afterDeed(began);
      } else {
        // Cancelled, or dropped where it stood: draw the plan as it is.
        this.host.redraw(editedPlan(this.opened, this.check.plan));
        this.show(this.check);
      }
    };
    canvas.addEventListener('pointerup', (e) => end(e, true));
    canvas.addEventListener('pointercancel', (e) => end(e, false));
    // A tap while placing: the unplaced unit goes where the tap points.
    this.host.stage.onTap((x, y) => {
      if (!this.editing || !this.placing) return;
      const at = this.host.shownUnits()?.surfaceUnder(this.ray(x, y), null);
      if (at) this.placeArmed(at);
    });
  }

  /** While dragging: checks the plan with the unit where it is dragged now (not recorded). */
  private dragCheck(): void {
    this.dragTimer = 0;
    const drag = this.drag;
    if (!drag || !drag.box || !this.dragCheckDue) return;
    this.dragCheckDue = false;
    const op: EditOperation = this.editor.destination(drag.unit, drag.vehicle, drag.box, drag.orientation);
    this.show(this.editor.check(op));
    // More moves came in while checking: check again after the pause.
    this.dragTimer = window.setTimeout(() => this.dragCheck(), DRAG_CHECK_MS);
  }

  // ---- keyboard ----------------------------------------------------------------------------

  private onKey(e: KeyboardEvent): void {
    if (!this.editing || e.defaultPrevented) return;
    const target = e.target as HTMLElement | null;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    const mod = e.ctrlKey || e.metaKey;
    const done = (): void => e.preventDefault();
    if (mod && (e.key === 'z' || e.key === 'Z')) {
      done();
      return e.shiftKey ? this.redo() : this.undo();
    }
    if (mod && (e.key === 'y' || e.key === 'Y')) {
      done();
      return this.redo();
    }
    if (mod || e.altKey) return;
    if (this.placing && e.key === 'Enter') {
      done();
      return this.placeArmed(null);
    }
    if (this.placing && e.key === 'Escape') {
      this.placing = null;
      this.show(this.check);
      return;
    }
    if (target?.tagName === 'BUTTON' && (e.key === 'Enter' || e.key === ' ')) return;
    if (e.key === '[' || e.key === ']') {
      done();
      return this.pickNext(e.key === ']' ? 1 : -1);
    }
    const began = performance.now();
    const cm = e.shiftKey ? 1 : STEP_CM;
    const camera = this.host.stage.camera;
    const forward = camera.getWorldDirection(new Vector3());
    const arrow = arrowDirection(e.key, { x: forward.x, z: forward.z });
    if (arrow) {
      done();
      return this.withPicked((u) => this.editor.step(u, arrow.axis, arrow.sign * cm), began);
    }
    if (e.key === 'PageUp' || e.key === 'PageDown') {
      done();
      return this.withPicked((u) => this.editor.step(u, 'y', (e.key === 'PageUp' ? 1 : -1) * cm), began);
    }
    if (e.key === 'r' || e.key === 'R') {
      done();
      return this.withPicked((u) => this.editor.turn(u), began);
    }
    if (e.key === 'Delete' || e.key === 'Backspace') {
      done();
      return this.withPicked((u) => this.editor.remove(u), began);
    }
  }

  /** Picks the next (`by` 1) or previous (−1) unit of the vehicle shown, in loading order. */
  private pickNext(by: 1 | -1): void {
    const units = this.host.shownUnits()?.units.filter((p) => p.step <= this.host.step()) ?? [];
    if (units.length === 0) return;
    const picked = this.host.selected();
    const i = picked ? units.findIndex((p) => sameUnit(p, picked)) : -1;
    // From no unit: `]` picks the first, `[` the last loaded.
    const next =
      i < 0 ? (by > 0 ? units[0]! : units[units.length - 1]!) : units[(i + by + units.length) % units.length]!;
    this.host.select(next);
    this.updateButtons();
  }

  // ---- save and re-plan --------------------------------------------------------------------

  private say(text: string, extra: Node[] = []): void {
    const box = this.els.message;
    const p = document.createElement('p');
    p.textContent = text;
    box.replaceChildren(p, ...extra);
    box.hidden = false;
  }

  private async save(): Promise<void> {
    if (this.busy || this.editor.operations.length === 0 || !this.check.valid) return;
    this.busy = true;
    this.updateButtons();
    this.els.message.hidden = true;
    const operations = [...this.editor.operations];
    const outcome = await saveRevision(this.fetch, this.access, this.opened.job_id, this.opened.revision, operations);
    this.busy = false;
    this.updateButtons();
    this.body.dataset['saved'] = outcome.kind;
    switch (outcome.kind) {
      case 'saved':
        this.say(`Saved as revision ${outcome.revision}. Opening it…`);
        // The job page framing this viewer lists the new revision (posted before this frame moves on).
        tellJobPage(window, revisionSaved(this.opened.job_id, outcome.revision));
        this.leaving = true;
        if (outcome.viewerUrl) window.location.assign(pathOf(outcome.viewerUrl));
        else window.location.reload();
        return;
      case 'conflict': {
        const reload = button('Open the latest revision', () => void this.openLatest());
        this.say(
          `Not saved: someone saved a newer revision of this plan first (${outcome.message}). Open the latest one (your changes here are dropped).`,
          [reload],
        );
        reload.focus();
        return;
      }
      case 'invalid': {
        // The service checked the same operations: its vehicle numbers are those of this check's plan.
        const names = this.names();
        const list = document.createElement('ul');
        for (const d of outcome.details) {
          const li = document.createElement('li');
          li.dataset['code'] = d.code;
          li.textContent = detailWords(d, operations, names);
          list.append(li);
        }
        const n = outcome.details.length;
        this.say(n > 0 ? `Not saved: the plan breaks a rule (${problemCount(n)}):` : `Not saved: ${outcome.message}`, [
          list,
        ]);
        return;
      }
      case 'failed':
        this.say(`Not saved: ${outcome.message} (${outcome.code}).`);
    }
  }

  private async openLatest(): Promise<void> {
    const path = await latestViewerPath(this.fetch, this.opened.job_id);
    this.leaving = true;
    if (path) window.location.assign(path);
    else window.location.reload();
  }

  /**
   * "Re-plan from step K": builds the re-plan's request and asks its price (POST /v1/estimate),
   * then offers to start it, "at most N credits", or to cancel (no billed start without its
   * price); the job starts only on confirm.
   */
  private async replan(): Promise<void> {
    const vehicle = this.host.shownVehicle();
    if (this.busy || vehicle === null || this.editor.operations.length > 0) return;
    const step = this.host.step();
    this.busy = true;
    this.updateButtons();
    this.els.message.hidden = true;
    try {
      const request = await replanRequestOf(this.fetch, this.opened.job_id, this.opened, vehicle, step);
      const price = await priceOf(this.fetch, this.access, request);
      this.body.dataset['replanPrice'] = String(price.maxCredits);
      const start = button(`Start the re-plan (at most ${credits(price.maxCredits)})`, () => {
        void this.startReplan(step, request);
      });
      const cancel = button('Cancel', () => {
        this.els.message.hidden = true;
        delete this.body.dataset['replanPrice'];
        this.els.replan.focus();
      });
      this.say(
        `Re-plan from step ${step} starts a new job, billed like any job: at most ${credits(price.maxCredits)}, reserved until it ends (available: ${credits(price.availableCredits)}).`,
        [start, cancel],
      );
      start.focus();
    } catch (err) {
      this.replanFailed(err);
    } finally {
      this.busy = false;
      this.updateButtons();
    }
  }

  /** Starts the confirmed re-plan `request` (one Idempotency-Key per confirm) and opens its job. */
  private async startReplan(step: number, request: PackRequest): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.updateButtons();
    try {
      const id = await startJob(this.fetch, this.access, request);
      this.body.dataset['replanJob'] = id;
      this.say(`Re-planned from step ${step}: job ${id}. Opening it…`);
      this.openJob(id);
    } catch (err) {
      this.replanFailed(err);
    } finally {
      this.busy = false;
      this.updateButtons();
    }
  }

  private replanFailed(err: unknown): void {
    // The re-plan names vehicles by their index in the plan shown.
    this.say(
      `The re-plan failed: ${problemText(err instanceof Error ? err.message : String(err), this.names(), true)}`,
    );
  }

  /**
   * Opens job `id` in the web app. Framed by this job's page: the page is told
   * (`replan-job-created`) and opens it in its own navigation. Else the window holding the
   * viewer's frame (a playground page) when it is on this origin, else this window.
   */
  private openJob(id: string): void {
    if (framedByJobPage(parentPath(), this.opened.job_id) && tellJobPage(window, replanCreated(id))) return;
    let target: Window = window;
    try {
      if (window.top && window.top !== window && window.top.location.origin === window.location.origin)
        target = window.top;
    } catch {
      // A frame of another origin: stay in this window.
    }
    this.leaving = true;
    target.location.assign(jobPagePath(id));
  }
}

/** `n problem(s)`. */
function problemCount(n: number): string {
  return `${n} problem${n === 1 ? '' : 's'}`;
}

/** The path of the page framing this one when it is on this origin, else null (not framed, or framed by another site). */
function parentPath(): string | null {
  try {
    if (window.parent !== window && window.parent.location.origin === window.location.origin)
      return window.parent.location.pathname;
  } catch {
    // Framed by another site: its location is not readable.
  }
  return null;
}

/** The unit an operation concerns (a swap: its first unit). */
function unitOf(op: EditOperation): ProblemUnit {
  return op.op === 'swap' ? op.a : { item_id: op.item_id, instance: op.instance };
}

function button(text: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}

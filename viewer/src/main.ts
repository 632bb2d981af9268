/**
 * The 3D viewer page, opened by a job's signed `viewer_url`: loads the plan
 * (plan-source.ts), then shows one vehicle at a time (switcher) with its cargo space
 * (cargo-space.ts), its units (loaded-units.ts) up to the step of the slider (step-control.ts),
 * coloured by the chosen mode with its legend (colour-modes.ts, legend.ts), the details of a
 * clicked unit (unit-details.ts), its weight per metre (weight-chart.ts) and the plan's
 * unplaced units (unplaced-list.ts). A signed-in member of the job's organization may edit the
 * plan and re-plan it from a step (edit/edit-mode.ts).
 *
 * For tests and tools the page marks its state on `<body>`: `data-ready="1"` once the first
 * vehicle is drawn (`data-error` with the envelope's code instead when loading failed),
 * `data-vehicle`, `data-units` (units of the shown vehicle), `data-step`, `data-visible` (units
 * drawn now), `data-load-ms` (navigation start → first drawn frame), `data-drawer` (the panel
 * open as a drawer on a small screen, panel-drawers.ts), `data-revision` (of the plan shown) and
 * `data-edit-access` (`granted` once the edit mode is offered, else `none`; edit-mode.ts adds its own). `window.planViewer` gives a unit's
 * position on screen and the camera.
 */
import { Raycaster, Vector2, Vector3 } from 'three';
import type { ViewerItem, ViewerPlan } from '../../api/http/plan-viewer/viewer-plan.js';
import type { Placement } from '../../domain/pack/plan.js';
import { cargoSpace, disposeObject } from './cargo-space.js';
import { COLOUR_MODES, colouring, type ColourMode } from './colour-modes.js';
import { showLegend, unitCounts } from './legend.js';
import { LoadedUnits } from './loaded-units.js';
import { PanelDrawers } from './panel-drawers.js';
import { PlanLoadError, loadPlan, planDataUrl } from './plan-source.js';
import { Stage, type CameraView } from './stage.js';
import { StepControl } from './step-control.js';
import { showUnit } from './unit-details.js';
import { showUnplaced } from './unplaced-list.js';
import { ROUND_SHAPES } from './unit-edges.js';
import { showWeightChart } from './weight-chart.js';
import { measureWords } from './measure-words.js';
import { isolatedText } from '../../display/text.js';
import { editAccess, openedFromWebApp } from './edit/edit-calls.js';
import { EditMode, type ViewerHost } from './edit/edit-mode.js';
import './style.css';

/** What `window.planViewer` offers to tests and tools. */
export interface PlanViewerProbe {
  /** Viewport CSS pixels of the middle of a unit's top face in the shown vehicle, or null when not drawn. */
  screenPoint(itemId: string, instance: number): { x: number; y: number } | null;
  /** The drawn unit under viewport point (x, y) of the shown vehicle (what a click there picks), or null. */
  unitAt(x: number, y: number): { item_id: string; instance: number } | null;
  /** Viewport CSS pixels of the plan point (x, y, z) (cm) of the shown vehicle: where to point to drop a unit there. */
  screenOf(x: number, y: number, z: number): { x: number; y: number };
  /** Orbits the camera once around the load in `frames` animation frames; resolves with the mean ms per frame. */
  orbitFrameMs(frames: number): Promise<number>;
  /** The camera's position, orbit target and distance (cm): what a drag, pan or pinch changes. */
  camera(): CameraView;
}

declare global {
  interface Window {
    planViewer?: PlanViewerProbe;
  }
}

const byId = <T extends HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`the page has no #${id}`);
  return e as T;
};

const body = document.body;
const drawers = new PanelDrawers(byId('panel-toggles'));

function fail(code: string, message: string): void {
  const box = byId('message');
  box.textContent = message;
  box.hidden = false;
  body.dataset['error'] = code;
}

const percent = (v: number): string => `${Math.round(v * 100)} %`;

async function start(): Promise<void> {
  let opened: ViewerPlan;
  try {
    opened = await loadPlan(planDataUrl(window.location));
  } catch (err) {
    const e = err instanceof PlanLoadError ? err : new PlanLoadError('invalid_plan', String(err));
    fail(
      e.code,
      e.code === 'not_found' || e.code === 'result_expired'
        ? `This viewer link does not open a plan: ${e.message}.`
        : e.message,
    );
    return;
  }
  // The plan drawn: the one opened, or in edit mode the edited one.
  let plan = opened;
  let stage: Stage;
  try {
    stage = new Stage(byId<HTMLCanvasElement>('scene'), byId('stage'));
  } catch (err) {
    fail(
      'webgl',
      `This browser cannot draw 3D (WebGL is off or missing): ${err instanceof Error ? err.message : String(err)}`,
    );
    return;
  }

  const items = new Map<string, ViewerItem>(plan.items.map((it) => [it.id, it]));
  const labelOf = (id: string): string => items.get(id)?.label ?? id;
  const m = measureWords(plan.display_units);
  byId('title').textContent =
    `Load plan ${plan.reference ? `“${isolatedText(plan.reference)}” ` : ''}(${plan.job_id})${plan.revision > 0 ? ` · revision ${plan.revision}` : ''}`;
  body.dataset['revision'] = String(plan.revision ?? 0);
  let placeUnplaced: Parameters<ViewerHost['listUnplaced']>[0] = null;
  const listUnplaced = (): void => {
    showUnplaced(byId('unplaced'), byId('unplaced-heading'), plan.unplaced, placeUnplaced);
    drawers.label('panel-unplaced', `Unplaced (${plan.unplaced.length})`);
  };
  listUnplaced();

  const vehicleSelect = byId<HTMLSelectElement>('vehicle');
  const listVehicles = (): void => {
    const chosen = vehicleSelect.value;
    vehicleSelect.replaceChildren(
      ...plan.vehicles.map((v, i) => {
        const o = document.createElement('option');
        o.value = String(i);
        o.textContent = `${i + 1}. ${isolatedText(v.name)}${v.copy > 1 || v.auto_added ? ` (copy ${v.copy}${v.auto_added ? ', added' : ''})` : ''} · ${v.placements.length} units`;
        return o;
      }),
    );
    if (chosen) vehicleSelect.value = chosen;
  };
  listVehicles();
  const modeSelect = byId<HTMLSelectElement>('colour-mode');
  modeSelect.replaceChildren(
    ...COLOUR_MODES.map(({ mode, label }) => {
      const o = document.createElement('option');
      o.value = mode;
      o.textContent = label;
      return o;
    }),
  );

  let shown: { index: number; units: LoadedUnits; space: ReturnType<typeof cargoSpace> } | null = null;
  let selected: Placement | null = null;
  const details = byId('details');
  const viewChanged: (() => void)[] = [];
  const select = (p: Placement | null, openDrawer = true): void => {
    // On a small screen the details are a drawer: a picked unit opens it.
    if (p && openDrawer && drawers.isDrawer('panel-details')) drawers.open('panel-details');
    selected = p;
    shown?.units.select(p);
    showUnit(details, p, p ? items.get(p.item_id) : undefined, m.units);
    stage.requestRender();
    for (const f of viewChanged) f();
  };

  const steps = new StepControl(
    {
      slider: byId<HTMLInputElement>('step'),
      play: byId<HTMLButtonElement>('play'),
      output: byId<HTMLOutputElement>('step-out'),
    },
    (step) => {
      if (!shown) return;
      const drawn = shown.units.showUpTo(step);
      if (selected && selected.step > step) select(null);
      body.dataset['step'] = String(step);
      body.dataset['visible'] = String(drawn);
      stage.requestRender();
      for (const f of viewChanged) f();
    },
    (step) => {
      const n = shown ? shown.units.units.filter((p) => p.step <= step).length : 0;
      return `Step ${step} of ${shown?.units.lastStep ?? 0} · ${n} units loaded`;
    },
  );

  const recolour = (): void => {
    if (!shown) return;
    const c = colouring(plan, modeSelect.value as ColourMode);
    shown.units.colour(c.colourOf);
    showLegend(byId('legend'), c.legend, unitCounts(plan, shown.index), labelOf, (id) =>
      ROUND_SHAPES.has(items.get(id)?.shape ?? 'box'),
    );
    stage.requestRender();
  };

  /** Shows vehicle `index`; `keep` (a redraw of an edited plan): the camera, the step and the picked unit stay. */
  const showVehicle = (index: number, keep = false): void => {
    const v = plan.vehicles[index];
    if (!v) return;
    const picked = keep ? selected : null;
    const step = keep ? steps.value : null;
    if (shown) {
      stage.remove(shown.units.object);
      stage.remove(shown.space);
      shown.units.dispose();
      disposeObject(shown.space);
    }
    const units = new LoadedUnits(v, items);
    const space = cargoSpace(v, m.units);
    shown = { index, units, space };
    stage.add(space);
    stage.add(units.object);
    if (!keep) stage.look(v);
    selected = null;
    showUnit(details, null, undefined);
    body.dataset['vehicle'] = String(index);
    body.dataset['units'] = String(v.placements.length);
    byId('vehicle-summary').textContent = [
      m.sizes(v.length, v.width, v.height),
      `${v.placements.length} units`,
      `${m.weight(v.total_weight)} of ${m.weight(v.max_weight)} (${percent(v.weight_utilization)})`,
      `volume ${percent(v.volume_utilization)}`,
      v.aux_deck ? `second deck at ${m.length(v.aux_deck.height)}` : '',
      v.blocked_areas.length ? `${v.blocked_areas.length} blocked area${v.blocked_areas.length > 1 ? 's' : ''}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    showWeightChart(chart, byId('weight-summary'), v, m.units);
    recolour();
    steps.reset(units.lastStep, step ?? undefined);
    const again = picked && units.units.find((p) => p.item_id === picked.item_id && p.instance === picked.instance);
    if (again) select(again, false);
    for (const f of viewChanged) f();
  };

  vehicleSelect.addEventListener('change', () => showVehicle(Number(vehicleSelect.value)));
  const chart = byId('weight-chart') as unknown as SVGSVGElement;
  new ResizeObserver(
    () => shown && showWeightChart(chart, byId('weight-summary'), plan.vehicles[shown.index]!, m.units),
  ).observe(chart);
  modeSelect.addEventListener('change', recolour);
  byId('reset-view').addEventListener('click', () => shown && stage.look(plan.vehicles[shown.index]!));

  // A click or tap (not the end of an orbit drag or a pinch) picks the unit under the pointer.
  const canvas = stage.canvas;
  const unitAt = (x: number, y: number): Placement | null => {
    if (!shown) return null;
    const r = canvas.getBoundingClientRect();
    const ndc = new Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1);
    const ray = new Raycaster();
    ray.setFromCamera(ndc, stage.camera);
    return shown.units.pick(ray);
  };
  stage.onTap((x, y) => {
    if (shown) select(unitAt(x, y));
  });
  window.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') select(null);
  });

  const host: ViewerHost = {
    stage,
    plan: () => plan,
    redraw(next) {
      plan = next;
      listVehicles();
      listUnplaced();
      if (shown) showVehicle(shown.index, true);
    },
    shownVehicle: () => shown?.index ?? null,
    shownUnits: () => shown?.units ?? null,
    step: () => steps.value,
    selected: () => selected,
    select(unit) {
      const p = unit && shown?.units.units.find((u) => u.item_id === unit.item_id && u.instance === unit.instance);
      select(p ?? null, false);
    },
    onViewChange: (f) => viewChanged.push(f),
    listUnplaced(onPlace) {
      placeUnplaced = onPlace;
      listUnplaced();
    },
  };
  void offerEditing(host, opened);

  window.planViewer = {
    screenPoint(itemId, instance) {
      const p = shown?.units.units.find((u) => u.item_id === itemId && u.instance === instance);
      if (!p || p.step > steps.value) return null;
      const v = new Vector3(p.x + p.length / 2, p.y + p.height, p.z + p.width / 2).project(stage.camera);
      const r = canvas.getBoundingClientRect();
      return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
    },
    unitAt(x, y) {
      const p = unitAt(x, y);
      return p && { item_id: p.item_id, instance: p.instance };
    },
    screenOf(x, y, z) {
      const v = new Vector3(x, y, z).project(stage.camera);
      const r = canvas.getBoundingClientRect();
      return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
    },
    orbitFrameMs: (frames) => stage.orbitFrameMs(frames),
    camera: () => stage.view(),
  };

  if (plan.vehicles.length === 0) {
    const box = byId('message');
    box.textContent = 'No vehicle was loaded: every unit is unplaced (see the list).';
    box.hidden = false;
    body.dataset['units'] = '0';
  } else {
    vehicleSelect.value = '0';
    showVehicle(0);
  }
  stage.renderNow();
  // Ready once that frame is on screen: the frame after the next has begun.
  await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  body.dataset['loadMs'] = String(Math.round(performance.now()));
  body.dataset['ready'] = '1';
}

/**
 * Offers the edit mode (edit/edit-mode.ts) when the plan carries the job's model and the page is
 * opened from the web app (framed by it, or by its link) by a signed-in member of the job's
 * organization (the web app's session on this origin). A signed link opened elsewhere or without a
 * session stays read-only.
 */
async function offerEditing(host: ViewerHost, opened: ViewerPlan): Promise<void> {
  const model = opened.model;
  // For tests and tools: `data-edit-access` says the question is settled (granted or none).
  if (!model || opened.vehicles.length === 0) return void (body.dataset['editAccess'] = 'none');
  const remembered = 'plan-viewer.from-web-app';
  let parentPath: string | null = null;
  try {
    if (window.parent !== window && window.parent.location.origin === window.location.origin)
      parentPath = window.parent.location.pathname;
  } catch {
    // Framed by another site: its location is not readable.
  }
  const from = {
    origin: window.location.origin,
    parentPath,
    referrer: document.referrer,
    remembered: stored(() => sessionStorage.getItem(remembered)) === '1',
  };
  if (!openedFromWebApp(from)) return void (body.dataset['editAccess'] = 'none');
  const access = await editAccess((input, init) => window.fetch(input, init), opened.job_id);
  if (!access) return void (body.dataset['editAccess'] = 'none');
  stored(() => sessionStorage.setItem(remembered, '1'));
  const { problems, saveReason } = addEditReport();
  new EditMode(
    host,
    {
      group: byId('edit-controls'),
      toggle: byId('edit'),
      tools: byId('edit-tools'),
      undo: byId('undo'),
      redo: byId('redo'),
      turn: byId('turn'),
      takeOut: byId('take-out'),
      save: byId('save'),
      saveReason,
      replan: byId('replan'),
      status: byId('check-status'),
      problems,
      label: byId('unit-problem'),
      message: byId('edit-message'),
      help: byId('edit-help'),
    },
    { ...opened, model },
    access,
  );
  body.dataset['editAccess'] = 'granted';
}

/**
 * The edit mode's elements the page adds to index.html's: the status line and the list of every
 * problem under it, together over the 3D view (`#check-report`), and the reason beside the save
 * button (`#save-reason`, its description).
 */
function addEditReport(): { problems: HTMLElement; saveReason: HTMLElement } {
  const status = byId('check-status');
  const report = document.createElement('div');
  report.id = 'check-report';
  const problems = document.createElement('ul');
  problems.id = 'check-problems';
  problems.hidden = true;
  // A long list scrolls: reachable with the keyboard, named for screen readers.
  problems.tabIndex = 0;
  problems.setAttribute('aria-label', 'Problems of the edited plan');
  status.replaceWith(report);
  report.append(status, problems);
  const save = byId('save');
  const saveReason = document.createElement('span');
  saveReason.id = 'save-reason';
  saveReason.hidden = true;
  save.after(saveReason);
  save.setAttribute('aria-describedby', saveReason.id);
  return { problems, saveReason };
}

/** `f()`, or undefined when the browser refuses storage (a privacy setting). */
function stored<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

void start();
